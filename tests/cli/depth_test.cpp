// Depth from a URL and one credential (issue 20), against the reference
// server: with the admin JWT alone, a partner key alone, and a tenant key
// with its tenant header, `conform run --url` reaches every operation the
// permission matrix lets that credential call, with no failure, and the
// three runs together follow every link of the description; and a profile
// that `conform profile discover` writes runs the deep suites.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli.hpp"
#include "openapi/loader.hpp"
#include "reference/server.hpp"
#include "reports/json_read.hpp"

namespace conform {
namespace {

namespace fs = std::filesystem;

std::string temp(const std::string& name) {
  return (fs::temp_directory_path() / ("conform-depth-" + std::to_string(::getpid()) + "-" + name))
      .string();
}

struct result {
  int status = 0;
  std::string out, err;
  harness::run_report report;
};

result conform_run(std::vector<std::string> args, const std::string& name) {
  const std::string json = temp(name + ".json");
  args.insert(args.begin(), "run");
  // Depth, not safety: the reference each test starts is disposable.
  args.insert(args.end(), {"--no-progress", "--seed", "3", "--examples", "2", "--json", json,
                           "--allow-destructive"});
  std::ostringstream out, err;
  result r;
  r.status = cli::main_command(args, out, err);
  r.out = out.str();
  r.err = err.str();
  auto report = reports::read_json_report(json);
  EXPECT_TRUE(report) << report.error() << "\n" << r.err;
  if (report) r.report = std::move(*report);
  fs::remove(json);
  return r;
}

/// The operations the permission matrix lets a key type call (public ones too).
std::set<std::string> allowed(const std::string& kind) {
  auto loaded = openapi::load(std::string(CONFORM_SPEC_DIR) + "/voice-api.yaml");
  EXPECT_TRUE(loaded.ok());
  std::set<std::string> out;
  for (const auto& row : loaded.spec->permissions->operations) {
    if (row.is_public) {
      out.insert(row.operation_id);
      continue;
    }
    auto it = row.needs.find(kind);
    if (it != row.needs.end() && it->second) out.insert(row.operation_id);
  }
  return out;
}

std::set<std::string> reached(const harness::run_report& r) {
  std::set<std::string> out;
  for (const auto& x : r.reach) {
    if (x.reached()) out.insert(x.operation_id);
  }
  return out;
}

class depth : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<reference::server>(reference::server_config{});
    url_ = server_->base_url();
  }
  void use(const char* variable, const std::string& credential) {
    ::setenv(variable, server_->credential(credential).c_str(), 1);
  }
  std::unique_ptr<reference::server> server_;
  std::string url_;
};

TEST_F(depth, the_admin_jwt_alone_reaches_every_operation_it_may_call) {
  use("DEPTH_JWT", "jwt-admin");
  auto r = conform_run({"--url", url_, "--auth-env", "DEPTH_JWT", "-H", "X-Tenant-Id: 101"}, "jwt");
  for (const auto& f : r.report.failures)
    ADD_FAILURE() << f.check << " " << f.operation_id << ": " << f.seen;
  EXPECT_EQ(r.status, 0) << r.err;
  // 16 operations take a JWT and 3 take no credential: 19 of 22 is all there is.
  const auto want = allowed("jwt");
  EXPECT_EQ(want.size(), 19u);
  EXPECT_EQ(reached(r.report), want);
  // The header said what was read from the token, unverified.
  EXPECT_NE(
      r.out.find("learned: $DEPTH_JWT: role admin (claim role) read from the token's payload, "
                 "not verified"),
      std::string::npos)
      << r.out;
  std::size_t followed = 0;
  for (const auto& l : r.report.links) followed += l.followed > 0;
  EXPECT_EQ(r.report.links.size(), 25u);
  EXPECT_EQ(followed, 22u);  // the other three are on answers only a partner key gets
  // The ids the walk found or made feed the later phases: a campaign made
  // fresh by create -> import (launchable), a voice session read and not
  // moved since. Only the follow-up stays unknown: the walk cancelled the
  // one the description's example names, and nothing creates follow-ups.
  for (const auto& n : r.report.not_runs) {
    if (n.check != "positive_data_acceptance" || n.why.find("no id is known") == std::string::npos)
      continue;
    EXPECT_TRUE(n.operation_id == "cancelFollowUp" || n.operation_id == "getFollowUpEvents")
        << n.operation_id << ": " << n.why;
  }
}

