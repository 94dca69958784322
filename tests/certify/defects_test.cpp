// The defect family of examples/partner_client (issue 19): each planted
// defect is refused by the rule named for it, beyond what the correct client
// breaks (nothing: it is certified on the same seed). The defects run in
// groups, each group's certifications at once (a server and a client each,
// mostly waiting), so that the family costs seconds of wall time.
// bench/certify_matrix.sh runs it on seeds 1..20 for the mutation score.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <set>

#include "tests/certify/certify_support.hpp"

namespace conform::testing {
namespace {

struct defect {
  const char* name;
  const char* rule;
};

const std::map<std::string, std::vector<defect>> family = {
    {"idempotency",
     {{"no-idempotency-key", "client_idempotency_key_present"},
      {"new-key-on-retry", "client_idempotency_key_on_retry"},
      {"never-retry-dropped", "client_idempotency_key_on_retry"},
      {"shared-key", "client_idempotency_key_per_intent"}}},
    {"retries",
     {{"ignore-retry-after", "client_retry_after"},
      {"never-retry-429", "client_retry_after"},
      {"no-backoff", "client_retry_backoff"},
      {"constant-backoff", "client_retry_backoff"},
      {"never-retry-5xx", "client_retry_backoff"},
      {"short-timeout", "client_retry_backoff"},
      {"unbounded-retries", "client_retry_bound"},
      {"retry-4xx", "client_no_blind_retry"}}},
    {"traversals",
     {{"cursor-change-size", "client_cursor_traversal"},
      {"cursor-stop-early", "client_cursor_traversal"},
      {"cursor-page-params", "client_cursor_traversal"},
      {"page-past-end", "client_page_traversal"},
      {"per-page-too-big", "client_page_traversal"}}},
    {"requests",
     {{"no-tenant-header", "client_tenant_header"},
      {"other-env-key", "client_key_environment"},
      {"invalid-body", "client_request_valid"},
      {"multipart-wrong-type", "client_request_valid"},
      {"two-credentials", "client_one_credential"},
      {"empty-credential", "client_one_credential"},
      {"exit-1", "client_completed"}}},
};

constexpr std::uint64_t seed = 5;

class defects : public ::testing::TestWithParam<std::string> {};

TEST_P(defects, each_is_refused_by_its_own_rule) {
  const auto& group = family.at(GetParam());
  std::vector<std::function<certify_run()>> jobs;
  for (const auto& d : group) {
    jobs.push_back([d] { return certify(seed, {CONFORM_EXAMPLE_CLIENT, "--defect", d.name}); });
  }
  const auto runs = all_at_once(jobs);
  for (std::size_t i = 0; i < group.size(); ++i) {
    SCOPED_TRACE(group[i].name);
    EXPECT_EQ(runs[i].status, 1) << runs[i].out;
    EXPECT_EQ(rule_status(runs[i].report, group[i].rule), "failed") << runs[i].out;
    // Named in the verdict's line too (the client's exit as such).
    const std::string named = std::string(group[i].rule) == "client_completed"
                                  ? "the client did not complete"
                                  : group[i].rule;
    EXPECT_NE(runs[i].report.at("verdict").as_string().find(named), std::string::npos)
        << runs[i].report.at("verdict").as_string();
  }
}

INSTANTIATE_TEST_SUITE_P(example_client, defects,
                         ::testing::Values("idempotency", "retries", "traversals", "requests"),
                         [](const auto& info) { return info.param; });

TEST(defect_family, is_the_clients_own_list_and_covers_every_rule) {
  const auto listed = scratch("defects.txt");
  ASSERT_EQ(
      std::system(
          (std::string(CONFORM_EXAMPLE_CLIENT) + " --list-defects > " + listed.string()).c_str()),
      0);
  std::string expected;
  std::map<std::string, std::string> sorted;
  std::set<std::string> rules;
  for (const auto& [group, ds] : family) {
    for (const auto& d : ds) {
      sorted[d.name] = d.rule;
      rules.insert(d.rule);
    }
  }
  for (const auto& [name, rule] : sorted) expected += name + " " + rule + "\n";
  EXPECT_EQ(read_file(listed), expected);
  EXPECT_GE(sorted.size(), 20u);
  // Every client rule of the catalogue, and the client's own completion.
  EXPECT_EQ(rules.size(), 14u);
}

TEST(defect_family, the_correct_client_breaks_nothing_on_the_same_seed) {
  const auto r = certify(seed, {CONFORM_EXAMPLE_CLIENT});
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(r.report.at("failures").as_array().empty()) << r.out;
}

}  // namespace
}  // namespace conform::testing
