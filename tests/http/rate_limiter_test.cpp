#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <thread>
#include <vector>

#include "http/rate_limiter.hpp"

namespace conform::http {
namespace {

using std::chrono::milliseconds;
using std::chrono::nanoseconds;
using std::chrono::seconds;

/// A clock the test moves by hand.
struct fake_clock {
  rate_limiter::clock::time_point now{seconds(1000)};
  rate_limiter::now_fn fn() {
    return [this] { return now; };
  }
};

TEST(rate_limiter, unlimited_never_waits) {
  rate_limiter limiter(0);
  EXPECT_TRUE(limiter.unlimited());
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(limiter.reserve(), nanoseconds(0));
  EXPECT_TRUE(limiter.try_acquire());
}

TEST(rate_limiter, paces_at_the_rate_with_burst_one) {
  fake_clock clock;
  rate_limiter limiter(10, 1, clock.fn());  // one every 100 ms
  EXPECT_EQ(limiter.reserve(), nanoseconds(0));
  EXPECT_EQ(limiter.reserve(), milliseconds(100));
  EXPECT_EQ(limiter.reserve(), milliseconds(200));
  clock.now += milliseconds(300);  // all three used up by now
  EXPECT_EQ(limiter.reserve(), nanoseconds(0));
  EXPECT_FALSE(limiter.try_acquire());
  clock.now += milliseconds(100);
  EXPECT_TRUE(limiter.try_acquire());
}

TEST(rate_limiter, burst_allows_that_many_at_once) {
  fake_clock clock;
  rate_limiter limiter(5, 3, clock.fn());  // 200 ms interval
  EXPECT_TRUE(limiter.try_acquire());
  EXPECT_TRUE(limiter.try_acquire());
  EXPECT_TRUE(limiter.try_acquire());
  EXPECT_FALSE(limiter.try_acquire());
  EXPECT_EQ(limiter.reserve(), milliseconds(200));
  // Idle time refills at most `burst` tokens.
  clock.now += seconds(60);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(limiter.try_acquire());
  EXPECT_FALSE(limiter.try_acquire());
}

TEST(rate_limiter, is_thread_safe_in_its_accounting) {
  fake_clock clock;
  rate_limiter limiter(1000, 1, clock.fn());
  std::vector<std::thread> threads;
  std::vector<nanoseconds> max_wait(4);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 250; ++i) max_wait[t] = std::max(max_wait[t], limiter.reserve());
    });
  }
  for (auto& th : threads) th.join();
  // 1000 reservations at 1 ms each without the clock moving: the last waits 999 ms.
  nanoseconds longest{0};
  for (auto w : max_wait) longest = std::max(longest, w);
  EXPECT_EQ(longest, milliseconds(999));
}

RC_GTEST_PROP(rate_limiter, never_exceeds_rate_in_any_window, ()) {
  const auto rate = *rc::gen::inRange(1, 200);
  const auto burst = *rc::gen::inRange<std::uint32_t>(1, 10);
  const auto steps = *rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 50));
  fake_clock clock;
  rate_limiter limiter(rate, burst, clock.fn());
  std::vector<rate_limiter::clock::time_point> sent;
  for (int advance_ms : steps) {
    clock.now += milliseconds(advance_ms);
    sent.push_back(clock.now + limiter.reserve());
  }
  // Any interval of length (k-1)/rate holds at most k - 1 + burst requests.
  const auto interval = nanoseconds(static_cast<std::int64_t>(1e9 / rate));
  for (std::size_t i = 0; i < sent.size(); ++i) {
    for (std::size_t j = i + burst; j < sent.size(); ++j) {
      RC_ASSERT(sent[j] - sent[i] >=
                interval * static_cast<std::int64_t>(j - i - burst + 1) - nanoseconds(1000));
    }
  }
}

}  // namespace
}  // namespace conform::http

namespace conform::http {
namespace {

TEST(rate_limiter, parses_cli_rates) {
  EXPECT_EQ(parse_rate_limit("10/s").per_second, 10.0);
  EXPECT_EQ(parse_rate_limit("10").per_second, 10.0);
  EXPECT_EQ(parse_rate_limit("0").per_second, 0.0);
  EXPECT_EQ(parse_rate_limit("2.5/s").per_second, 2.5);
  EXPECT_EQ(parse_rate_limit("120/min").per_second, 2.0);
  for (const char* bad : {"", "/s", "-1/s", "ten/s", "5/h", "1e3", "nan", "5 /s"}) {
    const auto r = parse_rate_limit(bad);
    EXPECT_FALSE(r.per_second.has_value()) << bad;
    EXPECT_NE(r.error.find("rate limit"), std::string::npos) << bad;
  }
}

}  // namespace
}  // namespace conform::http
