#include "http/rate_limiter.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "http/cooperative.hpp"

namespace conform::http {

rate_limiter::rate_limiter(double per_second, std::uint32_t burst, now_fn now)
    : now_(std::move(now)) {
  if (per_second > 0) {
    interval_ = std::chrono::nanoseconds(static_cast<std::int64_t>(1e9 / per_second));
    if (interval_.count() == 0) interval_ = std::chrono::nanoseconds(1);
    tolerance_ = interval_ * (std::max<std::uint32_t>(burst, 1) - 1);
  }
}

rate_limiter::clock::time_point rate_limiter::now() const {
  return now_ ? now_() : clock::now();
}

std::chrono::nanoseconds rate_limiter::reserve() {
  if (unlimited()) return std::chrono::nanoseconds(0);
  const auto t_now = now();
  std::lock_guard lock(mutex_);
  const auto t = std::max(tat_, t_now);
  const auto due = t - tolerance_;
  tat_ = t + interval_;
  return due > t_now ? std::chrono::duration_cast<std::chrono::nanoseconds>(due - t_now)
                     : std::chrono::nanoseconds(0);
}

bool rate_limiter::try_acquire() {
  if (unlimited()) return true;
  const auto t_now = now();
  std::lock_guard lock(mutex_);
  const auto t = std::max(tat_, t_now);
  if (t - tolerance_ > t_now) return false;
  tat_ = t + interval_;
  return true;
}

void rate_limiter::acquire() {
  const auto wait = reserve();
  pause(wait);  // a cooperative task lets the others run meanwhile
}

rate_parse_result parse_rate_limit(std::string_view text) {
  std::string_view number = text, unit = "s";
  if (const auto slash = text.find('/'); slash != std::string_view::npos) {
    number = text.substr(0, slash);
    unit = text.substr(slash + 1);
  }
  double divisor = 1;
  if (unit == "s" || unit == "sec") {
    divisor = 1;
  } else if (unit == "m" || unit == "min") {
    divisor = 60;
  } else {
    return {std::nullopt, "rate limit '" + std::string(text) + "': unit must be /s or /min"};
  }
  const std::string digits(number);
  char* end = nullptr;
  const double n = digits.empty() ? -1 : std::strtod(digits.c_str(), &end);
  if (digits.empty() || end != digits.c_str() + digits.size() || !std::isfinite(n) || n < 0 ||
      digits.find_first_not_of("0123456789.") != std::string::npos) {
    return {std::nullopt, "rate limit '" + std::string(text) +
                              "': expected a non-negative number of requests, e.g. 10/s"};
  }
  return {n / divisor, {}};
}

}  // namespace conform::http
