#pragma once
// Small text helpers every floor shares, and their one home: joining,
// numbers as text, case-insensitive comparison, media types, hashing a
// name into a seed, percent coding, XML escaping, and excerpts: text cut
// for a message or a report.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace conform::core {

/// `items` separated by `sep`: a separator between every two items, empty
/// ones too (`join({"", "b"}, ",")` is ",b").
std::string join(const std::vector<std::string>& items, std::string_view sep = ", ");

/// `d` in the shortest form that reads back as `d` (std::to_chars: "0.01",
/// "1e+07"); "?" when it cannot be written.
std::string number_text(double d);

/// `d` as a whole number when it is one below 1e15 ("10000000"), else as
/// number_text does.
std::string whole_number_text(double d);

/// True when `a` and `b` are equal but for the case of ASCII letters (header
/// names, media types, schemes).
bool iequals(std::string_view a, std::string_view b);

/// `text` with its ASCII letters lower-cased.
std::string ascii_lower(std::string_view text);

/// The media type of a Content-Type value: lower-cased, without parameters
/// or the spaces and tabs around it ("Application/JSON; charset=utf-8" ->
/// "application/json"); "" for an empty value.
std::string media_type_of(std::string_view content_type);

/// 64-bit FNV-1a of `s`, continuing from `h` (so hashes chain): seeds derived
/// from a run's seed and a name.
std::uint64_t fnv1a(std::string_view s, std::uint64_t h = 14695981039346656037ull);

/// What a message or a report shows of `text`: at most `max` bytes of it,
/// cut at a character boundary and followed by "..." when cut, every byte
/// that is not UTF-8 written as `\xNN`. Always valid UTF-8; when `text` is,
/// never longer than `max` + 3.
std::string excerpt(std::string_view text, std::size_t max);

/// Unicode code points in UTF-8 `text` (what JSON Schema's lengths count).
std::size_t code_points(std::string_view text);

/// `token` escaped for a JSON pointer segment ("~" -> "~0", "/" -> "~1").
std::string escape_pointer_token(std::string_view token);

/// `text` percent-encoded for a URL query value: every byte but the
/// unreserved ones (A-Z a-z 0-9 - . _ ~) and those of `kept` as %XX.
std::string percent_encode(std::string_view text, std::string_view kept = {});

/// `text` with each %XX (two hex digits) decoded to its byte; a `%` not
/// followed by two hex digits is kept as it is. With `plus_is_space` (a
/// query or form value, application/x-www-form-urlencoded) `+` is a space.
std::string percent_decode(std::string_view text, bool plus_is_space = false);

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

/// `text` escaped for XML (and HTML) character data and attribute values:
/// markup characters as entities; control characters XML 1.0 forbids,
/// U+FFFE and U+FFFF, and bytes that are not UTF-8, as the text `\xNN`.
/// Always well-formed UTF-8 XML.
std::string xml_escape(std::string_view text);

/// What a report shows of a body of `content_type`: its excerpt (`max`
/// bytes at the most) when it is text, else a summary, "1,234 bytes of
/// image/png".
/// Always valid UTF-8.
std::string body_excerpt(std::string_view body, std::string_view content_type, std::size_t max);

}  // namespace conform::core
