#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "profile/loader.hpp"

namespace conform::profile {
namespace {

const std::map<std::string, std::string> test_env = {
    {"CONFORM_TENANT_ALL", "tk_test_ALLSECRET_1"},   {"CONFORM_JWT_VIEWER", "eyJ.viewer.SECRET"},
    {"CONFORM_JWT_EXPIRED", "eyJ.expired.SECRET"},   {"CONFORM_LIVE_KEY", "tk_live_LIVESECRET"},
    {"CONFORM_THROTTLED", "tk_test_THROTTLESECRET"}, {"CONFORM_EMPTY", ""}};

std::optional<std::string> fake_env(const std::string& name) {
  const auto it = test_env.find(name);
  if (it == test_env.end()) return std::nullopt;
  return it->second;
}

std::string all_messages(const load_result& r) {
  std::string out;
  for (const auto& d : r.diagnostics) out += format_diagnostic(d) + "\n";
  return out;
}

load_result load_valid() {
  return load_profile(std::string(CONFORM_TEST_DATA_DIR) + "/valid.yaml", fake_env);
}

TEST(profile, loads_the_contract_example) {
  const auto r = load_valid();
  ASSERT_TRUE(r.ok()) << all_messages(r);
  const profile& p = *r.value;
  EXPECT_EQ(p.base_url.to_string(), "http://127.0.0.1:8080/api/v1");
  EXPECT_EQ(p.env, environment::sandbox);
  ASSERT_EQ(p.tenants.size(), 2u);
  EXPECT_EQ(p.tenants[0].name, "t1");
  EXPECT_EQ(p.tenants[0].id, "101");
  EXPECT_EQ(*p.tenants[0].fixture("call_analysis_prompt_id"), "61");
  EXPECT_EQ(p.tenants[0].fixtures.size(), 10u);
  EXPECT_EQ(*p.tenants[1].fixture("follow_up_id"), "5002");
  ASSERT_EQ(p.credentials.size(), 7u);

  const credential& all = *p.find_credential("tenant-all");
  EXPECT_EQ(all.scheme, credential_kind::tenant_key);
  EXPECT_EQ(all.value.reveal(), "tk_test_ALLSECRET_1");
  EXPECT_EQ(all.value.env_reference(), "$CONFORM_TENANT_ALL");
  EXPECT_TRUE(all.value.from_env());
  EXPECT_EQ(p.home_tenant(all)->name, "t1");
  ASSERT_TRUE(all.scopes.has_value());
  EXPECT_TRUE(all.grants("contacts:write"));
  EXPECT_FALSE(all.grants("billing:tenant:read"));

  const credential& partner = *p.find_credential("partner");
  EXPECT_EQ(partner.value.reveal(), "pk_test_inline_partner_secret");
  EXPECT_EQ(partner.value.env_reference(), "$CONFORM_SECRET_PARTNER");
  EXPECT_EQ(p.tenants_of(partner).size(), 2u);
  EXPECT_EQ(p.other_tenant(partner), nullptr);

  const credential& viewer = *p.find_credential("viewer");
  EXPECT_EQ(viewer.role, jwt_role::viewer);
  EXPECT_FALSE(viewer.scopes.has_value());  // absent: unknown, not "none"
  EXPECT_EQ(p.other_tenant(viewer)->name, "t2");

  EXPECT_TRUE(p.find_credential("old-token")->expired);
  EXPECT_EQ(p.environment_of(*p.find_credential("live-key")), environment::production);
  EXPECT_EQ(p.environment_of(all), environment::sandbox);
  EXPECT_TRUE(p.find_credential("slow-lane")->rate_limited);

  const credential& none = *p.find_credential("no-scopes");
  ASSERT_TRUE(none.scopes.has_value());  // [] : known to hold none
  EXPECT_TRUE(none.scopes->empty());
  EXPECT_EQ(none.extra.at("team"), "billing");
  EXPECT_EQ(none.value.env_reference(), "$CONFORM_SECRET_NO_SCOPES");

  EXPECT_EQ(p.credentials_by_scheme(credential_kind::jwt).size(), 2u);
  EXPECT_EQ(p.credentials_by_scheme(credential_kind::tenant_key).size(), 4u);
  EXPECT_EQ(*p.fixture(all, "follow_up_id"), "5001");
  EXPECT_EQ(p.fixture(all, "no_such_fixture"), nullptr);
  EXPECT_EQ(p.find_tenant_by_id("102")->name, "t2");

  // The unknown key is a warning with its position, not an error.
  ASSERT_EQ(r.diagnostics.size(), 1u) << all_messages(r);
  EXPECT_EQ(r.diagnostics[0].level, core::severity::warning);
  EXPECT_EQ(r.diagnostics[0].pos.line, 55);
  EXPECT_EQ(r.diagnostics[0].pos.column, 5);
}

TEST(profile, secrets_never_print) {
  const auto r = load_valid();
  ASSERT_TRUE(r.ok());
  std::ostringstream out;
  for (const auto& c : r.value->credentials) out << c.name << "=" << c.value << "\n";
  const std::string text = out.str();
  EXPECT_NE(text.find("tenant-all=***"), std::string::npos);
  for (const auto& [name, value] : test_env) {
    if (!value.empty()) {
      EXPECT_EQ(text.find(value), std::string::npos) << name;
    }
  }
  EXPECT_EQ(text.find("pk_test_inline_partner_secret"), std::string::npos);
  EXPECT_EQ(::testing::PrintToString(r.value->credentials[0].value), "***");
}

TEST(profile, redactor_hides_every_credential_in_curl_lines) {
  const auto r = load_valid();
  ASSERT_TRUE(r.ok());
  const profile& p = *r.value;
  http::request req;
  req.target = "/partner/tenants";
  req.add_header("Authorization", "Bearer " + p.find_credential("viewer")->value.reveal());
  req.add_header("X-Partner-Api-Key", p.find_credential("partner")->value.reveal());
  const std::string line = http::to_curl(req, p.base_url, make_redactor(p));
  for (const auto& c : p.credentials) {
    EXPECT_EQ(line.find(c.value.reveal()), std::string::npos) << c.name;
  }
  EXPECT_NE(line.find("\"${CONFORM_JWT_VIEWER}\""), std::string::npos) << line;
  EXPECT_NE(line.find("\"${CONFORM_SECRET_PARTNER}\""), std::string::npos) << line;
}

TEST(profile, needs_and_what_is_missing) {
  const auto r = load_valid();
  ASSERT_TRUE(r.ok());
  const profile& p = *r.value;

  credential_need write_contacts{.scheme = credential_kind::tenant_key,
                                 .scopes = {"contacts:write"}};
  ASSERT_EQ(p.matching(write_contacts).size(), 1u);
  EXPECT_EQ(p.matching(write_contacts)[0]->name, "tenant-all");
  EXPECT_TRUE(p.missing(write_contacts).empty());

  credential_need lacking{.scheme = credential_kind::tenant_key,
                          .lacking_scopes = {"contacts:write"}};
  ASSERT_EQ(p.matching(lacking).size(), 1u);
  EXPECT_EQ(p.matching(lacking)[0]->name, "no-scopes");

  credential_need allocate{.scheme = credential_kind::tenant_key,
                           .scopes = {"billing:partner:allocate"}};
  EXPECT_TRUE(p.matching(allocate).empty());
  const auto why = p.missing(allocate);
  ASSERT_FALSE(why.empty());
  EXPECT_NE(why[0].find("granting [billing:partner:allocate]"), std::string::npos) << why[0];

  credential_need admin{.scheme = credential_kind::jwt, .role = jwt_role::admin};
  EXPECT_NE(p.missing(admin).at(0).find("role admin"), std::string::npos);

  credential_need expired{.scheme = credential_kind::jwt, .expired = true};
  EXPECT_EQ(p.matching(expired).at(0)->name, "old-token");
  credential_need other_env{.scheme = credential_kind::tenant_key, .other_environment = true};
  EXPECT_EQ(p.matching(other_env).at(0)->name, "live-key");
  credential_need throttled{.rate_limited = true};
  EXPECT_EQ(p.matching(throttled).at(0)->name, "slow-lane");

  credential_need isolation{.scheme = credential_kind::partner_key, .second_tenant = true};
  EXPECT_NE(p.missing(isolation).at(0).find("second tenant"), std::string::npos);
  credential_need jwt_isolation{
      .scheme = credential_kind::jwt, .second_tenant = true, .fixtures = {"follow_up_id"}};
  EXPECT_EQ(p.matching(jwt_isolation).at(0)->name, "viewer");

  credential_need fixture{.scheme = credential_kind::tenant_key, .fixtures = {"webhook_id"}};
  EXPECT_NE(p.missing(fixture).at(0).find("'webhook_id'"), std::string::npos);

  credential_need jwt_scoped{.scheme = credential_kind::jwt, .scopes = {"contacts:read"}};
  const auto unknown = p.missing(jwt_scoped);
  ASSERT_EQ(unknown.size(), 2u);
  EXPECT_NE(unknown[1].find("scopes not stated for [viewer]"), std::string::npos) << unknown[1];
  EXPECT_NE(write_contacts.describe().find("tenant_key credential granting [contacts:write]"),
            std::string::npos);
}

struct error_case {
  const char* name;
  const char* yaml;
  int line;
  int column;
  const char* says;
};

void PrintTo(const error_case& c, std::ostream* os) {
  *os << c.name;
}

class profile_errors : public ::testing::TestWithParam<error_case> {};

constexpr const char* head =
    "base_url: http://127.0.0.1:8080/api/v1\nenvironment: sandbox\n"
    "tenants:\n  t1: { id: \"101\" }\n  t2: { id: \"102\" }\n";

TEST_P(profile_errors, reports_what_and_where) {
  const error_case& c = GetParam();
  const auto r = parse_profile(c.yaml, "target.yaml", fake_env);
  EXPECT_FALSE(r.ok());
  bool found = false;
  for (const auto& d : r.diagnostics) {
    if (d.level == core::severity::error && d.message.find(c.says) != std::string::npos) {
      found = true;
      EXPECT_EQ(d.pos.file, "target.yaml");
      EXPECT_EQ(d.pos.line, c.line) << format_diagnostic(d);
      EXPECT_EQ(d.pos.column, c.column) << format_diagnostic(d);
    }
  }
  EXPECT_TRUE(found) << "expected '" << c.says << "' in:\n" << all_messages(r);
  // No secret from the environment ever appears in a message.
  for (const auto& [name, value] : test_env) {
    if (!value.empty()) {
      EXPECT_EQ(all_messages(r).find(value), std::string::npos);
    }
  }
  EXPECT_EQ(all_messages(r).find("inline-secret-value"), std::string::npos);
}

std::string with_head(const std::string& rest) {
  return std::string(head) + rest;
}

const std::string cases_text[] = {
    // 0: bad YAML
    "base_url: [unclosed\n",
    // 1: empty
    "",
    // 2: not a mapping
    "- a\n- b\n",
    // 3: missing base_url
    "environment: sandbox\ntenants: {}\n",
    // 4: bad base_url
    "base_url: ftp://x/\ntenants: {}\n",
    // 5: bad environment
    "base_url: http://h/\nenvironment: staging\ntenants: {}\n",
    // 6: missing tenants
    "base_url: http://h/\nenvironment: sandbox\n",
    // 7: tenant without id
    "base_url: http://h/\ntenants:\n  t1: { fixtures: {} }\n",
    // 8: duplicate tenant id
    "base_url: http://h/\ntenants:\n  t1: { id: \"1\" }\n  t2: { id: \"1\" }\n",
    // 9: unknown tenant
    with_head("credentials:\n  - name: k\n    scheme: tenant_key\n    value: inline-secret-value\n"
              "    tenant: t9\n"),
    // 10: value and value_env
    with_head("credentials:\n  - name: k\n    scheme: tenant_key\n    value: inline-secret-value\n"
              "    value_env: CONFORM_TENANT_ALL\n    tenant: t1\n"),
    // 11: neither value nor value_env
    with_head("credentials:\n  - name: k\n    scheme: tenant_key\n    tenant: t1\n"),
    // 12: env var unset
    with_head("credentials:\n  - name: k\n    scheme: jwt\n    value_env: CONFORM_NOT_SET\n"
              "    tenants: [t1]\n"),
    // 13: env var empty
    with_head("credentials:\n  - name: k\n    scheme: jwt\n    value_env: CONFORM_EMPTY\n"
              "    tenants: [t1]\n"),
    // 14: bad scheme
    with_head("credentials:\n  - name: k\n    scheme: basic\n    value: inline-secret-value\n"
              "    tenant: t1\n"),
    // 15: bad role
    with_head("credentials:\n  - name: k\n    scheme: jwt\n    value: inline-secret-value\n"
              "    tenants: [t1]\n    role: owner\n"),
    // 16: role on a key
    with_head("credentials:\n  - name: k\n    scheme: tenant_key\n    value: inline-secret-value\n"
              "    tenant: t1\n    role: admin\n"),
    // 17: scopes not a list
    with_head("credentials:\n  - name: k\n    scheme: tenant_key\n    value: inline-secret-value\n"
              "    tenant: t1\n    scopes: contacts:read\n"),
    // 18: expired not a boolean
    with_head("credentials:\n  - name: k\n    scheme: jwt\n    value: inline-secret-value\n"
              "    tenants: [t1]\n    expired: maybe\n"),
    // 19: tenant key with two tenants
    with_head("credentials:\n  - name: k\n    scheme: tenant_key\n    value: inline-secret-value\n"
              "    tenants: [t1, t2]\n"),
    // 20: duplicate credential name
    with_head(
        "credentials:\n  - { name: k, scheme: jwt, value: inline-secret-value, tenants: [t1] }\n"
        "  - { name: k, scheme: jwt, value: inline-secret-value, tenants: [t1] }\n"),
    // 21: missing name
    with_head("credentials:\n  - { scheme: jwt, value: inline-secret-value, tenants: [t1] }\n"),
    // 22: missing tenant
    with_head("credentials:\n  - { name: k, scheme: jwt, value: inline-secret-value }\n"),
    // 23: credentials not a list
    with_head("credentials:\n  k: { scheme: jwt }\n"),
    // 24: duplicate key
    "base_url: http://h/\nbase_url: http://g/\ntenants: {}\n",
    // 25: environment of a credential
    with_head("credentials:\n  - name: k\n    scheme: tenant_key\n    value: inline-secret-value\n"
              "    tenant: t1\n    environment: staging\n"),
    // 26: null scopes
    with_head("credentials:\n  - name: k\n    scheme: tenant_key\n    value: inline-secret-value\n"
              "    tenant: t1\n    scopes:\n"),
    // 27: missing scheme
    with_head("credentials:\n  - { name: k, value: inline-secret-value, tenant: t1 }\n"),
};

INSTANTIATE_TEST_SUITE_P(
    all, profile_errors,
    ::testing::Values(
        error_case{"bad_yaml", cases_text[0].c_str(), 2, 1, "invalid YAML"},
        error_case{"empty", cases_text[1].c_str(), 1, 1, "the profile is empty"},
        error_case{"not_a_mapping", cases_text[2].c_str(), 1, 1, "must be a mapping"},
        error_case{"missing_base_url", cases_text[3].c_str(), 1, 1, "base_url: missing"},
        error_case{"bad_base_url", cases_text[4].c_str(), 1, 11, "unsupported scheme 'ftp'"},
        error_case{"bad_environment", cases_text[5].c_str(), 2, 14, "'staging' is not one of"},
        error_case{"missing_tenants", cases_text[6].c_str(), 1, 1, "tenants: missing"},
        error_case{"tenant_without_id", cases_text[7].c_str(), 3, 3, "tenants.t1.id: missing"},
        error_case{"duplicate_tenant_id", cases_text[8].c_str(), 4, 3, "also the id of tenant t1"},
        error_case{"unknown_tenant", cases_text[9].c_str(), 10, 13,
                   "unknown tenant 't9' (tenants: t1, t2)"},
        error_case{"value_and_value_env", cases_text[10].c_str(), 10, 16,
                   "credentials[0] (k): give either value or value_env, not both"},
        error_case{"no_value", cases_text[11].c_str(), 7, 5, "missing value or value_env"},
        error_case{"env_unset", cases_text[12].c_str(), 9, 16,
                   "credentials[0] (k): environment variable CONFORM_NOT_SET is not set"},
        error_case{"env_empty", cases_text[13].c_str(), 9, 16,
                   "environment variable CONFORM_EMPTY is empty"},
        error_case{"bad_scheme", cases_text[14].c_str(), 8, 13, "'basic' is not one of jwt"},
        error_case{"bad_role", cases_text[15].c_str(), 11, 11, "'owner' is not one of admin"},
        error_case{"role_on_key", cases_text[16].c_str(), 11, 11,
                   "only a jwt credential has a role"},
        error_case{"scopes_not_list", cases_text[17].c_str(), 11, 13, "scopes: expected a list"},
        error_case{"expired_not_bool", cases_text[18].c_str(), 11, 14, "expected true or false"},
        error_case{"tenant_key_two_tenants", cases_text[19].c_str(), 10, 14,
                   "a tenant_key belongs to exactly one tenant"},
        error_case{"duplicate_credential", cases_text[20].c_str(), 8, 13,
                   "duplicate credential name"},
        error_case{"missing_name", cases_text[21].c_str(), 7, 5, "credentials[0].name: missing"},
        error_case{"missing_tenant", cases_text[22].c_str(), 7, 5, "missing tenant"},
        error_case{"credentials_not_list", cases_text[23].c_str(), 7, 3,
                   "expected a list of credentials"},
        error_case{"duplicate_key", cases_text[24].c_str(), 2, 1, "duplicate key 'base_url'"},
        error_case{"credential_environment", cases_text[25].c_str(), 11, 18,
                   "'staging' is not one of sandbox"},
        error_case{"null_scopes", cases_text[26].c_str(), 11, 5,
                   "write [] for a key with no scopes"},
        error_case{"missing_scheme", cases_text[27].c_str(), 7, 5, "scheme: missing"}),
    [](const ::testing::TestParamInfo<error_case>& info) { return std::string(info.param.name); });

TEST(profile, unreadable_file_is_an_error_naming_it) {
  const auto r = load_profile("/nonexistent/profile.yaml", fake_env);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(format_diagnostic(r.diagnostics.at(0)),
            "/nonexistent/profile.yaml: error: cannot read the profile file");
}

TEST(profile, warnings_for_unknown_keys_and_missing_environment) {
  const auto r = parse_profile("base_url: https://[::1]:8443/api/v1\ntenants: {}\ncolour: blue\n",
                               "p.yaml", fake_env);
  ASSERT_TRUE(r.ok()) << all_messages(r);
  EXPECT_EQ(r.value->env, environment::sandbox);
  EXPECT_TRUE(r.value->base_url.ipv6_literal);
  const std::string text = all_messages(r);
  EXPECT_NE(text.find("p.yaml:3:1: warning: unknown key 'colour' (ignored)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("warning: environment: missing, assuming sandbox"), std::string::npos);
}

TEST(profile, secret_env_names) {
  EXPECT_EQ(derived_env_name("tenant-all"), "CONFORM_SECRET_TENANT_ALL");
  EXPECT_EQ(derived_env_name("Partner 2.0"), "CONFORM_SECRET_PARTNER_2_0");
  secret s("v", "CONFORM_JWT_VIEWER", true);
  EXPECT_EQ(s.env_reference(), "$CONFORM_JWT_VIEWER");
  std::ostringstream os;
  os << s;
  EXPECT_EQ(os.str(), "***");
}

}  // namespace
}  // namespace conform::profile
