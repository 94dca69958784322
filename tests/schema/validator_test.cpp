// The validator, keyword by keyword: what passes, what fails, and where the
// error points.

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include <string>
#include <thread>
#include <vector>

#include "tests/schema/test_support.hpp"

namespace conform::schema {
namespace {

using testing::check;
using testing::valid;

TEST(validator, type_admits_only_the_listed_types) {
  testing::schemas make;
  const schema& s = make(R"({"type": "string"})");
  EXPECT_TRUE(valid(s, R"("x")"));
  const auto r = check(s, "12");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].instance_pointer, "");
  EXPECT_EQ(r.errors[0].schema_location, "#/type");
  EXPECT_EQ(r.errors[0].message, "expected string, got integer");
}

TEST(validator, integer_is_a_number_without_fraction) {
  testing::schemas make;
  const schema& s = make(R"({"type": "integer"})");
  EXPECT_TRUE(valid(s, "3"));
  EXPECT_TRUE(valid(s, "1.0"));
  EXPECT_TRUE(valid(s, "-9223372036854775808"));
  EXPECT_TRUE(valid(s, "18446744073709551615"));
  EXPECT_FALSE(valid(s, "1.5"));
  EXPECT_FALSE(valid(s, R"("1")"));
}

TEST(validator, number_admits_integers) {
  testing::schemas make;
  const schema& s = make(R"({"type": "number"})");
  EXPECT_TRUE(valid(s, "3"));
  EXPECT_TRUE(valid(s, "3.25"));
  EXPECT_FALSE(valid(s, "null"));
}

TEST(validator, type_lists_and_nullable) {
  testing::schemas make;
  const schema& list = make(R"({"type": ["string", "null"]})");
  EXPECT_TRUE(valid(list, "null"));
  EXPECT_TRUE(valid(list, R"("a")"));
  EXPECT_FALSE(valid(list, "true"));
  EXPECT_EQ(check(list, "true").errors[0].message, "expected null or string, got boolean");
  const schema& nullable = make(R"({"type": "integer", "nullable": true})");
  EXPECT_TRUE(valid(nullable, "null"));
  EXPECT_FALSE(valid(nullable, "false"));
}

TEST(validator, prefix_items_then_items_for_the_rest) {
  testing::schemas make;
  const schema& s = make(R"({"type": "array", "prefixItems": [{"type": "integer"},
                                                             {"type": "string"}],
                             "items": {"type": "boolean"}})");
  EXPECT_TRUE(valid(s, "[]"));
  EXPECT_TRUE(valid(s, "[1]"));
  EXPECT_TRUE(valid(s, R"([1, "a", true, false])"));
  const auto r = check(s, R"(["a", "b", 3])");
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_EQ(r.errors[0].instance_pointer, "/0");
  EXPECT_EQ(r.errors[0].schema_location, "#/prefixItems/0/type");
  EXPECT_EQ(r.errors[1].instance_pointer, "/2");
  const schema& closed = make(R"({"prefixItems": [{"const": 1}], "items": false})");
  EXPECT_TRUE(valid(closed, "[1]"));
  EXPECT_FALSE(valid(closed, "[1, 2]"));
}

TEST(validator, dependent_required) {
  testing::schemas make;
  const schema& s = make(R"({"type": "object", "dependentRequired": {"card": ["billing"]}})");
  EXPECT_TRUE(valid(s, "{}"));
  EXPECT_TRUE(valid(s, R"({"billing": "x"})"));
  EXPECT_TRUE(valid(s, R"({"card": "1", "billing": "x"})"));
  const auto r = check(s, R"({"card": "1"})");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].schema_location, "#/dependentRequired");
  EXPECT_EQ(r.errors[0].message, "property \"billing\" is required when \"card\" is present");
}

TEST(validator, enum_compares_json_values) {
  testing::schemas make;
  const schema& s = make(R"({"enum": ["a", 1, {"k": [1, 2]}, null]})");
  EXPECT_TRUE(valid(s, R"("a")"));
  EXPECT_TRUE(valid(s, "1.0"));
  EXPECT_TRUE(valid(s, R"({"k": [1.0, 2]})"));
  EXPECT_TRUE(valid(s, "null"));
  EXPECT_FALSE(valid(s, R"({"k": [2, 1]})"));
  const auto r = check(s, R"("b")");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].schema_location, "#/enum");
  EXPECT_NE(r.errors[0].message.find("is not one of the allowed values"), std::string::npos);
}

