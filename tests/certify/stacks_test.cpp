// The correct clients of the two other stacks are certified: Python's
// standard library (urllib, with equal-jitter backoff) and Node's fetch
// (with +-20 % jitter), both reading CONFORM_PROFILE_JSON. Without the
// interpreter, the test says "not run" and why. bench/certify_matrix.sh
// certifies them on seeds 1..20.
#include <gtest/gtest.h>

#include "tests/certify/certify_support.hpp"

namespace conform::testing {
namespace {

void expect_certified(const std::string& interpreter, const std::string& script) {
  if (!available(interpreter)) {
    GTEST_SKIP() << "not run: " << interpreter << " is not installed (scripts/deps.sh installs it)";
  }
  const auto r = certify(1, {interpreter, std::string(CONFORM_EXAMPLES_DIR) + "/" + script});
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(r.report.at("failures").as_array().empty()) << r.out;
}

TEST(stacks, the_python_stdlib_client_is_certified) {
  expect_certified("python3", "partner_client_py/client.py");
}

TEST(stacks, the_node_fetch_client_is_certified) {
  expect_certified("node", "partner_client_node/client.mjs");
}

}  // namespace
}  // namespace conform::testing
