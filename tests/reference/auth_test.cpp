// Authentication and authorization: D2.1-D2.7, the scope table of D2.4 cell
// by cell, roles, X-Tenant-Id, tenant isolation.
#include <set>

#include "reference/detail/jwt.hpp"
#include "tests/reference/support.hpp"

namespace conform::reference::testing {
namespace {
namespace json = boost::json;

/// One operation with a request that passes every check after authorization
/// without changing anything that other tests rely on.
struct op_case {
  std::string name, method, path, body, content_type;
  std::string tenant_scope;   // "" = tenant key not accepted
  std::string partner_scope;  // "" = partner key not accepted
  bool jwt = true;
  bool jwt_only = false;
};

const std::string multipart_body =
    "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"c.csv\"\r\n"
    "Content-Type: text/csv\r\n\r\nphone\r\n+14155550123\r\n"
    "--XyZ\r\nContent-Disposition: form-data; name=\"column_mapping\"\r\n\r\n"
    "{\"phone\":\"phone_e164\"}\r\n--XyZ--\r\n";

std::vector<op_case> op_cases() {
  const std::string json_ct = "application/json";
  return {
      {"cancelFollowUp", "DELETE", "/follow-ups/999999", "", json_ct, "follow_ups:write", "", true},
      {"getFollowUpEvents", "GET", "/follow-ups/999999/events", "", json_ct, "follow_ups:read", "",
       true},
      {"updateContactMemory", "PATCH", "/contacts/999999/memory", "{}", json_ct, "contacts:write",
       "", true},
      {"importContacts", "POST", "/contacts/import", multipart_body,
       "multipart/form-data; boundary=XyZ", "contacts:write", "contacts:write", true},
      {"runAnalysis", "POST", "/voice_sessions/999999/run_analysis", "{}", json_ct,
       "voice_sessions:write", "", true},
      {"listVoiceSessions", "GET", "/voice_sessions", "", json_ct, "voice_sessions:read",
       "voice_sessions:read", true},
      {"getVoiceSession", "GET", "/voice_sessions/999999", "", json_ct, "voice_sessions:read",
       "voice_sessions:read", true},
      {"updateKnowledgeBaseSource", "PATCH", "/knowledge-bases/999999/sources/1", "{}", json_ct,
       "knowledge_bases:write", "", true},
      {"getRateChangeHistory", "GET", "/billing/tenants/101/rate-change-history", "", json_ct,
       "billing:tenant:read", "billing:partner:read", true},
      {"getInvoice", "GET", "/billing/invoices/999999", "", json_ct, "billing:tenant:read",
       "billing:partner:read", true},
      {"listCampaigns", "GET", "/bulk_call_campaigns", "", json_ct, "bulk_call_campaigns:read",
       "bulk_call_campaigns:read", true},
      {"capacityPreview", "GET", "/bulk_call_campaigns/capacity_preview", "", json_ct,
       "bulk_call_campaigns:read", "bulk_call_campaigns:read", true},
      {"createCampaign", "POST", "/bulk_call_campaigns", "{}", json_ct, "bulk_call_campaigns:write",
       "bulk_call_campaigns:write", true},
      {"launchCampaign", "POST", "/bulk_call_campaigns/999999/launch", "", json_ct,
       "bulk_call_campaigns:write", "bulk_call_campaigns:write", true},
      {"pauseCampaign", "POST", "/bulk_call_campaigns/999999/pause", "", json_ct,
       "bulk_call_campaigns:write", "bulk_call_campaigns:write", true},
      {"listPartnerTenants", "GET", "/partner/tenants", "", json_ct, "", "tenants:read", false},
      {"allocateCredits", "POST", "/billing/allocate-credits", "{}", json_ct, "",
       "billing:partner:allocate", false},
      {"deallocateCredits", "POST", "/billing/deallocate-credits", "{}", json_ct, "",
       "billing:partner:allocate", false},
      {"listAgents", "GET", "/agents", "", json_ct, "", "", true, true},
  };
}

const std::vector<std::string> tenant_scopes = {"agents:read",
                                                "billing:tenant:read",
                                                "bulk_call_campaigns:read",
                                                "bulk_call_campaigns:write",
                                                "contacts:read",
                                                "contacts:write",
                                                "follow_ups:read",
                                                "follow_ups:write",
                                                "knowledge_bases:write",
                                                "phone_numbers:read",
                                                "phone_numbers:write",
                                                "voice_sessions:read",
                                                "voice_sessions:write"};
const std::vector<std::string> partner_scopes = {"agents:read",
                                                 "billing:partner:read",
                                                 "bulk_call_campaigns:read",
                                                 "bulk_call_campaigns:write",
                                                 "contacts:read",
                                                 "contacts:write",
                                                 "phone_numbers:read",
                                                 "phone_numbers:write",
                                                 "tenants:read",
                                                 "voice_sessions:read",
                                                 "billing:partner:allocate"};

class auth_test : public server_test {
 protected:
  static void SetUpTestSuite() { start(); }

