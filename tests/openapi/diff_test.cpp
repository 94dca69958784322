// openapi::diff: one test per rule. Each starts from data/diff/base.yaml,
// edits one spot (a text substitution), loads both sides and asserts how the
// change is classified.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

#include "openapi/diff.hpp"
#include "openapi/loader.hpp"

namespace conform::openapi {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

const std::string& base() {
  static const std::string text = read(fs::path(CONFORM_TEST_DATA_DIR) / "diff" / "base.yaml");
  return text;
}

/// `text` with `from` (which must occur exactly once) replaced by `to`.
std::string edit(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "not in the description: " << from;
  if (at == std::string::npos) return text;
  EXPECT_EQ(text.find(from, at + 1), std::string::npos) << "more than once: " << from;
  return text.replace(at, from.size(), to);
}

api_spec load_text(const std::string& text, const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("conform-diff-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / name;
  std::ofstream(file) << text;
  load_result res = load(file);
  std::string diags;
  for (const auto& d : res.diagnostics) diags += to_string(d) + "\n";
  EXPECT_TRUE(res.ok()) << diags;
  fs::remove_all(dir);
  if (!res.spec) return api_spec{};
  return std::move(*res.spec);
}

std::vector<spec_change> changes(const std::string& old_text, const std::string& new_text) {
  const api_spec o = load_text(old_text, "old.yaml");
  const api_spec n = load_text(new_text, "new.yaml");
  return diff(o, n);
}

/// base.yaml against base.yaml with one edit.
std::vector<spec_change> after(const std::string& from, const std::string& to) {
  return changes(base(), edit(base(), from, to));
}

std::string dump(const std::vector<spec_change>& cs) {
  std::string out;
  for (const auto& c : cs) out += to_string(c) + "\n";
  return out;
}

/// The one change of `rule` (failing unless exactly one).
spec_change the(const std::vector<spec_change>& cs, const std::string& rule) {
  std::vector<spec_change> hits;
  for (const auto& c : cs) {
    if (c.rule == rule) hits.push_back(c);
  }
  EXPECT_EQ(hits.size(), 1u) << "rule " << rule << " in:\n" << dump(cs);
  return hits.empty() ? spec_change{} : hits.front();
}

void expect(const std::vector<spec_change>& cs, const std::string& rule, change_level level,
            const std::string& where = "") {
  const spec_change c = the(cs, rule);
  EXPECT_EQ(c.level, level) << to_string(c);
  if (!where.empty()) {
    EXPECT_EQ(c.where, where) << to_string(c);
  }
}

/// Every change is of `rule` and `level` (one schema answered by several
/// operations reports once per operation), and there is one at least.
void all_are(const std::vector<spec_change>& cs, const std::string& rule, change_level level) {
  EXPECT_FALSE(cs.empty()) << "no change; expected " << rule;
  for (const auto& c : cs) {
    EXPECT_EQ(c.rule, rule) << dump(cs);
    EXPECT_EQ(c.level, level) << to_string(c);
  }
}

/// `text` without the lines from the one starting with `first` up to (not
/// including) the one starting with `next`.
std::string cut(const std::string& text, const std::string& first, const std::string& next) {
  const auto a = text.find(first);
  const auto b = text.find(next, a);
  EXPECT_NE(a, std::string::npos);
  EXPECT_NE(b, std::string::npos);
  if (a == std::string::npos || b == std::string::npos) return text;
  return text.substr(0, a) + text.substr(b);
}

constexpr auto breaking = change_level::breaking;
constexpr auto warning = change_level::warning;
constexpr auto info = change_level::info;

const std::string item_request_name = "                name: {type: string, maxLength: 100}\n";
const std::string state_param =
    "        - {name: state, in: query, schema: {type: string, enum: [open, closed]}}\n";

// --- the description as a whole -------------------------------------------------

TEST(spec_diff, the_same_description_has_no_changes) {
  EXPECT_TRUE(changes(base(), base()).empty()) << dump(changes(base(), base()));
}

TEST(spec_diff, renaming_a_path_parameter_is_no_change) {
  std::string n = edit(base(), "  /items/{id}:", "  /items/{item_id}:");
  n = edit(n, "        - {name: id, in: path,", "        - {name: item_id, in: path,");
  const auto cs = changes(base(), n);
  // The parameter's name is the server's; only its identity as a parameter changed.
  for (const auto& c : cs) EXPECT_NE(c.rule, "api-removed") << dump(cs);
}

TEST(spec_diff, removed_operation_is_breaking) {
  const auto cs = after("  /items/{id}:\n    get:", "  /things/{id}:\n    get:");
  const spec_change c = the(cs, "api-removed");
  EXPECT_EQ(c.level, breaking);
  EXPECT_EQ(c.operation, "GET /items/{id}");
  EXPECT_EQ(c.operation_id, "getItem");
  expect(cs, "endpoint-added", info);
}

TEST(spec_diff, changed_operation_id_is_info) {
  expect(after("operationId: getItem", "operationId: fetchItem"), "api-operation-id-changed", info);
}

// --- parameters ------------------------------------------------------------------

TEST(spec_diff, removed_parameter_is_a_warning) {
  expect(after(state_param, ""), "request-parameter-removed", warning, "query parameter 'state'");
}

TEST(spec_diff, new_required_parameter_is_breaking) {
  expect(after(state_param, state_param + "        - {name: q, in: query, required: true, "
                                          "schema: {type: string}}\n"),
         "new-required-request-parameter", breaking, "query parameter 'q'");
}

TEST(spec_diff, new_optional_parameter_is_info) {
  expect(
      after(state_param, state_param + "        - {name: q, in: query, schema: {type: string}}\n"),
      "new-optional-request-parameter", info);
}

TEST(spec_diff, parameter_becoming_required_is_breaking) {
  expect(
      after("{name: state, in: query, schema", "{name: state, in: query, required: true, schema"),
      "request-parameter-became-required", breaking);
}

TEST(spec_diff, parameter_enum_value_removed_is_breaking) {
  expect(after("{name: state, in: query, schema: {type: string, enum: [open, closed]}}",
               "{name: state, in: query, schema: {type: string, enum: [open]}}"),
         "request-parameter-enum-value-removed", breaking);
}

TEST(spec_diff, parameter_enum_value_added_is_info) {
  expect(after("{name: state, in: query, schema: {type: string, enum: [open, closed]}}",
               "{name: state, in: query, schema: {type: string, enum: [open, closed, gone]}}"),
         "request-parameter-enum-value-added", info);
}

TEST(spec_diff, parameter_maximum_lowered_is_breaking) {
  expect(after("minimum: 1, maximum: 100}}", "minimum: 1, maximum: 50}}"),
         "request-parameter-max-decreased", breaking, "query parameter 'per_page'");
}

TEST(spec_diff, parameter_maximum_raised_is_info) {
  expect(after("minimum: 1, maximum: 100}}", "minimum: 1, maximum: 500}}"),
         "request-parameter-max-increased", info);
}

TEST(spec_diff, parameter_min_length_set_is_breaking) {
  expect(
      after("{name: state, in: query, schema: {type: string, enum: [open, closed]}}",
            "{name: state, in: query, schema: {type: string, enum: [open, closed], minLength: 2}}"),
      "request-parameter-min-length-set", breaking);
}

TEST(spec_diff, parameter_type_changed_is_breaking) {
  expect(after("{name: page, in: query, schema: {type: integer, minimum: 1}}",
               "{name: page, in: query, schema: {type: string, minimum: 1}}"),
         "request-parameter-type-changed", breaking);
}

TEST(spec_diff, parameter_default_changed_is_breaking) {
  expect(after("default: asc}", "default: desc}"), "request-parameter-default-value-changed",
         breaking);
}

// --- request bodies ----------------------------------------------------------------

TEST(spec_diff, removed_request_property_is_a_warning) {
  expect(after("                note: {type: string}\n", ""), "request-property-removed", warning,
         "request body application/json /note");
}

TEST(spec_diff, new_required_request_property_is_breaking) {
  std::string n =
      edit(base(), "              required: [name]\n", "              required: [name, owner]\n");
  n = edit(n, item_request_name, item_request_name + "                owner: {type: string}\n");
  expect(changes(base(), n), "new-required-request-property", breaking,
         "request body application/json /owner");
}

TEST(spec_diff, new_optional_request_property_is_info) {
  expect(after(item_request_name, item_request_name + "                owner: {type: string}\n"),
         "new-optional-request-property", info);
}

TEST(spec_diff, request_property_becoming_required_is_breaking) {
  expect(after("              required: [name]\n", "              required: [name, note]\n"),
         "request-property-became-required", breaking);
}

TEST(spec_diff, request_property_becoming_required_with_a_default_is_info) {
  std::string n =
      edit(base(), "              required: [name]\n", "              required: [name, note]\n");
  n = edit(n, "                note: {type: string}\n",
           "                note: {type: string, default: none}\n");
  expect(changes(base(), n), "request-property-became-required-with-default", info);
}

TEST(spec_diff, request_property_type_changed_is_breaking) {
  expect(after("                note: {type: string}\n", "                note: {type: integer}\n"),
         "request-property-type-changed", breaking);
}

TEST(spec_diff, request_property_type_generalized_is_info) {
  expect(after("size: {type: number, minimum: 1", "size: {type: [number, string], minimum: 1"),
         "request-property-type-generalized", info);
}

TEST(spec_diff, request_property_no_longer_nullable_is_breaking) {
  const std::string o = edit(base(), "                note: {type: string}\n",
                             "                note: {type: [string, 'null']}\n");
  expect(changes(o, base()), "request-property-became-not-nullable", breaking);
}

TEST(spec_diff, request_max_length_lowered_is_breaking) {
  expect(after(item_request_name, "                name: {type: string, maxLength: 50}\n"),
         "request-property-max-length-decreased", breaking, "request body application/json /name");
}

TEST(spec_diff, request_max_items_lowered_is_breaking) {
  expect(after("maxItems: 5}", "maxItems: 3}"), "request-property-max-items-decreased", breaking,
         "request body application/json /tags");
}

TEST(spec_diff, request_minimum_raised_is_breaking) {
  expect(after("size: {type: number, minimum: 1,", "size: {type: number, minimum: 2,"),
         "request-property-min-increased", breaking);
}

TEST(spec_diff, request_exclusive_maximum_at_the_same_value_is_breaking) {
  expect(after("minimum: 1, maximum: 50}", "minimum: 1, exclusiveMaximum: 50}"),
         "request-property-max-decreased", breaking);
}

TEST(spec_diff, request_pattern_added_is_breaking) {
  expect(after("                note: {type: string}\n",
               "                note: {type: string, pattern: '^[a-z]+$'}\n"),
         "request-property-pattern-added", breaking);
}

TEST(spec_diff, request_pattern_changed_is_a_warning) {
  const std::string o = edit(base(), "                note: {type: string}\n",
                             "                note: {type: string, pattern: '^[a-z]+$'}\n");
  const std::string n = edit(base(), "                note: {type: string}\n",
                             "                note: {type: string, pattern: '^[a-z0-9]+$'}\n");
  expect(changes(o, n), "request-property-pattern-changed", warning);
}

TEST(spec_diff, request_format_added_is_breaking) {
  expect(after("                note: {type: string}\n",
               "                note: {type: string, format: email}\n"),
         "request-property-format-added", breaking);
}

TEST(spec_diff, request_enum_value_removed_is_breaking) {
  expect(after("kind: {type: string, enum: [a, b]}", "kind: {type: string, enum: [a]}"),
         "request-property-enum-value-removed", breaking);
}

TEST(spec_diff, request_enum_value_added_is_info) {
  expect(after("kind: {type: string, enum: [a, b]}", "kind: {type: string, enum: [a, b, c]}"),
         "request-property-enum-value-added", info);
}

TEST(spec_diff, request_property_becoming_an_enum_is_breaking) {
  expect(after("                note: {type: string}\n",
               "                note: {type: string, enum: [x]}\n"),
         "request-property-became-enum", breaking);
}

TEST(spec_diff, read_only_request_properties_are_not_judged) {
  const auto cs = after("id: {type: string, readOnly: true}",
                        "id: {type: integer, readOnly: true, maxLength: 1}");
  EXPECT_TRUE(cs.empty()) << dump(cs);
}

TEST(spec_diff, request_media_type_removed_is_breaking) {
  const std::string o = edit(base(),
                             "        content:\n          application/json:\n            schema:\n "
                             "             type: object\n              required: [name]",
                             "        content:\n          text/plain: {schema: {type: string}}\n   "
                             "       application/json:\n            schema:\n              type: "
                             "object\n              required: [name]");
  expect(changes(o, base()), "request-body-media-type-removed", breaking,
         "request body text/plain");
}

TEST(spec_diff, request_body_becoming_required_is_breaking) {
  const std::string o = edit(base(), "      requestBody:\n        required: true\n",
                             "      requestBody:\n        required: false\n");
  expect(changes(o, base()), "request-body-became-required", breaking);
}

// --- responses -----------------------------------------------------------------------

TEST(spec_diff, removed_required_response_property_is_breaking) {
  std::string n = edit(base(), "      required: [id, name]\n", "      required: [id]\n");
  n = edit(n, "        id: {type: string}\n        name: {type: string, maxLength: 100}\n",
           "        id: {type: string}\n");
  const auto cs = changes(base(), n);
  all_are(cs, "response-required-property-removed", breaking);
  EXPECT_EQ(cs.front().where, "response 200 application/json /data[]/name");
}

TEST(spec_diff, removed_optional_response_property_is_a_warning) {
  all_are(after("        label: {type: string}\n", ""), "response-optional-property-removed",
          warning);
}

TEST(spec_diff, response_property_becoming_optional_is_breaking) {
  all_are(after("      required: [id, name]\n", "      required: [id]\n"),
          "response-property-became-optional", breaking);
}

TEST(spec_diff, response_enum_value_added_is_a_warning) {
  // Items are answered by two operations: each reports its own.
  const auto cs = after("state: {type: string, enum: [open, closed]}",
                        "state: {type: string, enum: [open, closed, archived]}");
  std::size_t hits = 0;
  for (const auto& c : cs) {
    if (c.rule != "response-property-enum-value-added") continue;
    EXPECT_EQ(c.level, warning) << to_string(c);
    ++hits;
  }
  EXPECT_EQ(hits, 3u) << dump(cs);  // listItems, createItem, getItem
}

TEST(spec_diff, response_enum_value_removed_is_info) {
  all_are(
      after("state: {type: string, enum: [open, closed]}", "state: {type: string, enum: [open]}"),
      "response-property-enum-value-removed", info);
}

TEST(spec_diff, response_maximum_raised_is_breaking) {
  all_are(after("count: {type: integer, minimum: 0, maximum: 10}",
                "count: {type: integer, minimum: 0, maximum: 20}"),
          "response-property-max-increased", breaking);
}

TEST(spec_diff, response_max_length_removed_is_breaking) {
  all_are(after("        id: {type: string}\n        name: {type: string, maxLength: 100}\n",
                "        id: {type: string}\n        name: {type: string}\n"),
          "response-property-max-length-unset", breaking);
}

TEST(spec_diff, response_property_becoming_nullable_is_breaking) {
  all_are(after("        label: {type: string}\n", "        label: {type: [string, 'null']}\n"),
          "response-property-became-nullable", breaking);
}

TEST(spec_diff, response_type_narrowed_is_info) {
  all_are(after("        label: {type: string}\n", "        label: {type: string, enum: [x]}\n"),
          "response-property-became-enum", info);
}

TEST(spec_diff, removed_success_status_is_breaking) {
  expect(after("        '201':\n          description: Created\n",
               "        '202':\n          description: Created\n"),
         "response-success-status-removed", breaking, "response 201");
}

TEST(spec_diff, removed_error_status_is_info) {
  expect(after("        '422':\n          description: Refused\n", ""),
         "response-non-success-status-removed", info, "response 422");
}

TEST(spec_diff, removed_response_media_type_is_breaking) {
  expect(after("          content:\n            application/json:\n              schema: {$ref: "
               "'#/components/schemas/Item'}\n        '422'",
               "          content:\n            application/xml:\n              schema: {$ref: "
               "'#/components/schemas/Item'}\n        '422'"),
         "response-media-type-removed", breaking, "response 201 application/json");
}

TEST(spec_diff, removed_required_response_header_is_breaking) {
  expect(after("            Location: {required: true, schema: {type: string}}\n",
               "            X-Other: {schema: {type: string}}\n"),
         "required-response-header-removed", breaking, "response 201 header 'Location'");
}

TEST(spec_diff, new_error_code_is_a_warning) {
  expect(after("x-error-codes: [NOT_FOUND]", "x-error-codes: [NOT_FOUND, GONE]"),
         "response-error-code-added", warning, "response 404 x-error-codes");
}

// --- security and extensions --------------------------------------------------------

TEST(spec_diff, scheme_no_longer_accepted_is_breaking) {
  expect(after("      operationId: getItem\n      x-family: Items\n      security: [{bearer: []}, "
               "{tenantKey: ['items:read']}]",
               "      operationId: getItem\n      x-family: Items\n      security: [{bearer: []}]"),
         "security-scheme-removed", breaking, "security");
}

TEST(spec_diff, new_scheme_accepted_is_info) {
  expect(
      after("      operationId: createItem\n      x-family: Items\n      security: [{bearer: []}]",
            "      operationId: createItem\n      x-family: Items\n      security: [{bearer: []}, "
            "{tenantKey: ['items:write']}]"),
      "security-scheme-added", info);
}

TEST(spec_diff, scope_added_is_breaking) {
  expect(after("      operationId: getItem\n      x-family: Items\n      security: [{bearer: []}, "
               "{tenantKey: ['items:read']}]",
               "      operationId: getItem\n      x-family: Items\n      security: [{bearer: []}, "
               "{tenantKey: ['items:read', 'items:admin']}]"),
         "security-scope-added", breaking, "security.tenantKey");
}

TEST(spec_diff, anonymous_no_longer_allowed_is_breaking) {
  const std::string o = edit(base(),
                             "      operationId: getItem\n      x-family: Items\n      security: "
                             "[{bearer: []}, {tenantKey: ['items:read']}]",
                             "      operationId: getItem\n      x-family: Items\n      security: "
                             "[{}, {bearer: []}, {tenantKey: ['items:read']}]");
  expect(changes(o, base()), "security-became-required", breaking);
}

TEST(spec_diff, jwt_only_added_is_breaking) {
  expect(after("      operationId: getItem\n      x-family: Items\n",
               "      operationId: getItem\n      x-family: Items\n      x-jwt-only: {status: 401, "
               "error_code: JWT_REQUIRED}\n"),
         "jwt-only-added", breaking, "x-jwt-only");
}

TEST(spec_diff, read_becoming_write_is_breaking) {
  expect(after("      operationId: getItem\n      x-family: Items\n",
               "      operationId: getItem\n      x-family: Items\n      x-access: write\n"),
         "access-became-write", breaking);
}

TEST(spec_diff, tenant_source_changed_is_breaking) {
  expect(after("x-tenant-context: {source: header, name: X-Tenant-Id}",
               "x-tenant-context: {source: none}"),
         "tenant-context-source-changed", breaking, "x-tenant-context.source");
}

TEST(spec_diff, pagination_style_changed_is_breaking) {
  std::string n = edit(base(), "        style: page\n        page_param: page\n",
                       "        style: cursor\n        cursor_param: page\n");
  n = edit(n, "        count: /meta/count\n        pages: /meta/pages\n        page: /meta/page\n",
           "        next_cursor: /meta/next\n");
  expect(changes(base(), n), "pagination-style-changed", breaking, "x-pagination.style");
}

TEST(spec_diff, smaller_largest_page_is_breaking) {
  expect(after("        max_size: 100\n", "        max_size: 50\n"),
         "pagination-max-size-decreased", breaking, "x-pagination.max_size");
}

TEST(spec_diff, pagination_added_is_breaking) {
  // listItems without x-pagination (its page parameters stay).
  const std::string o = cut(base(), "      x-pagination:\n", "      parameters:\n");
  expect(changes(o, base()), "pagination-added", breaking);
  expect(changes(base(), o), "pagination-removed", breaking);
}

TEST(spec_diff, page_field_moved_is_breaking) {
  expect(after("        count: /meta/count\n", "        count: /meta/total\n"),
         "pagination-response-field-moved", breaking, "x-pagination.count");
}

TEST(spec_diff, idempotency_key_becoming_required_is_breaking) {
  expect(after("x-idempotency: {header: Idempotency-Key, required: false, max_key_length: 255}",
               "x-idempotency: {header: Idempotency-Key, required: true, max_key_length: 255, "
               "missing: {status: 422, error_code: IDEMPOTENCY_KEY_REQUIRED}}"),
         "idempotency-key-became-required", breaking);
}

TEST(spec_diff, idempotency_removed_is_breaking) {
  expect(
      after(
          "      x-idempotency: {header: Idempotency-Key, required: false, max_key_length: 255}\n",
          ""),
      "idempotency-removed", breaking);
}

TEST(spec_diff, scheme_header_changed_is_breaking) {
  const auto cs = after("      name: X-Api-Key\n", "      name: X-Key\n");
  const spec_change c = the(cs, "security-scheme-header-changed");
  EXPECT_EQ(c.level, breaking);
  EXPECT_EQ(c.operation, "");
  EXPECT_EQ(c.where, "security scheme 'tenantKey'");
}

TEST(spec_diff, role_becoming_read_only_is_breaking) {
  expect(after("read_only: [viewer]", "read_only: [viewer, admin]"),
         "security-scheme-role-became-read-only", breaking);
}

TEST(spec_diff, smaller_body_limit_is_breaking) {
  expect(after("x-limits: {max_body_bytes: 1000}", "x-limits: {max_body_bytes: 500}"),
         "limit-decreased", breaking, "x-limits.max_body_bytes");
}

TEST(spec_diff, auth_refusal_changes_are_warnings) {
  const std::string with = "x-auth-refusals: {unauthenticated: 401, forbidden: 403}\n";
  const std::string swapped = "x-auth-refusals: {unauthenticated: 401, forbidden: 401}\n";
  const std::string o = base() + with;
  const auto cs = changes(o, base() + swapped);
  ASSERT_EQ(cs.size(), 1u) << dump(cs);
  EXPECT_EQ(cs[0].rule, "auth-refusal-changed");
  EXPECT_EQ(cs[0].level, change_level::warning);
  EXPECT_EQ(cs[0].where, "x-auth-refusals.forbidden");
  EXPECT_EQ(cs[0].what, "refusal changed from 403 to 401");
  // Dropped: either refusal is accepted again, which a client is told too.
  const auto dropped = changes(o, base());
  ASSERT_EQ(dropped.size(), 2u) << dump(dropped);
  EXPECT_EQ(dropped[0].what, "refusal changed from 401 to not said (401 or 403)");
  // The same description twice: nothing.
  EXPECT_TRUE(changes(o, o).empty());
}

TEST(spec_diff, one_credential_answer_change_is_a_warning) {
  const std::string o = base() + "x-one-credential: {status: 401, error_code: UNAUTHORIZED}\n";
  const std::string n = base() + "x-one-credential: {status: 400, error_code: TWO_CREDENTIALS}\n";
  expect(changes(o, n), "one-credential-answer-changed", change_level::warning, "x-one-credential");
}

TEST(spec_diff, lines_say_level_operation_where_and_what) {
  const auto cs = after("maxItems: 5}", "maxItems: 3}");
  ASSERT_EQ(cs.size(), 1u) << dump(cs);
  EXPECT_EQ(to_string(cs[0]),
            "breaking  POST /items  request body application/json /tags  changed from maxItems 5 "
            "to maxItems 3 [request-property-max-items-decreased]");
}

}  // namespace
}  // namespace conform::openapi
