#pragma once
// Running RapidCheck properties with a fixed seed from GoogleTest, and the
// schemas the generator tests share.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>
#include <rapidcheck/detail/TestListenerAdapter.h>

#include <boost/json/parse.hpp>

#include <cstdint>
#include <deque>
#include <sstream>
#include <string>
#include <string_view>

#include "schema/from_json.hpp"

namespace conform::generators::testing {

/// Runs `property` with a fixed seed; the result (success or the failure
/// with its counterexample) comes back for the test to assert on.
template <typename Testable>
rc::detail::TestResult run_property(Testable&& property, std::uint64_t seed = 20261122,
                                    int max_success = 100) {
  rc::detail::TestParams params;
  params.seed = seed;
  params.maxSuccess = max_success;
  params.maxSize = 100;
  rc::detail::TestMetadata metadata;
  metadata.id = "conform";
  // A listener of our own: RapidCheck's global one would print a "reproduce"
  // banner at exit for the properties that are meant to fail.
  rc::detail::TestListenerAdapter quiet;
  return rc::detail::checkTestable(std::forward<Testable>(property), metadata, params, quiet);
}

/// Fails the current test with RapidCheck's report unless `result` is a success.
inline void expect_success(const rc::detail::TestResult& result) {
  if (result.template is<rc::detail::SuccessResult>()) return;
  std::ostringstream out;
  rc::detail::printResultMessage(result, out);
  ADD_FAILURE() << out.str();
}

/// Owns the nodes of the schemas a test builds from JSON text.
class schemas {
 public:
  /// The schema written as JSON text.
  const schema::schema& operator()(std::string_view json) {
    return schema::schema_from_json(arena_, boost::json::parse(json));
  }

