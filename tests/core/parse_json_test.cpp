// The JSON reader: the same values as Boost.JSON on every document, the
// same verdict on broken ones, positions that point at each value, and the
// bounds of core/limits.hpp.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <boost/json/error.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "core/limits.hpp"
#include "core/parse.hpp"
#include "core/document.hpp"

namespace conform::core {
namespace {

/// Random JSON values: the shapes a description has, and strings of any
/// characters (escapes, multi-byte, control characters) and numbers of
/// either kind.
rc::Gen<boost::json::value> json_value(int depth) {
  using boost::json::value;
  auto text = rc::gen::oneOf(rc::gen::arbitrary<std::string>(),
                             rc::gen::container<std::string>(rc::gen::inRange<char>(0x20, 0x7F)));
  auto unicode = rc::gen::map(
      rc::gen::container<std::vector<char32_t>>(rc::gen::oneOf(
          rc::gen::inRange<char32_t>(0, 0xD800), rc::gen::inRange<char32_t>(0xE000, 0x110000))),
      [](const std::vector<char32_t>& cps) {
        std::string out;
        for (char32_t c : cps) {
          if (c < 0x80) {
            out += static_cast<char>(c);
          } else if (c < 0x800) {
            out += static_cast<char>(0xC0 | (c >> 6));
            out += static_cast<char>(0x80 | (c & 0x3F));
          } else if (c < 0x10000) {
            out += static_cast<char>(0xE0 | (c >> 12));
            out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (c & 0x3F));
          } else {
            out += static_cast<char>(0xF0 | (c >> 18));
            out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (c & 0x3F));
          }
        }
        return out;
      });
  auto scalars = rc::gen::oneOf(
      rc::gen::just(value(nullptr)),
      rc::gen::map(rc::gen::arbitrary<bool>(), [](bool b) { return value(b); }),
      rc::gen::map(rc::gen::arbitrary<std::int64_t>(), [](std::int64_t i) { return value(i); }),
      rc::gen::map(rc::gen::arbitrary<double>(),
                   [](double d) { return std::isfinite(d) ? value(d) : value(0.5); }),
      rc::gen::map(unicode, [](const std::string& s) { return value(s); }),
      rc::gen::map(text, [](const std::string& s) {
        // arbitrary<std::string> is bytes: keep the valid-UTF-8 ASCII part.
        std::string ascii;
        for (char c : s) {
          if (static_cast<unsigned char>(c) < 0x80) ascii += c;
        }
        return value(ascii);
      }));
  if (depth <= 0) return scalars;
  // Small containers: a few hundred nodes per document, not a million.
  return rc::gen::oneOf(
      scalars,
      rc::gen::map(rc::gen::resize(6, rc::gen::container<std::vector<boost::json::value>>(
                                          json_value(depth - 1))),
                   [](std::vector<boost::json::value> items) {
                     boost::json::array a;
                     for (auto& v : items) a.push_back(std::move(v));
                     return value(std::move(a));
                   }),
      rc::gen::map(rc::gen::resize(
                       6, rc::gen::container<std::map<std::string, boost::json::value>>(
                              rc::gen::container<std::string>(rc::gen::inRange<char>(0x20, 0x7F)),
                              json_value(depth - 1))),
                   [](std::map<std::string, boost::json::value> members) {
                     boost::json::object o;
                     for (auto& [k, v] : members) o[k] = std::move(v);
                     return value(std::move(o));
                   }));
}

