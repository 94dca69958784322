// `conform spec diff`: exit codes, the text lines and the JSON document.

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "cli/cli.hpp"

namespace conform::openapi {
namespace {

const std::string data = std::string(CONFORM_TEST_DATA_DIR) + "/diff/";

struct run_result {
  int code;
  std::string out;
  std::string err;
};

run_result spec(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  const int code = cli::main_command(args, out, err);
  return {code, out.str(), err.str()};
}

bool contains(const std::string& hay, const std::string& needle) {
  return hay.find(needle) != std::string::npos;
}

TEST(spec_diff_command, compatible_changes_exit_zero) {
  const run_result r = spec({"spec", "diff", data + "base.yaml", data + "compatible.yaml"});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(contains(r.out,
                       "info      POST /items  request body application/json /color  "
                       "optional property 'color' added [new-optional-request-property]\n"))
      << r.out;
  EXPECT_TRUE(contains(r.out, " 0 breaking, 0 warnings, ")) << r.out;
}

TEST(spec_diff_command, a_breaking_change_exits_one) {
  const run_result r = spec({"spec", "diff", data + "base.yaml", data + "breaking.yaml"});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_EQ(r.out,
            "breaking  POST /items  request body application/json /name  changed from maxLength "
            "100 to maxLength 50 [request-property-max-length-decreased]\n"
            "1 changes: 1 breaking, 0 warnings, 0 info\n");
}

TEST(spec_diff_command, json_says_every_change) {
  const run_result r = spec({"spec", "diff", "--json", data + "base.yaml", data + "breaking.yaml"});
  EXPECT_EQ(r.code, 1) << r.err;
  const auto doc = boost::json::parse(r.out).as_object();
  EXPECT_EQ(doc.at("breaking").to_number<std::uint64_t>(), 1u);
  EXPECT_EQ(doc.at("warnings").to_number<std::uint64_t>(), 0u);
  EXPECT_EQ(doc.at("old").as_string(), data + "base.yaml");
  const auto& changes = doc.at("changes").as_array();
  ASSERT_EQ(changes.size(), 1u);
  const auto& c = changes[0].as_object();
  EXPECT_EQ(c.at("level").as_string(), "breaking");
  EXPECT_EQ(c.at("rule").as_string(), "request-property-max-length-decreased");
  EXPECT_EQ(c.at("operation").as_string(), "POST /items");
  EXPECT_EQ(c.at("operation_id").as_string(), "createItem");
  EXPECT_EQ(c.at("where").as_string(), "request body application/json /name");
  EXPECT_EQ(c.at("what").as_string(), "changed from maxLength 100 to maxLength 50");
}

TEST(spec_diff_command, json_of_compatible_changes_exits_zero) {
  const run_result r =
      spec({"spec", "diff", data + "base.yaml", data + "compatible.yaml", "--json"});
  EXPECT_EQ(r.code, 0) << r.err;
  const auto doc = boost::json::parse(r.out).as_object();
  EXPECT_EQ(doc.at("breaking").to_number<std::uint64_t>(), 0u);
  EXPECT_FALSE(doc.at("changes").as_array().empty());
}

TEST(spec_diff_command, warnings_fail_only_when_asked) {
  // compatible.yaml -> base.yaml removes an optional request property: a warning.
  const run_result plain = spec({"spec", "diff", data + "compatible.yaml", data + "base.yaml"});
  EXPECT_EQ(plain.code, 0) << plain.out;
  EXPECT_TRUE(contains(plain.out, "warning   POST /items  request body application/json /color"))
      << plain.out;
  const run_result strict =
      spec({"spec", "diff", "--fail-on-warning", data + "compatible.yaml", data + "base.yaml"});
  EXPECT_EQ(strict.code, 1) << strict.out;
}

TEST(spec_diff_command, a_bad_description_exits_two_with_where) {
  const run_result r = spec({"spec", "diff", data + "base.yaml", data + "bad.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(contains(r.err, data + "bad.yaml:")) << r.err;
  EXPECT_TRUE(contains(r.err, ": error: x-family")) << r.err;
  EXPECT_TRUE(contains(r.err, "conform spec diff: cannot load '" + data + "bad.yaml'")) << r.err;
}

TEST(spec_diff_command, an_overlay_applies_to_both_sides) {
  const std::string overlay = data + "overlay.yaml";
  const run_result plain = spec({"spec", "diff", data + "base.yaml", data + "base.yaml"});
  const run_result both =
      spec({"spec", "diff", data + "base.yaml", data + "base.yaml", "--overlay", overlay});
  EXPECT_EQ(both.code, 0) << both.err;
  EXPECT_EQ(both.out, plain.out);
  const run_result missing =
      spec({"spec", "diff", data + "base.yaml", data + "base.yaml", "--overlay", data + "no.yaml"});
  EXPECT_EQ(missing.code, 2);
  EXPECT_TRUE(contains(missing.err, "no.yaml")) << missing.err;
}

TEST(spec_diff_command, a_missing_file_exits_two) {
  const run_result r = spec({"spec", "diff", data + "base.yaml", data + "none.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "none.yaml")) << r.err;
}

TEST(spec_diff_command, usage_errors_exit_two) {
  EXPECT_EQ(spec({"spec", "diff", data + "base.yaml"}).code, 2);
  EXPECT_EQ(spec({"spec", "diff", data + "base.yaml", data + "base.yaml", "--color"}).code, 2);
  EXPECT_EQ(spec({"spec", "frob"}).code, 2);
  const run_result help = spec({"spec", "diff", "--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_TRUE(contains(help.out, "usage: conform spec diff OLD NEW")) << help.out;
}

}  // namespace
}  // namespace conform::openapi
