// `conform run --baseline/--update-baseline`, `conform report diff`, and the
// GITHUB_STEP_SUMMARY summary, run in process against the in-process
// reference server with and without a fault.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli.hpp"
#include "tests/cli/support.hpp"

namespace {

using conform::test_support::command_result;
using conform::test_support::conform_cmd;
using conform::test_support::slurp;

namespace fs = std::filesystem;
using conform::cli::main_command;

std::string temp(const std::string& name) {
  return (fs::temp_directory_path() /
          ("conform-baseline-" + std::to_string(::getpid()) + "-" + name))
      .string();
}

/// One fast run of error_code_conformance, seed 1; `fault` switches the
/// reference's wrong_error_code on. The voice sessions' operations only, and
/// no stateful walk: that fault lies in those operations alone (a whole run
/// finds the same five failures, all of them there), so the clean and the
/// faulty run still differ by every failure the baselines compare, at a
/// twelfth of a whole run's requests. The walk teaches the later phases ids;
/// a baseline compares failures and judges nothing of it.
command_result run(bool fault, std::vector<std::string> extra) {
  std::vector<std::string> args = {"run",          "--no-progress",
                                   "--examples",   "1",
                                   "--seed",       "1",
                                   "--checks",     "error_code_conformance",
                                   "--include",    "*voice_sessions*",
                                   "--no-stateful"};
  if (fault) args.insert(args.end(), {"--fault", "wrong_error_code"});
  args.insert(args.end(), extra.begin(), extra.end());
  return conform_cmd(args);
}

/// The clean baseline and the one with the fault's failures, each written
/// by the first test of the process that reads it (ctest runs each test in
/// a process of its own: a test that needs neither pays for neither).
class baseline : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ::unsetenv("GITHUB_STEP_SUMMARY"); }
  static void TearDownTestSuite() {
    fs::remove(temp("clean.json"));
    fs::remove(temp("faulty.json"));
  }
  static std::string clean() { return baseline_of(false); }
  static std::string faulty() { return baseline_of(true); }

 private:
  /// The baseline of a clean or a faulty run, written by the first test
  /// that reads it: the usage-error tests pay for neither.
  static std::string baseline_of(bool with_fault) {
    static std::once_flag written[2];
    const std::string file = temp(with_fault ? "faulty.json" : "clean.json");
    std::call_once(written[with_fault ? 1 : 0], [&] {
      const auto r = run(with_fault, {"--update-baseline", file});
      EXPECT_EQ(r.status, with_fault ? 1 : 0) << r.out << r.err;
    });
    return file;
  }
};

TEST_F(baseline, new_failures_fail_the_run) {
  const auto r = run(true, {"--baseline", clean()});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("Against the baseline"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("new ("), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("| error_code_conformance | 404 NOT_FOUND"), std::string::npos) << r.out;
}

TEST_F(baseline, known_failures_do_not_fail_the_run) {
  const auto r = run(true, {"--baseline", faulty()});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("known ("), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0 new, 0 fixed"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("FAILED"), std::string::npos);  // the console still shows them
}

TEST_F(baseline, failures_that_no_longer_occur_are_fixed) {
  const auto r = run(false, {"--baseline", faulty()});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("fixed ("), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0 new, "), std::string::npos) << r.out;
}

TEST_F(baseline, a_bad_baseline_is_a_usage_error) {
  const std::string bad = temp("bad.json");
  std::ofstream(bad) << R"({"format_version":1,"run":{},"cells":[],"failures":[{"check":1}]})";
  const auto r = conform_cmd({"run", "--no-progress", "--baseline", bad});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "conform run: --baseline: " + bad + ": /failures/0/check: expected a string\n");
  EXPECT_EQ(r.out, "");  // nothing was run
  fs::remove(bad);
  const auto missing = conform_cmd({"run", "--baseline", temp("missing.json")});
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("No such file or directory"), std::string::npos) << missing.err;
}

TEST_F(baseline, report_diff_classes_and_exit_status) {
  auto r = conform_cmd({"report", "diff", clean(), faulty()});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("new ("), std::string::npos) << r.out;
  r = conform_cmd({"report", "diff", faulty(), clean()});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("fixed ("), std::string::npos) << r.out;
  r = conform_cmd({"report", "diff", faulty(), faulty(), "--json"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find(R"("new":[])"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(R"("still_failing":[{)"), std::string::npos) << r.out;
}

TEST_F(baseline, report_diff_bad_input) {
  auto r = conform_cmd({"report", "diff", clean()});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("needs two JSON reports"), std::string::npos) << r.err;
  const std::string bad = temp("notjson.json");
  std::ofstream(bad) << "{";
  r = conform_cmd({"report", "diff", clean(), bad});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find(bad + ": not JSON"), std::string::npos) << r.err;
  fs::remove(bad);
  EXPECT_EQ(conform_cmd({"report", "merge", clean()}).status, 2);
  EXPECT_EQ(conform_cmd({"report"}).status, 2);
}

TEST_F(baseline, step_summary_lists_new_failures_with_reproductions) {
  const std::string baseline = clean();  // written before the summary is set
  const std::string summary = temp("summary.md");
  std::ofstream(summary) << "earlier step\n";
  ::setenv("GITHUB_STEP_SUMMARY", summary.c_str(), 1);
  const auto r = run(true, {"--baseline", baseline});
  ::unsetenv("GITHUB_STEP_SUMMARY");
  EXPECT_EQ(r.status, 1) << r.err;
  const std::string md = slurp(summary);
  EXPECT_EQ(md.rfind("earlier step\n## Conform: FAILED (seed 1)", 0), 0u) << md;  // appended
  EXPECT_NE(md.find("### New failures"), std::string::npos) << md;
  EXPECT_NE(md.find("conform run --seed 1 --include "), std::string::npos) << md;
  EXPECT_NE(md.find("curl -sS"), std::string::npos) << md;
  EXPECT_NE(md.find("${CONFORM_SECRET_"), std::string::npos) << md;  // secrets by name only
  fs::remove(summary);
}

TEST_F(baseline, markdown_is_a_report_format) {
  const std::string file = temp("report.md");
  const auto r = run(false, {"--report", "markdown=" + file});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(slurp(file).rfind("## Conform: PASSED (seed 1)", 0), 0u) << slurp(file);
  fs::remove(file);
}

// docs/report-format.md: `--report markdown=FILE` always writes the summary
// without the baseline: the run's own verdict, no class of the baseline's.
TEST_F(baseline, a_markdown_report_is_written_without_the_baseline) {
  const std::string known = faulty();
  const std::string file = temp("plain.md");
  const auto r = run(true, {"--baseline", known, "--report", "markdown=" + file});
  EXPECT_EQ(r.status, 0) << r.err;  // nothing new against the baseline
  const std::string md = slurp(file);
  EXPECT_EQ(md.rfind("## Conform: FAILED (seed 1)", 0), 0u) << md;  // the run's own verdict
  EXPECT_EQ(md.find("### New failures"), std::string::npos) << md;
  fs::remove(file);
}

}  // namespace