/// Equal as JSON, numbers compared by value (an integral double may come back
/// as an integer: "1E0" is a number, "1" an integer, and they are equal), to
/// the last bits: Boost.JSON 1.81 does not round every decimal correctly
/// (9.806979050870247E-1 reads as ...248), strtod does.
bool same(const boost::json::value& a, const boost::json::value& b) {
  if (a.is_number() && b.is_number()) {
    const double x = a.to_number<double>(), y = b.to_number<double>();
    return x == y || std::fabs(x - y) <= 4 * std::numeric_limits<double>::epsilon() *
                                             std::max(std::fabs(x), std::fabs(y));
  }
  if (a.kind() != b.kind()) return false;
  if (a.is_array()) {
    const auto &x = a.as_array(), &y = b.as_array();
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (!same(x[i], y[i])) return false;
    }
    return true;
  }
  if (a.is_object()) {
    const auto &x = a.as_object(), &y = b.as_object();
    if (x.size() != y.size()) return false;
    for (const auto& [k, v] : x) {
      const auto* w = y.if_contains(k);
      if (w == nullptr || !same(v, *w)) return false;
    }
    return true;
  }
  return a == b;
}

RC_GTEST_PROP(parse_json, reads_what_boost_json_reads, ()) {
  const auto v = *json_value(3);
  const std::string text = boost::json::serialize(v);
  const parsed_document d = parse_json(text, "t.json");
  RC_ASSERT(!d.error.has_value());
  RC_ASSERT(same(to_json(d.root), v));
}

/// The byte offset of 1-based (line, column in characters) in `text`; past
/// the end when there is no such place.
std::size_t offset_of(const std::string& text, std::uint32_t line, std::uint32_t column) {
  if (line == 0 || column == 0) return text.size();
  std::size_t i = 0;
  for (std::uint32_t l = 1; l < line; ++l) {
    i = text.find('\n', i);
    if (i == std::string::npos) return text.size();
    ++i;
  }
  for (std::uint32_t c = 1; c < column && i < text.size(); ++c) {
    ++i;
    while (i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) ++i;
  }
  return i;
}

/// Every node's position names the first character of its text.
void check_positions(const std::string& text, const node& n) {
  const std::size_t at = offset_of(text, n.line(), n.column());
  RC_ASSERT(at < text.size());
  const char c = text[at];
  switch (n.type()) {
    case node::kind::map:
      RC_ASSERT(c == '{');
      for (const auto& e : n.entries()) {
        RC_ASSERT(text[offset_of(text, e.line, e.column)] == '"');
        check_positions(text, e.value);
      }
      break;
    case node::kind::sequence:
      RC_ASSERT(c == '[');
      for (const auto& item : n.items()) check_positions(text, item);
      break;
    case node::kind::scalar: {
      const bool plain_start = c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f';
      RC_ASSERT((n.quoted() ? c == '"' : plain_start));
    } break;
    default:
      RC_ASSERT(c == 'n');
  }
}

/// Pretty-printed over several lines, with indentation and multi-byte text.
std::string pretty(const boost::json::value& v, int indent = 0) {
  const std::string pad(static_cast<std::size_t>(indent), ' ');
  if (v.is_object()) {
    std::string out = "{\n";
    bool first = true;
    for (const auto& [k, m] : v.as_object()) {
      out += first ? "" : ",\n";
      first = false;
      out += pad + "  " + boost::json::serialize(boost::json::value(k)) + " : " +
             pretty(m, indent + 2);
    }
    return out + "\n" + pad + "}";
  }
  if (v.is_array()) {
    std::string out = "[\n";
    bool first = true;
    for (const auto& m : v.as_array()) {
      out += first ? "" : ",\n";
      first = false;
      out += pad + "  " + pretty(m, indent + 2);
    }
    return out + "\n" + pad + "]";
  }
  return boost::json::serialize(v);
}

RC_GTEST_PROP(parse_json, every_position_names_the_first_character_of_its_value, ()) {
  const auto v = *json_value(3);
  for (const std::string& text : {boost::json::serialize(v), pretty(v)}) {
    const parsed_document d = parse_json(text, "t.json");
    RC_ASSERT(!d.error.has_value());
    check_positions(text, d.root);
  }
}

