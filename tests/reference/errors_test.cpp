// Errors and limits (D6): 404, 405, 413, 415, 422, 429, the precedence of
// D6.3, request ids (D1.5), and survival of bad input and a request flood.
#include <atomic>
#include <random>
#include <thread>

#include "tests/reference/support.hpp"

namespace conform::reference::testing {
namespace {
namespace json = boost::json;

class errors_test : public server_test {
 protected:
  static void SetUpTestSuite() { start(); }

  static void expect_error_envelope(const answer& a, int status, const std::string& code) {
    EXPECT_EQ(a.status, status) << a.raw;
    EXPECT_EQ(a.code(), code) << a.raw;
    ASSERT_TRUE(a.json.is_object()) << a.raw;
    EXPECT_TRUE(a.json.as_object().at("error").is_string());
    EXPECT_EQ(str(a.json.at("request_id")), a.header("X-Request-Id"));
  }
};

TEST_F(errors_test, unknown_routes_are_404_not_found) {
  for (const char* path : {"/nope", "/voice_sessions/1/2/3", "/health/", "//api/v2/health", "//",
                           "/bulk_call_campaigns/1"}) {
    expect_error_envelope(http().send("GET", path, api_key(cred("t1-all"))), 404, "NOT_FOUND");
  }
}

TEST_F(errors_test, an_odd_id_on_a_documented_path_is_the_resource_404_not_405) {
  // A decoded control character in a path segment is just an unknown id
  // (found by conform run: it once fell through to 405).
  expect_error_envelope(http().send("GET", "/voice_sessions/%09%0A", api_key(cred("t1-all"))), 404,
                        "SESSION_NOT_FOUND");
}

TEST_F(errors_test, null_for_an_optional_property_is_invalid_not_absent) {
  // The request schemas admit no null (found by conform run against a
  // standalone server: "summary": null was taken as "not given").
  const std::string contact = "/contacts/" + fx("t1", "contact_id") + "/memory";
  expect_error_envelope(
      http().send("PATCH", contact, api_key(cred("t1-all")),
                  R"({"agent_id":")" + fx("t1", "agent_id") + R"(","summary":null})"),
      422, "VALIDATION_ERROR");
  expect_error_envelope(http().send("POST", "/bulk_call_campaigns", api_key(cred("t1-all")),
                                    R"({"name":"n","agent_id":)" + fx("t1", "agent_id") +
                                        R"(,"timezone":"UTC","campaign_phone_number_ids":null})"),
                        422, "VALIDATION_ERROR");
  const std::string source = "/knowledge-bases/" + fx("t1", "knowledge_base_id") + "/sources/" +
                             fx("t1", "knowledge_base_source_id");
  for (const char* body : {R"({"title":null})", R"({"discover_pages":null})",
                           R"({"refresh_interval_hours":null})", R"({"selected_urls":null})"}) {
    expect_error_envelope(http().send("PATCH", source, api_key(cred("t1-all")), body), 422,
                          "VALIDATION_ERROR");
  }
}

TEST_F(errors_test, amounts_with_a_third_decimal_and_padded_ids_are_refused) {
  // Both found by conform run's negative_data_rejection.
  expect_error_envelope(
      http().send("POST", "/billing/allocate-credits", partner_key(cred("partner-allocate")),
                  R"({"tenant_id":101,"amount_major":5053.355})"),
      422, "IDEMPOTENCY_KEY_REQUIRED");
  auto headers = partner_key(cred("partner-allocate"));
  headers.emplace_back("Idempotency-Key", "third-decimal");
  expect_error_envelope(http().send("POST", "/billing/allocate-credits", headers,
                                    R"({"tenant_id":101,"amount_major":5053.355})"),
                        422, "VALIDATION_ERROR");
  httplib::MultipartFormDataItems items = {
      {"file", "Phone\n+14155550100\n", "c.csv", "text/csv"},
      {"column_mapping", R"({"Phone":"phone_e164"})", "", "application/json"},
      {"bulk_call_campaign_id", " " + fx("t1", "bulk_call_campaign_id"), "", "text/plain"}};
  auto a = http().multipart("/contacts/import", api_key(cred("t1-all")), items);
  expect_error_envelope(a, 422, "VALIDATION_ERROR");
}

TEST_F(errors_test, undocumented_methods_are_405_with_allow) {
  struct c {
    const char* method;
    const char* path;
  };
  for (const auto& [method, path] :
       std::vector<c>{{"PUT", "/voice_sessions"},
                      {"DELETE", "/bulk_call_campaigns"},
                      {"GET", "/billing/allocate-credits"},
                      {"POST", "/bulk_call_campaigns/capacity_preview"},
                      {"PATCH", "/follow-ups/1"},
                      {"POST", "/health"}}) {
    auto a = http().send(method, path, {}, "");
    expect_error_envelope(a, 405, "METHOD_NOT_ALLOWED");
    EXPECT_FALSE(a.header("Allow").empty()) << path;
  }
}

TEST_F(errors_test, bodies_over_the_limits_are_413) {
  const std::string big(1024 * 1024 + 10, 'x');
  expect_error_envelope(http().send("POST", "/bulk_call_campaigns", api_key(cred("t1-all")), big),
                        413, "PAYLOAD_TOO_LARGE");
  // 413 comes before credentials
  expect_error_envelope(http().send("PATCH", "/contacts/1/memory", {}, big), 413,
                        "PAYLOAD_TOO_LARGE");
  const std::string huge(10 * 1024 * 1024 + 10, 'x');
  auto a = http().send("POST", "/contacts/import", api_key(cred("t1-all")), huge, "text/csv");
  expect_error_envelope(a, 413, "PAYLOAD_TOO_LARGE");
}

TEST_F(errors_test, wrong_media_type_is_415) {
  for (const char* ct : {"text/plain", "application/xml", "application/x-www-form-urlencoded"}) {
    expect_error_envelope(
        http().send("POST", "/bulk_call_campaigns", api_key(cred("t1-all")), "{}", ct), 415,
        "UNSUPPORTED_MEDIA_TYPE");
  }
  auto charset = http().send("POST", "/bulk_call_campaigns", api_key(cred("t1-all")), "{}",
                             "application/json; charset=utf-8");
  EXPECT_EQ(charset.status, 422);
}

TEST_F(errors_test, malformed_json_is_422_validation_error) {
  for (const char* body :
       {"{", "[1,2]", "null", "\"s\"", "{\"a\":}", "{\"name\":\"x\"}}", "\xff\xfe"}) {
    auto a = http().send("POST", "/bulk_call_campaigns", api_key(cred("t1-all")), body);
    expect_error_envelope(a, 422, "VALIDATION_ERROR");
    EXPECT_TRUE(a.json.at("errors").is_object());
  }
  auto empty = http().send("PATCH", "/contacts/" + fx("t1", "contact_id") + "/memory",
                           api_key(cred("t1-all")), "");
  expect_error_envelope(empty, 422, "VALIDATION_ERROR");
}

TEST_F(errors_test, precedence_of_d6_3) {
  auto key = api_key(cred("t1-none"));
  // route before method before size before credentials
  EXPECT_EQ(http().send("PUT", "/nowhere", {}, "x").status, 404);
  EXPECT_EQ(http().send("PUT", "/voice_sessions", {}, "x").status, 405);
  // credentials before scope before media type before body
  EXPECT_EQ(http().send("POST", "/bulk_call_campaigns", {}, "{", "text/plain").status, 401);
  EXPECT_EQ(http().send("POST", "/bulk_call_campaigns", key, "{", "text/plain").status, 403);
  auto tenant_header = api_key(cred("t1-all"));
  tenant_header.emplace_back("X-Tenant-Id", "102");
  EXPECT_EQ(http().send("POST", "/bulk_call_campaigns", tenant_header, "{", "text/plain").status,
            403);
  EXPECT_EQ(http()
                .send("POST", "/bulk_call_campaigns", api_key(cred("t1-all")), "{", "text/plain")
                .status,
            415);
  // idempotency key form before unparsable body
  auto bad_key = partner_key(cred("partner-allocate"));
  bad_key.emplace_back("Idempotency-Key", std::string(300, 'k'));
  auto k = http().send("POST", "/billing/allocate-credits", bad_key, "{");
  EXPECT_EQ(k.status, 422);
  EXPECT_TRUE(k.json.at("errors").as_object().contains("Idempotency-Key"));
  EXPECT_EQ(
      http()
          .send("POST", "/billing/allocate-credits", partner_key(cred("partner-allocate")), "{")
          .code(),
      "IDEMPOTENCY_KEY_REQUIRED");
  // path resource before body validation
  EXPECT_EQ(http()
                .send("POST", "/voice_sessions/999999/run_analysis", api_key(cred("t1-all")), "{}")
                .code(),
            "SESSION_NOT_FOUND");
  // state before contacts before phone numbers (C6)
  EXPECT_EQ(
      http()
          .send("POST", "/bulk_call_campaigns/" + fx("t1", "campaign_completed_id") + "/launch",
                api_key(cred("t1-all")))
          .code(),
      "INVALID_STATE_TRANSITION");
}

TEST_F(errors_test, request_ids_are_echoed_when_well_formed) {
  auto h = api_key(cred("t1-all"));
  h.emplace_back("X-Request-Id", "client.req-42_x");
  auto a = http().send("GET", "/voice_sessions/999999", h);
  EXPECT_EQ(a.header("X-Request-Id"), "client.req-42_x");
  EXPECT_EQ(str(a.json.at("request_id")), "client.req-42_x");
  for (const std::string& bad :
       {std::string(129, 'r'), std::string("has space"), std::string("semi;colon")}) {
    auto b = http().send("GET", "/health", {{"X-Request-Id", bad}});
    EXPECT_NE(b.header("X-Request-Id"), bad);
    EXPECT_FALSE(b.header("X-Request-Id").empty());
    EXPECT_EQ(str(b.json.at("request_id")), b.header("X-Request-Id"));
  }
  auto x = http().send("GET", "/health");
  auto y = http().send("GET", "/health");
  EXPECT_NE(x.header("X-Request-Id"), y.header("X-Request-Id"));
}

TEST_F(errors_test, rate_limited_credential_gets_429_with_retry_after) {
  auto key = api_key(cred("t1-throttled"));
  int limited = 0, passed = 0;
  answer last;
  for (int i = 0; i < 40 && limited == 0; ++i) {
    auto a = http().send("GET", "/voice_sessions/999999", key);
    if (a.status == 429) {
      ++limited;
      last = a;
    } else {
      ++passed;
    }
  }
  ASSERT_EQ(limited, 1);
  EXPECT_GE(passed, 5);
  expect_error_envelope(last, 429, "RATE_LIMITED");
  EXPECT_EQ(last.header("Retry-After"), "1");
  // other credentials are unlimited
  for (int i = 0; i < 30; ++i)
    EXPECT_NE(http().send("GET", "/health", api_key(cred("t1-all"))).status, 429);
}

TEST_F(errors_test, garbage_headers_and_odd_requests_never_give_5xx) {
  const std::vector<header_list> headers = {
      {{"X-Api-Key", std::string(8000, 'k')}},
      {{"Authorization", "Bearer " + std::string(7000, '.')}},
      {{"Authorization", "Bearer ..."}},
      {{"Authorization", "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOjF9.sig"}},
      {{"X-Tenant-Id", "-1"}, {"X-Api-Key", "tk_test_"}},
      {{"X-Partner-Api-Key", "pk_test_\x01\x02"}},
      {{"Content-Type", "multipart/form-data"}, {"X-Api-Key", "x"}},
      {{"Idempotency-Key", ""}},
  };
  for (const auto& h : headers) {
    for (const char* path :
         {"/voice_sessions", "/agents", "/bulk_call_campaigns", "/contacts/import"}) {
      auto a = http().send("GET", path, h);
      EXPECT_LT(a.status, 500) << path;
      EXPECT_GE(a.status, 400) << path;
      auto b = http().send("POST", path, h, "{}");
      EXPECT_LT(b.status, 500) << path;
    }
  }
  // multipart with a broken body
  auto broken = http().send("POST", "/contacts/import", api_key(cred("t1-all")), "--x\r\nbroken",
                            "multipart/form-data; boundary=x");
  EXPECT_LT(broken.status, 500);
  EXPECT_GE(broken.status, 400);
  // a very long path
  EXPECT_EQ(http()
                .send("GET", "/voice_sessions/" + std::string(5000, '9'), api_key(cred("t1-all")))
                .status,
            404);
}

TEST_F(errors_test, randomized_flood_from_several_threads_gives_no_5xx) {
  const std::vector<std::string> methods = {"GET", "POST", "PATCH", "DELETE", "PUT"};
  const std::vector<std::string> paths = {
      "/voice_sessions",
      "/voice_sessions/" + fx("t1", "voice_session_id"),
      "/bulk_call_campaigns",
      "/bulk_call_campaigns/" + fx("t1", "campaign_paused_id") + "/launch",
      "/bulk_call_campaigns/" + fx("t1", "campaign_paused_id") + "/pause",
      "/agents",
      "/partner/tenants",
      "/billing/allocate-credits",
      "/contacts/" + fx("t1", "contact_id") + "/memory",
      "/follow-ups/" + fx("t1", "follow_up_pending_id"),
      "/telephony/twilio/answer?call_id=1",
      "/nope",
      "/billing/invoices/" + fx("t1", "invoice_id"),
      "/voice_sessions?cursor=zzz",
      "/bulk_call_campaigns?per_page=-5"};
  const std::vector<std::string> bodies = {
      "",
      "{",
      "{}",
      "[]",
      R"({"tenant_id":101,"amount_major":0.01})",
      R"({"name":null,"agent_id":[],"timezone":{}})",
      "\x00\x01garbage",
      R"({"agent_id":")" + fx("t1", "agent_id") + R"(","memory":"m"})"};
  const std::vector<header_list> creds = {{},
                                          api_key(cred("t1-all")),
                                          api_key(cred("t1-none")),
                                          partner_key(cred("partner-allocate"), "101"),
                                          partner_key(cred("partner-allocate")),
                                          bearer(cred("jwt-viewer")),
                                          bearer(cred("jwt-two-tenants")),
                                          bearer("garbage")};
  constexpr int threads = 6, per_thread = 120;
  std::atomic<int> server_errors{0}, total{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      std::mt19937 rng(1234 + static_cast<unsigned>(t));  // fixed seeds: repeatable
      for (int i = 0; i < per_thread; ++i) {
        auto h = creds[rng() % creds.size()];
        if (rng() % 3 == 0) h.emplace_back("Idempotency-Key", "flood-" + std::to_string(rng() % 5));
        if (rng() % 4 == 0) h.emplace_back("X-Tenant-Id", std::to_string(100 + rng() % 5));
        auto a = http().send(methods[rng() % methods.size()], paths[rng() % paths.size()], h,
                             bodies[rng() % bodies.size()],
                             rng() % 5 == 0 ? "text/plain" : "application/json");
        total.fetch_add(1);
        if (a.status >= 500 || a.status == 0) {
          server_errors.fetch_add(1);
          ADD_FAILURE() << a.status << " " << a.raw;
        }
        if (!a.json.is_object() && !a.json.is_string()) ADD_FAILURE() << "not JSON: " << a.raw;
      }
    });
  }
  for (auto& th : pool) th.join();
  EXPECT_EQ(total.load(), threads * per_thread);
  EXPECT_EQ(server_errors.load(), 0);
  EXPECT_EQ(http().send("GET", "/ready").status, 200);
}

}  // namespace
}  // namespace conform::reference::testing
