// Safe by default (issue 37 item 5): `conform run --url` against a server
// that holds data from before the run leaves that data byte for byte as it
// was, at several seeds, while what the run created is still updated,
// archived and deleted; with --allow-destructive the run may change it. The
// run header and the JSON report say which mode applied, and what could not
// run because of it is "not run: safe mode: ...".
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <unistd.h>

#include <filesystem>
#include <string>

#include "tests/cli/support.hpp"
#include "tests/support/kept_server.hpp"

namespace conform::cli {
namespace {

using test_support::contains;

const std::string kept_spec = std::string(CONFORM_TEST_DATA_DIR) + "/kept.yaml";

std::string kept_scratch(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("conform-safe-" + std::to_string(::getpid()) + "-" + name))
      .string();
}

TEST(safe_mode, a_url_run_leaves_the_data_it_found_as_it_was) {
  test_support::kept_server server;
  const std::string before = server.seeded();
  for (const char* seed : {"1", "2", "3"}) {
    const std::string json = kept_scratch(std::string("safe-") + seed + ".json");
    const auto r = test_support::run({"--spec", kept_spec, "--url", server.base_url(), "--seed",
                                      seed, "--examples", "8", "--json", json, "--no-progress"});
    EXPECT_NE(r.status, 2) << r.err << r.out;
    EXPECT_EQ(server.seeded(), before) << "seed " << seed << "\n" << r.out;
    EXPECT_TRUE(contains(r.out, "writes: safe: writes only to what this run creates")) << r.out;
    EXPECT_TRUE(contains(r.out, "safe mode: no resource created in this run to ")) << r.out;
    const auto report = boost::json::parse(test_support::slurp(json));
    boost::system::error_code ec;
    const auto* mode = report.find_pointer("/run/target/writes/mode", ec);
    ASSERT_NE(mode, nullptr);
    EXPECT_EQ(mode->as_string(), "safe");
    std::filesystem::remove(json);
  }
  // The checks still ran on what the runs created.
  EXPECT_GT(server.writes_to_created(), 0u);
}

TEST(safe_mode, allow_destructive_may_change_it_and_says_so) {
  test_support::kept_server server;
  const std::string before = server.seeded();
  const auto r = test_support::run({"--spec", kept_spec, "--url", server.base_url(), "--seed", "1",
                                    "--examples", "8", "--allow-destructive", "--no-progress"});
  EXPECT_NE(r.status, 2) << r.err << r.out;
  EXPECT_TRUE(contains(r.out,
                       "writes: destructive: writes to any resource it reaches "
                       "(--allow-destructive)"))
      << r.out;
  EXPECT_NE(server.seeded(), before) << r.out;
}

// README: the in-process reference is always disposable; the run header
// says so.
TEST(safe_mode, the_in_process_reference_is_always_disposable) {
  const auto r = test_support::run({"--include", "getHealth", "--checks", "response_received",
                                    "--examples", "1", "--seed", "1", "--no-progress"});
  EXPECT_EQ(r.status, 0) << r.err << r.out;
  EXPECT_TRUE(contains(r.out,
                       "writes: destructive: writes to any resource it reaches (the in-process "
                       "reference)"))
      << r.out;
}

}  // namespace
}  // namespace conform::cli