TEST_F(depth, a_partner_key_and_a_tenant_key_reach_what_the_matrix_allows_and_together_every_link) {
  use("DEPTH_PARTNER", "partner-allocate");
  use("DEPTH_TENANT", "t1-all");
  use("DEPTH_JWT", "jwt-admin");
  auto partner = conform_run(
      {"--url", url_, "--auth-env", "DEPTH_PARTNER", "--auth-scheme", "partnerApiKey"}, "partner");
  for (const auto& f : partner.report.failures) ADD_FAILURE() << f.check << ": " << f.seen;
  EXPECT_EQ(partner.status, 0) << partner.err;
  EXPECT_EQ(reached(partner.report), allowed("partner_key"));

  auto tenant = conform_run({"--url", url_, "--auth-env", "DEPTH_TENANT", "--auth-scheme",
                             "tenantApiKey", "-H", "X-Tenant-Id: 101"},
                            "tenant");
  for (const auto& f : tenant.report.failures) ADD_FAILURE() << f.check << ": " << f.seen;
  EXPECT_EQ(tenant.status, 0) << tenant.err;
  EXPECT_EQ(reached(tenant.report), allowed("tenant_key"));

  // The JWT without a tenant header adds links only: what the stateful walk
  // follows, which runs before the plan and whatever the checks. Its run
  // plans one check and no coverage phase; its verdicts are not judged here
  // (the admin JWT's whole run is, in the test above).
  auto jwt = conform_run(
      {"--url", url_, "--auth-env", "DEPTH_JWT", "--no-coverage", "--checks", "response_received"},
      "jwt2");
  std::set<std::string> followed;
  for (const auto* r : {&partner.report, &tenant.report, &jwt.report}) {
    for (const auto& l : r->links) {
      if (l.followed > 0) followed.insert(l.from_operation + " " + l.status + " " + l.name);
    }
  }
  EXPECT_EQ(followed.size(), 25u);
}

TEST_F(depth, a_discovered_profile_runs_the_deep_suites) {
  use("DEPTH_JWT", "jwt-admin");
  use("DEPTH_PARTNER", "partner-allocate");
  use("DEPTH_TENANT", "t1-all");
  use("DEPTH_JWT_T2", "jwt-t2-admin");
  const std::string profile = temp("discovered.yaml");
  std::ostringstream out, err;
  const int status = cli::main_command({"profile",
                                        "discover",
                                        "--url",
                                        url_,
                                        "--seed",
                                        "3",
                                        "--auth-env",
                                        "DEPTH_JWT",
                                        "--auth-env",
                                        "DEPTH_PARTNER",
                                        "--auth-scheme",
                                        "partnerApiKey",
                                        "--auth-env",
                                        "DEPTH_TENANT",
                                        "--auth-scheme",
                                        "tenantApiKey",
                                        "--auth-env",
                                        "DEPTH_JWT_T2",
                                        "-o",
                                        profile},
                                       out, err);
  ASSERT_EQ(status, 0) << err.str();
  std::ifstream in(profile);
  std::stringstream text;
  text << in.rdbuf();
  // No secret in the file: each credential is named by its variable.
  for (const char* name : {"jwt-admin", "partner-allocate", "t1-all", "jwt-t2-admin"}) {
    EXPECT_EQ(text.str().find(server_->credential(name)), std::string::npos) << name;
  }
  EXPECT_NE(text.str().find("value_env: \"DEPTH_PARTNER\""), std::string::npos) << text.str();

  auto r = conform_run({"--profile", profile}, "deep");
  fs::remove(profile);
  for (const auto& f : r.report.failures) {
    ADD_FAILURE() << f.check << " " << f.operation_id << " as " << f.auth_model << ": " << f.seen;
  }
  EXPECT_EQ(r.status, 0) << r.err;
  // The deep suites ran on what was discovered: isolation between the two
  // tenants, the state machines on fresh campaigns, the page walks.
  std::map<std::string, std::uint64_t> passed;
  for (const auto& t : r.report.tallies) passed[t.check] += t.passed;
  for (const char* check : {"tenant_foreign_resource", "tenant_list_isolation",
                            "tenant_header_enforcement", "state_transitions", "state_preconditions",
                            "pagination_page_walk", "idempotency_replay", "auth_scope_matrix"}) {
    EXPECT_GT(passed[check], 0u) << check;
  }
}

}  // namespace
}  // namespace conform
