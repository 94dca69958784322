// The pagination scenarios against the reference server: a clean run passes
// every cell it judges, and each list fault is caught by the check meant for it.
#include "tests/suites/support.hpp"

#include "reference/server.hpp"

namespace conform::suites::testing {
namespace {

/// The reference server's profile without scope `scope` on any credential,
/// written to a file for --profile.
std::string profile_without_scope(const reference::server& srv, const std::string& scope,
                                  const std::string& name) {
  std::string yaml = srv.profile_yaml();
  for (const std::string& form : {", " + scope, scope + ", "}) {
    for (auto at = yaml.find(form); at != std::string::npos; at = yaml.find(form, at)) {
      yaml.erase(at, form.size());
    }
  }
  for (auto at = yaml.find("[" + scope + "]"); at != std::string::npos;
       at = yaml.find("[" + scope + "]", at)) {
    yaml.replace(at, scope.size() + 2, "[]");
  }
  const auto path = std::filesystem::temp_directory_path() /
                    ("conform-" + name + "-" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(path) << yaml;
  return path.string();
}

const std::string all_checks =
    "pagination_page_walk,pagination_page_bounds,pagination_cursor_walk,"
    "pagination_cursor_integrity";

std::string causes(const conform_result& r, const std::string& check) {
  std::string out;
  for (const auto& f : r.failures(check)) {
    out += std::string(f.at("operation_id").as_string()) + ": " +
           std::string(f.at("cause").as_string()) + "\n";
  }
  return out;
}

TEST(PaginationSuite, CleanReferencePassesEveryCheck) {
  const auto r = run_conform({"--checks", all_checks});
  ASSERT_FALSE(r.report.empty()) << r.err;
  EXPECT_TRUE(r.failures().empty()) << boost::json::serialize(r.report.at("failures"));
  // Every page list and the cursor list is judged, under more than one auth model.
  EXPECT_GE(r.cells_passed("pagination_page_walk"), 3u) << r.not_run_text();
  EXPECT_GE(r.cells_passed("pagination_page_bounds"), 3u) << r.not_run_text();
  EXPECT_GE(r.cells_passed("pagination_cursor_walk"), 1u) << r.not_run_text();
  EXPECT_GE(r.cells_passed("pagination_cursor_integrity"), 1u) << r.not_run_text();
  EXPECT_EQ(r.status, 0) << r.out << r.err;
}

TEST(PaginationSuite, PageGapIsCaughtByThePageWalk) {
  const auto r = run_conform({"--checks", all_checks, "--fault", "page_gap"});
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

TEST(PaginationSuite, CountOffByOneIsCaughtByThePageWalk) {
  const auto r = run_conform({"--checks", all_checks, "--fault", "page_count_off"});
  EXPECT_EQ(r.failed_checks(), std::set<std::string>{"pagination_page_walk"}) << r.err;
  EXPECT_NE(
      causes(r, "pagination_page_walk").find("the items walked do not add up to the item count"),
      std::string::npos)
      << causes(r, "pagination_page_walk");
}

TEST(PaginationSuite, RepeatedItemIsCaughtByTheCursorWalk) {
  const auto r = run_conform({"--checks", all_checks, "--fault", "cursor_duplicate"});
  EXPECT_EQ(r.failed_checks(), std::set<std::string>{"pagination_cursor_walk"}) << r.err;
  EXPECT_NE(causes(r, "pagination_cursor_walk").find("an item appears twice in the walk"),
            std::string::npos)
      << causes(r, "pagination_cursor_walk");
}

TEST(PaginationSuite, UnboundCursorIsCaughtByTheIntegrityCheck) {
  const auto r = run_conform({"--checks", all_checks, "--fault", "cursor_unbound"});
  EXPECT_EQ(r.failed_checks(), std::set<std::string>{"pagination_cursor_integrity"}) << r.err;
  EXPECT_NE(causes(r, "pagination_cursor_integrity")
                .find("a cursor reused with another filter or sort value is accepted"),
            std::string::npos)
      << causes(r, "pagination_cursor_integrity");
}

TEST(PaginationSuite, OnlyTheEnabledChecksReport) {
  const auto r = run_conform({"--checks", "pagination_page_bounds"});
  ASSERT_TRUE(r.report.contains("cells")) << r.err;
  for (const auto& c : r.report.at("cells").as_array()) {
    EXPECT_EQ(c.at("check").as_string(), "pagination_page_bounds");
  }
  EXPECT_GE(r.cells_passed("pagination_page_bounds"), 3u);
}

TEST(PaginationSuite, ListWithoutASufficientCredentialIsNotRunWithTheReason) {
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

}  // namespace
}  // namespace conform::suites::testing
