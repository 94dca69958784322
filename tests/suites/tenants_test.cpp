// The tenants scenario against the in-process reference server: clean, it
// finds nothing and runs every cell; with each tenant fault, the check made
// for it fails.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "reference/server.hpp"
#include "tests/suites/support.hpp"

namespace {

using conform::suites::testing::fault_case;
using conform::suites::testing::run_conform;
using conform::suites::testing::run_under_other_concerns_faults;

const std::string tenant_checks =
    "tenant_header_enforcement,tenant_context_required,tenant_foreign_resource,"
    "tenant_list_isolation";

TEST(tenants_suite, clean_reference_has_no_failure_and_runs_every_cell) {
  const auto r = run_conform({"--checks", tenant_checks});
  for (const auto& f : r.failures()) ADD_FAILURE() << boost::json::serialize(f);
  EXPECT_EQ(r.not_run_count(), 0u) << r.not_run_text();
  for (const auto* check : {"tenant_header_enforcement", "tenant_context_required",
                            "tenant_foreign_resource", "tenant_list_isolation"}) {
    EXPECT_GT(r.cells_passed(check), 0u) << check;
  }
  EXPECT_EQ(r.status, 0) << r.err;
}

TEST(tenants_suite, checks_only_the_operations_they_apply_to) {
  const auto r = run_conform({"--checks", tenant_checks});
  for (const auto& c : r.report.at("cells").as_array()) {
    const std::string check(c.at("check").as_string());
    const std::string op(c.at("operation_id").as_string());
    // The partner's own tenant list has no tenant context to isolate or name.
    if (check == "tenant_list_isolation" || check == "tenant_header_enforcement" ||
        check == "tenant_context_required") {
      EXPECT_NE(op, "listPartnerTenants") << check;
    }
    // Health needs no credentials: no tenant to check.
    EXPECT_NE(op, "getHealth") << check;
  }
}

class tenant_fault : public ::testing::TestWithParam<fault_case> {};

TEST_P(tenant_fault, the_check_made_for_it_fails) {
  const auto& c = GetParam();
  const auto r = run_conform({"--checks", c.check, "--fault", c.fault});
  EXPECT_FALSE(r.failures(c.check).empty()) << c.fault << " not caught by " << c.check;
  EXPECT_NE(r.status, 0);
}

INSTANTIATE_TEST_SUITE_P(
    faults, tenant_fault,
    ::testing::Values(fault_case{"x_tenant_widens", "tenant_header_enforcement"},
                      fault_case{"tenant_leak", "tenant_foreign_resource"},
                      fault_case{"foreign_list_leak", "tenant_list_isolation"},
                      fault_case{"wrong_error_code", "tenant_foreign_resource"}),
    [](const auto& info) { return std::string(info.param.fault) + "_" + info.param.check; });

TEST(tenants_suite, foreign_list_leak_names_both_pages) {
  const auto r = run_conform({"--checks", "tenant_list_isolation", "--fault", "foreign_list_leak"});
  const auto failures = r.failures("tenant_list_isolation");
  ASSERT_FALSE(failures.empty());
  for (const auto& f : failures) {
    EXPECT_EQ(f.at("operation_id").as_string(), "listVoiceSessions");
    const std::string curl(f.at("curl").as_string());
    EXPECT_NE(curl.find('\n'), std::string::npos) << "both pages reproduce it: " << curl;
  }
}

TEST(tenants_suite, tenant_leak_is_reported_on_the_leaking_operations_only) {
  const auto r = run_conform({"--checks", "tenant_foreign_resource", "--fault", "tenant_leak"});
  const auto failures = r.failures("tenant_foreign_resource");
  ASSERT_FALSE(failures.empty());
  for (const auto& f : failures) {
    const std::string op(f.at("operation_id").as_string());
    EXPECT_TRUE(op == "launchCampaign" || op == "pauseCampaign") << op;
  }
}

}  // namespace

