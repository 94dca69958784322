// core::outcome, the one shape of "this can fail": a value or the error
// that kept it from being made, told apart even when both are strings.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <memory>
#include <string>
#include <utility>

#include "core/outcome.hpp"

namespace conform::core {
namespace {

outcome<int> half(int n) {
  if (n % 2 != 0) return fail("odd: " + std::to_string(n));
  return n / 2;
}

status must_be_positive(int n) {
  if (n <= 0) return fail("not positive");
  return {};
}

TEST(outcome, holds_the_value_or_the_error_never_both) {
  const auto good = half(8);
  ASSERT_TRUE(good.ok());
  EXPECT_TRUE(static_cast<bool>(good));
  EXPECT_EQ(good.value(), 4);
  EXPECT_EQ(*good, 4);

  const auto bad = half(7);
  ASSERT_FALSE(bad.ok());
  EXPECT_FALSE(static_cast<bool>(bad));
  EXPECT_EQ(bad.error(), "odd: 7");
}

TEST(outcome, a_string_value_is_not_taken_for_an_error) {
  const outcome<std::string> text = std::string("a value");
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text, "a value");
  EXPECT_EQ(text->size(), 7U);

  const outcome<std::string> literal = "also a value";
  ASSERT_TRUE(literal.ok());

  const outcome<std::string> error = fail(std::string("an error"));
  ASSERT_FALSE(error.ok());
  EXPECT_EQ(error.error(), "an error");
}

TEST(outcome, moves_a_value_that_cannot_be_copied) {
  outcome<std::unique_ptr<int>> held = std::make_unique<int>(3);
  ASSERT_TRUE(held.ok());
  const std::unique_ptr<int> taken = std::move(held).value();
  EXPECT_EQ(*taken, 3);
}

TEST(outcome, defaults_to_a_value_initialised_value) {
  outcome<int> filled_later;  // as http::result's member, set once the send is done
  ASSERT_TRUE(filled_later.ok());
  EXPECT_EQ(*filled_later, 0);
  filled_later = fail("refused");
  ASSERT_FALSE(filled_later.ok());
  EXPECT_EQ(filled_later.error(), "refused");
  filled_later = 5;
  EXPECT_EQ(*filled_later, 5);
}

TEST(outcome, carries_an_error_of_any_type) {
  struct refused {
    int code = 0;
  };
  const outcome<std::string, refused> r = fail(refused{7});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, 7);
}

TEST(status, is_success_or_why_not) {
  EXPECT_TRUE(must_be_positive(1).ok());
  const status s = must_be_positive(0);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(), "not positive");
  const status fine;
  EXPECT_TRUE(fine.ok());
}

RC_GTEST_PROP(outcome, ok_exactly_when_a_value_was_made, (int n)) {
  const auto r = half(n);
  RC_ASSERT(r.ok() == (n % 2 == 0));
  if (r.ok()) {
    RC_ASSERT(r.value() * 2 == n);
  } else {
    RC_ASSERT(r.error() == "odd: " + std::to_string(n));
  }
}

}  // namespace
}  // namespace conform::core
