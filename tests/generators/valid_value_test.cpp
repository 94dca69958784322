// valid_value: every generated value validates, for schemas that use every
// keyword; shrinks stay valid; a wrong generator is caught by the property.

#include "tests/generators/rc_support.hpp"

#include <boost/json/serialize.hpp>

#include "core/base64.hpp"
#include "generators/value.hpp"
#include "schema/validator.hpp"

namespace conform::generators {
namespace {

using boost::json::value;

/// Valid values are request values: a readOnly property is the server's,
/// never sent, and not required of a request (schema::direction::request).
std::string first_error(const schema::schema& s, const value& v) {
  const auto r = schema::validate(s, v, {.way = schema::direction::request});
  if (r.ok()) return "";
  return boost::json::serialize(v) + " at " + r.errors[0].instance_pointer + ": " +
         r.errors[0].message;
}

TEST(valid_value, every_generated_value_validates) {
  testing::schemas make;
  for (const std::string& text : testing::keyword_schemas()) {
    SCOPED_TRACE(text);
    const schema::schema& s = make(text);
    const auto g = valid_value(s);
    testing::expect_success(testing::run_property([&] {
      const value v = *g;
      RC_ASSERT(first_error(s, v) == "");
    }));
  }
}

TEST(valid_value, shrinks_of_valid_values_stay_valid) {
  testing::schemas make;
  for (const std::string& text : testing::keyword_schemas()) {
    SCOPED_TRACE(text);
    const schema::schema& s = make(text);
    const auto g = valid_value(s);
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
      rc::Shrinkable<value> root = g(rc::Random(seed), 50);
      // Walk a few levels of the shrink tree, breadth-limited.
      std::vector<rc::Shrinkable<value>> level{root};
      for (int depth = 0; depth < 3 && !level.empty(); ++depth) {
        std::vector<rc::Shrinkable<value>> next;
        for (const auto& sh : level) {
          const value v = sh.value();
          ASSERT_EQ(first_error(s, v), "") << "seed " << seed << ", shrink depth " << depth;
          auto shrinks = sh.shrinks();
          for (int i = 0; i < 6; ++i) {
            auto child = shrinks.next();
            if (!child) break;
            next.push_back(*child);
          }
        }
        level = std::move(next);
      }
    }
  }
}

// Issue 37: `format: byte` was generated as any text. It is base64 of
// varied octets (RFC 4648 section 4), and `binary` the octets themselves.
TEST(valid_value, byte_is_base64_of_any_octets_and_binary_is_raw_octets) {
  testing::schemas make;
  const auto byte = valid_value(make(R"({"type": "string", "format": "byte"})"));
  const auto binary = valid_value(make(R"({"type": "string", "format": "binary"})"));
  bool high_octet = false, raw_high = false;
  for (std::uint64_t seed = 0; seed < 60; ++seed) {
    const value v = byte(rc::Random(seed), 30).value();
    ASSERT_TRUE(v.is_string());
    const std::string text(v.as_string());
    const auto decoded = core::base64_decode(text);
    ASSERT_TRUE(decoded) << text;
    EXPECT_EQ(core::base64_encode(*decoded), text);
    for (const char c : *decoded) high_octet = high_octet || static_cast<unsigned char>(c) >= 0x80;
    const value raw = binary(rc::Random(seed), 30).value();
    ASSERT_TRUE(raw.is_string());
    for (const char c : raw.as_string())
      raw_high = raw_high || static_cast<unsigned char>(c) >= 0x80;
  }
  EXPECT_TRUE(high_octet);
  EXPECT_TRUE(raw_high);
  // Within lengths, and valid by the validator (which asserts `byte`).
  for (const char* text : {R"({"type": "string", "format": "byte"})",
                           R"({"type": "string", "format": "byte", "minLength": 4,
                               "maxLength": 12})"}) {
    const schema::schema& s = make(text);
    const auto g = valid_value(s);
    testing::expect_success(testing::run_property([&] {
      const value v = *g;
      RC_ASSERT(first_error(s, v) == "");
    }));
  }
}

TEST(valid_value, generated_values_vary) {
  testing::schemas make;
  const auto& s = make(R"({"type": "object", "required": ["a"],
                          "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}})");
  const auto g = valid_value(s);
  std::set<std::string> seen;
  bool with_b = false, without_b = false;
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    const value v = g(rc::Random(seed), 30).value();
    seen.insert(boost::json::serialize(v));
    (v.as_object().contains("b") ? with_b : without_b) = true;
  }
  EXPECT_GT(seen.size(), 40u);
  EXPECT_TRUE(with_b);
  EXPECT_TRUE(without_b);
}

TEST(valid_value, generation_is_deterministic_for_a_seed) {
  testing::schemas make;
  const auto& all = testing::keyword_schemas();
  const auto it = std::find_if(all.begin(), all.end(), [](const std::string& t) {
    return t.find("campaign_phone_number_ids") != t.npos;
  });
  ASSERT_NE(it, all.end());
  const auto& s = make(*it);
  const auto a = valid_value(s)(rc::Random(42), 50).value();
  const auto b = valid_value(s)(rc::Random(42), 50).value();
  EXPECT_EQ(boost::json::serialize(a), boost::json::serialize(b));
}

