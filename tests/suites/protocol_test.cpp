// The protocol suite against the reference server: 405 on undocumented
// methods, 413 over the size limits, 429 with Retry-After for the throttled
// credential, and the same answer for a repeated delivery; each fault it is
// meant to catch fails the named check.
#include <gtest/gtest.h>

#include <string>

#include "tests/suites/support.hpp"

namespace {

using conform::suites::testing::run_conform;

const std::string k_checks =
    "method_not_allowed,payload_too_large,rate_limit_conformance,repeat_delivery";

TEST(protocol_suite, the_clean_reference_passes_every_protocol_check) {
  auto r = run_conform({"--seed", "4", "--checks", k_checks});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(r.failures().empty()) << r.out;
  EXPECT_EQ(r.not_run_count(), 0u) << r.not_run_text();
  for (const char* check :
       {"method_not_allowed", "payload_too_large", "rate_limit_conformance", "repeat_delivery"}) {
    EXPECT_GT(r.cells_passed(check), 0u) << check;
  }
}

TEST(protocol_suite, an_undocumented_method_answered_404_fails_method_not_allowed) {
  auto r = run_conform({"--seed", "4", "--checks", "method_not_allowed", "--fault", "no_405"});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  auto failures = r.failures("method_not_allowed");
  ASSERT_FALSE(failures.empty());
  const auto& f = failures.front();
  EXPECT_EQ(f.at("status").as_int64(), 404);
  EXPECT_NE(std::string(f.at("expected").as_string()).find("405"), std::string::npos);
  // Reproducible: the curl command sends the undocumented method.
  EXPECT_NE(std::string(f.at("curl").as_string()).find("curl"), std::string::npos);
}

TEST(protocol_suite, a_429_without_retry_after_fails_rate_limit_conformance) {
  auto r = run_conform({"--seed", "4", "--checks", "rate_limit_conformance", "--fault",
                        "rate_limit_no_retry_after"});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  auto failures = r.failures("rate_limit_conformance");
  ASSERT_EQ(failures.size(), 1u) << r.out;
  EXPECT_NE(std::string(failures.front().at("cause").as_string()).find("without"),
            std::string::npos);
  // The throttled credential's secret is named by its variable, never shown.
  EXPECT_EQ(std::string(failures.front().at("curl").as_string()).find("tk_test_"),
            std::string::npos);
}

TEST(protocol_suite, a_repeated_delivery_answered_differently_fails_repeat_delivery) {
  auto r = run_conform(
      {"--seed", "4", "--checks", "repeat_delivery", "--fault", "telephony_not_idempotent"});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  auto failures = r.failures("repeat_delivery");
  ASSERT_EQ(failures.size(), 1u) << r.out;
  // Both requests are in the reproduction.
  const std::string curl(failures.front().at("curl").as_string());
  EXPECT_NE(curl.find('\n'), std::string::npos) << curl;
}

TEST(protocol_suite, a_check_the_profile_cannot_feed_says_not_run_and_why) {
  // Only the throttled credential's operations excluded: every other check
  // still runs, and the rate-limit check says why it could not.
  auto r =
      run_conform({"--seed", "4", "--checks", "rate_limit_conformance", "--include", "getHealth"});
  EXPECT_EQ(r.status, 2) << r.out << r.err;  // nothing judged
  EXPECT_GT(r.not_run_count(), 0u);
  EXPECT_NE(r.not_run_text().find("rate-limited"), std::string::npos) << r.not_run_text();
}

}  // namespace
