// The fast matcher for simple anchored patterns answers exactly as
// std::regex does, on strings drawn from the pattern's own alphabet and on
// arbitrary bytes; patterns outside its form are left to std::regex.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "schema/detail/simple_pattern.hpp"

namespace {

using conform::schema::detail::simple_pattern;

const std::vector<std::string> simple_ones = {
    "^[0-9]+$",
    "^\\+[1-9][0-9]{1,14}$",
    "^-?[0-9]+\\.[0-9]{2,6}$",
    "^[A-Za-z0-9._-]{1,128}$",
    "^[!-~]+$",
    "^a*b?c{2}d{1,}$",
    "^[^/]+x$",
    "^\\d{3}-\\w+\\s?$",
    "^$",
};

TEST(simple_pattern, takes_the_descriptions_patterns) {
  for (const auto& p : simple_ones) EXPECT_TRUE(simple_pattern::compile(p).has_value()) << p;
}

TEST(simple_pattern, leaves_everything_else_to_std_regex) {
  for (const char* p : {"[0-9]+", "^(ab)+$", "^a|b$", "^a+?$", "^.$", "^\\bx$", "^[[:alpha:]]$",
                        "^a{2,1}$", "^x\\$", "^a**$", "^[z-a]$", "^[]a]$"}) {
    EXPECT_FALSE(simple_pattern::compile(p).has_value()) << p;
  }
}

RC_GTEST_PROP(simple_pattern, agrees_with_std_regex, ()) {
  const auto& pattern = *rc::gen::elementOf(simple_ones);
  const auto matcher = simple_pattern::compile(pattern);
  RC_ASSERT(matcher.has_value());
  // Mostly strings over the characters the patterns talk about, some bytes.
  const auto text = *rc::gen::oneOf(
      rc::gen::container<std::string>(rc::gen::elementOf(std::string("0123456789+-.abcdx/_ ]A!~"))),
      rc::gen::arbitrary<std::string>());
  const std::regex re(pattern, std::regex::ECMAScript);
  RC_ASSERT(matcher->matches(text) == std::regex_search(text, re));
}

TEST(simple_pattern, examples) {
  auto e164 = simple_pattern::compile("^\\+[1-9][0-9]{1,14}$");
  ASSERT_TRUE(e164);
  EXPECT_EQ(e164->matches("+14155550100"), true);
  EXPECT_EQ(e164->matches("+04155550100"), false);
  EXPECT_EQ(e164->matches("+1"), false);
  EXPECT_EQ(e164->matches("+1234567890123456"), false);
  auto decimal = simple_pattern::compile("^-?[0-9]+\\.[0-9]{2,6}$");
  ASSERT_TRUE(decimal);
  EXPECT_EQ(decimal->matches("-12.50"), true);
  EXPECT_EQ(decimal->matches("12.5"), false);
  EXPECT_EQ(decimal->matches("12.1234567"), false);
}

}  // namespace
