// Each fault changes exactly what it names (the clean behaviour is asserted
// by the other suites against a server without faults).
#include <set>

#include "reference/detail/jwt.hpp"
#include "tests/reference/support.hpp"

namespace conform::reference::testing {
namespace {
namespace json = boost::json;

/// A server with one fault on, for one test.
struct faulty {
  explicit faulty(const std::string& fault) : srv(make(fault)), http(srv) {}
  static server_config make(const std::string& fault) {
    server_config c;
    c.faults = {fault};
    return c;
  }
  std::string cred(const std::string& n) const { return srv.credential(n); }
  std::string fx(const std::string& t, const std::string& n) const { return srv.fixture(t, n); }
  header_list allocator(const std::string& key) const {
    auto h = partner_key(cred("partner-allocate"));
    h.emplace_back("Idempotency-Key", key);
    return h;
  }
  std::string balance(const std::string& tenant) const {
    auto a =
        http.send("GET", "/partner/tenants?per_page=100", partner_key(cred("partner-allocate")));
    for (const auto& t : a.data().at("items").as_array()) {
      if (str(t.at("id")) == tenant) return str(t.at("balance_major"));
    }
    return "";
  }
  server srv;
  client http;
};

TEST(faults, known_faults_and_unknown_names) {
  EXPECT_GE(known_faults().size(), 22U);
  server_config c;
  c.faults = {"no_such_fault"};
  try {
    server s(c);
    FAIL() << "an unknown fault must be refused";
  } catch (const std::invalid_argument& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("no_such_fault"), std::string::npos);
    EXPECT_NE(what.find("scope_leak"), std::string::npos);
    EXPECT_NE(what.find("telephony_not_idempotent"), std::string::npos);
  }
}

TEST(faults, scope_leak) {
  faulty f("scope_leak");
  auto a = f.http.send(
      "POST", "/bulk_call_campaigns", api_key(f.cred("t1-only-contacts:read")),
      R"({"name":"Leak","agent_id":)" + f.fx("t1", "agent_id") + R"(,"timezone":"UTC"})");
  EXPECT_EQ(a.status, 201) << a.raw;
}

TEST(faults, tenant_leak) {
  faulty f("tenant_leak");
  auto a =
      f.http.send("POST", "/bulk_call_campaigns/" + f.fx("t2", "bulk_call_campaign_id") + "/launch",
                  api_key(f.cred("t1-all")));
  EXPECT_EQ(a.status, 200) << a.raw;
}

TEST(faults, foreign_list_leak) {
  faulty f("foreign_list_leak");
  auto a = f.http.send("GET", "/voice_sessions?page_size=100", api_key(f.cred("t1-all")));
  std::set<std::string> ids;
  for (const auto& it : a.data().at("items").as_array()) ids.insert(str(it.at("id")));
  EXPECT_EQ(ids.count(f.fx("t2", "voice_session_id")), 1U);
}

TEST(faults, wrong_401_as_403) {
  faulty f("wrong_401_as_403");
  EXPECT_EQ(f.http.send("GET", "/voice_sessions").status, 403);
  EXPECT_EQ(f.http.send("GET", "/voice_sessions", api_key("tk_test_bad")).status, 403);
}

TEST(faults, wrong_403_as_401) {
  faulty f("wrong_403_as_401");
  EXPECT_EQ(f.http.send("GET", "/bulk_call_campaigns", api_key(f.cred("t1-none"))).status, 401);
}

TEST(faults, jwt_only_ignored) {
  faulty f("jwt_only_ignored");
  EXPECT_EQ(f.http.send("GET", "/agents", api_key(f.cred("t1-all"))).status, 200);
}

TEST(faults, expired_jwt_accepted) {
  faulty f("expired_jwt_accepted");
  EXPECT_EQ(f.http.send("GET", "/agents", bearer(f.cred("jwt-expired"))).status, 200);
}

TEST(faults, alg_none_accepted) {
  faulty f("alg_none_accepted");
  auto token = detail::unsigned_jwt({"mallory", 4102444800, {"101"}, "admin"});
  EXPECT_EQ(f.http.send("GET", "/agents", bearer(token)).status, 200);
}

TEST(faults, other_env_key_accepted) {
  faulty f("other_env_key_accepted");
  EXPECT_EQ(f.http.send("GET", "/voice_sessions", api_key(f.cred("t1-other-env"))).status, 200);
}

TEST(faults, x_tenant_widens) {
  faulty f("x_tenant_widens");
  auto h = api_key(f.cred("t1-all"));
  h.emplace_back("X-Tenant-Id", "102");
  auto a = f.http.send("GET", "/voice_sessions/" + f.fx("t2", "voice_session_id"), h);
  EXPECT_EQ(a.status, 200) << a.raw;
}

TEST(faults, missing_envelope_field) {
  faulty f("missing_envelope_field");
  auto a = f.http.send("GET", "/health");
  EXPECT_EQ(a.status, 200);
  EXPECT_FALSE(a.json.as_object().contains("meta"));
  EXPECT_TRUE(a.json.as_object().contains("data"));
}

TEST(faults, missing_request_id) {
  faulty f("missing_request_id");
  auto a = f.http.send("GET", "/health");
  EXPECT_EQ(a.status, 200);
  EXPECT_EQ(a.headers.count("X-Request-Id"), 0U);
}

TEST(faults, wrong_error_code) {
  faulty f("wrong_error_code");
  auto a = f.http.send("GET", "/voice_sessions/999999", api_key(f.cred("t1-all")));
  EXPECT_EQ(a.status, 404);
  EXPECT_EQ(a.code(), "NOT_FOUND");
}

TEST(faults, page_gap) {
  faulty f("page_gap");
  auto a = f.http.send("GET", "/bulk_call_campaigns?per_page=10", api_key(f.cred("t1-all")));
  EXPECT_EQ(a.data().at("items").as_array().size(), 9U);
}

TEST(faults, page_count_off) {
  faulty f("page_count_off");
  auto a = f.http.send("GET", "/bulk_call_campaigns", api_key(f.cred("t1-all")));
  EXPECT_EQ(a.json.at("meta").at("count"), 69);
}

TEST(faults, cursor_duplicate) {
  faulty f("cursor_duplicate");
  auto key = api_key(f.cred("t1-all"));
  auto first = f.http.send("GET", "/voice_sessions?page_size=10", key);
  auto second = f.http.send(
      "GET", "/voice_sessions?page_size=10&cursor=" + str(first.data().at("next_cursor")), key);
  EXPECT_EQ(str(first.data().at("items").as_array().back().at("id")),
            str(second.data().at("items").as_array().front().at("id")));
}

TEST(faults, cursor_unbound) {
  faulty f("cursor_unbound");
  auto key = api_key(f.cred("t1-all"));
  auto first = f.http.send("GET", "/voice_sessions?page_size=5&status=completed", key);
  auto reused = f.http.send(
      "GET",
      "/voice_sessions?page_size=5&status=failed&cursor=" + str(first.data().at("next_cursor")),
      key);
  EXPECT_EQ(reused.status, 200) << reused.raw;
}

TEST(faults, replay_double_effect) {
  faulty f("replay_double_effect");
  const double before = std::stod(f.balance("101"));
  const std::string body = R"({"tenant_id":101,"amount_major":5})";
  auto a = f.http.send("POST", "/billing/allocate-credits", f.allocator("k1"), body);
  auto b = f.http.send("POST", "/billing/allocate-credits", f.allocator("k1"), body);
  EXPECT_EQ(a.raw, b.raw);
  EXPECT_EQ(std::stod(f.balance("101")) - before, 10.0);
}

TEST(faults, replay_not_marked) {
  faulty f("replay_not_marked");
  const std::string body = R"({"tenant_id":101,"amount_major":5})";
  auto a = f.http.send("POST", "/billing/allocate-credits", f.allocator("k1"), body);
  auto b = f.http.send("POST", "/billing/allocate-credits", f.allocator("k1"), body);
  EXPECT_EQ(a.raw, b.raw);
  EXPECT_TRUE(b.header("Idempotent-Replayed").empty());
}

TEST(faults, idempotency_key_ignored) {
  faulty f("idempotency_key_ignored");
  auto a = f.http.send("POST", "/billing/allocate-credits", f.allocator("k1"),
                       R"({"tenant_id":101,"amount_major":5})");
  auto b = f.http.send("POST", "/billing/allocate-credits", f.allocator("k1"),
                       R"({"tenant_id":101,"amount_major":6})");
  EXPECT_EQ(a.status, 200);
  EXPECT_EQ(b.status, 200) << b.raw;
}

TEST(faults, invalid_transition_allowed) {
  faulty f("invalid_transition_allowed");
  for (const char* fixture : {"campaign_paused_id", "campaign_no_contacts_id"}) {
    auto a = f.http.send("POST", "/bulk_call_campaigns/" + f.fx("t1", fixture) + "/pause",
                         api_key(f.cred("t1-all")));
    EXPECT_EQ(a.status, 200) << fixture;
  }
}

TEST(faults, validation_500) {
  faulty f("validation_500");
  auto a = f.http.send("POST", "/bulk_call_campaigns", api_key(f.cred("t1-all")), "{");
  EXPECT_EQ(a.status, 500);
  EXPECT_EQ(a.code(), "INTERNAL_ERROR");
}

TEST(faults, no_405) {
  faulty f("no_405");
  auto a = f.http.send("PUT", "/voice_sessions", {}, "");
  EXPECT_EQ(a.status, 404);
  EXPECT_EQ(a.code(), "NOT_FOUND");
}

TEST(faults, rate_limit_no_retry_after) {
  faulty f("rate_limit_no_retry_after");
  answer limited;
  for (int i = 0; i < 40 && limited.status != 429; ++i) {
    limited = f.http.send("GET", "/voice_sessions/1", api_key(f.cred("t1-throttled")));
  }
  ASSERT_EQ(limited.status, 429);
  EXPECT_EQ(limited.headers.count("Retry-After"), 0U);
}

TEST(faults, telephony_not_idempotent) {
  faulty f("telephony_not_idempotent");
  auto a = f.http.send("GET", "/telephony/twilio/answer?call_id=same");
  auto b = f.http.send("GET", "/telephony/twilio/answer?call_id=same");
  EXPECT_EQ(a.status, 200);
  EXPECT_NE(a.raw, b.raw);
}

}  // namespace
}  // namespace conform::reference::testing

