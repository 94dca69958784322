#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <sstream>

#include "openapi/loader.hpp"
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
  for (const auto& d : r.diagnostics) out += core::to_string(d) + "\n";
  return out;
}

load_result load_valid() {
  return load_profile(std::string(CONFORM_TEST_DATA_DIR) + "/valid.yaml", fake_env);
}

const credential& named(const target& p, std::string_view name) {
  for (const auto& c : p.credentials) {
    if (c.name == name) return c;
  }
  throw std::out_of_range(std::string(name));
}

TEST(profile, loads_the_contract_example) {
  const auto r = load_valid();
  ASSERT_TRUE(r.ok()) << all_messages(r);
  const target& p = *r.value;
  EXPECT_EQ(p.base_url.to_string(), "http://127.0.0.1:8080/api/v1");
  EXPECT_EQ(p.env, environment::sandbox);
  ASSERT_EQ(p.tenants.size(), 2u);
  EXPECT_EQ(p.tenants[0].name, "t1");
  EXPECT_EQ(p.tenants[0].id, "101");
  EXPECT_EQ(p.tenants[0].fixtures.at("call_analysis_prompt_id"), "61");
  EXPECT_EQ(p.tenants[0].fixtures.size(), 10u);
  EXPECT_EQ(p.tenants[1].fixtures.at("follow_up_id"), "5002");
  ASSERT_EQ(p.credentials.size(), 7u);

  const credential& all = named(p, "tenant-all");
  EXPECT_EQ(all.kind, "tenant_key");  // a label the description declares
  EXPECT_EQ(all.value.reveal(), "tk_test_ALLSECRET_1");
  EXPECT_EQ(all.value.env_reference(), "$CONFORM_TENANT_ALL");
  EXPECT_TRUE(all.value.from_env());
  ASSERT_NE(all.home(), nullptr);
  EXPECT_EQ(all.home(), &p.tenants[0]);  // points into the target's own tenants
  ASSERT_TRUE(all.scopes.has_value());
  EXPECT_NE(std::find(all.scopes->begin(), all.scopes->end(), "contacts:write"), all.scopes->end());

  const credential& partner = named(p, "partner");
  EXPECT_EQ(partner.value.reveal(), "pk_test_inline_partner_secret");
  EXPECT_EQ(partner.value.env_reference(), "$CONFORM_SECRET_PARTNER");
  EXPECT_EQ(partner.tenants.size(), 2u);

  const credential& viewer = named(p, "viewer");
  EXPECT_EQ(viewer.role, "viewer");
  EXPECT_FALSE(viewer.scopes.has_value());  // absent: unknown, not "none"
  EXPECT_TRUE(named(p, "tenant-all").role.empty());

  EXPECT_TRUE(named(p, "old-token").expired);
  EXPECT_TRUE(named(p, "live-key").other_environment);
  EXPECT_FALSE(all.other_environment);
  EXPECT_TRUE(named(p, "slow-lane").rate_limited);

  const credential& none = named(p, "no-scopes");
  ASSERT_TRUE(none.scopes.has_value());  // [] : known to hold none
  EXPECT_TRUE(none.scopes->empty());
  EXPECT_EQ(none.extra.at("team"), "billing");
  EXPECT_EQ(none.value.env_reference(), "$CONFORM_SECRET_NO_SCOPES");

  // Moving the target keeps every credential's tenants valid.
  auto again = load_valid();
  target moved = std::move(*again.value);
  EXPECT_EQ(named(moved, "tenant-all").home(), &moved.tenants[0]);

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
      EXPECT_EQ(d.pos.line, c.line) << core::to_string(d);
      EXPECT_EQ(d.pos.column, c.column) << core::to_string(d);
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
    // 6: tenants not a mapping (no tenants at all is valid)
    "base_url: http://h/\nenvironment: sandbox\ntenants: [a]\n",
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
    // 14: bad scheme (not text)
    with_head("credentials:\n  - name: k\n    scheme: [a, b]\n    value: inline-secret-value\n"
              "    tenant: t1\n"),
    // 15: a role the scheme's x-roles does not list (an error of bind())
    with_head("credentials:\n  - name: k\n    scheme: jwt\n    value: inline-secret-value\n"
              "    tenants: [t1]\n    role: owner\n"),
    // 16: role on a key (an error of bind(): the scheme declares no x-roles)
    with_head("credentials:\n  - name: k\n    scheme: tenant_key\n    value: inline-secret-value\n"
              "    tenant: t1\n    role: admin\n"),
    // 17: scopes not a list
    with_head("credentials:\n  - name: k\n    scheme: tenant_key\n    value: inline-secret-value\n"
              "    tenant: t1\n    scopes: contacts:read\n"),
    // 18: expired not a boolean
    with_head("credentials:\n  - name: k\n    scheme: jwt\n    value: inline-secret-value\n"
              "    tenants: [t1]\n    expired: maybe\n"),
    // 19: a key of one tenant with two (an error of bind(): x-tenants: one)
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
        error_case{"tenants_not_a_mapping", cases_text[6].c_str(), 3, 10,
                   "tenants: expected a mapping"},
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
        error_case{"bad_scheme", cases_text[14].c_str(), 8, 13,
                   "scheme: expected a non-empty text value"},
        error_case{"scopes_not_list", cases_text[17].c_str(), 11, 13, "scopes: expected a list"},
        error_case{"expired_not_bool", cases_text[18].c_str(), 11, 14, "expected true or false"},
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

// What a credential's scheme says of it is checked against the description
// (bind), not read from the label's name: the Voice API's key scheme says
// x-tenants: one and declares no x-roles; its JWT's x-roles lists the roles.
TEST(profile, what_the_scheme_says_is_checked_where_the_profile_writes_it) {
  auto spec = openapi::load(std::string(CONFORM_SPEC_DIR) + "/voice-api.yaml");
  ASSERT_TRUE(spec.ok());
  const std::pair<int, std::string> cases[] = {
      {15,
       "p.yaml:11:11: error: credential 'k': role 'owner' is not one of admin, member, viewer "
       "(x-roles of scheme 'bearerJwt')"},
      {16,
       "p.yaml:11:11: error: credential 'k': scheme 'tenantApiKey' (tenant_key) declares no "
       "x-roles and is no JWT, so the credential has no role"},
      {19,
       "p.yaml:10:14: error: credential 'k': scheme 'tenantApiKey' (tenant_key) says "
       "x-tenants: one: a credential of it belongs to exactly one tenant, and this one names "
       "2"}};
  for (const auto& [index, want] : cases) {
    auto r = parse_profile(cases_text[index], "p.yaml", fake_env);
    ASSERT_TRUE(r.ok()) << all_messages(r);
    const auto bound = bind(*r.value, *spec.spec);
    ASSERT_EQ(bound.size(), 1u) << index;
    EXPECT_EQ(core::to_string(bound[0]), want);
  }
}

TEST(profile, unreadable_file_is_an_error_naming_it) {
  const auto r = load_profile("/nonexistent/profile.yaml", fake_env);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(core::to_string(r.diagnostics.at(0)),
            "/nonexistent/profile.yaml: error: cannot read '/nonexistent/profile.yaml': No such "
            "file or directory");
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

TEST(profile, disposable_and_writable_fixtures) {
  const std::string text =
      "base_url: http://127.0.0.1:1/api/v1\n"
      "disposable: yes\n"
      "tenants:\n"
      "  t1:\n"
      "    writable: [contact_id]\n"
      "    id: \"101\"\n"
      "    fixtures: { contact_id: \"3001\", agent_id: \"11\" }\n";
  const auto r = parse_profile(text, "p.yaml", fake_env);
  ASSERT_TRUE(r.ok()) << all_messages(r);
  EXPECT_TRUE(r.value->disposable);
  ASSERT_EQ(r.value->tenants.size(), 1u);
  EXPECT_EQ(r.value->tenants[0].writable, std::set<std::string>{"contact_id"});
  // Read-only unless said: a profile without the fields is safe.
  const auto plain =
      parse_profile("base_url: http://127.0.0.1:1\nenvironment: sandbox\n", "q.yaml", fake_env);
  ASSERT_TRUE(plain.ok()) << all_messages(plain);
  EXPECT_FALSE(plain.value->disposable);
}

TEST(profile, a_writable_name_that_is_no_fixture_is_a_positioned_error) {
  const auto r = parse_profile(
      "base_url: http://127.0.0.1:1\nenvironment: sandbox\ndisposable: maybe\ntenants:\n"
      "  t1:\n    id: \"101\"\n    fixtures: { contact_id: \"3001\" }\n"
      "    writable: [contact_id, invoice_id]\n",
      "p.yaml", fake_env);
  EXPECT_FALSE(r.ok());
  const std::string text = all_messages(r);
  EXPECT_NE(text.find("p.yaml:3:13: error: disposable: expected true or false"), std::string::npos)
      << text;
  EXPECT_NE(text.find("p.yaml:8:28: error: tenants.t1.writable: 'invoice_id' is no fixture of t1"),
            std::string::npos)
      << text;
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

// A profile is input like a description: the same reader, the same bounds.
TEST(profile, hostile_profiles_are_refused_with_a_position) {
  std::string bomb = "base_url: http://127.0.0.1:8080/api/v1\nl0: &l0 [x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 9; ++i) {
    bomb += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " [";
    for (int k = 0; k < 8; ++k) bomb += std::string(k ? ", " : "") + "*l" + std::to_string(i - 1);
    bomb += "]\n";
  }
  const std::string deep = "base_url: " + std::string(100000, '[') + std::string(100000, ']');
  const std::pair<std::string, std::string> cases[] = {
      {bomb, "expands to more than"},
      {deep, "nesting deeper than 64"},
      {"base_url: x\n---\nbase_url: y\n", "a second YAML document"},
      {std::string("base_url: \"a\0b\"\n", 16), "control character U+0000 (NUL)"},
      {"base_url: \xff\n", "invalid UTF-8"},
  };
  for (const auto& [text, says] : cases) {
    const auto r = parse_profile(text, "hostile.yaml", fake_env);
    ASSERT_FALSE(r.ok()) << says;
    ASSERT_FALSE(r.diagnostics.empty()) << says;
    EXPECT_NE(r.diagnostics[0].message.find(says), std::string::npos)
        << core::to_string(r.diagnostics[0]);
    EXPECT_GT(r.diagnostics[0].pos.line, 0) << says;
  }
}

TEST(profile, a_device_or_a_folder_is_not_read_as_a_profile) {
  for (const char* path : {"/dev/zero", "/tmp"}) {
    const auto r = load_profile(path, fake_env);
    ASSERT_FALSE(r.ok()) << path;
    EXPECT_NE(all_messages(r).find("not a regular file"), std::string::npos) << all_messages(r);
  }
}

TEST(profile, booleans_are_the_words_profiles_have_always_accepted) {
  for (const auto& [word, want] : std::vector<std::pair<std::string, bool>>{{"true", true},
                                                                            {"Yes", true},
                                                                            {"ON", true},
                                                                            {"y", true},
                                                                            {"\"true\"", true},
                                                                            {"false", false},
                                                                            {"no", false},
                                                                            {"Off", false},
                                                                            {"N", false}}) {
    const auto r = parse_profile(
        "base_url: http://127.0.0.1:8080/api/v1\ntenants: {t1: {id: '1'}}\ncredentials:\n"
        "  - {name: k, scheme: tenant_key, value: tk_test_x, tenant: t1, expired: " +
            word + "}\n",
        "p.yaml", fake_env);
    ASSERT_TRUE(r.ok()) << word << "\n" << all_messages(r);
    EXPECT_EQ(r.value->credentials.at(0).expired, want) << word;
  }
  const auto bad = parse_profile(
      "base_url: http://127.0.0.1:8080/api/v1\ntenants: {t1: {id: '1'}}\ncredentials:\n"
      "  - {name: k, scheme: tenant_key, value: tk_test_x, tenant: t1, expired: yEs}\n",
      "p.yaml", fake_env);
  EXPECT_FALSE(bad.ok());
}

TEST(profile, json_profiles_read_as_yaml_ones_do) {
  const auto r = parse_profile(
      R"({"base_url": "http://127.0.0.1:8080/api/v1", "environment": "sandbox",
          "tenants": {"t1": {"id": "101", "fixtures": {"contact_id": "3001"}}},
          "credentials": [{"name": "k", "scheme": "tenant_key", "value": "tk_test_x",
                           "tenant": "t1", "scopes": ["contacts:read"], "expired": false}]})",
      "p.json", fake_env);
  ASSERT_TRUE(r.ok()) << all_messages(r);
  ASSERT_EQ(r.value->credentials.size(), 1u);
  EXPECT_EQ(r.value->tenants.at(0).fixtures.at("contact_id"), "3001");
}

}  // namespace
}  // namespace conform::profile
