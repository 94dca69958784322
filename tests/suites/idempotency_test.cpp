// The idempotency scenarios against the reference server: a clean run passes
// every cell it judges, and each idempotency fault is caught by the check
// meant for it.
#include "tests/suites/support.hpp"

namespace conform::suites::testing {
namespace {

const std::string all_checks =
    "idempotency_replay,idempotency_effect,idempotency_key_reuse,idempotency_concurrency,"
    "idempotency_key_required";

std::string causes(const conform_result& r, const std::string& check) {
  std::string out;
  for (const auto& f : r.failures(check)) {
    out += std::string(f.at("operation_id").as_string()) + ": " +
           std::string(f.at("cause").as_string()) + "\n";
  }
  return out;
}

TEST(IdempotencySuite, CleanReferencePassesEveryCheck) {
  const auto r = run_conform({"--checks", all_checks});
  ASSERT_FALSE(r.report.empty()) << r.err;
  EXPECT_TRUE(r.failures().empty()) << boost::json::serialize(r.report.at("failures"));
  EXPECT_GE(r.cells_passed("idempotency_replay"), 5u) << r.not_run_text();
  EXPECT_GE(r.cells_passed("idempotency_effect"), 2u) << r.not_run_text();
  EXPECT_GE(r.cells_passed("idempotency_key_reuse"), 3u) << r.not_run_text();
  EXPECT_GE(r.cells_passed("idempotency_concurrency"), 5u) << r.not_run_text();
  EXPECT_GE(r.cells_passed("idempotency_key_required"), 2u) << r.not_run_text();
  EXPECT_EQ(r.status, 0) << r.out << r.err;
}

TEST(IdempotencySuite, UnmarkedReplayIsCaught) {
  const auto r = run_conform({"--checks", all_checks, "--fault", "replay_not_marked"});
  EXPECT_EQ(r.failed_checks(), std::set<std::string>{"idempotency_replay"}) << r.err;
  EXPECT_NE(causes(r, "idempotency_replay").find("the replay is not marked"), std::string::npos)
      << causes(r, "idempotency_replay");
  // Each reproduction is the first request and its replay, credentials as variables.
  for (const auto& f : r.failures("idempotency_replay")) {
    const std::string curl(f.at("curl").as_string());
    EXPECT_NE(curl.find('\n'), std::string::npos) << curl;
    EXPECT_NE(curl.find("${"), std::string::npos) << curl;
  }
}

TEST(IdempotencySuite, SecondEffectOfAReplayIsCaught) {
  const auto r = run_conform({"--checks", all_checks, "--fault", "replay_double_effect"});
  const auto failed = r.failed_checks();
  EXPECT_TRUE(failed.count("idempotency_effect")) << causes(r, "") << r.not_run_text();
  EXPECT_FALSE(failed.count("idempotency_replay")) << causes(r, "idempotency_replay");
  EXPECT_NE(causes(r, "idempotency_effect").find("the replay had a second effect"),
            std::string::npos);
}

TEST(IdempotencySuite, IgnoredKeyIsCaughtByTheReuseCheck) {
  const auto r = run_conform({"--checks", all_checks, "--fault", "idempotency_key_ignored"});
  EXPECT_EQ(r.failed_checks(), std::set<std::string>{"idempotency_key_reuse"}) << r.err;
  EXPECT_NE(causes(r, "idempotency_key_reuse")
                .find("a key reused with a different request is not refused"),
            std::string::npos)
      << causes(r, "idempotency_key_reuse");
}

TEST(IdempotencySuite, EffectWithoutItsListOperationIsNotRunWithAReason) {
  const auto r = run_conform({"--checks", "idempotency_effect", "--exclude", "listPartnerTenants"});
  EXPECT_EQ(r.cells_passed("idempotency_effect"), 0u);
  EXPECT_NE(r.not_run_text().find("does not cover"), std::string::npos) << r.not_run_text();
  EXPECT_TRUE(r.failures().empty());
}

}  // namespace
}  // namespace conform::suites::testing
