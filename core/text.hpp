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

/// The length of the well-formed UTF-8 sequence (RFC 3629: no overlong
/// forms, no surrogates, nothing above U+10FFFF) that starts at `at`, or 0
/// when the byte there starts none.
std::size_t utf8_sequence_length(std::string_view text, std::size_t at);

/// True when `text` is well-formed UTF-8.
bool is_utf8(std::string_view text);

/// `text` with every byte that is not part of a well-formed UTF-8 sequence
/// written as the four characters `\xNN`; with `controls`, C0 controls
/// other than tab and line feed, and DEL, too (text for a terminal or a
/// Markdown page). Always valid UTF-8.
std::string escape_invalid_utf8(std::string_view text, bool controls = false);

/// What a report shows of a body of `content_type`: at most `max` bytes of
/// it when it is text (cut at a character, with "..."; bytes that are not
/// UTF-8 escaped as `\xNN`), else a summary, "1,234 bytes of image/png".
/// Always valid UTF-8.
std::string body_excerpt(std::string_view body, std::string_view content_type, std::size_t max);

}  // namespace conform::core
