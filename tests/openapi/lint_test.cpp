// `conform spec lint`: summary, diagnostics and exit codes.

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>

#include "cli/cli.hpp"

namespace conform::openapi {
namespace {

const std::string lint_data = CONFORM_TEST_DATA_DIR;

struct run_result {
  int code;
  std::string out;
  std::string err;
};

run_result lint(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  const int code = cli::lint_command(args, out, err);
  return {code, out.str(), err.str()};
}

bool contains(const std::string& hay, const std::string& needle) {
  return hay.find(needle) != std::string::npos;
}

TEST(spec_lint, good_description_prints_the_summary_and_exits_zero) {
  const run_result r = lint({lint_data + "/equiv/v31.yaml"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(contains(r.out, "OpenAPI 3.1.0, \"Pets\" 2.1.0, 2 operations, sha256 ")) << r.out;
  EXPECT_TRUE(contains(r.out, "operations per family: 1 families\n  Pets (2): listPets, sellPet\n"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "  bearer  http bearer (Authorization), credential jwt\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "  tenantKey  apiKey (X-Api-Key), credential tenant_key\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "  pets:sell  family Pets, key types [tenant_key], opt-in\n"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "  pets:read  family Pets, key types [tenant_key], default grant\n"))
      << r.out;
  EXPECT_TRUE(contains(r.out,
                       "paginated operations: 1\n  listPets  page (page, per_page 1..100, "
                       "default 25)\n"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "idempotent operations: 1\n  sellPet  required (Idempotency-Key)\n"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "0 errors, 0 warnings\n")) << r.out;
}

TEST(spec_lint, without_a_matrix_lists_the_scopes_the_description_uses) {
  const run_result r = lint({lint_data + "/malformed/valid.yaml"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out,
                       "scopes (used by the description; no permission matrix): 1\n"
                       "  items:read\n"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "paginated operations: 0\n")) << r.out;
}

TEST(spec_lint, error_exits_two_with_file_line_column) {
  const run_result r = lint({lint_data + "/malformed/bad_status.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(contains(r.err,
                       "bad_status.yaml:21:9: error: response status '600' is not an "
                       "HTTP status 100-599, 'default' or a range like '4XX'\n"))
      << r.err;
}

TEST(spec_lint, matrix_given_on_the_command_line_is_checked) {
  const std::string dir = lint_data + "/malformed/";
  const run_result ok = lint({dir + "valid.yaml", "--permissions", dir + "matrix.yaml"});
  EXPECT_EQ(ok.code, 0) << ok.err;
  EXPECT_TRUE(contains(ok.out, "scopes (" + dir + "matrix.yaml): 1\n")) << ok.out;
  const run_result bad =
      lint({dir + "scope_not_in_matrix.yaml", "--permissions=" + dir + "matrix.yaml"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_TRUE(contains(bad.err,
                       "scope_not_in_matrix.yaml:17:33: error: operation 'getItem': "
                       "scope 'items:write' is not defined in the permission matrix"))
      << bad.err;
}

TEST(spec_lint, unreadable_file_is_one_line_saying_what_and_where) {
  const run_result r = lint({lint_data + "/nope/missing.yaml"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_TRUE(contains(r.err, "cannot read '" + lint_data + "/nope/missing.yaml'")) << r.err;
  EXPECT_TRUE(contains(r.err, "No such file or directory")) << r.err;

  const run_result m = lint({lint_data + "/malformed/valid.yaml", "--permissions", "/nope.yaml"});
  EXPECT_EQ(m.code, 2);
  EXPECT_TRUE(contains(m.err, "cannot read '/nope.yaml'")) << m.err;
}

TEST(spec_lint, warnings_are_shown_and_do_not_fail) {
  const run_result r = lint({lint_data + "/malformed/warnings_only.yaml"});
  EXPECT_EQ(r.code, 0);
  EXPECT_TRUE(contains(r.err, "warnings_only.yaml:12:22: warning: required property 'name'"))
      << r.err;
  EXPECT_TRUE(contains(r.out, "0 errors, 1 warnings\n")) << r.out;
}

TEST(spec_lint, bad_usage_exits_two) {
  EXPECT_EQ(lint({"--frobnicate"}).code, 2);
  EXPECT_TRUE(contains(lint({"--frobnicate"}).err, "unknown option '--frobnicate'"));
  EXPECT_EQ(lint({"a.yaml", "b.yaml"}).code, 2);
  EXPECT_EQ(lint({"a.yaml", "--permissions"}).code, 2);
  const run_result help = lint({"--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_TRUE(contains(help.out, "usage: conform spec lint [FILE] [--permissions FILE]"));
}

TEST(spec_lint, default_file_is_specs_voice_api_in_the_current_directory) {
  const auto before = std::filesystem::current_path();
  std::filesystem::current_path(std::filesystem::path(CONFORM_SPEC_DIR).parent_path());
  const run_result r = lint({});
  std::filesystem::current_path(before);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "specs/voice-api.yaml: OpenAPI 3.1")) << r.out;
  EXPECT_TRUE(contains(r.out, "scopes (specs/permissions.yaml)")) << r.out;
}

TEST(spec_lint, default_file_is_found_from_any_directory) {
  // As `conform run`: outside the repository root, the shipped description.
  const auto before = std::filesystem::current_path();
  const auto elsewhere = std::filesystem::temp_directory_path();
  ASSERT_FALSE(std::filesystem::exists(elsewhere / "specs" / "voice-api.yaml"));
  std::filesystem::current_path(elsewhere);
  const run_result r = lint({});
  std::filesystem::current_path(before);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "voice-api.yaml: OpenAPI 3.1")) << r.out;
  EXPECT_TRUE(contains(r.out, "permissions.yaml)")) << r.out;
}

}  // namespace
}  // namespace conform::openapi
