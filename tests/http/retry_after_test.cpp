#include <gtest/gtest.h>

#include "http/retry_after.hpp"

namespace conform::http {
namespace {

using std::chrono::day;
using std::chrono::hours;
using std::chrono::minutes;
using std::chrono::month;
using std::chrono::seconds;
using std::chrono::sys_days;
using std::chrono::system_clock;
using std::chrono::year;

system_clock::time_point at(int y, unsigned mo, unsigned d, int h, int mi, int s) {
  return sys_days{year{y} / month{mo} / day{d}} + hours{h} + minutes{mi} + seconds{s};
}

TEST(retry_after, delta_seconds) {
  const auto now = system_clock::now();
  EXPECT_EQ(parse_retry_after("0", now), seconds(0));
  EXPECT_EQ(parse_retry_after(" 1 ", now), seconds(1));
  EXPECT_EQ(parse_retry_after("120", now), seconds(120));
  EXPECT_FALSE(parse_retry_after("", now).has_value());
  EXPECT_FALSE(parse_retry_after("-1", now).has_value());
  EXPECT_FALSE(parse_retry_after("1.5", now).has_value());
  EXPECT_FALSE(parse_retry_after("soon", now).has_value());
  // Huge values are kept huge (the client caps them), never wrap.
  EXPECT_GE(*parse_retry_after("99999999999999999999999", now), seconds(1'000'000));
}

TEST(retry_after, http_dates_in_all_three_forms) {
  const auto expected = at(1994, 11, 6, 8, 49, 37);
  EXPECT_EQ(parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT"), expected);
  EXPECT_EQ(parse_http_date("Sunday, 06-Nov-94 08:49:37 GMT"), expected);
  EXPECT_EQ(parse_http_date("Sun Nov  6 08:49:37 1994"), expected);
  EXPECT_FALSE(parse_http_date("Sun, 31 Feb 1994 08:49:37 GMT").has_value());
  EXPECT_FALSE(parse_http_date("Sun, 06 Nov 1994 08:49:37 PST").has_value());
  EXPECT_FALSE(parse_http_date("yesterday").has_value());
}

TEST(retry_after, date_relative_to_now) {
  const auto now = at(2026, 11, 20, 10, 0, 0);
  EXPECT_EQ(parse_retry_after("Fri, 20 Nov 2026 10:00:05 GMT", now), seconds(5));
  EXPECT_EQ(parse_retry_after("Fri, 20 Nov 2026 09:00:00 GMT", now), seconds(0));
}

}  // namespace
}  // namespace conform::http