TEST(validator, const_compares_by_value) {
  testing::schemas make;
  const schema& s = make(R"({"const": {"a": 2, "b": "x"}})");
  EXPECT_TRUE(valid(s, R"({"b": "x", "a": 2.0})"));
  EXPECT_FALSE(valid(s, R"({"a": 2})"));
  EXPECT_EQ(check(s, "1").errors[0].schema_location, "#/const");
}

TEST(validator, string_lengths_count_code_points) {
  testing::schemas make;
  const schema& s = make(R"({"type": "string", "minLength": 2, "maxLength": 3})");
  EXPECT_TRUE(valid(s, R"("ab")"));
  EXPECT_TRUE(valid(s, "\"\xC3\xA9\xE4\xB8\xAD\xF0\x9F\x98\x80\""));  // 3 code points, 9 bytes
  EXPECT_FALSE(valid(s, "\"\xC3\xA9\""));                             // 1 code point, 2 bytes
  const auto r = check(s, R"("abcd")");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].schema_location, "#/maxLength");
  EXPECT_EQ(r.errors[0].message, "string has 4 characters, more than maxLength 3");
  EXPECT_EQ(check(s, R"("a")").errors[0].message,
            "string has 1 characters, fewer than minLength 2");
}

TEST(validator, pattern_searches_rather_than_matches) {
  testing::schemas make;
  const schema& unanchored = make(R"({"type": "string", "pattern": "[0-9]{3}"})");
  EXPECT_TRUE(valid(unanchored, R"("ab123cd")"));
  EXPECT_FALSE(valid(unanchored, R"("ab12cd")"));
  const schema& anchored = make(R"({"type": "string", "pattern": "^-?[0-9]+\\.[0-9]{2,6}$"})");
  EXPECT_TRUE(valid(anchored, R"("12.50")"));
  EXPECT_FALSE(valid(anchored, R"("12.5")"));
  const auto r = check(anchored, R"("x")");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].schema_location, "#/pattern");
  EXPECT_NE(r.errors[0].message.find("does not match the pattern"), std::string::npos);
}

TEST(validator, pattern_on_a_long_string_does_not_exhaust_the_stack) {
  testing::schemas make;
  const schema& s = make(R"({"type": "string", "pattern": "^(a|b)*$"})");
  EXPECT_TRUE(valid(s, "\"" + std::string(200000, 'a') + "\""));
  EXPECT_FALSE(valid(s, "\"" + std::string(200000, 'a') + "c\""));
}

TEST(validator, a_pattern_too_costly_is_undecided_neither_valid_nor_invalid) {
  testing::schemas make;
  const schema& s = make(R"({"type": "string", "pattern": "^(a*)*\\1$"})");
  const auto v = boost::json::parse("\"" + std::string(100000, 'a') + "b\"");
  EXPECT_EQ(judge(s, v), judgement::undecided);
  EXPECT_FALSE(is_valid(s, v));
  EXPECT_FALSE(is_invalid(s, v));
  const auto r = validate(s, v);
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(r.errors.empty());
  ASSERT_TRUE(r.undecided.has_value());
  EXPECT_EQ(r.undecided->message.rfind("pattern too costly", 0), 0u) << r.undecided->message;
  // Under `not`, an unjudged pattern decides nothing either.
  const schema& n = make(R"({"not": {"pattern": "^(a*)*\\1$"}})");
  EXPECT_EQ(judge(n, v), judgement::undecided);
  // Short strings are judged as usual.
  EXPECT_EQ(judge(s, boost::json::value("aaaa")), judgement::valid);
}

TEST(validator, keywords_of_other_types_do_not_apply) {
  testing::schemas make;
  const schema& s = make(R"({"minLength": 3, "minimum": 10, "minItems": 2, "required": ["a"]})");
  EXPECT_TRUE(valid(s, "true"));
  EXPECT_TRUE(valid(s, "null"));
  EXPECT_FALSE(valid(s, R"("ab")"));
  EXPECT_FALSE(valid(s, "9"));
  EXPECT_FALSE(valid(s, "[1]"));
  EXPECT_FALSE(valid(s, "{}"));
}

TEST(validator, numeric_bounds) {
  testing::schemas make;
  const schema& s = make(R"({"type": "number", "minimum": 1, "maximum": 100})");
  EXPECT_TRUE(valid(s, "1"));
  EXPECT_TRUE(valid(s, "100"));
  EXPECT_TRUE(valid(s, "50.5"));
  const auto low = check(s, "0");
  ASSERT_EQ(low.errors.size(), 1u);
  EXPECT_EQ(low.errors[0].schema_location, "#/minimum");
  EXPECT_EQ(low.errors[0].message, "0 is below the minimum 1");
  EXPECT_EQ(check(s, "100.5").errors[0].schema_location, "#/maximum");
}

