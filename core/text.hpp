#pragma once
// Small text helpers every floor shares: joining, hashing a
// name into a seed, and cutting a body for a report.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace conform::core {

/// `items` separated by `sep`.
std::string join(const std::vector<std::string>& items, std::string_view sep = ", ");

/// 64-bit FNV-1a of `s`, continuing from `h` (so hashes chain): seeds derived
/// from a run's seed and a name.
std::uint64_t fnv1a(std::string_view s, std::uint64_t h = 14695981039346656037ull);

/// At most `max` bytes of `text`, cut at a UTF-8 character boundary, with
/// "..." when cut.
std::string utf8_prefix(const std::string& text, std::size_t max);

/// Unicode code points in UTF-8 `text` (what JSON Schema's lengths count).
std::size_t code_points(std::string_view text);

/// `token` escaped for a JSON pointer segment ("~" -> "~0", "/" -> "~1").
std::string escape_pointer_token(std::string_view token);

/// `text` percent-encoded for a URL query value: every byte but the
/// unreserved ones (A-Z a-z 0-9 - . _ ~) as %XX.
std::string percent_encode(std::string_view text);

}  // namespace conform::core
