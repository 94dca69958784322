// The --help of every command that writes reports names every format of
// reports/registry.cpp, each with its one-line description where the help
// lists them: a format added to the registry is in the help without a second
// edit.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cli/cli.hpp"
#include "reports/registry.hpp"
#include "tests/cli/support.hpp"

namespace conform {
namespace {

using conform::test_support::command_result;
using conform::test_support::conform_cmd;
using conform::test_support::contains;

TEST(help, run_and_replay_list_every_report_format_with_its_description) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"run", "--help"}, std::vector<std::string>{"replay", "--help"}}) {
    const command_result r = conform_cmd(args);
    ASSERT_EQ(r.status, 0) << args[0] << ": " << r.err;
    EXPECT_TRUE(contains(r.out, "Report formats")) << r.out;
    for (const auto& f : reports::report_formats()) {
      EXPECT_TRUE(contains(r.out, "  " + std::string(f.name) + " ")) << args[0] << ": " << f.name;
      EXPECT_TRUE(contains(r.out, std::string(f.description))) << args[0] << ": " << f.name;
    }
  }
}

TEST(help, report_merge_names_every_report_format) {
  const command_result r = conform_cmd({"report", "merge", "--help"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "also FORMAT (" + reports::report_format_names() + ")")) << r.out;
  for (const auto& f : reports::report_formats()) {
    EXPECT_TRUE(contains(r.out, std::string(f.name))) << f.name;
  }
}

TEST(help, report_format_names_and_lines_follow_the_registry) {
  std::string names;
  for (const auto& f : reports::report_formats()) {
    names += (names.empty() ? "" : ", ") + std::string(f.name);
  }
  EXPECT_EQ(reports::report_format_names(), names);
  EXPECT_EQ(names, "junit, json, html, markdown");  // the order --help has always listed
  const std::string lines = reports::report_format_lines();
  EXPECT_EQ(std::count(lines.begin(), lines.end(), '\n'),
            static_cast<long>(reports::report_formats().size()));
  EXPECT_TRUE(contains(lines, "  markdown  Markdown: ")) << lines;
  EXPECT_TRUE(contains(lines, "  junit     JUnit XML: ")) << lines;
}

TEST(help, an_unknown_report_format_is_refused_naming_the_formats) {
  const command_result r = conform_cmd({"run", "--report", "yaml=out.yaml"});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(
      contains(r.err, "unknown format 'yaml' (formats: " + reports::report_format_names() + ")"))
      << r.err;
}

}  // namespace
}  // namespace conform