namespace conform::reference::testing {
namespace {

/// Each assumption of the description a request can break (docs/api-choices.md,
/// "Constraints that are ours"), as one request: the clean server refuses it
/// (422), the server with lenient_assumptions accepts it (2xx).
struct assumed_request {
  const char* assumption;
  std::string method, path, body;
};

std::vector<assumed_request> assumed_requests(const server& s) {
  const std::string source = "/knowledge-bases/" + s.fixture("t1", "knowledge_base_id") +
                             "/sources/" + s.fixture("t1", "knowledge_base_source_id");
  const std::string agent = s.fixture("t1", "agent_id");
  const std::string phone = s.fixture("t1", "phone_number_id");
  return {
      {"C18 unknown fields", "PATCH", source, R"({"title":"x","zzz":1})"},
      {"C18 at least one field", "PATCH", source, "{}"},
      {"C18 the wrapper alone", "PATCH", source,
       R"({"knowledge_base_source":{"title":"x"},"zzz":1})"},
      {"C19 a title", "PATCH", source, R"({"title":""})"},
      {"C19 an absolute source_uri", "PATCH", source, R"({"source_uri":"not a uri"})"},
      {"C19 absolute selected_urls", "PATCH", source, R"({"selected_urls":["nope"]})"},
      {"C5 agent_id required", "POST", "/bulk_call_campaigns",
       R"({"name":"No agent","timezone":"UTC"})"},
      {"C5 each phone number once", "POST", "/bulk_call_campaigns",
       R"({"name":"Twice","agent_id":)" + agent +
           R"(,"timezone":"UTC","campaign_phone_number_ids":[)" + phone + "," + phone + "]}"},
      {"C8 a prompt", "POST",
       "/voice_sessions/" + s.fixture("t1", "voice_session_id") + "/run_analysis", "{}"},
      {"C10 a call_id", "GET", "/telephony/twilio/answer?call_id=", ""},
      {"C19 a reason", "DELETE", "/follow-ups/" + s.fixture("t1", "follow_up_id") + "?reason=", ""},
  };
}

TEST(faults, lenient_assumptions_accepts_what_only_an_assumption_refuses) {
  server clean{server_config{}};
  client clean_http(clean);
  for (const auto& r : assumed_requests(clean)) {
    auto a = clean_http.send(r.method, r.path, api_key(clean.credential("t1-all")), r.body);
    EXPECT_EQ(a.status, 422) << r.assumption << ": " << a.raw;
  }
  server_config c;
  c.faults = {"lenient_assumptions"};
  server lenient{c};
  client http(lenient);
  for (const auto& r : assumed_requests(lenient)) {
    auto a = http.send(r.method, r.path, api_key(lenient.credential("t1-all")), r.body);
    EXPECT_GE(a.status, 200) << r.assumption << ": " << a.raw;
    EXPECT_LT(a.status, 300) << r.assumption << ": " << a.raw;
  }
}

TEST(faults, no_length_the_description_does_not_fix_is_refused) {
  // Issue 22: these limits were ours and are gone; only the body's bound stays.
  server s{server_config{}};
  client http(s);
  const auto key = api_key(s.credential("t1-all"));
  const std::string source = "/knowledge-bases/" + s.fixture("t1", "knowledge_base_id") +
                             "/sources/" + s.fixture("t1", "knowledge_base_source_id");
  std::string urls;
  for (int i = 0; i < 150; ++i)
    urls += (i ? "," : "") + std::string("\"https://e.example/") + std::to_string(i) + "\"";
  for (const std::string& body : {R"({"title":")" + std::string(600, 't') + R"("})",
                                  R"({"raw_text_input":")" + std::string(150000, 'r') + R"("})",
                                  R"({"file":")" + std::string(300, 'f') + R"(.csv"})",
                                  R"({"selected_urls":[)" + urls + "]}"}) {
    auto a = http.send("PATCH", source, key, body);
    EXPECT_EQ(a.status, 200) << body.substr(0, 40) << ": " << a.raw.substr(0, 200);
  }
  auto memory = http.send("PATCH", "/contacts/" + s.fixture("t1", "contact_id") + "/memory", key,
                          R"({"agent_id":")" + s.fixture("t1", "agent_id") + R"(","memory":")" +
                              std::string(70000, 'm') + R"("})");
  EXPECT_EQ(memory.status, 200) << memory.raw.substr(0, 200);
  auto call = http.send("GET", "/telephony/twilio/answer?call_id=" + std::string(200, 'c'));
  EXPECT_EQ(call.status, 200) << call.raw.substr(0, 200);
  // Past the body's bound, 413 (x-limits, D6.1).
  auto big = http.send("PATCH", source, key,
                       R"({"raw_text_input":")" + std::string(1 << 20, 'r') + R"("})");
  EXPECT_EQ(big.status, 413) << big.raw.substr(0, 200);
}

}  // namespace
}  // namespace conform::reference::testing
