// The argument reader every command's options go through: "--name value"
// and "--name=value" alike, a missing value said by name, and what follows
// "--" handed over untouched.
#include <gtest/gtest.h>

#include "cli/run_options.hpp"
#include "cli/arguments.hpp"

namespace conform::cli {
namespace {

TEST(arguments, reads_both_spellings_of_a_value_and_flags) {
  const std::vector<std::string> args = {"--seed", "5", "--checks=a,,b", "--no-progress"};
  argument_reader in(args);
  std::string value;
  ASSERT_TRUE(in.next());
  EXPECT_EQ(in.name(), "--seed");
  ASSERT_TRUE(in.value(value).ok());
  EXPECT_EQ(value, "5");
  ASSERT_TRUE(in.next());
  EXPECT_EQ(in.name(), "--checks");
  ASSERT_TRUE(in.value(value).ok());
  EXPECT_EQ(split_list(value), (std::vector<std::string>{"a", "b"}));
  ASSERT_TRUE(in.next());
  EXPECT_EQ(in.name(), "--no-progress");
  EXPECT_FALSE(in.next());
}

TEST(arguments, a_missing_value_is_named_and_the_rest_after_dashes_is_kept) {
  const std::vector<std::string> missing = {"--timeout"};
  argument_reader a(missing);
  std::string value;
  ASSERT_TRUE(a.next());
  const auto got = a.value(value);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error(), "option --timeout needs a value");

  const std::vector<std::string> command = {"--seed=1", "--", "client", "--flag=x"};
  argument_reader b(command);
  ASSERT_TRUE(b.next());
  ASSERT_TRUE(b.next());
  EXPECT_EQ(b.name(), "--");
  EXPECT_EQ(b.rest(), (std::vector<std::string>{"client", "--flag=x"}));
}

TEST(arguments, numbers_and_seconds_are_whole_and_bounded) {
  int n = 0;
  EXPECT_TRUE(parse_number(std::string("42"), n));
  EXPECT_EQ(n, 42);
  EXPECT_FALSE(parse_number(std::string("42x"), n));
  double s = 0;
  EXPECT_TRUE(parse_seconds("1.5", s));
  EXPECT_FALSE(parse_seconds("0", s));
  EXPECT_FALSE(parse_seconds("86401", s));
  EXPECT_FALSE(parse_seconds("nan", s));
}

TEST(arguments, workers_and_threads_are_bounded_and_named_when_wrong) {
  auto parsed = parse_run_options({"--workers", "16", "--threads", "1"});
  ASSERT_TRUE(parsed) << parsed.error();
  EXPECT_EQ(parsed->workers, 16u);
  EXPECT_EQ(parsed->threads, 1u);
  auto by_default = parse_run_options({});
  ASSERT_TRUE(by_default) << by_default.error();
  EXPECT_EQ(by_default->threads, 0u);  // one per core, at most one per worker
  for (const char* bad : {"0", "257", "two", "-1"}) {
    auto refused = parse_run_options({"--threads", bad});
    ASSERT_FALSE(refused) << bad;
    EXPECT_EQ(refused.error(),
              std::string("--threads takes an integer from 1 to 256, not '") + bad + "'");
  }
}

}  // namespace
}  // namespace conform::cli
