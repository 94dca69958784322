// allOf / anyOf / oneOf / not and $ref, including recursive schemas.

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include <string>

#include "tests/schema/test_support.hpp"

namespace conform::schema {
namespace {

using testing::check;
using testing::valid;

TEST(composition, all_of_needs_every_branch) {
  testing::schemas make;
  const schema& s = make(R"({"allOf": [{"type": "integer"}, {"minimum": 5}]})");
  EXPECT_TRUE(valid(s, "6"));
  const auto r = check(s, "2");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].schema_location, "#/allOf/1/minimum");
}

TEST(composition, any_of_needs_one_branch_and_explains_each) {
  testing::schemas make;
  const schema& s = make(R"({"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 0}]})");
  EXPECT_TRUE(valid(s, R"("x")"));
  EXPECT_TRUE(valid(s, "3"));
  const auto r = check(s, "-3");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].schema_location, "#/anyOf");
  EXPECT_NE(r.errors[0].message.find("matches none of the 2 anyOf schemas"), std::string::npos);
  EXPECT_NE(r.errors[0].message.find("below the minimum 0"), std::string::npos);
}

TEST(composition, one_of_needs_exactly_one) {
  testing::schemas make;
  const schema& s = make(R"({"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 10}]})");
  EXPECT_TRUE(valid(s, "3"));
  EXPECT_TRUE(valid(s, "10.5"));
  const auto both = check(s, "12");
  ASSERT_EQ(both.errors.size(), 1u);
  EXPECT_EQ(both.errors[0].message, "matches oneOf schemas #0 and #1; exactly one must match");
  const auto none = check(s, R"("x")");
  ASSERT_EQ(none.errors.size(), 1u);
  EXPECT_NE(none.errors[0].message.find("matches none of the 2 oneOf schemas"), std::string::npos);
}

TEST(composition, not_inverts_its_schema) {
  testing::schemas make;
  const schema& s = make(R"({"type": "string", "not": {"enum": ["admin"]}})");
  EXPECT_TRUE(valid(s, R"("user")"));
  const auto r = check(s, R"("admin")");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].schema_location, "#/not");
}

TEST(composition, ref_follows_its_target) {
  testing::schemas make;
  const schema& s = make(R"({"$defs": {"id": {"type": "string", "pattern": "^[0-9]+$"}},
                            "properties": {"id": {"$ref": "#/$defs/id"}}})");
  EXPECT_TRUE(valid(s, R"({"id": "12"})"));
  const auto r = check(s, R"({"id": "a"})");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].instance_pointer, "/id");
  EXPECT_EQ(r.errors[0].schema_location, "#/$defs/id/pattern");
}

TEST(composition, recursive_schema_over_recursive_value) {
  testing::schemas make;
  const schema& s = make(R"({"$defs": {"node": {"type": "object", "required": ["name"],
      "properties": {"name": {"type": "string"},
                     "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}},
      "$ref": "#/$defs/node"})");
  EXPECT_TRUE(
      valid(s, R"({"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}]})"));
  const auto r = check(s, R"({"name": "a", "children": [{"name": "b", "children": [{}]}]})");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].instance_pointer, "/children/0/children/0");
}

TEST(composition, ref_cycles_without_progress_end_with_an_error_not_a_crash) {
  testing::schemas make;
  // a -> allOf[a]: never consumes input.
  const schema& s = make(R"({"$defs": {"a": {"allOf": [{"$ref": "#/$defs/a"}]}},
                            "$ref": "#/$defs/a"})");
  const auto r = check(s, "1");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors[0].message.find("nesting deeper than"), std::string::npos);
  // A pure ref cycle (a -> b -> a) means nothing and admits everything.
  const schema& pure = make(R"({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}},
                               "$ref": "#/$defs/a"})");
  EXPECT_TRUE(valid(pure, "1"));
  EXPECT_EQ(&pure.resolved(), &pure.resolved().resolved());
}

TEST(composition, deeply_nested_values_are_rejected_not_overflowed) {
  testing::schemas make;
  const schema& s = make(R"({"$defs": {"n": {"type": "array", "items": {"$ref": "#/$defs/n"}}},
                            "$ref": "#/$defs/n"})");
  boost::json::value v = boost::json::array();
  for (int i = 0; i < 1000; ++i) {
    boost::json::array wrap;
    wrap.push_back(std::move(v));
    v = std::move(wrap);
  }
  const auto r = validate(s, v);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors[0].message.find("nesting deeper than 256"), std::string::npos);
}

TEST(schema_model, property_and_required_lookups) {
  testing::schemas make;
  const schema& s =
      make(R"({"properties": {"a": {"type": "string"}, "b": {}}, "required": ["b"]})");
  ASSERT_NE(s.property("a"), nullptr);
  EXPECT_TRUE(s.property("a")->types.only(json_type::string));
  EXPECT_EQ(s.property("c"), nullptr);
  EXPECT_TRUE(s.is_required("b"));
  EXPECT_FALSE(s.is_required("a"));
  EXPECT_STREQ(to_string(json_type::integer), "integer");
}

}  // namespace
}  // namespace conform::schema