 private:
  schema::schema_arena arena_;
};

/// Hand-written schemas that together use every keyword the generators handle.
inline const std::vector<std::string>& keyword_schemas() {
  static const std::vector<std::string> all = {
      R"({"type": "string"})",
      R"({"type": "string", "minLength": 3, "maxLength": 5})",
      R"({"type": "string", "minLength": 40})",
      R"({"type": "string", "pattern": "^-?[0-9]+\\.[0-9]{2,6}$"})",
      R"({"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$"})",
      R"({"type": "string", "pattern": "^[!-~]+$"})",
      R"({"type": "string", "pattern": "^\\+[1-9][0-9]{1,14}$"})",
      R"({"type": "string", "pattern": "^(abc|d[0-9]{2})+(-x)?$"})",
      R"({"type": "string", "pattern": "[a-z]{3}"})",
      R"({"type": "string", "pattern": "^[^a-z]{2,}\\d\\w\\s\\.$"})",
      R"({"type": "string", "pattern": "^[0-9]+$", "minLength": 2, "maxLength": 4})",
      R"({"type": "string", "format": "date-time"})",
      R"({"type": "string", "format": "date"})",
      R"({"type": "string", "format": "time"})",
      R"({"type": "string", "format": "email", "maxLength": 20})",
      R"({"type": "string", "format": "uri"})",
      R"({"type": "string", "format": "uuid"})",
      R"({"type": "string", "format": "e164"})",
      R"({"type": "string", "format": "timezone"})",
      R"({"type": "string", "format": "decimal"})",
      R"({"type": "string", "format": "int32-unknown"})",
      R"({"type": "integer", "format": "int32"})",
      R"({"type": "integer", "format": "int32", "minimum": 2147480000})",
      R"({"type": "integer", "format": "int64", "maximum": -9007199254740000})",
      R"({"type": "string", "format": "int64"})",
      R"({"type": "integer"})",
      R"({"type": "integer", "minimum": 1, "maximum": 100})",
      R"({"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 3})",
      R"({"type": "integer", "minimum": 7, "multipleOf": 5})",
      R"({"type": "integer", "maximum": -5})",
      R"({"type": "number"})",
      R"({"type": "number", "exclusiveMinimum": 0, "maximum": 10000000, "multipleOf": 0.01})",
      R"({"type": "number", "minimum": 0.5, "maximum": 0.75})",
      R"({"type": "number", "multipleOf": 2.5, "minimum": -10, "maximum": 10})",
      R"({"type": "boolean"})",
      R"({"type": "null"})",
      R"({"type": ["string", "null"], "maxLength": 3})",
      R"({"type": "integer", "nullable": true, "minimum": 3})",
      R"({"enum": ["draft", "running", "paused", 3, null]})",
      R"({"type": "string", "enum": ["a", "bb", "ccc"], "minLength": 2})",
      R"({"const": {"status": "ok"}})",
      R"({"type": "array", "items": {"type": "integer", "minimum": 1}, "uniqueItems": true,
          "maxItems": 50})",
      R"({"type": "array", "items": {"enum": ["x", "y", "z"]}, "uniqueItems": true,
          "minItems": 2})",
      R"({"type": "array", "minItems": 2, "maxItems": 3})",
      R"({"type": "array", "prefixItems": [{"type": "integer", "minimum": 1},
                                           {"type": "string", "minLength": 2}],
          "items": {"type": "boolean"}, "maxItems": 4})",
      R"({"type": "array", "prefixItems": [{"const": "x"}, {"enum": [1, 2]}], "items": false,
          "minItems": 1})",
      R"({"type": "object", "dependentRequired": {"card": ["billing", "zip"]},
          "properties": {"card": {"type": "string"}, "billing": {"type": "string"},
                         "zip": {"type": "string", "pattern": "^[0-9]{5}$"}}})",
      R"({"type": "object", "required": ["card"], "dependentRequired": {"card": ["billing"]},
          "properties": {"card": {"type": "string"}, "billing": {"type": "integer"}}})",
      R"({"type": "object", "required": ["name", "agent_id", "timezone"],
          "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 200},
                         "agent_id": {"type": "integer", "minimum": 1},
                         "timezone": {"type": "string", "format": "timezone"},
                         "campaign_phone_number_ids": {"type": "array", "uniqueItems": true,
                           "maxItems": 50, "items": {"type": "integer", "minimum": 1}}}})",
      R"({"type": "object", "additionalProperties": false, "minProperties": 1,
          "properties": {"a": {"type": "string"}, "b": {"type": "boolean"},
                         "c": {"type": "integer"}}})",
      R"({"type": "object", "minProperties": 1,
          "additionalProperties": {"type": "string", "enum": ["phone_e164", "first_name"]}})",
      R"({"type": "object", "maxProperties": 1, "properties": {"a": {}, "b": {}, "c": {}}})",
      R"({"type": "object", "required": ["x", "y"], "properties": {"x": {"type": "string"}}})",
      R"({"required": ["k"]})",
      R"({"minLength": 2, "minimum": 3})",
      R"({"oneOf": [{"type": "object", "required": ["wrapped"], "additionalProperties": false,
                     "properties": {"wrapped": {"$ref": "#/$defs/fields"}}},
                    {"$ref": "#/$defs/fields"}],
          "$defs": {"fields": {"type": "object", "additionalProperties": false,
                               "minProperties": 1,
                               "properties": {"title": {"type": "string", "minLength": 1},
                                              "hours": {"type": "integer", "minimum": 1,
                                                        "maximum": 720}}}}})",
      R"({"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 10}]})",
      R"({"anyOf": [{"type": "string", "format": "uuid"}, {"type": "integer", "minimum": 0}]})",
      R"({"allOf": [{"$ref": "#/$defs/envelope"},
                    {"properties": {"data": {"type": "object", "required": ["id"],
                      "properties": {"id": {"type": "string", "pattern": "^[0-9]+$"}}}}}],
          "$defs": {"envelope": {"type": "object",
                                 "required": ["data", "message", "meta", "request_id"],
                                 "properties": {"data": {"type": ["object", "null"]},
                                                "message": {"type": ["string", "null"]},
                                                "meta": {"type": ["object", "null"]},
                                                "request_id": {"type": ["string", "null"]}}}}})",
      R"({"allOf": [{"type": "integer", "minimum": 0}, {"maximum": 10}, {"multipleOf": 3}]})",
      R"({"type": "string", "not": {"enum": ["admin", "root"]}, "maxLength": 5})",
      R"({"type": "object", "required": ["name"],
          "properties": {"name": {"type": "string"},
                         "children": {"type": "array", "items": {"$ref": "#"}}}})",
      R"(true)",
      R"({})",
      R"({"type": "object", "properties": {"id": {"type": "string", "readOnly": true}},
          "required": ["id"]})",
  };
  return all;
}

}  // namespace conform::generators::testing