TEST(validator, exclusive_bounds_including_the_openapi_3_0_form) {
  testing::schemas make;
  const schema& s31 = make(R"({"exclusiveMinimum": 0, "exclusiveMaximum": 10})");
  EXPECT_TRUE(valid(s31, "0.001"));
  EXPECT_FALSE(valid(s31, "0"));
  EXPECT_FALSE(valid(s31, "10"));
  const schema& s30 = make(R"({"minimum": 0, "exclusiveMinimum": true})");
  EXPECT_FALSE(valid(s30, "0"));
  EXPECT_TRUE(valid(s30, "1"));
  EXPECT_EQ(check(s30, "0").errors[0].schema_location, "#/exclusiveMinimum");
}

TEST(validator, multiple_of_has_a_tolerance_for_doubles) {
  testing::schemas make;
  const schema& cents = make(R"({"multipleOf": 0.01})");
  EXPECT_TRUE(valid(cents, "19.99"));
  EXPECT_TRUE(valid(cents, "0.3"));
  EXPECT_FALSE(valid(cents, "0.305"));
  const schema& three = make(R"({"multipleOf": 3})");
  EXPECT_TRUE(valid(three, "-9"));
  EXPECT_TRUE(valid(three, "18446744073709551615"));
  EXPECT_FALSE(valid(three, "10"));
  EXPECT_EQ(check(three, "10").errors[0].message, "10 is not a multiple of 3");
}

TEST(validator, array_items_and_counts) {
  testing::schemas make;
  const schema& s = make(R"({"type": "array", "items": {"type": "integer"}, "minItems": 1,
                              "maxItems": 3})");
  EXPECT_TRUE(valid(s, "[1, 2]"));
  EXPECT_FALSE(valid(s, "[]"));
  EXPECT_FALSE(valid(s, "[1, 2, 3, 4]"));
  const auto r = check(s, R"([1, "x", 3, true])");
  ASSERT_EQ(r.errors.size(), 3u);
  EXPECT_EQ(r.errors[0].schema_location, "#/maxItems");
  EXPECT_EQ(r.errors[1].instance_pointer, "/1");
  EXPECT_EQ(r.errors[1].schema_location, "#/items/type");
  EXPECT_EQ(r.errors[2].instance_pointer, "/3");
}

TEST(validator, unique_items_uses_json_equality) {
  testing::schemas make;
  const schema& s = make(R"({"uniqueItems": true})");
  EXPECT_TRUE(valid(s, R"([1, "1", [1], {"a": 1}])"));
  EXPECT_FALSE(valid(s, "[1, 1.0]"));
  EXPECT_FALSE(valid(s, R"([{"a": 1, "b": 2}, {"b": 2, "a": 1}])"));
  const auto r = check(s, "[0, 5, 5]");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].message, "items 1 and 2 are equal; uniqueItems forbids duplicates");
}

TEST(validator, object_properties_required_and_pointers) {
  testing::schemas make;
  const schema& s = make(R"({
    "type": "object", "required": ["data"],
    "properties": {"data": {"type": "object", "properties": {
      "items": {"type": "array", "items": {"type": "object", "required": ["id"],
                "properties": {"id": {"type": "string", "pattern": "^[0-9]+$"}}}}}}}})");
  EXPECT_TRUE(valid(s, R"({"data": {"items": [{"id": "1"}, {"id": "22"}]}})"));
  const auto r = check(s, R"({"data": {"items": [{"id": "1"}, {}, {}, {"id": "x7"}]}})");
  ASSERT_EQ(r.errors.size(), 3u);
  EXPECT_EQ(r.errors[0].instance_pointer, "/data/items/1");
  EXPECT_EQ(r.errors[0].message, "missing required property \"id\"");
  EXPECT_EQ(r.errors[0].schema_location, "#/properties/data/properties/items/items/required");
  EXPECT_EQ(r.errors[2].instance_pointer, "/data/items/3/id");
  EXPECT_EQ(r.errors[2].schema_location,
            "#/properties/data/properties/items/items/properties/id/pattern");
}

TEST(validator, pointer_tokens_are_escaped) {
  testing::schemas make;
  const schema& s = make(R"({"additionalProperties": {"type": "integer"}})");
  const auto r = check(s, R"({"a/b~c": "x"})");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].instance_pointer, "/a~1b~0c");
}

