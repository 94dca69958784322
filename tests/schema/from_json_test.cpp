// Building the schema model from JSON: folding of OpenAPI 3.0 forms, and clear
// errors on malformed documents.

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include <string>

#include "tests/schema/test_support.hpp"

namespace conform::schema {
namespace {

std::string error_of(std::string_view json) {
  schema_arena arena;
  try {
    schema_from_json(arena, boost::json::parse(json));
  } catch (const schema_error& e) {
    return e.what();
  }
  return "";
}

TEST(from_json, folds_openapi_3_0_forms) {
  testing::schemas make;
  const schema& s = make(R"({"type": "integer", "nullable": true, "minimum": 0,
                            "exclusiveMinimum": true})");
  EXPECT_TRUE(s.types.has(json_type::null));
  EXPECT_FALSE(s.minimum.has_value());
  ASSERT_TRUE(s.exclusive_minimum.has_value());
  EXPECT_EQ(*s.exclusive_minimum, 0.0);
}

TEST(from_json, malformed_documents_say_what_and_where) {
  EXPECT_EQ(error_of(R"({"properties": {"a": {"type": "text"}}})"),
            "inline: #/properties/a/type: unknown type \"text\"");
  EXPECT_EQ(error_of(R"({"minLength": -1})"),
            "inline: #/minLength: expected a non-negative integer");
  EXPECT_EQ(error_of(R"({"$ref": "#/nowhere"})"), "inline: #: $ref #/nowhere points at nothing");
  EXPECT_EQ(error_of(R"({"pattern": "("})").rfind("inline: #/pattern: not an ECMAScript regex", 0),
            0u);
  EXPECT_EQ(error_of("12"), "inline: #: a schema must be an object or a boolean");
  EXPECT_EQ(error_of(R"({"enum": []})"), "inline: #/enum: expected a non-empty array");
}

}  // namespace
}  // namespace conform::schema
