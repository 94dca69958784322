// Coverage completes each constraint (issue 22): every JSON type a field
// does not admit is sent once, a numeric string first for numbers; a
// parameter gets the wrong type it can carry as text; enum and const send
// a near miss first; each end of a range is a case; cookies are broken too.

#include "tests/generators/rc_support.hpp"

#include <boost/json/parse.hpp>

#include <map>
#include <set>
#include <string>

#include "generators/request.hpp"

namespace conform::generators {
namespace {

using boost::json::value;
using openapi::param_location;

openapi::parameter param(std::string name, param_location in, const schema::schema* s) {
  openapi::parameter p;
  p.name = std::move(name);
  p.in = in;
  p.schema = s;
  return p;
}

std::optional<generated_request> first_sample(const coverage_case& c) {
  for (int attempt = 0; attempt < 4; ++attempt) {
    try {
      return c.gen(rc::Random(7 + static_cast<std::uint64_t>(attempt)), attempt * 10).value();
    } catch (const std::exception&) {
    }
  }
  return std::nullopt;
}

const char* type_name(const value& v) {
  switch (v.kind()) {
    case boost::json::kind::null:
      return "null";
    case boost::json::kind::bool_:
      return "boolean";
    case boost::json::kind::int64:
    case boost::json::kind::uint64:
      return "integer";
    case boost::json::kind::double_:
      return "number";
    case boost::json::kind::string:
      return "string";
    case boost::json::kind::array:
      return "array";
    case boost::json::kind::object:
      return "object";
  }
  return "?";
}

class typed_api {
 public:
  typed_api() {
    op.operation_id = "createThing";
    op.method = http::verb::post;
    op.path = "/things";
    op.parameters = {
        param("limit", param_location::query, &make(R"({"type": "integer", "maximum": 9})")),
        param("flavour", param_location::cookie,
              &make(R"({"type": "string", "enum": ["mild", "hot"]})"))};
    op.body = openapi::request_body{};
    op.body->required = true;
    op.body->content.push_back(openapi::media_type{"application/json",
                                                   &make(R"({
      "type": "object",
      "properties": {
        "count": {"type": "integer", "minimum": 1},
        "ratio": {"type": "number"},
        "name": {"type": "string"},
        "on": {"type": "boolean"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "meta": {"type": "object"},
        "maybe": {"type": ["integer", "null"]},
        "mode": {"type": "string", "enum": ["fast", "slow"]},
        "version": {"const": 2}}})"),
                                                   {}});
  }
  openapi::operation op;

