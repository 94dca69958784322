// The regex-subset generator: every string it produces matches the regex, and
// patterns outside the subset are refused with a reason.

#include "tests/generators/rc_support.hpp"

#include "generators/detail/pattern.hpp"
#include "schema/validator.hpp"

namespace conform::generators {
namespace {

TEST(pattern_generator, generated_strings_match) {
  for (const char* p :
       {"^[0-9]+$", "^-?[0-9]+\\.[0-9]{2,6}$", "^[A-Za-z0-9._-]{1,128}$", "^[!-~]+$",
        "^\\+[1-9][0-9]{1,14}$", "^(a|bc)*d?$", "x{3}y{2,}", "^(?:ab|cd){2}$", "^[^0-9]\\D\\W\\S$",
        "^\\w+@\\w+\\.com$", "^[a-z-]+$", "^[-a]$", "^[\\]\\\\]+$", "^a|^b$", "^a.c$",
        "^[a-z]{2}-[0-9]{3}$", "^\\(\\d{3}\\) \\d{3}-\\d{4}$", ""}) {
    SCOPED_TRACE(p);
    auto g = detail::pattern_generator(p, 6);
    ASSERT_TRUE(std::holds_alternative<rc::Gen<std::string>>(g));
    const auto gen = std::get<rc::Gen<std::string>>(g);
    testing::expect_success(testing::run_property([&] {
      const std::string s = *gen;
      RC_ASSERT(schema::matches_pattern(p, s));
    }));
  }
}

TEST(pattern_generator, unbounded_quantifiers_are_bounded) {
  const auto gen = std::get<rc::Gen<std::string>>(detail::pattern_generator("^a*$", 3));
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    EXPECT_LE(gen(rc::Random(seed), 100).value().size(), 3u);
  }
}

TEST(pattern_generator, outside_the_subset_says_why) {
  struct refused {
    const char* pattern;
    const char* why;
  };
  for (const refused& r :
       {refused{"^(a)\\1$", "escape \\1"}, refused{"(?=a)", "lookaround or named group"},
        refused{"a^b", "'^' not at the start"}, refused{"a$b", "'$' not at the end"},
        refused{"(a$)b", "'$' not at the end"}, refused{"\\bword", "escape \\b"},
        refused{"(ab", "unclosed group"}, refused{"[a-", "unclosed character class"},
        refused{"*a", "quantifier '*' with nothing to repeat"},
        refused{"\xC3\xA9", "a character outside printable ASCII"},
        refused{"(^a)*", "an anchor under a quantifier"}}) {
    SCOPED_TRACE(r.pattern);
    auto g = detail::pattern_generator(r.pattern, 6);
    ASSERT_TRUE(std::holds_alternative<detail::unsupported_pattern>(g));
    EXPECT_EQ(std::get<detail::unsupported_pattern>(g).why, r.why);
  }
}

}  // namespace
}  // namespace conform::generators