bool finite(const boost::json::value& v) {
  if (v.is_double()) return std::isfinite(v.as_double());
  if (v.is_array()) {
    for (const auto& item : v.as_array()) {
      if (!finite(item)) return false;
    }
  }
  if (v.is_object()) {
    for (const auto& [k, m] : v.as_object()) {
      if (!finite(m)) return false;
    }
  }
  return true;
}

RC_GTEST_PROP(parse_json, accepts_exactly_what_boost_json_accepts, ()) {
  const auto v = *json_value(2);
  std::string text = boost::json::serialize(v);
  // One edit: a byte deleted, replaced or inserted (the JSON punctuation and
  // digits are the interesting ones).
  const auto at = *rc::gen::inRange<std::size_t>(0, text.size() + 1);
  const char c = *rc::gen::elementOf(std::string("{}[]\":,.-+eE0123456789tfnul \\/x"));
  switch (*rc::gen::inRange(0, 3)) {
    case 0:
      if (at < text.size()) text.erase(at, 1);
      break;
    case 1:
      if (at < text.size()) text[at] = c;
      break;
    default:
      text.insert(at, 1, c);
  }
  boost::system::error_code ec;
  const auto theirs = boost::json::parse(text, ec);
  const parsed_document ours = parse_json(text, "t.json");
  if (ours.error && ours.error->message.find("duplicate key") != std::string::npos) {
    RC_SUCCEED("a duplicate key: refused by ours, kept by Boost.JSON");
  }
  if (ec == boost::json::error::exponent_overflow) {
    RC_SUCCEED("an exponent past Boost.JSON's int (valid JSON, kept as text by ours)");
  }
  RC_ASSERT(ours.error.has_value() == static_cast<bool>(ec));
  if (ec) return;
  if (!finite(theirs)) {
    // 1E309: Boost.JSON reads infinity; ours keeps the text, which no
    // keyword takes as a number (a clear error where one is needed).
    RC_SUCCEED("a number out of the range of a double");
  }
  RC_ASSERT(same(to_json(ours.root), theirs));
}

