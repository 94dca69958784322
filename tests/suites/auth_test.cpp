// The auth scenario against the in-process reference server: clean, it finds
// nothing and runs every cell; with each auth fault, the check made for it fails.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/base64.hpp"
#include "reference/server.hpp"
#include "suites/auth/jwt.hpp"
#include "tests/suites/support.hpp"

namespace {

using conform::suites::testing::fault_case;
using conform::suites::testing::run_conform;
using conform::suites::testing::run_under_other_concerns_faults;
namespace jwt = conform::suites::auth::jwt;

const std::string auth_checks =
    "auth_unauthenticated,auth_credential_rejected,auth_jwt_tampering,auth_jwt_only,"
    "auth_scope_matrix";

TEST(auth_suite, clean_reference_has_no_failure_and_runs_every_cell) {
  const auto r = run_conform({"--checks", auth_checks});
  for (const auto& f : r.failures()) ADD_FAILURE() << boost::json::serialize(f);
  EXPECT_EQ(r.not_run_count(), 0u) << r.not_run_text();
  for (const auto* check : {"auth_unauthenticated", "auth_credential_rejected",
                            "auth_jwt_tampering", "auth_jwt_only", "auth_scope_matrix"}) {
    EXPECT_GT(r.cells_passed(check), 0u) << check;
  }
  EXPECT_EQ(r.status, 0) << r.err;
}

TEST(auth_suite, scope_matrix_has_one_cell_per_operation_and_credential) {
  const auto r = run_conform({"--checks", "auth_scope_matrix"});
  std::set<std::string> models;
  for (const auto& c : r.report.at("cells").as_array()) {
    if (c.at("operation_id").as_string() == "createCampaign") {
      models.insert(std::string(c.at("auth_model").as_string()));
    }
  }
  // Read-only roles, scope-less keys and the other key kinds all have a cell.
  EXPECT_TRUE(models.count("jwt (jwt-viewer)"));
  EXPECT_TRUE(models.count("tenant_key (t1-none)"));
  EXPECT_TRUE(models.count("partner_key (partner-default)"));
  EXPECT_FALSE(models.count("tenant_key (t1-throttled)"));
  EXPECT_FALSE(models.count("jwt (jwt-expired)"));
}

class auth_fault : public ::testing::TestWithParam<fault_case> {};

TEST_P(auth_fault, the_check_made_for_it_fails) {
  const auto& c = GetParam();
  const auto r = run_conform({"--checks", c.check, "--fault", c.fault});
  EXPECT_FALSE(r.failures(c.check).empty()) << c.fault << " not caught by " << c.check;
  EXPECT_NE(r.status, 0);
  for (const auto& f : r.failures(c.check)) {
    EXPECT_FALSE(f.at("cause").as_string().empty());
    EXPECT_FALSE(f.at("expected").as_string().empty());
  }
}

INSTANTIATE_TEST_SUITE_P(
    faults, auth_fault,
    ::testing::Values(fault_case{"wrong_401_as_403", "auth_unauthenticated"},
                      fault_case{"wrong_403_as_401", "auth_scope_matrix"},
                      fault_case{"scope_leak", "auth_scope_matrix"},
                      fault_case{"jwt_only_ignored", "auth_jwt_only"},
                      fault_case{"jwt_only_ignored", "auth_scope_matrix"},
                      fault_case{"wrong_401_as_403", "auth_credential_rejected"},
                      fault_case{"wrong_401_as_403", "auth_jwt_tampering"},
                      fault_case{"expired_jwt_accepted", "auth_credential_rejected"},
                      fault_case{"other_env_key_accepted", "auth_credential_rejected"},
                      fault_case{"alg_none_accepted", "auth_jwt_tampering"}),
    [](const auto& info) { return std::string(info.param.fault) + "_" + info.param.check; });

TEST(auth_suite, scope_leak_is_reported_on_the_leaking_cell_only) {
  const auto r = run_conform({"--checks", "auth_scope_matrix", "--fault", "scope_leak"});
  const auto failures = r.failures("auth_scope_matrix");
  ASSERT_FALSE(failures.empty());
  for (const auto& f : failures) {
    EXPECT_EQ(f.at("operation_id").as_string(), "createCampaign");
    EXPECT_NE(std::string(f.at("cause").as_string()).find(": answered 2xx"), std::string::npos)
        << boost::json::serialize(f);
  }
}

TEST(auth_suite, reports_never_show_a_credential_value) {
  conform::reference::server srv{conform::reference::server_config{}};
  for (const auto* fault : {"expired_jwt_accepted", "wrong_401_as_403", "other_env_key_accepted"}) {
    const auto r = run_conform({"--checks", auth_checks, "--fault", fault});
    const std::string text = boost::json::serialize(r.report) + r.out + r.err;
    ASSERT_FALSE(r.failures().empty()) << fault;
    EXPECT_NE(text.find("${"), std::string::npos) << "credentials appear as variables";
    for (const auto* name : {"t1-all", "t1-other-env", "partner-other-env", "partner-allocate"}) {
      const std::string secret = srv.credential(name);
      ASSERT_FALSE(secret.empty());
      EXPECT_EQ(text.find(secret), std::string::npos) << name << " under " << fault;
    }
  }
}

TEST(compact_token, forgeries_change_only_what_they_name) {
  const std::string header = conform::core::base64url_encode(R"({"alg":"HS256","typ":"JWT"})");
  const std::string payload = conform::core::base64url_encode(R"({"sub":"u1","role":"viewer"})");
  const auto t = jwt::compact_token::parse(header + "." + payload + ".c2lnbmF0dXJl");
  ASSERT_TRUE(t);
  EXPECT_FALSE(jwt::compact_token::parse("a.b"));
  EXPECT_FALSE(jwt::compact_token::parse(header + ".bm90IGpzb24." + "x"));

  const auto none = jwt::alg_none(*t);
  EXPECT_EQ(none.signature, "");
  EXPECT_EQ(none.payload, t->payload);
  EXPECT_EQ(boost::json::parse(
                *conform::core::base64_decode(none.header, conform::core::base64_alphabet::url))
                .at("alg"),
            "none");

  EXPECT_EQ(jwt::signature_stripped(*t).text(), header + "." + payload + ".");

  const auto wrong = jwt::wrong_signature(*t, "0123abcd");
  EXPECT_NE(wrong.signature, t->signature);
  EXPECT_EQ(wrong.header + wrong.payload, t->header + t->payload);

  const auto changed = jwt::payload_changed(*t, "role", "admin");
  EXPECT_EQ(changed.signature, t->signature);
  EXPECT_EQ(boost::json::parse(
                *conform::core::base64_decode(changed.payload, conform::core::base64_alphabet::url))
                .at("role"),
            "admin");
  const std::string shown = jwt::shown_without_signature(changed, "CONFORM_SECRET_JWT");
  EXPECT_EQ(shown.find(t->signature), std::string::npos);
  EXPECT_NE(shown.find("CONFORM_SECRET_JWT"), std::string::npos);
  const auto other = jwt::payload_changed(*t, "", "");
  EXPECT_NE(other.payload, t->payload);
}

}  // namespace

