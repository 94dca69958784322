// Coverage cases from hand-built operations: each case breaks exactly the
// constraint it names (or nothing, for the valid case), every constraint of
// a parameter or body is covered once, and the cases are deterministic.

#include "tests/generators/rc_support.hpp"

#include <boost/json/parse.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "generators/request.hpp"
#include "schema/validator.hpp"
#include "tests/generators/request_support.hpp"

namespace conform::generators {
namespace {

using boost::json::value;
using testing::api;
using testing::fixture_of;
using testing::problems;
using testing::report;

TEST(coverage, each_case_breaks_exactly_its_constraint_or_nothing) {
  const api a;
  for (const openapi::operation* op : a.all()) {
    SCOPED_TRACE(op->operation_id);
    const auto cases = coverage_cases(*op, fixture_of);
    ASSERT_FALSE(cases.empty());
    EXPECT_EQ(cases.front().constraint, "valid");
    std::set<std::string> names;
    for (const auto& c : cases) {
      SCOPED_TRACE(c.constraint);
      EXPECT_TRUE(names.insert(c.constraint).second) << "constraint named twice";
      const auto r = testing::first_sample(c);
      ASSERT_TRUE(r.has_value()) << "no request could be made";
      const auto wrong = problems(*op, *r);
      if (c.kind == request_kind::valid) {
        EXPECT_TRUE(r->mode.valid());
        EXPECT_EQ(wrong, std::vector<std::string>{});
      } else {
        EXPECT_FALSE(r->mode.valid());
        ASSERT_EQ(wrong.size(), 1u) << report(*r, wrong);
        // The case's name starts with what its request breaks.
        EXPECT_EQ(c.constraint.rfind(r->mode.key(), 0), 0u) << r->mode.key();
      }
    }
  }
}

TEST(coverage, every_constraint_of_a_parameter_is_broken_once_and_its_bounds_sent) {
  const api a;
  std::set<std::string> names;
  for (const auto& c : coverage_cases(a.list, fixture_of)) names.insert(c.constraint);
  for (const char* expected : {
           "invalid_query_param query per_page /: a value of type string where integer is "
           "expected",
           "invalid_query_param query per_page /: a number below the minimum 1",
           "invalid_query_param query per_page /: a number above the maximum 100",
           "invalid_query_param query status /: a value outside the enum (\"DRAFT\" first)",
           "invalid_query_param query ids /: 4 items, above maxItems 3",
           "invalid_query_param query ids /0: a number below the minimum 1",
           "missing_param query ids",
           "boundary query per_page /: the minimum 1",
           "boundary query per_page /: the maximum 100",
           "boundary query ids /: exactly maxItems 3",
       }) {
    EXPECT_TRUE(names.count(expected)) << expected;
  }
  // An empty array cannot travel in a query (it is the parameter left out,
  // its own case): not a case that could never be sent.
  EXPECT_FALSE(names.count("invalid_query_param query ids /: 0 items, below minItems 1"));
  // The fixture's path id keeps its one valid value: no boundary of it.
  for (const auto& c : coverage_cases(a.cancel, fixture_of)) {
    EXPECT_EQ(c.constraint.find("boundary path id"), std::string::npos) << c.constraint;
  }
}

TEST(coverage, body_constraints_and_boundaries_are_covered_one_by_one) {
  const api a;
  std::map<std::string, generated_request> by_name;
  for (const auto& c : coverage_cases(a.create, fixture_of)) {
    if (auto r = testing::first_sample(c)) by_name.emplace(c.constraint, *r);
  }
  const auto& longest = by_name.at("boundary body /name: a string of exactly maxLength 200");
  const value body = boost::json::parse(longest.body);
  EXPECT_EQ(schema::code_points(body.at("name").as_string()), 200u);
  EXPECT_TRUE(
      by_name.count("invalid_body body /campaign_phone_number_ids: an array with a "
                    "duplicated item"));
  EXPECT_TRUE(by_name.count("invalid_body body /: the required property \"timezone\" left out"));
  EXPECT_TRUE(by_name.count("boundary body /campaign_phone_number_ids: an empty array"));
  EXPECT_TRUE(by_name.count("malformed_body body"));
  EXPECT_TRUE(by_name.count("missing_body body"));
  EXPECT_TRUE(by_name.count("wrong_content_type body"));
}

TEST(coverage, cases_are_deterministic) {
  const api a;
  const auto one = coverage_cases(a.create, fixture_of);
  const auto two = coverage_cases(a.create, fixture_of);
  ASSERT_EQ(one.size(), two.size());
  for (std::size_t i = 0; i < one.size(); ++i) {
    EXPECT_EQ(one[i].constraint, two[i].constraint);
    const auto x = testing::first_sample(one[i]), y = testing::first_sample(two[i]);
    ASSERT_EQ(x.has_value(), y.has_value());
    if (x) {
      EXPECT_EQ(x->target(), y->target());
      EXPECT_EQ(x->body, y->body);
    }
  }
}

}  // namespace
}  // namespace conform::generators