TEST(valid_value, the_property_catches_a_generator_for_the_wrong_schema) {
  testing::schemas make;
  const auto& loose = make(R"({"type": "integer", "minimum": 0, "maximum": 100})");
  const auto& strict = make(R"({"type": "integer", "minimum": 0, "maximum": 10})");
  const auto g = valid_value(loose);
  const auto result = testing::run_property([&] {
    const value v = *g;
    RC_ASSERT(first_error(strict, v) == "");
  });
  EXPECT_TRUE(result.is<rc::detail::FailureResult>());
}

TEST(valid_value, recursive_schemas_stop_at_the_depth_limit) {
  testing::schemas make;
  const auto& s = make(R"({"type": "object", "required": ["name", "children"],
                          "properties": {"name": {"type": "string"},
                                         "children": {"type": "array", "items": {"$ref": "#"}}}})");
  gen_options options;
  options.max_depth = 3;
  const auto g = valid_value(s, options);
  std::function<int(const value&)> depth = [&](const value& v) {
    int d = 0;
    for (const auto& c : v.as_object().at("children").as_array()) d = std::max(d, depth(c));
    return d + 1;
  };
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const value v = g(rc::Random(seed), 100).value();
    EXPECT_TRUE(schema::is_valid(s, v));
    EXPECT_LE(depth(v), 3);
  }
}

TEST(valid_value, branching_recursion_stays_small) {
  testing::schemas make;
  // Two required recursive arrays per node: a generator per node down to the
  // hard depth limit would be 2^20 generators.
  const auto& s = make(R"({"type": "object", "required": ["l", "r"],
                          "properties": {"l": {"type": "array", "items": {"$ref": "#"}},
                                         "r": {"type": "array", "items": {"$ref": "#"}}}})");
  const auto g = valid_value(s);
  testing::expect_success(testing::run_property([&] {
    const value v = *g;
    RC_ASSERT(schema::is_valid(s, v));
  }));
}

TEST(valid_value, a_schema_that_admits_nothing_fails_generation) {
  testing::schemas make;
  for (const char* text : {"false", R"({"type": "integer", "minimum": 5, "maximum": 4})",
                           R"({"type": "string", "minLength": 5, "maxLength": 2})",
                           R"({"type": "string", "enum": ["a"], "minLength": 2})",
                           R"({"allOf": [{"type": "string"}, {"type": "integer"}]})"}) {
    SCOPED_TRACE(text);
    const auto g = valid_value(make(text));
    EXPECT_THROW(g(rc::Random(1), 10).value(), rc::GenerationFailure);
  }
}

TEST(valid_value, fixtures_fill_x_fixture_nodes) {
  testing::schemas make;
  const auto& s = make(R"({"type": "object", "required": ["agent_id", "kb"],
                          "properties": {"agent_id": {"type": "integer", "minimum": 1,
                                                      "x-fixture": "agent_id"},
                                         "kb": {"$ref": "#/$defs/id", "x-fixture": "kb_id"},
                                         "bad": {"type": "integer", "x-fixture": "kb_id"}},
                          "$defs": {"id": {"type": "string", "pattern": "^[0-9]+$"}}})");
  gen_options options;
  options.optional_percent = 100;
  options.fixture = [](std::string_view name) -> std::optional<std::string> {
    if (name == "agent_id") return "11";
    if (name == "kb_id") return "801";
    return std::nullopt;
  };
  const auto g = valid_value(s, options);
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    const value v = g(rc::Random(seed), 50).value();
    EXPECT_EQ(v.at("agent_id"), value(11));
    EXPECT_EQ(v.at("kb"), value("801"));
    EXPECT_TRUE(v.at("bad").is_int64());  // "801" as an integer fits; taken
  }
}

TEST(valid_value, examples_are_used_when_asked) {
  testing::schemas make;
  const auto& s = make(R"({"type": "string", "minLength": 3, "examples": ["hello", "x"]})");
  gen_options options;
  options.example_percent = 100;
  const auto g = valid_value(s, options);
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    EXPECT_EQ(g(rc::Random(seed), 50).value(), value("hello"));  // "x" is too short
  }
}

TEST(valid_value, unsupported_patterns_are_reported_and_filtered) {
  testing::schemas make;
  const auto& s = make(R"js({"properties": {"a": {"type": "string", "pattern": "^(?!x)"},
                                           "b": {"type": "string", "pattern": "^[a-z]+$"}}})js");
  const auto notes = unsupported_patterns(s);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0], "#/properties/a: ^(?!x): lookaround or named group");
  const auto& a = *s.property("a");
  const auto g = valid_value(a);
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    EXPECT_TRUE(schema::is_valid(a, g(rc::Random(seed), 50).value()));
  }
}

// Found on etcd's grpc-gateway description: `type: string, format: int64`
// (the proto3 JSON mapping of a 64-bit integer) was any string, which the
// server refused. It is the decimal string of a whole number.
TEST(valid_value, a_number_format_on_a_string_is_a_decimal_string) {
  testing::schemas make;
  for (const char* text :
       {R"({"type": "string", "format": "int64"})", R"({"type": "string", "format": "int32"})"}) {
    const schema::schema& s = make(text);
    const auto g = valid_value(s);
    testing::expect_success(testing::run_property([&] {
      const value v = *g;
      RC_ASSERT(v.is_string());
      const std::string digits(v.as_string());
      RC_ASSERT(!digits.empty());
      RC_ASSERT(digits.find_first_not_of("0123456789") == std::string::npos);
      RC_ASSERT(digits == "0" || digits.front() != '0');
      RC_ASSERT(first_error(s, v) == "");
    }));
  }
}

}  // namespace
}  // namespace conform::generators