 private:
  testing::schemas make;
};

TEST(coverage_cases, each_wrong_type_is_sent_once_per_typed_field) {
  const typed_api a;
  // Property -> the JSON types sent where it does not admit them.
  std::map<std::string, std::multiset<std::string>> sent;
  std::map<std::string, std::string> first_string;
  for (const auto& c : coverage_cases(a.op, nullptr)) {
    if (c.keyword != "type" || c.constraint.rfind("invalid_body", 0) != 0) continue;
    const auto r = first_sample(c);
    ASSERT_TRUE(r) << c.constraint;
    const std::string pointer = r->mode.where.substr(std::string("body /").size());
    // The body's own type, an item's: not this test's.
    if (pointer.empty() || pointer.find('/') != std::string::npos) continue;
    const value body = boost::json::parse(r->body);
    ASSERT_TRUE(body.is_object()) << r->body;
    ASSERT_TRUE(body.as_object().contains(pointer)) << c.constraint << " " << r->body;
    const value& v = body.at(pointer);
    sent[pointer].insert(type_name(v));
    if (v.is_string() && !first_string.count(pointer)) first_string[pointer] = v.as_string();
  }
  const std::map<std::string, std::multiset<std::string>> want = {
      {"count", {"null", "boolean", "number", "string", "array", "object"}},
      {"ratio", {"null", "boolean", "string", "array", "object"}},
      {"name", {"null", "boolean", "integer", "number", "array", "object"}},
      {"on", {"null", "integer", "number", "string", "array", "object"}},
      {"tags", {"null", "boolean", "integer", "number", "string", "object"}},
      {"meta", {"null", "boolean", "integer", "number", "string", "array"}},
      {"maybe", {"boolean", "number", "string", "array", "object"}},
      {"mode", {"null", "boolean", "integer", "number", "array", "object"}},
  };
  for (const auto& [pointer, types] : want) {
    EXPECT_EQ(sent[pointer], types) << pointer;
  }
  // For integers and numbers the string is a number written as a string:
  // the wrong type a lenient server most often takes.
  for (const char* numeric : {"count", "ratio", "maybe"}) {
    const std::string& s = first_string[numeric];
    EXPECT_FALSE(s.empty()) << numeric;
    EXPECT_EQ(s.find_first_not_of("-0123456789."), std::string::npos) << numeric << ": " << s;
  }
}

TEST(coverage_cases, a_parameter_gets_the_wrong_type_it_can_carry_as_text) {
  const typed_api a;
  std::vector<std::string> limit;
  for (const auto& c : coverage_cases(a.op, nullptr)) {
    if (c.keyword == "type" && c.constraint.find("query limit") != std::string::npos) {
      limit.push_back(c.constraint);
      const auto r = first_sample(c);
      ASSERT_TRUE(r);
      ASSERT_EQ(r->query.size(), 1u) << r->target();
      // Not a numeric string: as text it would read back as the integer it spells.
      EXPECT_NE(r->query[0].second.find_first_not_of("-0123456789"), std::string::npos)
          << r->target();
    }
  }
  EXPECT_EQ(limit.size(), 1u);
}

TEST(coverage_cases, enum_and_const_send_a_near_miss_first) {
  const typed_api a;
  std::map<std::string, value> first;
  for (const auto& c : coverage_cases(a.op, nullptr)) {
    if (c.keyword != "enum" && c.keyword != "const") continue;
    const auto r = first_sample(c);
    ASSERT_TRUE(r) << c.constraint;
    if (r->mode.where.rfind("body", 0) == 0) {
      const value body = boost::json::parse(r->body);
      const std::string pointer = r->mode.where.substr(std::string("body /").size());
      first.emplace(pointer, body.at(pointer));
    } else {
      ASSERT_EQ(r->cookies.size(), 1u);
      first.emplace(r->mode.where, value(r->cookies[0].second));
    }
  }
  EXPECT_EQ(first.at("mode"), value("FAST"));            // case changed
  EXPECT_EQ(first.at("version"), value(3));              // one off
  EXPECT_EQ(first.at("cookie flavour"), value("MILD"));  // a cookie is broken too
}

TEST(coverage_cases, each_end_of_a_range_is_a_case_just_past_it) {
  const typed_api a;
  std::map<std::string, std::string> target;
  for (const auto& c : coverage_cases(a.op, nullptr)) {
    if (c.keyword != "minimum" && c.keyword != "maximum") continue;
    const auto r = first_sample(c);
    ASSERT_TRUE(r) << c.constraint;
    target[c.constraint] = r->mode.where.rfind("body", 0) == 0 ? r->body : r->target();
  }
  bool below = false, above = false;
  for (const auto& [name, sent] : target) {
    if (name.find("invalid_body body /count: a number below the minimum 1") == 0) {
      below = sent.find("\"count\":0") != std::string::npos;
    }
    if (name.find("invalid_query_param query limit /: a number above the maximum 9") == 0) {
      above = sent.find("limit=10") != std::string::npos;
    }
  }
  EXPECT_TRUE(below) << ::testing::PrintToString(target);
  EXPECT_TRUE(above) << ::testing::PrintToString(target);
}

// Issue 37: every operation is asked once with `Accept: */*` and once with
// no Accept, each the valid request of the same seed otherwise, each saying
// its Accept in its mode; no other case names an Accept of its own.
TEST(coverage_cases, the_valid_request_is_sent_with_accept_any_and_with_none) {
  const typed_api a;
  std::map<std::string, generated_request> negotiation;
  std::optional<generated_request> plain;
  for (const auto& c : coverage_cases(a.op, nullptr)) {
    const auto r = first_sample(c);
    ASSERT_TRUE(r) << c.constraint;
    if (c.constraint == "valid") plain = r;
    if (c.keyword != "Accept") {
      EXPECT_FALSE(r->accept) << c.constraint;
      continue;
    }
    EXPECT_EQ(c.kind, request_kind::valid) << c.constraint;
    EXPECT_TRUE(r->mode.valid()) << c.constraint;
    negotiation.emplace(c.constraint, *r);
  }
  ASSERT_EQ(negotiation.size(), 2u);
  const auto& any = negotiation.at("negotiation Accept: */*");
  const auto& none = negotiation.at("negotiation no Accept");
  EXPECT_EQ(any.accept, std::optional<std::string>("*/*"));
  EXPECT_EQ(any.mode.description, "Accept: */*");
  EXPECT_EQ(none.accept, std::optional<std::string>(""));
  EXPECT_EQ(none.mode.description, "no Accept");
  ASSERT_TRUE(plain);
  // Drawn as the valid request is, from the same seed: the same request.
  EXPECT_EQ(any.target(), plain->target());
  EXPECT_EQ(any.body, plain->body);
  EXPECT_EQ(none.body, plain->body);
}

}  // namespace
}  // namespace conform::generators
