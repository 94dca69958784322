// The pagination scenarios against the reference server: a clean run passes
// every cell it judges, and each list fault is caught by the check meant for it.
#include "tests/suites/support.hpp"

#include <httplib.h>
#include <yaml-cpp/yaml.h>

#include <map>
#include <thread>

#include "reference/server.hpp"
#include "tests/support/servers.hpp"

namespace conform::suites::testing {
namespace {

using test_support::scripted_server;

const std::string pagination_checks =
    "pagination_page_walk,pagination_page_bounds,pagination_cursor_walk,"
    "pagination_cursor_integrity";

TEST(pagination_suite, clean_reference_passes_every_check) {
  const auto r = run_conform({"--checks", pagination_checks});
  ASSERT_FALSE(r.report.empty()) << r.err;
  EXPECT_TRUE(r.failures().empty()) << boost::json::serialize(r.report.at("failures"));
  // Nothing left unjudged: every probe, the cross-tenant cursor included, ran.
  EXPECT_EQ(r.not_run_count(), 0u) << r.not_run_text();
  // Every page list and the cursor list is judged, under more than one auth model.
  EXPECT_GE(r.cells_passed("pagination_page_walk"), 3u) << r.not_run_text();
  EXPECT_GE(r.cells_passed("pagination_page_bounds"), 3u) << r.not_run_text();
  EXPECT_GE(r.cells_passed("pagination_cursor_walk"), 1u) << r.not_run_text();
  EXPECT_GE(r.cells_passed("pagination_cursor_integrity"), 1u) << r.not_run_text();
  EXPECT_EQ(r.status, 0) << r.out << r.err;
}

TEST(pagination_suite, page_gap_is_caught_by_the_page_walk) {
  const auto r = run_conform({"--checks", pagination_checks, "--fault", "page_gap"});
  const auto failures = r.failures("pagination_page_walk");
  ASSERT_FALSE(failures.empty()) << r.err;
  EXPECT_NE(causes(r, "pagination_page_walk").find("a page before the last is not full"),
            std::string::npos)
      << causes(r, "pagination_page_walk");
  EXPECT_EQ(r.failed_checks(), std::set<std::string>{"pagination_page_walk"});
  // The failure reproduces: one curl per probe, credentials as variables.
  const std::string curl(failures.front().at("curl").as_string());
  EXPECT_NE(curl.find("curl"), std::string::npos);
  EXPECT_NE(curl.find("${"), std::string::npos);
  EXPECT_NE(r.status, 0);
}

TEST(pagination_suite, count_off_by_one_is_caught_by_the_page_walk) {
  const auto r = run_conform({"--checks", pagination_checks, "--fault", "page_count_off"});
  EXPECT_EQ(r.failed_checks(), std::set<std::string>{"pagination_page_walk"}) << r.err;
  EXPECT_NE(
      causes(r, "pagination_page_walk").find("the items walked do not add up to the item count"),
      std::string::npos)
      << causes(r, "pagination_page_walk");
}

TEST(pagination_suite, repeated_item_is_caught_by_the_cursor_walk) {
  const auto r = run_conform({"--checks", pagination_checks, "--fault", "cursor_duplicate"});
  EXPECT_EQ(r.failed_checks(), std::set<std::string>{"pagination_cursor_walk"}) << r.err;
  EXPECT_NE(causes(r, "pagination_cursor_walk").find("an item appears twice in the walk"),
            std::string::npos)
      << causes(r, "pagination_cursor_walk");
}

TEST(pagination_suite, unbound_cursor_is_caught_by_the_integrity_check) {
  const auto r = run_conform({"--checks", pagination_checks, "--fault", "cursor_unbound"});
  EXPECT_EQ(r.failed_checks(), std::set<std::string>{"pagination_cursor_integrity"}) << r.err;
  EXPECT_NE(causes(r, "pagination_cursor_integrity")
                .find("a cursor reused with another filter or sort value is accepted"),
            std::string::npos)
      << causes(r, "pagination_cursor_integrity");
}

TEST(pagination_suite, only_the_enabled_checks_report) {
  const auto r = run_conform({"--checks", "pagination_page_bounds"});
  ASSERT_TRUE(r.report.contains("cells")) << r.err;
  for (const auto& c : r.report.at("cells").as_array()) {
    EXPECT_EQ(c.at("check").as_string(), "pagination_page_bounds");
  }
  EXPECT_GE(r.cells_passed("pagination_page_bounds"), 3u);
}

TEST(pagination_suite, list_without_a_sufficient_credential_is_not_run_with_the_reason) {
  reference::server srv(reference::server_config{});
  const auto profile = profile_without_scope(srv, "tenants:read", "pagination");
  const auto r =
      run_conform({"--profile", profile, "--checks", "pagination_page_walk,pagination_page_bounds",
                   "--include", "listPartnerTenants"});
  std::filesystem::remove(profile);
  ASSERT_FALSE(r.report.empty()) << r.err;
  EXPECT_TRUE(r.failures().empty());
  EXPECT_EQ(r.cells_passed("pagination_page_walk"), 0u);
  std::size_t reasons = 0;
  for (const auto& n : r.report.at("not_run").as_array()) {
    const auto& check = n.at("check").as_string();
    if (check != "pagination_page_walk" && check != "pagination_page_bounds") continue;
    EXPECT_EQ(n.at("operation_id").as_string(), "listPartnerTenants");
    EXPECT_NE(std::string(n.at("why").as_string()).find("tenants:read"), std::string::npos);
    ++reasons;
  }
  EXPECT_EQ(reasons, 2u) << r.not_run_text();
}

/// A reference server (running while this lives) and its profile edited by
/// `edit`, written to a file for --profile (removed by the destructor).
class edited_profile {
 public:
  template <class Edit>
  edited_profile(const std::string& name, Edit edit)
      : srv_(reference::server_config{}),
        path_(std::filesystem::temp_directory_path() /
              ("conform-" + name + "-" + std::to_string(::getpid()) + ".yaml")) {
    YAML::Node p = YAML::Load(srv_.profile_yaml());
    edit(p);
    std::ofstream(path_) << YAML::Dump(p);
  }
  ~edited_profile() { std::filesystem::remove(path_); }
  std::string path() const { return path_.string(); }

