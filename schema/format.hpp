#pragma once
// Checkers for the string formats Conform asserts. Unknown formats are
// annotations: they never make a value invalid.

#include <span>
#include <string_view>

namespace conform::schema {

/// The formats Conform knows; `unknown` is an annotation only.
enum class format_kind {
  unknown,
  date_time,  // RFC 3339 date-time, "Z" or a numeric offset
  date,       // RFC 3339 full-date
  time,       // RFC 3339 full-time
  email,      // addr-spec without quoted local parts or IP literals
  uri,        // RFC 3986 absolute URI
  uuid,       // 8-4-4-4-12 hex digits
  e164,       // ^\+[1-9][0-9]{1,14}$
  timezone,   // an IANA zone name (compiled-in tzdata list)
  decimal,    // ^-?[0-9]+(\.[0-9]+)?$, a decimal amount as a string
};

/// Maps a `format` value to its kind ("date-time", "e164", "timezone", ...);
/// names not listed in format.cpp give `unknown`.
format_kind parse_format(std::string_view name);

/// True when `value` conforms to `kind` (always true for `unknown`).
bool check_format(format_kind kind, std::string_view value);

}  // namespace conform::schema