namespace {

/// The reference profile with only tenant t1 and the credentials named in
/// `keep`, written to a temporary file (removed by the destructor).
class trimmed_profile {
 public:
  trimmed_profile(const conform::reference::server& srv, const std::set<std::string>& keep)
      : path_(std::filesystem::temp_directory_path() /
              ("conform-tenants-" + std::to_string(::getpid()) + ".yaml")) {
    YAML::Node p = YAML::Load(srv.profile_yaml());
    YAML::Node tenants;
    tenants["t1"] = p["tenants"]["t1"];
    p["tenants"] = tenants;
    YAML::Node credentials(YAML::NodeType::Sequence);
    for (const auto& c : p["credentials"]) {
      if (keep.count(c["name"].as<std::string>())) credentials.push_back(c);
    }
    p["credentials"] = credentials;
    std::ofstream(path_) << YAML::Dump(p);
  }
  ~trimmed_profile() { std::filesystem::remove(path_); }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

TEST(tenants_suite, list_isolation_passes_no_walker_when_only_one_list_can_be_walked) {
  // Two tenants, but the second one's key is refused: the first tenant's
  // walk has nothing to be compared with, so it must not pass.
  conform::reference::server srv{conform::reference::server_config{}};
  const auto path = std::filesystem::temp_directory_path() /
                    ("conform-tenants-broken-" + std::to_string(::getpid()) + ".yaml");
  {
    YAML::Node p = YAML::Load(srv.profile_yaml());
    YAML::Node tenants;
    tenants["t1"] = p["tenants"]["t1"];
    tenants["t2"] = p["tenants"]["t2"];
    p["tenants"] = tenants;
    YAML::Node credentials(YAML::NodeType::Sequence);
    for (auto c : p["credentials"]) {
      const auto name = c["name"].as<std::string>();
      if (name != "t1-all" && name != "t2-all") continue;
      if (name == "t2-all") {
        auto value = c["value"].as<std::string>();
        value.back() = value.back() == '0' ? '1' : '0';
        c["value"] = value;
      }
      credentials.push_back(c);
    }
    p["credentials"] = credentials;
    std::ofstream(path) << YAML::Dump(p);
  }
  const auto r = run_conform({"--profile", path.string(), "--checks", "tenant_list_isolation"});
  std::filesystem::remove(path);
  ASSERT_FALSE(r.report.empty()) << r.err;
  EXPECT_TRUE(r.failures().empty()) << boost::json::serialize(r.report.at("failures"));
  EXPECT_EQ(r.cells_passed("tenant_list_isolation"), 0u);
  std::string why;
  for (const auto& n : r.report.at("not_run").as_array()) {
    if (n.at("check").as_string() == "tenant_list_isolation") {
      why += std::string(n.at("why").as_string()) + "\n";
    }
  }
  EXPECT_NE(why.find("only this tenant's list could be walked"), std::string::npos) << why;
  EXPECT_NE(why.find("the first page did not answer 2xx"), std::string::npos) << why;
}

TEST(tenants_suite, one_tenant_profile_says_what_cannot_run_and_passes_nothing) {
  conform::reference::server srv{conform::reference::server_config{}};
  trimmed_profile profile(srv, {"t1-all", "jwt-admin"});
  const auto r = run_conform({"--profile", profile.path(), "--checks", tenant_checks});
  EXPECT_TRUE(r.failures().empty()) << boost::json::serialize(r.report.at("failures"));
  // Without a second tenant nothing of another tenant can be named or compared.
  for (const auto* check : {"tenant_foreign_resource", "tenant_list_isolation"}) {
    EXPECT_EQ(r.cells_passed(check), 0u) << check;
  }
  std::map<std::string, std::string> why;
  for (const auto& n : r.report.at("not_run").as_array()) {
    why[std::string(n.at("check").as_string())] += std::string(n.at("why").as_string()) + "\n";
  }
  EXPECT_NE(why["tenant_list_isolation"].find("two tenants"), std::string::npos);
  EXPECT_NE(why["tenant_foreign_resource"].find("outside the reach of"), std::string::npos);
  EXPECT_NE(why["tenant_header_enforcement"].find("reachable by"), std::string::npos);
  // No partner key, and the only JWT has one membership.
  EXPECT_NE(why["tenant_context_required"].find("partner_key"), std::string::npos);
  EXPECT_NE(why["tenant_context_required"].find("several tenants"), std::string::npos);
}

}  // namespace

namespace {

TEST(tenants_suite, faults_of_other_concerns_raise_no_false_alarm) {
  const auto r = run_under_other_concerns_faults(tenant_checks);
  for (const auto& f : r.failures()) ADD_FAILURE() << boost::json::serialize(f);
  EXPECT_EQ(r.not_run_count(), 0u) << r.not_run_text();
}

}  // namespace