 private:
  reference::server srv_;
  std::filesystem::path path_;
};

/// The not-run reasons of the report, per check.
std::map<std::string, std::string> not_run_why(const conform_result& r) {
  std::map<std::string, std::string> why;
  if (!r.report.contains("not_run")) return why;
  for (const auto& n : r.report.at("not_run").as_array()) {
    why[std::string(n.at("check").as_string())] += std::string(n.at("why").as_string()) + "\n";
  }
  return why;
}

TEST(pagination_suite, a_target_that_only_answers_429_is_not_run_never_a_failure) {
  // Every request is refused as rate-limited, retries included: nothing can
  // be judged, so nothing fails and nothing passes.
  scripted_server target([](const httplib::Request&, httplib::Response& res) {
    res.status = 429;
    res.set_header("Retry-After", "0");
    res.set_content(R"({"error":"slow down","error_code":"RATE_LIMITED"})", "application/json");
  });
  const int port = target.port();
  ASSERT_GT(port, 0);
  edited_profile profile("pagination-429", [&](YAML::Node& p) {
    p["base_url"] = "http://127.0.0.1:" + std::to_string(port) + "/api/v1";
  });
  // No stateful walk: it judges none of the pagination checks, and against
  // this target it would only wait out the client's retries of every link.
  const auto r =
      run_conform({"--profile", profile.path(), "--checks", pagination_checks, "--no-stateful"});
  ASSERT_FALSE(r.report.empty()) << r.err;
  for (const auto& f : r.failures()) ADD_FAILURE() << boost::json::serialize(f);
  const auto why = not_run_why(r);
  for (const auto* check : {"pagination_page_walk", "pagination_page_bounds",
                            "pagination_cursor_walk", "pagination_cursor_integrity"}) {
    EXPECT_EQ(r.cells_passed(check), 0u) << check;
    ASSERT_TRUE(why.count(check)) << check << ": " << r.not_run_text();
    EXPECT_NE(why.at(check).find("rate-limited"), std::string::npos) << why.at(check);
  }
}

TEST(pagination_suite, cursor_for_another_tenant_is_not_run_without_a_second_tenant) {
  // One tenant, one credential: the tampered and rebound cursors are sent,
  // but no cursor can go to another tenant, and the cell says what to add.
  edited_profile profile("pagination-one-tenant", [](YAML::Node& p) {
    YAML::Node tenants;
    tenants["t1"] = p["tenants"]["t1"];
    p["tenants"] = tenants;
    YAML::Node credentials(YAML::NodeType::Sequence);
    for (const auto& c : p["credentials"]) {
      if (c["name"].as<std::string>() == "t1-all") credentials.push_back(c);
    }
    p["credentials"] = credentials;
  });
  const auto r =
      run_conform({"--profile", profile.path(), "--checks", "pagination_cursor_integrity"});
  ASSERT_FALSE(r.report.empty()) << r.err;
  EXPECT_TRUE(r.failures().empty()) << boost::json::serialize(r.report.at("failures"));
  EXPECT_EQ(r.cells_passed("pagination_cursor_integrity"), 0u);
  const auto why = not_run_why(r);
  ASSERT_TRUE(why.count("pagination_cursor_integrity")) << r.not_run_text();
  EXPECT_NE(why.at("pagination_cursor_integrity").find("add a second tenant"), std::string::npos)
      << why.at("pagination_cursor_integrity");
}

}  // namespace
}  // namespace conform::suites::testing