TEST(validator, additional_properties_false_and_schema) {
  testing::schemas make;
  const schema& closed = make(R"({"properties": {"a": {}}, "additionalProperties": false})");
  EXPECT_TRUE(valid(closed, R"({"a": 1})"));
  const auto r = check(closed, R"({"a": 1, "b": 2})");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].instance_pointer, "/b");
  EXPECT_EQ(r.errors[0].schema_location, "#/additionalProperties");
  EXPECT_EQ(r.errors[0].message, "property \"b\" is not allowed (additionalProperties is false)");
  const schema& typed =
      make(R"({"properties": {"a": {}}, "additionalProperties": {"type": "string"}})");
  EXPECT_TRUE(valid(typed, R"({"a": 1, "b": "x"})"));
  EXPECT_FALSE(valid(typed, R"({"a": 1, "b": 2})"));
}

TEST(validator, property_counts) {
  testing::schemas make;
  const schema& s = make(R"({"minProperties": 1, "maxProperties": 2})");
  EXPECT_FALSE(valid(s, "{}"));
  EXPECT_TRUE(valid(s, R"({"a": 1})"));
  EXPECT_FALSE(valid(s, R"({"a": 1, "b": 2, "c": 3})"));
  EXPECT_EQ(check(s, "{}").errors[0].schema_location, "#/minProperties");
}

TEST(validator, boolean_schemas) {
  testing::schemas make;
  EXPECT_TRUE(valid(make("true"), R"({"anything": [1]})"));
  EXPECT_TRUE(valid(make("{}"), "null"));
  const auto r = check(make("false"), "1");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].message.find("`false`"), std::string::npos);
  const schema& s = make(R"({"properties": {"gone": false}})");
  EXPECT_TRUE(valid(s, "{}"));
  EXPECT_FALSE(valid(s, R"({"gone": null})"));
}

TEST(validator, read_only_and_write_only_are_ignored) {
  testing::schemas make;
  const schema& s = make(R"({"properties": {"id": {"type": "string", "readOnly": true},
                                            "pw": {"type": "string", "writeOnly": true}},
                            "required": ["id", "pw"]})");
  EXPECT_TRUE(valid(s, R"({"id": "1", "pw": "x"})"));
  EXPECT_FALSE(valid(s, R"({"id": "1"})"));
}

TEST(validator, errors_are_capped_and_marked_truncated) {
  testing::schemas make;
  const schema& s = make(R"({"items": {"type": "string"}})");
  std::string many = "[";
  for (int i = 0; i < 100; ++i) many += (i ? ",1" : "1");
  many += "]";
  validation_options options;
  options.max_errors = 5;
  const auto r = validate(s, boost::json::parse(many), options);
  EXPECT_EQ(r.errors.size(), 5u);
  EXPECT_TRUE(r.truncated);
  EXPECT_FALSE(check(s, R"(["a"])").truncated);
}

TEST(validator, validation_is_safe_from_several_threads) {
  testing::schemas make;
  const schema& s = make(R"({"type": "array", "items": {"type": "string",
                              "pattern": "^[a-z]+[0-9]{2}$"}})");
  const auto good = boost::json::parse(R"(["ab12", "xyz99"])");
  const auto bad = boost::json::parse(R"(["ab12", "9"])");
  std::vector<std::thread> threads;
  std::vector<int> wrong(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 500; ++i) {
        if (!is_valid(s, good) || is_valid(s, bad)) ++wrong[static_cast<std::size_t>(t)];
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int w : wrong) EXPECT_EQ(w, 0);
}

TEST(validator, json_equality_rules) {
  using boost::json::parse;
  EXPECT_TRUE(json_equal(parse("1"), parse("1.0")));
  EXPECT_TRUE(json_equal(parse("18446744073709551615"), parse("18446744073709551615")));
  EXPECT_FALSE(json_equal(parse("9007199254740993"), parse("9007199254740992")));
  EXPECT_FALSE(json_equal(parse("-1"), parse("18446744073709551615")));
  EXPECT_FALSE(json_equal(parse("1"), parse("true")));
  EXPECT_FALSE(json_equal(parse("[1,2]"), parse("[2,1]")));
  EXPECT_TRUE(json_equal(parse(R"({"a":1,"b":2})"), parse(R"({"b":2,"a":1})")));
  EXPECT_FALSE(json_equal(parse(R"({"a":1})"), parse(R"({"a":1,"b":2})")));
}

}  // namespace
}  // namespace conform::schema
