#pragma once
// Small helpers shared by the reference server: time, money, encodings, MACs.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace conform::reference::detail {

/// Seconds since the epoch, now.
std::int64_t now_seconds();
/// RFC 3339 UTC timestamp ("2026-11-20T10:00:00Z") of epoch seconds.
std::string format_time(std::int64_t epoch_seconds);
/// Parses an RFC 3339 timestamp (Z or +hh:mm offset, optional fraction).
std::optional<std::int64_t> parse_time(std::string_view text);
/// A decimal string with two places ("12.50", "-3.00") of an amount in cents.
std::string format_cents(std::int64_t cents);
/// A decimal string with four places of an amount in 1/10000 units.
std::string format_milli4(std::int64_t units);
/// HMAC-SHA256 of `data` under `key` (raw 32 bytes).
std::string hmac_sha256(std::string_view key, std::string_view data);
/// Lower-case hex of bytes.
std::string to_hex(std::string_view bytes);
/// Constant-time equality of two byte strings.
bool equal_constant_time(std::string_view a, std::string_view b);
/// True when `s` is 1+ decimal digits with no leading sign.
bool is_digits(std::string_view s);
/// Parses decimal digits to an id (0 when not digits or out of range).
std::uint64_t parse_id(std::string_view s);
/// A deterministic 64-bit mix (splitmix64).
std::uint64_t mix64(std::uint64_t x);
/// True when `tz` looks like an IANA time zone name known to this server.
bool is_iana_time_zone(std::string_view tz);
/// True when `s` is an E.164 phone number (+ then 8..15 digits, first not 0).
bool is_e164(std::string_view s);

}  // namespace conform::reference::detail
