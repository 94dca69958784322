#pragma once
// Checkers for the formats Conform asserts: string formats, and the ranges
// of OpenAPI's `int32` and `int64`. Unknown formats are annotations: they
// never make a value invalid. A format applies to values of its own kind
// only (a string format never fails a number, nor `int32` a string).

#include <cstdint>
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
  byte,       // base64 (RFC 4648 section 4): OpenAPI's `byte`
  binary,     // any octets: OpenAPI's `binary` (nothing to check)
  int32,      // a number: a whole number from -2^31 to 2^31 - 1 (OpenAPI's format registry)
  int64,      // a number: a whole number from -2^63 to 2^63 - 1
};

/// True for the formats that apply to numbers (`int32`, `int64`).
bool is_number_format(format_kind kind);

/// Maps a `format` value to its kind ("date-time", "e164", "timezone", ...);
/// names not listed in format.cpp give `unknown`.
format_kind parse_format(std::string_view name);

/// True when the string `value` conforms to `kind` (always true for
/// `unknown` and the number formats).
bool check_format(format_kind kind, std::string_view value);

/// A number as JSON gave it: a signed or unsigned 64-bit integer, or a double.
struct json_number {
  enum class kind { int64, uint64, real } form = kind::int64;
  std::int64_t i = 0;
  std::uint64_t u = 0;
  double d = 0;
};

/// True when the number `n` conforms to `kind` (always true for the string
/// formats and `unknown`).
bool check_number_format(format_kind kind, const json_number& n);

}  // namespace conform::schema
