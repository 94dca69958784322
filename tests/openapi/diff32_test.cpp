// openapi::diff on what OpenAPI 3.2 adds: the QUERY method and
// additionalOperations, in: querystring, itemSchema, the new security
// fields and $self. Each test edits one spot of data/v32/reports.yaml.

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "openapi/diff.hpp"
#include "openapi/loader.hpp"

namespace conform::openapi {
namespace {

namespace fs = std::filesystem;

const fs::path fixture = fs::path(CONFORM_TEST_DATA_DIR) / "v32";

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string edit(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "not in the description: " << from;
  if (at == std::string::npos) return text;
  EXPECT_EQ(text.find(from, at + 1), std::string::npos) << "more than once: " << from;
  return text.replace(at, from.size(), to);
}

/// reports.yaml (with schemas.yaml beside it) as `text` says, loaded.
api_spec load_text(const std::string& text, const std::string& side) {
  const fs::path dir =
      fs::temp_directory_path() / ("conform-diff32-" + std::to_string(::getpid()) + "-" + side);
  fs::create_directories(dir);
  fs::copy_file(fixture / "schemas.yaml", dir / "schemas.yaml",
                fs::copy_options::overwrite_existing);
  std::ofstream(dir / "reports.yaml") << text;
  load_result res = load(dir / "reports.yaml");
  std::string diags;
  for (const auto& d : res.diagnostics) diags += to_string(d) + "\n";
  EXPECT_TRUE(res.ok()) << diags;
  fs::remove_all(dir);
  if (!res.spec) return api_spec{};
  return std::move(*res.spec);
}

std::vector<spec_change> after(const std::string& from, const std::string& to) {
  const std::string base = read(fixture / "reports.yaml");
  const api_spec o = load_text(base, "old");
  const api_spec n = load_text(edit(base, from, to), "new");
  return diff(o, n);
}

std::string dump(const std::vector<spec_change>& cs) {
  std::string out;
  for (const auto& c : cs) out += to_string(c) + "\n";
  return out;
}

void expect(const std::vector<spec_change>& cs, const std::string& rule, change_level level,
            const std::string& operation = "") {
  std::size_t hits = 0;
  for (const auto& c : cs) {
    if (c.rule != rule) continue;
    ++hits;
    EXPECT_EQ(c.level, level) << to_string(c);
    if (!operation.empty()) {
      EXPECT_EQ(c.operation, operation) << to_string(c);
    }
  }
  EXPECT_EQ(hits, 1u) << "rule " << rule << " in:\n" << dump(cs);
}

TEST(spec_diff32, the_fixture_against_itself_has_no_changes) {
  const auto cs = after("version: 1.0.0", "version: 1.0.0");
  EXPECT_TRUE(cs.empty()) << dump(cs);
}

TEST(spec_diff32, a_query_operation_removed_is_breaking_and_matched_by_its_method) {
  // QUERY becomes POST: one operation removed, another added.
  const auto cs = after("  /reports/search:\n    query:", "  /reports/search:\n    post:");
  expect(cs, "api-removed", change_level::breaking, "QUERY /reports/search");
  expect(cs, "endpoint-added", change_level::info, "POST /reports/search");
}

TEST(spec_diff32, an_additional_operation_removed_is_breaking) {
  const auto cs =
      after("    additionalOperations:\n      LINK:", "    additionalOperations:\n      UNLINK:");
  expect(cs, "api-removed", change_level::breaking, "LINK /reports/{id}");
  expect(cs, "endpoint-added", change_level::info, "UNLINK /reports/{id}");
}

TEST(spec_diff32, a_querystring_is_matched_whatever_its_name_and_its_media_type_change_breaks) {
  auto cs = after("        - name: filter\n          in: querystring",
                  "        - name: criteria\n          in: querystring");
  EXPECT_TRUE(cs.empty()) << dump(cs);  // the name never travels
  cs = after(
      "            application/x-www-form-urlencoded:\n              schema:\n"
      "                type: object\n                required: [status]",
      "            application/json:\n              schema:\n"
      "                type: object\n                required: [status]");
  expect(cs, "request-querystring-media-type-changed", change_level::breaking, "GET /reports");
}

TEST(spec_diff32, a_querystring_schema_is_compared_as_a_request_value) {
  const auto cs = after("                  limit: { type: integer, minimum: 1, maximum: 50 }",
                        "                  limit: { type: integer, minimum: 1, maximum: 20 }");
  expect(cs, "request-property-max-decreased", change_level::breaking, "GET /reports");
}

TEST(spec_diff32, item_schemas_are_compared_on_their_side) {
  // A response item's field may now be longer: a reader may break.
  std::vector<spec_change> cs = after(
      "            application/x-ndjson:\n              itemSchema: { $ref: "
      "'#/components/schemas/Report' }",
      "            application/x-ndjson:\n              itemSchema: { type: object, properties: "
      "{ id: { type: string }, title: { type: string, maxLength: 80 } }, required: [id, title] }");
  bool found = false;
  for (const auto& c : cs) {
    if (c.rule.rfind("response-", 0) == 0 && c.operation == "GET /reports/feed") found = true;
    EXPECT_NE(c.level, change_level::info) << to_string(c);
  }
  EXPECT_TRUE(found) << dump(cs);
  cs = after(
      "            application/x-ndjson:\n              itemSchema: { $ref: "
      "'#/components/schemas/Report' }",
      "            application/x-ndjson:\n              schema: { type: string }");
  expect(cs, "response-body-item-schema-removed", change_level::warning, "GET /reports/feed");
  cs = after(
      "          application/jsonl:\n            itemSchema: { $ref: 'schemas.yaml#/Report' }",
      "          application/jsonl:\n            schema: { type: string }");
  expect(cs, "request-body-item-schema-removed", change_level::info, "POST /reports/import");
}

TEST(spec_diff32, a_scheme_made_deprecated_is_a_warning) {
  const auto cs = after("    apiKey:\n      type: apiKey\n",
                        "    apiKey:\n      deprecated: true\n      type: apiKey\n");
  expect(cs, "security-scheme-deprecated", change_level::warning);
}

TEST(spec_diff32, the_oauth2_metadata_url_and_self_changes) {
  auto cs = after("oauth2MetadataUrl: https://auth.example.test/.well-known/",
                  "oauth2MetadataUrl: https://login.example.test/.well-known/");
  expect(cs, "security-scheme-oauth2-metadata-url-changed", change_level::info);
  // A $self in the same folder, so that the references under it still resolve here.
  cs = after("$self: https://api.example.test/openapi/reports.yaml\n",
             "$self: https://api.example.test/openapi/reports.yaml?v=2\n");
  expect(cs, "api-self-changed", change_level::warning);
}

}  // namespace
}  // namespace conform::openapi
