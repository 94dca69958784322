// `conform run` streams the run on its console before the summary: each
// phase as it starts, each failure as it is found (one line each, for every
// failure the summary then details), with plain lines when standard output
// is no terminal. Against the in-process reference with a planted fault.
#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>
#include <string>
#include <vector>

#include "cli/cli.hpp"
#include "tests/cli/support.hpp"

namespace conform {
namespace {

using conform::test_support::command_result;
using conform::test_support::conform_cmd;
using conform::test_support::contains;

/// The lines of `text` that match `pattern`.
std::vector<std::string> lines_matching(const std::string& text, const std::regex& pattern) {
  std::vector<std::string> out;
  for (std::sregex_iterator it(text.begin(), text.end(), pattern), end; it != end; ++it) {
    out.push_back(it->str());
  }
  return out;
}

// Both runs take the voice sessions' operations only, where the fault lies
// (a run of every operation fails on the same five cells): what is judged
// here is how the console streams a run's phases and failures, which such a
// run has all of (coverage, exchanges, and shrinking when something failed).
const std::vector<std::string> narrow = {"--include", "*voice_sessions*"};

std::vector<std::string> with_narrow(std::vector<std::string> args) {
  args.insert(args.end(), narrow.begin(), narrow.end());
  return args;
}

TEST(console_run, streams_phases_and_each_failure_before_the_summary) {
  ::unsetenv("GITHUB_STEP_SUMMARY");
  const command_result r =
      conform_cmd(with_narrow({"run", "--examples", "1", "--seed", "1", "--checks",
                               "error_code_conformance", "--fault", "wrong_error_code"}));
  ASSERT_EQ(r.status, 1) << r.out << r.err;
  const auto summary = r.out.find("\nChecks (cells");
  ASSERT_NE(summary, std::string::npos) << r.out;
  const std::string streamed = r.out.substr(0, summary);
  const std::string rest = r.out.substr(summary);
  EXPECT_TRUE(contains(streamed, "\nphase exchanges: ")) << streamed;
  EXPECT_TRUE(contains(streamed, "\nphase shrinking: ")) << streamed;
  EXPECT_LT(streamed.find("\nphase exchanges: "), streamed.find("\nphase shrinking: "));
  // A short line per failure, as it was found; the summary then has each in full.
  const std::regex streamed_failure(
      R"(\n  FAIL error_code_conformance: (\w+) as ([^:\n]+): [^\n]+)");
  const std::regex summary_failure(
      R"(\nFAIL error_code_conformance: (\w+) \([^)\n]*\) as ([^\n]+), )");
  const auto found = lines_matching(streamed, streamed_failure);
  const auto detailed = lines_matching(rest, summary_failure);
  ASSERT_FALSE(found.empty()) << r.out;
  EXPECT_EQ(found.size(), detailed.size()) << r.out;
  for (const auto& d : detailed) {
    std::smatch m;
    ASSERT_TRUE(std::regex_search(d, m, summary_failure));
    EXPECT_TRUE(contains(
        streamed, "\n  FAIL error_code_conformance: " + m[1].str() + " as " + m[2].str() + ": "))
        << d << "\n"
        << streamed;
  }
  // Standard output is no terminal here: plain lines, no progress bar.
  EXPECT_EQ(r.out.find('\r'), std::string::npos);
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos);
}

TEST(console_run, a_run_without_failures_streams_its_phases_and_no_failure_line) {
  ::unsetenv("GITHUB_STEP_SUMMARY");
  const command_result r =
      conform_cmd(with_narrow({"run", "--examples", "1", "--seed", "1", "--checks",
                               "error_code_conformance", "--no-progress"}));
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const std::string streamed = r.out.substr(0, r.out.find("\nChecks (cells"));
  EXPECT_TRUE(contains(streamed, "\nphase coverage: ")) << streamed;
  EXPECT_TRUE(contains(streamed, "\nphase exchanges: ")) << streamed;
  EXPECT_FALSE(contains(streamed, "phase shrinking")) << "nothing to shrink";
  EXPECT_FALSE(contains(streamed, "  FAIL ")) << streamed;
}

}  // namespace
}  // namespace conform