  static answer call(const op_case& c, header_list h) {
    if (c.method == "POST") h.emplace_back("Idempotency-Key", "auth-" + std::to_string(counter_++));
    return http().send(c.method, c.path, h, c.body, c.content_type);
  }
  static inline int counter_ = 0;
};

TEST_F(auth_test, tenant_key_scope_table_cell_by_cell) {
  for (const auto& c : op_cases()) {
    for (const auto& scope : tenant_scopes) {
      auto a = call(c, api_key(cred("t1-only-" + scope)));
      if (c.jwt_only) {
        EXPECT_EQ(a.status, 401) << c.name << " " << scope;
        EXPECT_EQ(a.code(), "JWT_REQUIRED") << c.name;
      } else if (c.tenant_scope.empty()) {
        EXPECT_EQ(a.status, 403) << c.name << " " << scope;
        EXPECT_TRUE(a.json.at("details").as_object().contains("accepted_schemes")) << a.raw;
      } else if (scope == c.tenant_scope) {
        EXPECT_NE(a.status, 401) << c.name << " " << scope << " " << a.raw;
        EXPECT_NE(a.status, 403) << c.name << " " << scope << " " << a.raw;
      } else {
        EXPECT_EQ(a.status, 403) << c.name << " " << scope << " " << a.raw;
        EXPECT_EQ(a.code(), "FORBIDDEN");
        EXPECT_EQ(str(a.json.at("details").at("required_scope")), c.tenant_scope) << c.name;
      }
    }
    auto none = call(c, api_key(cred("t1-none")));
    EXPECT_EQ(none.status, c.jwt_only ? 401 : 403) << c.name << " with a key without scopes";
  }
}

TEST_F(auth_test, partner_key_scope_table_cell_by_cell) {
  for (const auto& c : op_cases()) {
    for (const auto& scope : partner_scopes) {
      auto a = call(c, partner_key(cred("partner-only-" + scope),
                                   c.name == "allocateCredits" || c.name == "deallocateCredits" ||
                                           c.name == "listPartnerTenants"
                                       ? ""
                                       : "101"));
      if (c.jwt_only) {
        EXPECT_EQ(a.status, 401) << c.name;
        EXPECT_EQ(a.code(), "JWT_REQUIRED");
      } else if (c.partner_scope.empty()) {
        EXPECT_EQ(a.status, 403) << c.name << " " << scope;
        EXPECT_TRUE(a.json.at("details").as_object().contains("accepted_schemes")) << a.raw;
      } else if (scope == c.partner_scope) {
        EXPECT_NE(a.status, 401) << c.name << " " << scope << " " << a.raw;
        EXPECT_NE(a.status, 403) << c.name << " " << scope << " " << a.raw;
      } else {
        EXPECT_EQ(a.status, 403) << c.name << " " << scope << " " << a.raw;
        EXPECT_EQ(str(a.json.at("details").at("required_scope")), c.partner_scope) << c.name;
      }
    }
  }
}

TEST_F(auth_test, jwt_roles_and_accepted_schemes) {
  for (const auto& c : op_cases()) {
    for (const char* role : {"jwt-admin", "jwt-member", "jwt-viewer"}) {
      auto a = call(c, bearer(cred(role)));
      bool write = c.method != "GET";
      if (!c.jwt) {
        EXPECT_EQ(a.status, 403) << c.name << " " << role;
        EXPECT_TRUE(a.json.at("details").as_object().contains("accepted_schemes"));
      } else if (write && std::string(role) == "jwt-viewer") {
        EXPECT_EQ(a.status, 403) << c.name << " " << role << " " << a.raw;
        EXPECT_EQ(a.code(), "FORBIDDEN");
      } else {
        EXPECT_NE(a.status, 401) << c.name << " " << role << " " << a.raw;
        EXPECT_NE(a.status, 403) << c.name << " " << role << " " << a.raw;
      }
    }
  }
}

TEST_F(auth_test, missing_unknown_and_malformed_credentials_get_401) {
  for (const auto& c : op_cases()) {
    auto a = call(c, {});
    EXPECT_EQ(a.status, 401) << c.name;
    EXPECT_EQ(a.code(), "UNAUTHORIZED") << c.name;
  }
  for (const header_list& h : std::vector<header_list>{
           api_key("tk_test_nope"),
           partner_key("pk_test_nope", "101"),
           bearer("not.a.jwt"),
           {{"Authorization", "Basic dXNlcjpwYXNz"}},
           {{"Authorization", "Bearer"}},
           api_key(cred("partner-default")),  // a partner key in the tenant header
           {{"X-Api-Key", cred("t1-all")}, {"Authorization", "Bearer " + cred("jwt-admin")}}}) {
    auto a = http().send("GET", "/voice_sessions", h);
    EXPECT_EQ(a.status, 401) << a.raw;
    EXPECT_EQ(a.code(), "UNAUTHORIZED");
  }
}

TEST_F(auth_test, bad_jwts_get_401) {
  detail::jwt_claims claims{"user-x", 4102444800, {"101"}, "admin"};
  std::string good = cred("jwt-admin");
  std::string tampered = good;
  tampered[tampered.size() - 2] = tampered[tampered.size() - 2] == 'A' ? 'B' : 'A';
  std::string swapped_payload =
      good.substr(0, good.find('.') + 1) +
      detail::sign_jwt({"user-x", 4102444800, {"101", "102", "103"}, "admin"}, "x")
          .substr(detail::sign_jwt(claims, "x").find('.') + 1);
  for (const auto& token :
       {cred("jwt-expired"), detail::unsigned_jwt(claims), detail::sign_jwt(claims, "wrong-secret"),
        tampered, swapped_payload, std::string("a.b.c"), std::string("")}) {
    auto a = http().send("GET", "/agents", bearer(token));
    EXPECT_EQ(a.status, 401) << token;
    EXPECT_EQ(a.code(), "UNAUTHORIZED");
  }
  EXPECT_EQ(http().send("GET", "/agents", bearer(good)).status, 200);
}

TEST_F(auth_test, key_of_the_other_environment_gets_401) {
  auto a = http().send("GET", "/voice_sessions", api_key(cred("t1-other-env")));
  EXPECT_EQ(a.status, 401);
  EXPECT_EQ(cred("t1-other-env").rfind("tk_live_", 0), 0U);
  auto p = http().send("GET", "/partner/tenants", partner_key(cred("partner-other-env")));
  EXPECT_EQ(p.status, 401);
}

TEST_F(auth_test, jwt_only_route_refuses_keys_with_jwt_required) {
  for (const auto& h : {api_key(cred("t1-all")), partner_key(cred("partner-allocate"), "101")}) {
    auto a = http().send("GET", "/agents", h);
    EXPECT_EQ(a.status, 401);
    EXPECT_EQ(a.code(), "JWT_REQUIRED");
  }
}

TEST_F(auth_test, x_tenant_id_rules) {
  // JWT with two memberships: must name one.
  auto two = bearer(cred("jwt-two-tenants"));
  auto a = http().send("GET", "/agents", two);
  EXPECT_EQ(a.status, 422);
  EXPECT_EQ(a.code(), "TENANT_CONTEXT_REQUIRED");
  auto named = two;
  named.emplace_back("X-Tenant-Id", "102");
  auto b = http().send("GET", "/voice_sessions/" + fx("t2", "voice_session_id"), named);
  EXPECT_EQ(b.status, 200) << b.raw;
  named.back().second = "103";
  EXPECT_EQ(http().send("GET", "/agents", named).status, 403);
  // JWT with one membership naming another tenant.
  auto one = bearer(cred("jwt-admin"));
  one.emplace_back("X-Tenant-Id", "102");
  EXPECT_EQ(http().send("GET", "/agents", one).status, 403);
  // Partner key: required, and only its own tenants.
  auto p = http().send("GET", "/bulk_call_campaigns", partner_key(cred("partner-default")));
  EXPECT_EQ(p.status, 422);
  EXPECT_EQ(p.code(), "TENANT_CONTEXT_REQUIRED");
  EXPECT_EQ(http()
                .send("GET", "/bulk_call_campaigns", partner_key(cred("partner-default"), "102"))
                .status,
            200);
  EXPECT_EQ(http()
                .send("GET", "/bulk_call_campaigns", partner_key(cred("partner-default"), "103"))
                .status,
            403);
  EXPECT_EQ(http()
                .send("GET", "/bulk_call_campaigns", partner_key(cred("partner-default"), "999"))
                .status,
            403);
  // Tenant key: may name itself, nothing else.
  auto own = api_key(cred("t1-all"));
  own.emplace_back("X-Tenant-Id", "101");
  EXPECT_EQ(http().send("GET", "/bulk_call_campaigns", own).status, 200);
  for (const char* other : {"102", "103", "abc", "101x", "999999"}) {
    auto h = api_key(cred("t1-all"));
    h.emplace_back("X-Tenant-Id", other);
    auto r = http().send("GET", "/bulk_call_campaigns", h);
    EXPECT_EQ(r.status, 403) << other;
    EXPECT_EQ(r.code(), "FORBIDDEN");
  }
  // Path tenant: X-Tenant-Id must agree; an unreachable tenant is 403 (D2.6).
  auto mismatch = api_key(cred("t1-all"));
  mismatch.emplace_back("X-Tenant-Id", "102");
  EXPECT_EQ(http().send("GET", "/billing/tenants/101/rate-change-history", mismatch).status, 403);
  for (const char* t : {"102", "103", "999999", "abc"}) {
    auto foreign = http().send("GET", std::string("/billing/tenants/") + t + "/rate-change-history",
                               api_key(cred("t1-all")));
    EXPECT_EQ(foreign.status, 403) << t;
    EXPECT_EQ(foreign.code(), "FORBIDDEN") << t;
  }
  EXPECT_EQ(http()
                .send("GET", "/billing/tenants/103/rate-change-history",
                      partner_key(cred("partner-default")))
                .status,
            403);
  EXPECT_EQ(http()
                .send("GET", "/billing/tenants/102/rate-change-history",
                      partner_key(cred("partner-default")))
                .status,
            200);
}

/// Body without request_id, for comparing a foreign id's answer with an unknown one's.
std::string without_request_id(const answer& a) {
  if (!a.json.is_object()) return a.raw;
  auto o = a.json.as_object();
  o.erase("request_id");
  return json::serialize(o);
}

TEST_F(auth_test, a_foreign_id_answers_exactly_like_an_unknown_one) {
  struct probe {
    std::string method, path_foreign, path_unknown, body;
  };
  auto key = api_key(cred("t1-all"));
  const std::vector<probe> probes = {
      {"GET", "/voice_sessions/" + fx("t2", "voice_session_id"), "/voice_sessions/999999", ""},
      {"GET", "/voice_sessions/" + fx("t3", "voice_session_id"), "/voice_sessions/999999", ""},
      {"GET", "/follow-ups/" + fx("t2", "follow_up_id") + "/events", "/follow-ups/999999/events",
       ""},
      {"DELETE", "/follow-ups/" + fx("t2", "follow_up_id"), "/follow-ups/999999", ""},
      {"PATCH", "/contacts/" + fx("t2", "contact_id") + "/memory", "/contacts/999999/memory",
       R"({"agent_id":"1"})"},
      {"POST", "/bulk_call_campaigns/" + fx("t2", "bulk_call_campaign_id") + "/launch",
       "/bulk_call_campaigns/999999/launch", ""},
      {"POST", "/bulk_call_campaigns/" + fx("t2", "campaign_running_id") + "/pause",
       "/bulk_call_campaigns/999999/pause", ""},
      {"GET", "/billing/invoices/" + fx("t2", "invoice_id"), "/billing/invoices/999999", ""},
      {"PATCH",
       "/knowledge-bases/" + fx("t2", "knowledge_base_id") + "/sources/" +
           fx("t2", "knowledge_base_source_id"),
       "/knowledge-bases/999999/sources/999999", "{}"},
      {"PATCH",
       "/knowledge-bases/" + fx("t1", "knowledge_base_id") + "/sources/" +
           fx("t2", "knowledge_base_source_id"),
       "/knowledge-bases/" + fx("t1", "knowledge_base_id") + "/sources/999999", "{}"},
      {"POST", "/voice_sessions/" + fx("t2", "voice_session_id") + "/run_analysis",
       "/voice_sessions/999999/run_analysis", "{}"},
      {"POST", "/voice_sessions/" + fx("t1", "voice_session_id") + "/run_analysis",
       "/voice_sessions/" + fx("t1", "voice_session_id") + "/run_analysis",
       R"({"call_analysis_prompt_id":")" + fx("t2", "call_analysis_prompt_id") + "\"}"},
  };
  for (const auto& p : probes) {
    auto foreign = http().send(p.method, p.path_foreign, key, p.body);
    auto unknown = http().send(p.method, p.path_unknown, key,
                               p.path_foreign == p.path_unknown
                                   ? std::string(R"({"call_analysis_prompt_id":"999999"})")
                                   : p.body);
    EXPECT_EQ(foreign.status, 404) << p.path_foreign << " " << foreign.raw;
    EXPECT_EQ(foreign.status, unknown.status) << p.path_foreign;
    EXPECT_EQ(without_request_id(foreign), without_request_id(unknown)) << p.path_foreign;
  }
  // The foreign resources are untouched.
  auto t2 = api_key(cred("t2-all"));
  auto ev = http().send("GET", "/follow-ups/" + fx("t2", "follow_up_id") + "/events", t2);
  EXPECT_EQ(str(ev.data().at("status")), "scheduled");
}

TEST_F(auth_test, lists_never_show_another_tenant) {
  std::set<std::string> t1_ids;
  auto key = api_key(cred("t1-all"));
  std::string cursor;
  do {
    auto a = http().send(
        "GET", "/voice_sessions?page_size=100" + (cursor.empty() ? "" : "&cursor=" + cursor), key);
    ASSERT_EQ(a.status, 200);
    for (const auto& item : a.data().at("items").as_array()) t1_ids.insert(str(item.at("id")));
    cursor = a.data().at("next_cursor").is_string() ? str(a.data().at("next_cursor")) : "";
  } while (!cursor.empty());
  EXPECT_EQ(t1_ids.size(), 85U);
  EXPECT_EQ(t1_ids.count(fx("t2", "voice_session_id")), 0U);
  EXPECT_EQ(t1_ids.count(fx("t3", "voice_session_id")), 0U);
}

}  // namespace
}  // namespace conform::reference::testing