namespace {

TEST(auth_suite, profile_without_jwt_or_refused_credentials_says_so) {
  conform::reference::server srv{conform::reference::server_config{}};
  const auto path = std::filesystem::temp_directory_path() /
                    ("conform-auth-" + std::to_string(::getpid()) + ".yaml");
  {
    YAML::Node p = YAML::Load(srv.profile_yaml());
    YAML::Node credentials(YAML::NodeType::Sequence);
    for (const auto& c : p["credentials"]) {
      if (c["name"].as<std::string>() == "t1-all") credentials.push_back(c);
    }
    p["credentials"] = credentials;
    std::ofstream(path) << YAML::Dump(p);
  }
  const auto r = run_conform({"--profile", path.string(), "--checks", auth_checks});
  std::filesystem::remove(path);
  EXPECT_TRUE(r.failures().empty()) << boost::json::serialize(r.report.at("failures"));
  std::map<std::string, std::string> why;
  for (const auto& n : r.report.at("not_run").as_array()) {
    why[std::string(n.at("check").as_string())] += std::string(n.at("why").as_string()) + "\n";
  }
  EXPECT_NE(why["auth_credential_rejected"].find("no credential marked expired"),
            std::string::npos);
  EXPECT_NE(why["auth_jwt_tampering"].find("no usable JWT"), std::string::npos);
  EXPECT_EQ(r.cells_passed("auth_credential_rejected"), 0u);
  EXPECT_EQ(r.cells_passed("auth_jwt_tampering"), 0u);
  // The one key still fills its row of the matrix and calls the JWT-only list.
  EXPECT_GT(r.cells_passed("auth_scope_matrix"), 0u);
  EXPECT_GT(r.cells_passed("auth_jwt_only"), 0u);
}

}  // namespace