std::string nested(std::size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

TEST(parse_json, nesting_is_bounded_at_its_limit) {
  EXPECT_FALSE(parse_json(nested(limits::max_depth), "t.json").error.has_value());
  const auto d = parse_json(nested(limits::max_depth + 1), "t.json");
  ASSERT_TRUE(d.error.has_value());
  EXPECT_NE(d.error->message.find("nesting deeper than"), std::string::npos);
  EXPECT_EQ(d.error->pos.line, 1);
  EXPECT_EQ(d.error->pos.column, static_cast<int>(limits::max_depth) + 1);
  // Deep enough to overflow a recursive parser's stack: refused at the limit.
  EXPECT_TRUE(parse_json(nested(1'000'000), "t.json").error.has_value());
}

TEST(parse_json, a_duplicate_key_is_refused_at_its_second_occurrence) {
  const auto d = parse_json("{\n  \"a\": 1,\n  \"b\": 2,\n  \"a\": 3\n}", "t.json");
  ASSERT_TRUE(d.error.has_value());
  EXPECT_EQ(to_string(*d.error),
            "t.json:4:3: error: duplicate key 'a' in a mapping (each key may appear once)");
  // In a big mapping too (sorted, not compared pairwise).
  std::string big = "{";
  for (int i = 0; i < 5000; ++i)
    big += "\"k" + std::to_string(i) + "\": " + std::to_string(i) + ",";
  big += "\"k17\": 0}";
  const auto b = parse_json(big, "big.json");
  ASSERT_TRUE(b.error.has_value());
  EXPECT_NE(b.error->message.find("'k17'"), std::string::npos);
}

TEST(parse_json, scalars_past_the_limit_are_refused) {
  const std::string digits(limits::max_scalar_bytes + 1, '7');
  const auto n = parse_json("[" + digits + "]", "t.json");
  ASSERT_TRUE(n.error.has_value());
  EXPECT_NE(n.error->message.find("a scalar of"), std::string::npos);
  const auto s =
      parse_json("[\"" + std::string(limits::max_scalar_bytes + 1, 'x') + "\"]", "t.json");
  ASSERT_TRUE(s.error.has_value());
  EXPECT_NE(s.error->message.find("a scalar of"), std::string::npos);
}

TEST(parse_json, errors_say_what_and_where) {
  const auto cases = std::vector<std::pair<std::string, std::string>>{
      {"{\"a\": tru}", "t.json:1:7: error: expected a value, found 't'"},
      {"{\"a\" 1}", "t.json:1:6: error: expected ':' after the key, found '1'"},
      {"[1,\n 2,\n 3", "t.json:3:3: error: the JSON document ends where ',' or ']' was expected"},
      {"[\"a\tb\"]",
       "t.json:1:4: error: a control character inside a string (write it as an escape)"},
      {"[\"\\q\"]", "t.json:1:3: error: unknown escape '\\q' in a string"},
      {"[\"\\ud800\"]", "t.json:1:3: error: a \\u escape of a high surrogate without its pair"},
      {"[01]", "t.json:1:3: error: expected ',' or ']', found '1'"},
      {"{} x", "t.json:1:4: error: text after the end of the JSON document"},
      {"[\"\xC3\xA9\", x]", "t.json:1:7: error: expected a value, found 'x'"},
      {"[1, \"\xff\"]", "t.json:1:6: error: invalid UTF-8 (byte 0xFF): the text must be UTF-8"},
  };
  for (const auto& [text, want] : cases) {
    const auto d = parse_json(text, "t.json");
    ASSERT_TRUE(d.error.has_value()) << text;
    EXPECT_EQ(to_string(*d.error), want) << text;
  }
}

TEST(parse_json, strings_are_quoted_and_everything_else_plain) {
  const auto d = parse_json(
      "\xEF\xBB\xBF{\"s\": \"12\", \"n\": 12, \"t\": true, \"z\": null, \"u\": "
      "\"\\u00e9\\ud83d\\ude00\"}",
      "t.json");
  ASSERT_FALSE(d.error.has_value()) << to_string(*d.error);
  EXPECT_TRUE(d.root.get("s").quoted());
  EXPECT_EQ(classify(d.root.get("s")), scalar_kind::string);
  EXPECT_EQ(classify(d.root.get("n")), scalar_kind::integer);
  EXPECT_EQ(classify(d.root.get("t")), scalar_kind::boolean);
  EXPECT_TRUE(d.root.get("z").is_null());
  EXPECT_EQ(d.root.get("u").text(), "\u00e9\U0001F600");
  EXPECT_EQ(d.root.line(), 1u);
  EXPECT_EQ(d.root.column(), 1u);  // after the byte order mark
}

TEST(parse_document, json_first_then_yaml_for_flow_style) {
  EXPECT_TRUE(parse_document("{\"a\": [1, 2]}", "t").root.get("a").is_sequence());
  // Flow YAML that is not JSON still reads.
  const auto y = parse_document("{a: [1, 2], b: x}", "t.yaml");
  ASSERT_FALSE(y.error.has_value()) << to_string(*y.error);
  EXPECT_EQ(y.root.get("b").text(), "x");
  // A bound is no syntax error: the text is not read again as YAML.
  const auto deep = parse_document(std::string(100, '[') + std::string(100, ']'), "t.json");
  ASSERT_TRUE(deep.error.has_value());
  EXPECT_TRUE(deep.past_a_bound);
  EXPECT_EQ(to_string(*deep.error),
            "t.json:1:65: error: nesting deeper than 64 levels of mappings and sequences");
  // Neither: the JSON reader's error, which is the precise one.
  const auto bad = parse_document("{\"a\": [1, 2}", "t.json");
  ASSERT_TRUE(bad.error.has_value());
  EXPECT_EQ(to_string(*bad.error), "t.json:1:12: error: expected ',' or ']', found '}'");
}

}  // namespace
}  // namespace conform::core
