// invalid_values: every value it produces is rejected by the validator, the
// mutations cover the keywords, and a schema that admits everything yields
// nothing.

#include "tests/generators/rc_support.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <set>

#include "generators/invalid.hpp"
#include "schema/validator.hpp"

namespace conform::generators {
namespace {

using boost::json::value;

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

TEST(invalid_value, every_invalid_value_is_rejected) {
  testing::schemas make;
  int with_mutations = 0;
  for (const std::string& text : testing::keyword_schemas()) {
    SCOPED_TRACE(text);
    const schema::schema& s = make(text);
    const auto g = invalid_values(s);
    if (!g) continue;
    ++with_mutations;
    testing::expect_success(testing::run_property([&] {
      const invalid_value bad = **g;
      RC_ASSERT(bad.json.has_value());
      RC_ASSERT(!schema::is_valid(s, *bad.json));
      RC_ASSERT(!bad.description.empty());
    }));
  }
  EXPECT_GE(with_mutations, 50);
}

// Issue 37: a `byte` string that is not base64 is an invalid value.
TEST(invalid_value, a_byte_string_that_is_not_base64_is_invalid) {
  testing::schemas make;
  const auto& s = make(R"({"type": "string", "format": "byte"})");
  EXPECT_FALSE(schema::is_valid(s, value("not base64!")));
  EXPECT_TRUE(schema::is_valid(s, value("QUJD")));
  const auto g = invalid_values(s);
  ASSERT_TRUE(g.has_value());
  bool not_base64 = false;
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    const invalid_value bad = (*g)(rc::Random(seed), 30).value();
    ASSERT_TRUE(bad.json.has_value());
    EXPECT_FALSE(schema::is_valid(s, *bad.json)) << boost::json::serialize(*bad.json);
    // Besides values of another type: strings that are not base64.
    not_base64 = not_base64 || bad.json->is_string();
  }
  EXPECT_TRUE(not_base64);
}

TEST(invalid_value, the_property_catches_a_mutation_checked_against_the_wrong_schema) {
  testing::schemas make;
  const auto& strict = make(R"({"type": "integer", "maximum": 10})");
  const auto& loose = make(R"({"type": "integer", "maximum": 100000})");
  const auto g = invalid_values(strict);
  ASSERT_TRUE(g.has_value());
  const auto result = testing::run_property([&] {
    const invalid_value bad = **g;
    RC_ASSERT(!schema::is_valid(loose, *bad.json));
  });
  EXPECT_TRUE(result.is<rc::detail::FailureResult>());
}

TEST(invalid_value, a_schema_that_admits_everything_yields_nothing) {
  testing::schemas make;
  for (const char* text :
       {"true", "{}", R"({"description": "anything", "readOnly": true})",
        R"({"type": ["null", "boolean", "integer", "number", "string", "array", "object"]})",
        R"({"anyOf": [{"type": "string"}, {}]})", R"({"pattern": ".*"})"}) {
    SCOPED_TRACE(text);
    EXPECT_FALSE(invalid_values(make(text)).has_value());
    EXPECT_TRUE(mutation_sites(make(text)).empty());
  }
}

TEST(invalid_value, mutations_cover_the_keywords) {
  testing::schemas make;
  const auto& s = make(R"({"type": "object", "required": ["name", "agent_id", "timezone"],
    "additionalProperties": false, "maxProperties": 4,
    "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 200},
                   "agent_id": {"type": "integer", "minimum": 1, "multipleOf": 1},
                   "status": {"enum": ["draft", "running"]},
                   "timezone": {"type": "string", "format": "timezone"},
                   "id": {"type": "string", "pattern": "^[0-9]+$"},
                   "ids": {"type": "array", "uniqueItems": true, "minItems": 1, "maxItems": 3,
                           "items": {"type": "integer", "exclusiveMaximum": 9}}}})");
  const auto sites = mutation_sites(s);
  for (const char* expected :
       {"wrong_type at /", "missing_required at /", "extra_property at /",
        "too_many_properties at /", "too_short at /name", "too_long at /name",
        "wrong_type at /agent_id", "out_of_range at /agent_id", "not_in_enum at /status",
        "format_violated at /timezone", "pattern_violated at /id", "too_few_items at /ids",
        "too_many_items at /ids", "duplicate_items at /ids", "out_of_range at /ids/0"}) {
    EXPECT_TRUE(has(sites, expected)) << expected;
  }
  // multipleOf 1 on an integer cannot be broken by an integer: not offered as a bogus case
  // unless a fraction still breaks the whole; every site is real either way.
  const auto g = invalid_values(s);
  ASSERT_TRUE(g.has_value());
  std::set<mutation_kind> kinds;
  for (std::uint64_t seed = 0; seed < 400; ++seed) {
    const invalid_value bad = (*g)(rc::Random(seed), 50).value();
    EXPECT_FALSE(schema::is_valid(s, *bad.json)) << bad.description;
    kinds.insert(bad.kind);
  }
  EXPECT_GE(kinds.size(), 10u);
}

TEST(invalid_value, descriptions_say_what_and_where) {
  testing::schemas make;
  const auto& s = make(R"({"type": "object", "properties": {
                            "name": {"type": "string", "maxLength": 3}}, "required": ["name"]})");
  const auto g = invalid_values(s);
  ASSERT_TRUE(g.has_value());
  std::set<std::string> descriptions;
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    descriptions.insert((*g)(rc::Random(seed), 50).value().description);
  }
  EXPECT_TRUE(descriptions.count("/name: a string of 4 characters, above maxLength 3"));
  EXPECT_TRUE(descriptions.count("/: the required property \"name\" left out"));
}

TEST(invalid_value, malformed_json_is_not_json) {
  testing::schemas make;
  const auto& s = make(R"({"type": "object", "properties": {"a": {"type": "integer"}}})");
  invalid_options options;
  options.malformed_json = true;
  const auto g = invalid_values(s, {}, options);
  ASSERT_TRUE(g.has_value());
  int malformed = 0;
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    const invalid_value bad = (*g)(rc::Random(seed), 50).value();
    if (bad.kind != mutation_kind::malformed_json) {
      EXPECT_FALSE(schema::is_valid(s, *bad.json));
      continue;
    }
    ++malformed;
    EXPECT_FALSE(bad.json.has_value());
    boost::system::error_code ec;
    (void)boost::json::parse(bad.body(), ec);
    EXPECT_TRUE(ec) << bad.body();
  }
  EXPECT_GT(malformed, 0);
}

TEST(invalid_value, one_of_is_broken_only_where_no_branch_accepts) {
  testing::schemas make;
  const auto& all = testing::keyword_schemas();
  const auto it = std::find_if(all.begin(), all.end(),
                               [](const std::string& t) { return t.find("wrapped") != t.npos; });
  ASSERT_NE(it, all.end());
  const auto& s = make(*it);  // the wrapped-or-flat oneOf
  const auto g = invalid_values(s);
  ASSERT_TRUE(g.has_value());
  testing::expect_success(testing::run_property([&] {
    const invalid_value bad = **g;
    RC_ASSERT(!schema::is_valid(s, *bad.json));
  }));
}

TEST(invalid_value, kinds_have_names) {
  EXPECT_EQ(to_string(mutation_kind::pattern_violated), "pattern_violated");
  EXPECT_EQ(to_string(mutation_kind::malformed_json), "malformed_json");
}

}  // namespace
}  // namespace conform::generators