namespace {

TEST(auth_suite, faults_of_other_concerns_raise_no_false_alarm) {
  const auto r = run_under_other_concerns_faults(auth_checks);
  for (const auto& f : r.failures()) ADD_FAILURE() << boost::json::serialize(f);
  EXPECT_EQ(r.not_run_count(), 0u) << r.not_run_text();
}

}  // namespace

namespace {

/// The reference in --url mode, as a new user points Conform at a server:
/// one credential from the environment, no profile, so nothing tells
/// Conform which role the token holds.
conform::suites::testing::conform_result url_run_with(const conform::reference::server& srv,
                                                      const std::string& credential,
                                                      std::vector<std::string> extra = {}) {
  const std::string var = "CONFORM_TEST_TAMPER_JWT";
  ::setenv(var.c_str(), srv.credential(credential).c_str(), 1);
  std::vector<std::string> args = {"--url",      srv.base_url(),
                                   "--auth-env", var,
                                   "-H",         "X-Tenant-Id: " + srv.fixture("t1", "tenant_id"),
                                   "--checks",   "auth_jwt_tampering"};
  args.insert(args.end(), extra.begin(), extra.end());
  auto r = run_conform(args);
  ::unsetenv(var.c_str());
  return r;
}

TEST(jwt_tampering, an_admin_token_in_url_mode_is_forged_for_real_and_never_a_false_alarm) {
  conform::reference::server srv{conform::reference::server_config{}};
  for (const std::string who : {"jwt-admin", "jwt-viewer"}) {
    const auto r = url_run_with(srv, who);
    for (const auto& f : r.failures()) ADD_FAILURE() << who << ": " << boost::json::serialize(f);
    EXPECT_GT(r.cells_passed("auth_jwt_tampering"), 0u) << who << "\n" << r.out;
  }
}

TEST(jwt_tampering, an_accepted_forgery_is_still_caught_in_url_mode) {
  conform::reference::server_config config;
  config.faults.insert("alg_none_accepted");
  conform::reference::server srv{config};
  const auto r = url_run_with(srv, "jwt-admin");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_FALSE(r.failures("auth_jwt_tampering").empty()) << r.out;
}

TEST(compact_token, a_claim_changed_to_the_value_it_holds_is_no_forgery) {
  const std::string header = conform::core::base64url_encode(R"({"alg":"HS256","typ":"JWT"})");
  const std::string payload = conform::core::base64url_encode(R"({"sub":"u1","role":"admin"})");
  const auto t = jwt::compact_token::parse(header + "." + payload + ".c2ln");
  ASSERT_TRUE(t);
  EXPECT_EQ(jwt::string_claim(*t, "role"), "admin");
  EXPECT_FALSE(jwt::string_claim(*t, "tenant_ids"));
  EXPECT_FALSE(jwt::payload_differs(*t, jwt::payload_changed(*t, "role", "admin")));
  EXPECT_TRUE(jwt::payload_differs(*t, jwt::payload_changed(*t, "role", "member")));
  EXPECT_TRUE(jwt::payload_differs(*t, jwt::payload_changed(*t, "", "")));
}

}  // namespace
