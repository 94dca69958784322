// The verdicts of issue 19, on scripted traffic: no rule passes on nothing,
// an adversity not survived breaks the rule that owns it and is never
// certified, timing is judged with its documented tolerances (the same
// client gets the same verdict whatever the noise), the one-credential rule
// is a client rule, and a multipart body is a body. The behaviours of the
// issue that these reproduce are named in the tests' names.
#include <gtest/gtest.h>
// after gtest, as rapidcheck/gtest.h requires
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "tests/client/traffic_builder.hpp"

namespace conform::testing {
namespace {

using http::verb;
using status = harness::rule_verdict::status;

harness::traffic_exchange& tenant_get(traffic_builder& b, const std::string& target,
                                      unsigned status, const std::string& body, long gap_ms) {
  auto& e = b.send(verb::get, target, status, body, gap_ms);
  e.request.add_header("X-Tenant-Id", "101");
  return e;
}

harness::traffic_exchange& move(traffic_builder& b, const char* path, const char* key,
                                const char* amount, unsigned status, long gap_ms) {
  auto& e = b.send(verb::post, path, status, "{}", gap_ms);
  e.request.add_header("Content-Type", "application/json");
  e.request.add_header("Idempotency-Key", key);
  e.request.body = std::string(R"({"tenant_id":101,"amount_major":)") + amount + "}";
  return e;
}

const harness::rule_verdict& rule(const harness::certification_report& r, const std::string& n) {
  for (const auto& v : r.rules) {
    if (v.check == n) return v;
  }
  throw std::runtime_error("no rule " + n);
}

// ---- Each adversity with a good and some bad reactions ----------------------

enum reaction : int { good = 0, never_retried = 1, badly_retried = 2 };

/// A whole traffic that meets every adversity once and exercises every core
/// rule; `r[k]` is how the client reacts to adversity k (rate_limited,
/// server_error, connection_dropped, outage, slow).
harness::traffic& whole(traffic_builder& b, const std::array<int, 5>& r) {
  // rate_limited on a page list, then the list read page by page.
  auto& limited = b.send(verb::get, "/partner/tenants?page=1&per_page=20", 429, "{}");
  limited.adversity = "rate_limited";
  limited.response_headers = {{"Retry-After", "1"}};
  if (r[0] == good)
    b.send(verb::get, "/partner/tenants?page=1&per_page=20", 200, page_of(1, 1), 1000);
  if (r[0] == badly_retried) {
    b.send(verb::get, "/partner/tenants?page=1&per_page=20", 200, page_of(1, 1), 300);
  }
  // A cursor traversal whose second page fails twice (server_error).
  tenant_get(b, "/voice_sessions?page_size=30", 200, cursor_page("c1"), 10).adversity = "";
  auto& failing = tenant_get(b, "/voice_sessions?page_size=30&cursor=c1", 503, "{}", 10);
  failing.adversity = "server_error";
  if (r[1] != never_retried) {
    const long wait = r[1] == good ? 200 : 5;
    tenant_get(b, "/voice_sessions?page_size=30&cursor=c1", 500, "{}", wait).adversity =
        "server_error";
    tenant_get(b, "/voice_sessions?page_size=30&cursor=c1", 200, cursor_page(nullptr), 2 * wait);
  }
  // A credit move processed and its answer lost (connection_dropped).
  auto& dropped = move(b, "/billing/allocate-credits", "k1", "25", 0, 10);
  dropped.adversity = "connection_dropped";
  dropped.processed_status = 200;
  if (r[2] != never_retried) {
    auto& again =
        move(b, "/billing/allocate-credits", r[2] == good ? "k1" : "k1-new", "25", 200, 150);
    if (r[2] == good) again.response_headers = {{"Idempotent-Replayed", "true"}};
  }
  move(b, "/billing/deallocate-credits", "k2", "10", 200, 10);
  // An outage of a record read.
  tenant_get(b, "/voice_sessions/5", 503, "{}", 10).adversity = "outage";
  if (r[3] != never_retried) {
    const std::size_t retries = r[3] == good ? 5 : 7;
    long wait = 100;
    for (std::size_t k = 1; k <= retries; ++k) {
      const bool answered = k == 7;  // the attempt after the outage
      tenant_get(b, "/voice_sessions/5", answered ? 200 : 503, "{}", wait).adversity =
          answered ? "" : "outage";
      wait = wait * 3 / 2;
    }
  }
  // A slow answer, waited for or not.
  auto& slow = tenant_get(b, "/bulk_call_campaigns?page=1&per_page=20", r[4] == good ? 200 : 0,
                          page_of(1, 1), 10);
  slow.adversity = "slow";
  if (r[4] != good)
    tenant_get(b, "/bulk_call_campaigns?page=1&per_page=20", 200, page_of(1, 1), 200);
  return b.finish();
}

const char* owner_of[5] = {"client_retry_after", "client_retry_backoff",
                           "client_idempotency_key_on_retry", "client_retry_bound",
                           "client_retry_backoff"};

TEST(verdicts, the_whole_traffic_with_every_adversity_survived_is_certified) {
  traffic_builder b;
  const auto report = certify(whole(b, {good, good, good, good, good}));
  EXPECT_TRUE(report.certified) << report.verdict;
  for (const auto& e : report.adversity) EXPECT_TRUE(e.survived) << e.kind << ": " << e.outcome;
  EXPECT_EQ(report.adversity.size(), 5u);
}

RC_GTEST_PROP(verdicts, no_report_is_certified_while_an_adversity_was_not_survived, ()) {
  std::array<int, 5> r{};
  for (auto& x : r) x = *rc::gen::inRange(0, 3);
  RC_PRE(r[4] != badly_retried);  // a slow answer is waited for or not: two reactions
  traffic_builder b;
  const auto report = certify(whole(b, r));
  bool all_survived = true;
  for (const auto& e : report.adversity) all_survived = all_survived && e.survived;
  const bool all_good = std::all_of(r.begin(), r.end(), [](int x) { return x == good; });
  RC_ASSERT(report.certified == all_good);
  RC_ASSERT(all_survived == all_good);
  if (!all_survived) RC_ASSERT(!report.certified);
  for (std::size_t k = 0; k < r.size(); ++k) {
    if (r[k] != good) RC_ASSERT(rule(report, owner_of[k]).what == status::failed);
  }
}

TEST(verdicts, each_adversity_not_survived_breaks_the_rule_that_owns_it) {
  for (std::size_t k = 0; k < 5; ++k) {
    std::array<int, 5> r{};
    r[k] = never_retried;
    traffic_builder b;
    const auto report = certify(whole(b, r));
    SCOPED_TRACE(owner_of[k]);
    EXPECT_FALSE(report.certified);
    EXPECT_EQ(rule(report, owner_of[k]).what, status::failed);
    ASSERT_FALSE(report.causes.empty());
    EXPECT_NE(report.causes.front().find("did not get past"), std::string::npos)
        << report.causes.front();
    EXPECT_NE(report.causes.front().find(owner_of[k]), std::string::npos);
  }
}

TEST(verdicts, the_client_exit_leads_the_causes) {
  traffic_builder b;
  harness::client_outcome client;
  client.known = true;
  client.completed = false;
  client.exit = "exit status 1";
  const auto report = certify(whole(b, {good, good, good, good, good}), client);
  EXPECT_FALSE(report.certified);
  ASSERT_FALSE(report.causes.empty());
  EXPECT_EQ(report.causes.front(), "the client did not complete (exit status 1)");
  // JUnit, which renders the run, says so too: a failed client_completed cell.
  bool failed = false;
  for (const auto& f : report.run.failures) failed = failed || f.check == "client_completed";
  EXPECT_TRUE(failed);
}

// ---- Behaviour 2: a 429 never retried -----------------------------------------

TEST(regression, behaviour_2_a_429_never_retried_is_no_pass_of_client_retry_after) {
  traffic_builder scripted;
  scripted.send(verb::get, "/partner/tenants", 200, page_of(1, 1));
  auto& last = scripted.send(verb::get, "/partner/tenants?page=1&per_page=20", 429, "{}");
  last.adversity = "rate_limited";
  last.response_headers = {{"Retry-After", "1"}};
  const auto j = judge(scripted.finish(), "client_retry_after");
  EXPECT_EQ(j.verdict.what, status::failed);
  ASSERT_FALSE(j.failures.empty());
  EXPECT_EQ(j.failures[0].cause, "429 never retried");
  // A 429 the server answered on its own, after which the credential sent
  // nothing: nothing to judge, never a pass.
  traffic_builder organic;
  organic.send(verb::get, "/partner/tenants", 429).response_headers = {{"Retry-After", "1"}};
  const auto o = judge(organic.finish(), "client_retry_after");
  EXPECT_EQ(o.verdict.what, status::not_exercised);
  EXPECT_EQ(o.verdict.judged, 0u);
  EXPECT_EQ(o.verdict.not_exercised, 1u);
}

// ---- Behaviour 3: one verdict per client, whatever the timing noise ----------

/// The chain of a 503 retried with `waits` (ms) until answered.
harness::traffic& chain(traffic_builder& b, const std::vector<long>& waits) {
  b.send(verb::get, "/partner/tenants", 503);
  for (std::size_t k = 0; k < waits.size(); ++k) {
    const bool last = k + 1 == waits.size();
    b.send(verb::get, "/partner/tenants", last ? 200 : 503, last ? page_of(1, 1) : "{}", waits[k]);
  }
  return b.finish();
}

RC_GTEST_PROP(regression, behaviour_3_a_constant_backoff_is_refused_whatever_the_noise, ()) {
  // 150 ms every time, as measured by a server: a few ms early (a timer) to
  // tens of ms late (a loaded machine).
  std::vector<long> waits;
  for (int k = 0; k < 5; ++k) waits.push_back(150 + *rc::gen::inRange(-5, 60));
  traffic_builder b;
  const auto j = judge(chain(b, waits), "client_retry_backoff");
  RC_ASSERT(j.verdict.what == status::failed);
  RC_ASSERT(j.failures.at(0).cause == std::string("backoff does not grow"));
}

RC_GTEST_PROP(regression, one_wait_delayed_by_a_busy_machine_refuses_no_growing_backoff, ()) {
  // A backoff growing by half from 125 ms, +-20 % (the Node example), one of
  // its five waits delayed by up to half a second anywhere in the chain.
  std::vector<long> waits;
  double wait = 125;
  for (int k = 0; k < 5; ++k) {
    waits.push_back(static_cast<long>(wait * (0.8 + 0.4 * *rc::gen::inRange(0, 101) / 100.0)));
    wait *= 1.5;
  }
  waits[static_cast<std::size_t>(*rc::gen::inRange(0, 5))] += *rc::gen::inRange(0, 500);
  traffic_builder b;
  RC_ASSERT(judge(chain(b, waits), "client_retry_backoff").verdict.what == status::passed);
}

RC_GTEST_PROP(regression, early_waits_delayed_by_a_loaded_machine_refuse_no_growing_backoff, ()) {
  // The Node example's backoff as a loaded CI machine measured it (four
  // certifications of four clients each beside a build): two of its first
  // three waits delayed by up to 0.8 s (0.869 s, 0.596 s, 0.336 s, 0.424 s,
  // 0.588 s was seen), the later ones as meant.
  std::vector<long> waits;
  double wait = 125;
  for (int k = 0; k < 5; ++k) {
    waits.push_back(static_cast<long>(wait * (0.8 + 0.4 * *rc::gen::inRange(0, 101) / 100.0)));
    wait *= 1.5;
  }
  const auto first = static_cast<std::size_t>(*rc::gen::inRange(0, 3));
  const auto second = (first + 1 + static_cast<std::size_t>(*rc::gen::inRange(0, 2))) % 3;
  waits[first] += *rc::gen::inRange(0, 800);
  waits[second] += *rc::gen::inRange(0, 800);
  traffic_builder b;
  RC_ASSERT(judge(chain(b, waits), "client_retry_backoff").verdict.what == status::passed);
}

TEST(regression, the_waits_a_loaded_machine_measured_are_a_backoff_that_grows) {
  traffic_builder b;
  EXPECT_EQ(judge(chain(b, {869, 596, 336, 424, 588}), "client_retry_backoff").verdict.what,
            status::passed);
  // Shrinking waits are still refused, however long.
  traffic_builder shrinking;
  const auto j = judge(chain(shrinking, {900, 700, 500, 300, 200}), "client_retry_backoff");
  EXPECT_EQ(j.verdict.what, status::failed);
  ASSERT_FALSE(j.failures.empty());
  EXPECT_EQ(j.failures[0].cause, "backoff does not grow");
}

RC_GTEST_PROP(regression, jittered_backoff_within_growing_bounds_is_accepted_whatever_its_draws,
              ()) {
  // Equal jitter (half to all of a bound that grows by half from 200 ms) or
  // +-25 % around a wait that doubles from 140 ms; the server measures the
  // wait plus up to 60 ms of latency.
  const bool equal = *rc::gen::arbitrary<bool>();
  std::vector<long> waits;
  double bound = equal ? 200 : 140;
  for (int k = 0; k < 5; ++k) {
    const double lo = equal ? bound / 2 : bound * 0.75, hi = equal ? bound : bound * 1.25;
    const long draw = static_cast<long>(lo) + *rc::gen::inRange(0L, static_cast<long>(hi - lo) + 1);
    waits.push_back(draw + *rc::gen::inRange(0, 60));
    bound *= equal ? 1.5 : 2;
  }
  traffic_builder b;
  const auto j = judge(chain(b, waits), "client_retry_backoff");
  RC_ASSERT(j.verdict.what == status::passed);
}

// ---- Behaviour 4: retries without bound ------------------------------------

TEST(regression, behaviour_4_an_outage_judges_the_bound_on_retries) {
  for (std::size_t retries : {5u, 7u}) {
    traffic_builder b;
    tenant_get(b, "/voice_sessions/5", 503, "{}", 10).adversity = "outage";
    for (std::size_t k = 1; k <= retries; ++k) {
      tenant_get(b, "/voice_sessions/5", k == 7 ? 200 : 503, "{}", 100 * static_cast<long>(k))
          .adversity = k == 7 ? "" : "outage";
    }
    const auto j = judge(b.finish(), "client_retry_bound");
    if (retries == 5) {
      EXPECT_EQ(j.verdict.what, status::passed);
    } else {
      EXPECT_EQ(j.verdict.what, status::failed);
      ASSERT_FALSE(j.failures.empty());
      EXPECT_EQ(j.failures[0].cause, "retries not bounded");
    }
  }
}

// ---- Behaviour 5: a lost answer never retried -------------------------------

TEST(regression, behaviour_5_a_dropped_keyed_write_never_retried_breaks_the_key_rule) {
  traffic_builder b;
  auto& dropped = move(b, "/billing/allocate-credits", "k1", "25", 0, 10);
  dropped.adversity = "connection_dropped";
  dropped.processed_status = 200;
  const auto j = judge(b.finish(), "client_idempotency_key_on_retry");
  EXPECT_EQ(j.verdict.what, status::failed);
  ASSERT_FALSE(j.failures.empty());
  EXPECT_EQ(j.failures[0].cause, "lost answer never retried");
}

// ---- Behaviour 6: planned adversity never met --------------------------------

TEST(regression, behaviour_6_a_planned_adversity_not_met_leaves_its_rule_not_exercised) {
  traffic_builder b;
  b.plan("rate_limited", 1);
  b.plan("outage", 0);  // the client never read a record
  auto& limited = b.send(verb::get, "/partner/tenants?page=1&per_page=20", 429, "{}");
  limited.adversity = "rate_limited";
  limited.response_headers = {{"Retry-After", "1"}};
  b.send(verb::get, "/partner/tenants?page=1&per_page=20", 200, page_of(1, 1), 1000);
  const auto report = certify(b.finish());
  EXPECT_FALSE(report.certified);
  ASSERT_EQ(report.unmet_adversity.size(), 1u);
  EXPECT_EQ(report.unmet_adversity[0].find("outage"), 0u);
  EXPECT_EQ(rule(report, "client_retry_bound").what, status::not_exercised);
  EXPECT_NE(rule(report, "client_retry_bound").not_exercised_why.find("not met"),
            std::string::npos);
  EXPECT_EQ(rule(report, "client_retry_after").what, status::passed);
  bool said = false;
  for (const auto& c : report.causes) said = said || c.starts_with("planned adversity not met");
  EXPECT_TRUE(said);
}

// ---- Behaviour 8: the rule that owns the failure is blamed --------------------

TEST(regression, behaviour_8_a_cursor_page_429_never_retried_is_blamed_on_retry_after) {
  traffic_builder b;
  tenant_get(b, "/voice_sessions?page_size=30", 200, cursor_page("c1"), 10);
  auto& limited = tenant_get(b, "/voice_sessions?page_size=30&cursor=c1", 429, "{}", 10);
  limited.adversity = "rate_limited";
  limited.response_headers = {{"Retry-After", "1"}};
  auto& t = b.finish();
  EXPECT_EQ(judge(t, "client_retry_after").verdict.what, status::failed);
  const auto cursor = judge(t, "client_cursor_traversal");
  EXPECT_NE(cursor.verdict.what, status::failed) << "the traversal was cut short by the 429";
  EXPECT_TRUE(cursor.failures.empty());
}

// ---- Behaviour 9: more than one credential header ---------------------------

TEST(regression, behaviour_9_two_or_three_credential_headers_break_client_one_credential) {
  for (const char* second : {"tk_test_anotherkey", ""}) {
    traffic_builder b;
    auto& e = b.send(verb::get, "/partner/tenants?page=1&per_page=20", 401);
    e.request.add_header("X-Api-Key", second);
    if (*second) e.request.add_header("Authorization", "Bearer x.y.z");
    const auto j = judge(b.finish(), "client_one_credential");
    EXPECT_EQ(j.verdict.what, status::failed) << second;
    ASSERT_FALSE(j.failures.empty());
    EXPECT_EQ(j.failures[0].cause, "more than one credential");
    EXPECT_NE(j.failures[0].seen.find("X-Partner-Api-Key"), std::string::npos);
    EXPECT_NE(j.failures[0].seen.find("X-Api-Key"), std::string::npos);
    EXPECT_NE(j.failures[0].seen.find("got 401"), std::string::npos) << j.failures[0].seen;
    if (!*second) {
      EXPECT_NE(j.failures[0].seen.find("present but empty"), std::string::npos);
    }
  }
  traffic_builder one;
  one.send(verb::get, "/partner/tenants?page=1&per_page=20", 200, page_of(1, 1));
  EXPECT_EQ(judge(one.finish(), "client_one_credential").verdict.what, status::passed);
}

// ---- Behaviour 1: a multipart body is a body --------------------------------

std::string form(const char* mapping_type, bool with_file) {
  std::string body;
  if (with_file) {
    body +=
        "--bnd\r\nContent-Disposition: form-data; name=\"file\"; filename=\"c.csv\"\r\n"
        "Content-Type: text/csv\r\n\r\nPhone\n+14155550100\n\r\n";
  }
  body += std::string("--bnd\r\nContent-Disposition: form-data; name=\"column_mapping\"\r\n") +
          "Content-Type: " + mapping_type + "\r\n\r\n{\"Phone\":\"phone_e164\"}\r\n--bnd--\r\n";
  return body;
}

harness::traffic& import(traffic_builder& b, const std::string& body,
                         const char* type = "multipart/form-data; boundary=bnd") {
  auto& e = tenant_get(b, "/contacts/import", 200, "{}", 10);
  e.request.method = verb::post;
  e.request.add_header("Content-Type", type);
  e.request.body = body;
  return b.finish();
}

TEST(regression, behaviour_1_a_multipart_import_is_judged_part_by_part) {
  traffic_builder good;
  EXPECT_EQ(
      judge(import(good, form("application/json", true)), "client_request_valid").verdict.what,
      status::passed);
  struct {
    std::string body;
    const char* type;
    const char* says;
  } bad[] = {
      {form("text/plain", true), "multipart/form-data; boundary=bnd", "encoding.column_mapping"},
      {form("application/json", false), "multipart/form-data; boundary=bnd", "file"},
      {"not a form", "multipart/form-data; boundary=bnd", "cannot be read"},
      {form("application/json", true), "multipart/form-data", "no boundary"},
  };
  for (const auto& c : bad) {
    traffic_builder b;
    const auto j = judge(import(b, c.body, c.type), "client_request_valid");
    EXPECT_EQ(j.verdict.what, status::failed) << c.says;
    ASSERT_FALSE(j.failures.empty());
    EXPECT_NE(j.failures[0].seen.find(c.says), std::string::npos) << j.failures[0].seen;
  }
}

}  // namespace
}  // namespace conform::testing
