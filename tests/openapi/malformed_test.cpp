// Malformed descriptions and matrices: each gives a clear error with its
// exact position; random damage never crashes the loader.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include <unistd.h>

#include "openapi/loader.hpp"
#include "tests/openapi/support.hpp"

namespace conform::openapi {
namespace {

using test_support::messages;

const std::string dir = std::string(CONFORM_TEST_DATA_DIR) + "/malformed/";

struct bad_case {
  const char* file;    // under data/malformed/
  const char* matrix;  // permission matrix to load with it ("" = none)
  int line;
  int column;
  const char* message;  // a part of the message
};

std::ostream& operator<<(std::ostream& os, const bad_case& c) {
  return os << c.file;
}

class spec_malformed : public ::testing::TestWithParam<bad_case> {};

TEST_P(spec_malformed, gives_a_clear_error_at_its_position) {
  const bad_case& c = GetParam();
  load_options opts;
  if (*c.matrix != '\0') opts.permissions = dir + c.matrix;
  const load_result r = load(dir + c.file, opts);
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(r.spec.has_value());
  const auto it = std::find_if(r.diagnostics.begin(), r.diagnostics.end(), [&](const auto& d) {
    return d.level == severity::error && d.pos.line == c.line && d.pos.column == c.column &&
           d.message.find(c.message) != std::string::npos;
  });
  EXPECT_NE(it, r.diagnostics.end())
      << "expected " << c.line << ":" << c.column << " '" << c.message << "', got:\n"
      << messages(r);
  if (it != r.diagnostics.end()) {
    // The position names the file the error is in.
    EXPECT_NE(it->pos.file.find(".yaml"), std::string::npos);
  }
}

// clang-format off
const bad_case cases[] = {
  {"bad_yaml.yaml", "", 3, 11, "invalid YAML: end of map flow not found"},
  {"dangling_ref.yaml", "", 25, 30, "dangling_ref.yaml' has nothing at '#/components/schemas/Itme'"},
  {"ref_cycle.yaml", "", 9, 13, "$ref cycle with no schema in between: #/components/schemas/Item -> #/components/schemas/Alias -> #/components/schemas/Item"},
  {"unknown_scheme.yaml", "", 17, 33, "security names unknown scheme 'apiKey' (components.securitySchemes has: bearer, tenantKey)"},
  {"scope_not_in_matrix.yaml", "matrix.yaml", 17, 33, "scope 'items:write' is not defined in the permission matrix"},
  {"duplicate_operation_id.yaml", "", 27, 5, "duplicate operationId 'getItem' (first at "},
  {"path_param_undefined.yaml", "", 14, 5, "path parameter '{id}' of '/items/{id}' has no definition"},
  {"path_param_not_in_template.yaml", "", 20, 11, "path parameter 'other' does not appear in the path template '/items/{id}'"},
  {"param_in_invalid.yaml", "", 20, 30, "parameter 'filter': 'in' must be path, query, header or cookie, got 'body'"},
  {"wrong_keyword_type.yaml", "", 11, 39, "minLength must be a non-negative integer, got 'x'"},
  {"bad_regex.yaml", "", 11, 37, "pattern '[0-9' is not a valid ECMAScript regex"},
  {"bad_status.yaml", "", 21, 9, "response status '600' is not an HTTP status 100-599"},
  {"unknown_type.yaml", "", 11, 20, "unknown type 'strnig'"},
  {"bad_openapi_version.yaml", "", 1, 10, "unsupported OpenAPI version '2.0.0'"},
  {"missing_other_file.yaml", "", 25, 30, "cannot read '"},
  {"pagination_unknown_param.yaml", "", 18, 9, "x-pagination names query parameter 'page', which the operation does not have"},
  {"resource_on_query.yaml", "", 20, 11, "x-resource on parameter 'item', which is in query, not in path"},
  {"transition_unknown_machine.yaml", "", 17, 21, "x-transition names unknown state machine 'item'"},
  {"machine_unknown_state.yaml", "", 18, 11, "state machine 'item': transition to 'finished' is not one of its states"},
  {"transition_unknown_parameter.yaml", "", 24, 21, "x-transition names path parameter 'item_id', which the operation does not have"},
  {"machine_unknown_operation.yaml", "", 18, 11, "state machine 'item': a transition names unknown operation 'finishItem'"},
  {"columns_of_unknown_part.yaml", "", 21, 19, "x-columns-of on body property 'mapping' names part 'csv', which the body does not have"},
  {"idempotency_unknown_operation.yaml", "", 19, 17, "x-idempotency.effect names unknown operation 'listItems'"},
  {"matrix_disagrees.yaml", "matrix.yaml", 14, 5, "operation 'getItem' does not accept a jwt, but the permission matrix (" },
  {"valid.yaml", "matrix_opt_in_default.yaml", 3, 5, "scope 'items:read' is opt-in and must not be a default grant"},
  {"valid.yaml", "matrix_unknown_row.yaml", 6, 3, "permission matrix row 'deleteItem' names no operation of "},
  // Hostile input (docs/limits.md).
  {"duplicate_key.yaml", "", 12, 9, "duplicate key 'id' in a mapping"},
  {"duplicate_root_paths.yaml", "", 26, 1, "duplicate key 'paths' in a mapping"},
  {"second_document.yaml", "", 26, 1, "a second YAML document"},
  {"invalid_utf8.yaml", "", 2, 17, "invalid UTF-8 (byte 0xFF)"},
  {"nul_byte.yaml", "", 2, 18, "control character U+0000 (NUL) is not allowed in YAML"},
  {"deep_nesting.yaml", "", 11, 95, "nesting deeper than 64 levels"},
  {"alias_bomb.yaml", "", 9, 42, "the document expands to more than 1000000 nodes"},
  {"alias_cycle.yaml", "", 11, 44, "an alias inside the node its anchor names"},
  {"ref_device.yaml", "", 25, 30, "$ref '/dev/zero': an absolute path"},
  {"ref_outside.yaml", "", 25, 30, "names a file outside the description's folder"},
  {"recursion_no_base.yaml", "", 13, 7, "recursive schema without a base case: #/components/schemas/Id -> #/components/schemas/Id/allOf/0 -> #/components/schemas/Id"},
  {"recursion_required.yaml", "", 9, 7, "recursive schema without a base case: #/components/schemas/Item -> #/components/schemas/Item/properties/next -> #/components/schemas/Node"},
  {"nested_groups.yaml", "", 11, 37, "parentheses are too deeply nested"},
  {"huge_number.yaml", "", 11, 38, "maximum must be a number, got '9999"},
};
// clang-format on

INSTANTIATE_TEST_SUITE_P(cases, spec_malformed, ::testing::ValuesIn(cases),
                         [](const ::testing::TestParamInfo<bad_case>& info) {
                           std::string name = info.param.file;
                           name += std::string("_") + info.param.matrix;
                           std::string out;
                           for (char ch : name) {
                             if (std::isalnum(static_cast<unsigned char>(ch))) out += ch;
                           }
                           return out;
                         });

TEST(spec_malformed_extra, valid_fixture_loads_with_its_matrix) {
  load_options opts;
  opts.permissions = dir + "matrix.yaml";
  const load_result r = load(dir + "valid.yaml", opts);
  EXPECT_TRUE(r.ok()) << messages(r);
  EXPECT_TRUE(r.diagnostics.empty()) << messages(r);
}

TEST(spec_malformed_extra, warnings_do_not_fail_the_load) {
  const load_result r = load(dir + "warnings_only.yaml");
  EXPECT_TRUE(r.ok()) << messages(r);
  ASSERT_EQ(r.diagnostics.size(), 1u) << messages(r);
  EXPECT_EQ(to_string(r.diagnostics[0]).substr(r.diagnostics[0].pos.file.size()),
            ":12:22: warning: required property 'name' is not defined in properties");
  // The range response is in the model, as "4XX".
  ASSERT_TRUE(r.spec.has_value());
  ASSERT_EQ(r.spec->operations.at(0).responses.size(), 2u);
  EXPECT_EQ(status_key(r.spec->operations.at(0).responses[0].status), "4XX");
}

// Inputs too big to keep as files: made here, refused with a position.
TEST(spec_malformed_extra, huge_inputs_are_refused_with_a_position) {
  const auto tmp =
      std::filesystem::temp_directory_path() / ("conform-spec-huge-" + std::to_string(::getpid()));
  std::filesystem::create_directories(tmp);
  std::ifstream in(dir + "valid.yaml");
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string valid = buf.str();
  const std::string at = "        id: {type: string}\n";
  auto with = [&](const std::string& name, const std::string& replacement) {
    std::string text = valid;
    text.replace(text.find(at), at.size(), replacement);
    std::ofstream(tmp / name, std::ios::binary) << text;
    return load(tmp / name);
  };
  auto expect_error = [](const load_result& r, int line, const std::string& part) {
    EXPECT_FALSE(r.ok());
    EXPECT_TRUE(std::any_of(r.diagnostics.begin(), r.diagnostics.end(), [&](const auto& d) {
      return d.pos.line == line && d.pos.column > 0 && d.message.find(part) != std::string::npos;
    })) << messages(r);
  };
  // 40,000 digits: std::regex overflowed the stack classifying them.
  expect_error(with("digits.yaml",
                    "        id: {type: integer, maximum: " + std::string(50000, '9') + "}\n"),
               11, "maximum must be a number");
  // 40,000 nested groups: std::regex's compiler overflowed the stack.
  expect_error(
      with("groups.yaml", "        id: {type: string, pattern: '" + std::string(40000, '(') + "a" +
                              std::string(40000, ')') + "'}\n"),
      11, "longer than the limit of 4096 characters");
  // A scalar over 1 MiB.
  expect_error(with("scalar.yaml", "        id: {type: string, example: '" +
                                       std::string((1u << 20) + 1, 'x') + "'}\n"),
               11, "more than the limit of 1 MiB");
  // A chain of 1,000 $refs (queued past 32 nested) loads without exhausting the stack.
  std::string chain;
  for (int i = 0; i < 1000; ++i) {
    chain += "    C" + std::to_string(i) + ": {$ref: '#/components/schemas/C" +
             std::to_string(i + 1) + "'}\n";
  }
  chain += "    C1000: {type: string}\n";
  std::string text = valid;
  text.replace(text.find("  schemas:\n"), 11, "  schemas:\n" + chain);
  std::ofstream(tmp / "chain.yaml", std::ios::binary) << text;
  const load_result r = load(tmp / "chain.yaml");
  EXPECT_TRUE(r.ok()) << messages(r);
  std::filesystem::remove_all(tmp);
}

// Damaged copies of a valid description (a line dropped, a character
// changed) either load or give errors that point inside the file: never a
// crash, a hang or a position past the end.
TEST(spec_malformed_extra, random_damage_never_crashes_and_positions_stay_in_the_file) {
  std::ifstream in(dir + "valid.yaml");
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  ASSERT_GT(lines.size(), 20u);
  const auto tmp = std::filesystem::temp_directory_path() /
                   ("conform-spec-damage-" + std::to_string(::getpid()));
  std::filesystem::create_directories(tmp);
  std::mt19937 rng(20261122);  // fixed: the same damage on every run
  const std::string junk = "{}[]:,'\"-#&*!|>? \tx0";
  int failed = 0;
  for (int round = 0; round < 300; ++round) {
    std::vector<std::string> copy = lines;
    const std::size_t at = rng() % copy.size();
    if (rng() % 2 == 0) {
      copy.erase(copy.begin() + static_cast<std::ptrdiff_t>(at));
    } else if (!copy[at].empty()) {
      copy[at][rng() % copy[at].size()] = junk[rng() % junk.size()];
    }
    const auto file = tmp / "damaged.yaml";
    {
      std::ofstream out(file);
      for (const auto& l : copy) out << l << "\n";
    }
    const load_result r = load(file);
    if (r.ok()) continue;
    ++failed;
    ASSERT_FALSE(r.diagnostics.empty()) << "round " << round;
    for (const auto& d : r.diagnostics) {
      EXPECT_FALSE(d.message.empty());
      EXPECT_LE(d.pos.line, static_cast<int>(copy.size()) + 1) << to_string(d);
      EXPECT_GE(d.pos.line, 0) << to_string(d);
    }
  }
  EXPECT_GT(failed, 30);  // the damage does break descriptions
  std::filesystem::remove_all(tmp);
}

}  // namespace
}  // namespace conform::openapi
