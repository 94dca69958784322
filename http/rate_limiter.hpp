#pragma once
// A token bucket toward the target, shared by every worker: N requests per
// second with a small burst, or unlimited (rate 0, no lock taken).

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace conform::http {

/// Thread-safe token bucket (GCRA form: one "theoretical arrival time").
class rate_limiter {
 public:
  using clock = std::chrono::steady_clock;
  /// The time source; injectable so tests never sleep.
  using now_fn = std::function<clock::time_point()>;

  /// `per_second` requests per second (0 = unlimited), up to `burst` at once.
  explicit rate_limiter(double per_second = 0, std::uint32_t burst = 1, now_fn now = {});

  /// True when no limit applies.
  bool unlimited() const { return interval_.count() == 0; }
  /// Takes a token and returns how long the caller must wait before using it.
  std::chrono::nanoseconds reserve();
  /// Takes a token only when one is available now; true if taken.
  bool try_acquire();
  /// Takes a token, sleeping until it is due.
  void acquire();

 private:
  clock::time_point now() const;

  std::chrono::nanoseconds interval_{0};   // 1 s / rate
  std::chrono::nanoseconds tolerance_{0};  // (burst - 1) * interval
  now_fn now_;
  std::mutex mutex_;
  clock::time_point tat_{};  // when the bucket is next empty
};

/// A parsed --rate-limit value, or what is wrong with it.
struct rate_parse_result {
  std::optional<double> per_second;  // 0 = unlimited
  std::string error;                 // set when per_second is empty
};

/// Parses "N", "N/s" (per second) or "N/min" (per minute); N a non-negative number.
rate_parse_result parse_rate_limit(std::string_view text);

}  // namespace conform::http
