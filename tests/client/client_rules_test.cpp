// Each client rule on scripted traffic: a client that keeps it passes, one
// that breaks it fails with the rule named and the requests as evidence, and
// traffic that never meets it leaves it "not exercised".
#include <gtest/gtest.h>

#include "tests/client/traffic_builder.hpp"

namespace conform::testing {
namespace {

using http::verb;
using status = harness::rule_verdict::status;

harness::traffic_exchange& allocate(traffic_builder& b, const char* key, unsigned status,
                                    const char* amount = "25", long gap_ms = 10) {
  auto& e = b.send(verb::post, "/billing/allocate-credits", status, "{}", gap_ms);
  e.request.add_header("Content-Type", "application/json");
  if (key) e.request.add_header("Idempotency-Key", key);
  e.request.body = std::string(R"({"tenant_id":101,"amount_major":)") + amount + "}";
  return e;
}

void expect_fails(harness::traffic& t, const std::string& rule, const std::string& cause) {
  const auto j = judge(t, rule);
  EXPECT_EQ(j.verdict.what, status::failed) << rule;
  ASSERT_FALSE(j.failures.empty()) << rule;
  EXPECT_EQ(j.failures[0].check, rule);
  EXPECT_EQ(j.failures[0].cause, cause);
  EXPECT_FALSE(j.failures[0].evidence.empty());
  for (const auto& line : j.failures[0].evidence) {
    EXPECT_EQ(line.find(partner_secret), std::string::npos) << "a secret in the evidence";
  }
}

void expect_passes(harness::traffic& t, const std::string& rule) {
  const auto j = judge(t, rule);
  EXPECT_EQ(j.verdict.what, status::passed) << rule;
  EXPECT_TRUE(j.failures.empty()) << (j.failures.empty() ? "" : j.failures[0].seen);
}

TEST(client_rules, a_rule_the_traffic_never_meets_is_not_exercised_never_passed) {
  traffic_builder b;
  b.send(verb::get, "/partner/tenants", 200, page_of(1, 1));
  auto& t = b.finish();
  const auto j = judge(t, "client_retry_after");
  EXPECT_EQ(j.verdict.what, status::not_exercised);
  EXPECT_NE(j.verdict.not_exercised_why.find("429"), std::string::npos);
}

TEST(client_rules, request_valid) {
  traffic_builder good;
  allocate(good, "k1", 200);
  expect_passes(good.finish(), "client_request_valid");
  traffic_builder bad;
  allocate(bad, "k1", 422, "\"25\"");
  expect_fails(bad.finish(), "client_request_valid", "the body does not match the schema");
  traffic_builder unknown;
  unknown.send(verb::get, "/no-such-route", 404);
  expect_fails(unknown.finish(), "client_request_valid", "unknown operation");
}

TEST(client_rules, tenant_header) {
  traffic_builder good;
  good.send(verb::get, "/bulk_call_campaigns", 200, page_of(1, 1))
      .request.add_header("X-Tenant-Id", "101");
  expect_passes(good.finish(), "client_tenant_header");
  traffic_builder bad;
  bad.send(verb::get, "/bulk_call_campaigns", 422);
  expect_fails(bad.finish(), "client_tenant_header", "no tenant header");
}

TEST(client_rules, tenant_header_follows_what_the_description_says_a_credential_does) {
  // The same partner-key call without the header, judged under a description
  // whose partner scheme acts for one tenant (x-tenants: one): nothing to name.
  auto loaded = openapi::load(std::string(CONFORM_SPEC_DIR) + "/voice-api.yaml", {});
  ASSERT_TRUE(loaded.ok());
  for (auto& s : loaded.spec->schemes) {
    if (s->credential_label == "partner_key") {
      ASSERT_EQ(s->tenants, openapi::security_scheme::tenant_reach::named);
      s->tenants = openapi::security_scheme::tenant_reach::one;
    }
  }
  traffic_builder b;
  b.send(verb::get, "/bulk_call_campaigns", 422);
  auto& t = b.finish();
  t.spec = &*loaded.spec;
  const auto j = judge(t, "client_tenant_header");
  EXPECT_EQ(j.verdict.what, status::not_exercised);
  EXPECT_TRUE(j.failures.empty());
}

TEST(client_rules, key_environment) {
  traffic_builder good;
  good.send(verb::get, "/partner/tenants", 200, page_of(1, 1));
  expect_passes(good.finish(), "client_key_environment");
  traffic_builder bad;
  bad.send(verb::get, "/partner/tenants", 401).request.set_header("X-Partner-Api-Key", live_secret);
  expect_fails(bad.finish(), "client_key_environment", "key of production");
}

TEST(client_rules, idempotency_key_present) {
  traffic_builder good;
  allocate(good, "k1", 200);
  expect_passes(good.finish(), "client_idempotency_key_present");
  traffic_builder bad;
  allocate(bad, nullptr, 422);
  expect_fails(bad.finish(), "client_idempotency_key_present", "no key");
}

TEST(client_rules, idempotency_key_per_intent) {
  traffic_builder good;
  allocate(good, "k1", 200, "25");
  allocate(good, "k2", 200, "10");
  expect_passes(good.finish(), "client_idempotency_key_per_intent");
  traffic_builder bad;
  allocate(bad, "k1", 200, "25");
  allocate(bad, "k1", 422, "10");
  expect_fails(bad.finish(), "client_idempotency_key_per_intent", "key shared by two intents");
}

TEST(client_rules, idempotency_key_on_retry) {
  traffic_builder good;
  allocate(good, "k1", 0);
  allocate(good, "k1", 200, "25", 200);
  expect_passes(good.finish(), "client_idempotency_key_on_retry");
  traffic_builder bad;
  allocate(bad, "k1", 0);
  allocate(bad, "k2", 200, "25", 200);
  expect_fails(bad.finish(), "client_idempotency_key_on_retry", "new key on retry");
}

/// A contact import whose multipart body is built with `boundary`, holding
/// `csv` as its file part.
harness::traffic_exchange& import(traffic_builder& b, const char* key, unsigned status,
                                  const std::string& boundary, const std::string& csv,
                                  long gap_ms = 10) {
  auto& e = b.send(verb::post, "/contacts/import", status, "{}", gap_ms);
  e.request.add_header("X-Tenant-Id", "101");
  e.request.add_header("Content-Type", "multipart/form-data; boundary=" + boundary);
  e.request.add_header("Idempotency-Key", key);
  e.request.body = "--" + boundary +
                   "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"c.csv\"\r\n"
                   "Content-Type: text/csv\r\n\r\n" +
                   csv + "\r\n--" + boundary +
                   "\r\nContent-Disposition: form-data; name=\"column_mapping\"\r\n"
                   "Content-Type: application/json\r\n\r\n{\"Phone\":\"phone_e164\"}\r\n--" +
                   boundary + "--\r\n";
  return e;
}

TEST(client_rules, a_multipart_body_rebuilt_on_retry_is_the_same_request) {
  // Issue 31: most HTTP libraries build a form anew on every attempt, with a
  // new boundary and the same parts; the server reads one request.
  traffic_builder good;
  import(good, "k1", 0, "first-boundary", "Phone\n+14155550100\n");
  import(good, "k1", 200, "second-boundary", "Phone\n+14155550100\n", 200);
  auto& t = good.finish();
  expect_passes(t, "client_idempotency_key_on_retry");
  expect_passes(t, "client_idempotency_key_per_intent");
  // The same key with other parts is another intent, whatever the boundary.
  traffic_builder bad;
  import(bad, "k1", 200, "first-boundary", "Phone\n+14155550100\n");
  import(bad, "k1", 422, "second-boundary", "Phone\n+14155550199\n");
  expect_fails(bad.finish(), "client_idempotency_key_per_intent", "key shared by two intents");
  // And a new key on a retry of the same parts is still a new key.
  traffic_builder rekeyed;
  import(rekeyed, "k1", 0, "first-boundary", "Phone\n+14155550100\n");
  import(rekeyed, "k2", 200, "second-boundary", "Phone\n+14155550100\n", 200);
  expect_fails(rekeyed.finish(), "client_idempotency_key_on_retry", "new key on retry");
}

TEST(client_rules, no_blind_retry) {
  traffic_builder good;
  good.send(verb::post, "/bulk_call_campaigns/7/launch", 422)
      .request.add_header("X-Tenant-Id", "101");
  good.send(verb::post, "/contacts/import", 200).request.add_header("X-Tenant-Id", "101");
  good.send(verb::post, "/bulk_call_campaigns/7/launch", 200)
      .request.add_header("X-Tenant-Id", "101");
  expect_passes(good.finish(), "client_no_blind_retry");
  traffic_builder bad;
  bad.send(verb::post, "/bulk_call_campaigns/7/launch", 422)
      .request.add_header("X-Tenant-Id", "101");
  bad.send(verb::post, "/bulk_call_campaigns/7/launch", 422)
      .request.add_header("X-Tenant-Id", "101");
  expect_fails(bad.finish(), "client_no_blind_retry", "unchanged retry of 422");
}

TEST(client_rules, retry_after) {
  for (const bool keeps : {true, false}) {
    traffic_builder b;
    b.send(verb::get, "/partner/tenants", 429).response_headers = {{"Retry-After", "1"}};
    b.send(verb::get, "/partner/tenants", 200, page_of(1, 1), keeps ? 1000 : 100);
    auto& t = b.finish();
    if (keeps) {
      expect_passes(t, "client_retry_after");
    } else {
      expect_fails(t, "client_retry_after", "Retry-After not kept");
    }
  }
}

TEST(client_rules, retry_backoff) {
  struct {
    std::vector<long> waits;
    const char* cause;  // nullptr: passes
  } cases[] = {{{200, 400}, nullptr},
               {{200, 200}, nullptr},  // two waits: growth is not judged (documented)
               {{10, 20}, "no backoff"},
               {{96, 150}, nullptr},  // within the 5 ms slack of min_backoff_ms
               {{200, 200, 200}, "backoff does not grow"},
               {{100, 150, 225, 337, 506}, nullptr},
               {{200, 40000}, "backoff not capped"}};
  for (const auto& c : cases) {
    traffic_builder b;
    b.send(verb::get, "/partner/tenants", 503);
    for (std::size_t k = 0; k < c.waits.size(); ++k) {
      const bool last = k + 1 == c.waits.size();
      b.send(verb::get, "/partner/tenants", last ? 200 : 503, last ? page_of(1, 1) : "{}",
             c.waits[k]);
    }
    auto& t = b.finish();
    if (c.cause) {
      expect_fails(t, "client_retry_backoff", c.cause);
    } else {
      expect_passes(t, "client_retry_backoff");
    }
  }
}

TEST(client_rules, cursor_traversal) {
  auto walk = [](traffic_builder& b, const char* second_target, bool to_the_end) {
    auto& first = b.send(verb::get, "/voice_sessions?page_size=30", 200, cursor_page("c1"));
    first.request.add_header("X-Tenant-Id", "101");
    if (!second_target) return;
    b.send(verb::get, second_target, 200, cursor_page(to_the_end ? nullptr : "c2"))
        .request.add_header("X-Tenant-Id", "101");
  };
  traffic_builder good;
  walk(good, "/voice_sessions?page_size=30&cursor=c1", true);
  expect_passes(good.finish(), "client_cursor_traversal");
  traffic_builder stops;
  walk(stops, nullptr, false);
  expect_fails(stops.finish(), "client_cursor_traversal", "stopped before the end");
  traffic_builder resized;
  walk(resized, "/voice_sessions?page_size=40&cursor=c1", true);
  expect_fails(resized.finish(), "client_cursor_traversal", "parameters changed mid-traversal");
  traffic_builder paged;
  walk(paged, "/voice_sessions?page_size=30&cursor=c1&page=2", true);
  expect_fails(paged.finish(), "client_cursor_traversal", "page parameter on a cursor route");
  traffic_builder invented;
  walk(invented, "/voice_sessions?page_size=30&cursor=zz", true);
  expect_fails(invented.finish(), "client_cursor_traversal", "cursor not followed");
}

TEST(client_rules, page_traversal) {
  traffic_builder good;
  good.send(verb::get, "/partner/tenants?page=1&per_page=20", 200, page_of(1, 2));
  good.send(verb::get, "/partner/tenants?page=2&per_page=20", 200, page_of(2, 2));
  expect_passes(good.finish(), "client_page_traversal");
  traffic_builder past;
  past.send(verb::get, "/partner/tenants?page=1&per_page=20", 200, page_of(1, 2));
  past.send(verb::get, "/partner/tenants?page=2&per_page=20", 200, page_of(2, 2));
  past.send(verb::get, "/partner/tenants?page=3&per_page=20", 200, page_of(3, 2));
  expect_fails(past.finish(), "client_page_traversal", "page past the last");
  traffic_builder big;
  big.send(verb::get, "/partner/tenants?page=1&per_page=500", 422);
  expect_fails(big.finish(), "client_page_traversal", "page or size out of range");
}

TEST(client_rules, citations_of_the_api_come_from_the_description) {
  // Every citation the description gives names a client rule.
  ASSERT_FALSE(spec().rules.citations.empty());
  for (const auto& [name, cited] : spec().rules.citations) {
    const auto* e = catalogue().find(name);
    ASSERT_NE(e, nullptr) << name << " is no check";
    EXPECT_EQ(e->kind, harness::check_kind::traffic) << name;
    EXPECT_FALSE(cited.rule.empty()) << name;
  }
  auto past = [] {
    traffic_builder b;
    b.send(verb::get, "/partner/tenants?page=1&per_page=20", 200, page_of(1, 2));
    b.send(verb::get, "/partner/tenants?page=2&per_page=20", 200, page_of(2, 2));
    b.send(verb::get, "/partner/tenants?page=3&per_page=20", 200, page_of(3, 2));
    return b;
  };
  // The shipped description's citation, in the rule column and the failure.
  auto cited = past();
  const auto j = judge(cited.finish(), "client_page_traversal");
  EXPECT_EQ(j.verdict.rule, "sections 8.2 and 8.4; D3.1");
  ASSERT_FALSE(j.failures.empty());
  EXPECT_NE(j.failures[0].expected.find("(section 8.2; D3.1)"), std::string::npos)
      << j.failures[0].expected;
  // Without it, the rule cites the extension it reads, and no decision.
  auto loaded = openapi::load(std::string(CONFORM_SPEC_DIR) + "/voice-api.yaml", {});
  ASSERT_TRUE(loaded.ok());
  loaded.spec->rules.citations.clear();
  auto plain = past();
  auto& t = plain.finish();
  t.spec = &*loaded.spec;
  const auto g = judge(t, "client_page_traversal");
  EXPECT_EQ(g.verdict.rule, "x-pagination style page");
  ASSERT_FALSE(g.failures.empty());
  EXPECT_NE(g.failures[0].expected.find("(x-pagination)"), std::string::npos)
      << g.failures[0].expected;
  EXPECT_EQ(g.failures[0].expected.find("D3.1"), std::string::npos);
}

TEST(client_rules, the_catalogue_lists_every_client_rule_as_a_traffic_check) {
  const auto catalogue = suites::builtin_checks();
  std::size_t traffic = 0;
  for (const auto& e : catalogue.all()) traffic += e.kind == harness::check_kind::traffic;
  EXPECT_EQ(traffic, 13u);
  harness::check_catalogue c;
  auto rule = [] {
    return harness::traffic_check{{"r", "d", "s"},
                                  harness::rule_level::core,
                                  "x",
                                  [](const harness::traffic&, harness::traffic_judgement&) {}};
  };
  c.add(rule());
  EXPECT_THROW(c.add(rule()), std::logic_error);
}

}  // namespace
}  // namespace conform::testing
