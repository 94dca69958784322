#pragma once
// Retry-After (RFC 9110 10.2.3): delta-seconds or an HTTP-date.

#include <chrono>
#include <optional>
#include <string_view>

namespace conform::http {

/// Parses an HTTP-date in any of the three forms RFC 9110 5.6.7 says a
/// recipient must accept (IMF-fixdate, RFC 850, asctime); nullopt if invalid.
std::optional<std::chrono::system_clock::time_point> parse_http_date(std::string_view text);

/// How long a Retry-After value asks to wait from `now` (a date in the past
/// gives 0); nullopt when the value is neither delta-seconds nor a date.
std::optional<std::chrono::seconds> parse_retry_after(std::string_view value,
                                                      std::chrono::system_clock::time_point now);

}  // namespace conform::http
