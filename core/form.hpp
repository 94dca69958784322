#pragma once
// Form bodies read the way a server reads them: multipart/form-data (RFC
// 7578 over RFC 2046's multipart syntax) and application/x-www-form-urlencoded
// (the WHATWG URL standard's parser). One home for every reader of a form:
// the reference server's import, the client rules of `conform certify`, and
// the equivalence of two bodies that a retry or a replayed key compares.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/outcome.hpp"

namespace conform::core {

/// One part of a multipart/form-data body.
struct form_part {
  std::string name;
  std::string content_type;  // empty: none sent
  std::string filename;      // empty: a plain field
  std::string content;
};

/// The most parts one body may hold: more is refused, not read.
inline constexpr std::size_t max_form_parts = 1000;

/// The value of parameter `name` (case-insensitive) in a header value such as
/// `form-data; name="file"; filename="a.csv"`: a token or a quoted string
/// (RFC 9110 section 5.6.4, backslash escapes undone); nullopt when absent.
std::optional<std::string> header_parameter(std::string_view header_value, std::string_view name);

/// The `boundary` parameter of a multipart Content-Type ("" when absent).
std::string multipart_boundary(std::string_view content_type);

/// The parts of a multipart body delimited by `boundary`, or why it cannot be
/// read as one. As RFC 2046 section 5.1.1 has it: a preamble before the first
/// delimiter and an epilogue after the close delimiter are ignored, a
/// delimiter line may end in spaces or tabs (transport padding), and the
/// close delimiter need not be followed by CRLF (Node 18's fetch ends the
/// body right after it). Every part names itself in a Content-Disposition.
outcome<std::vector<form_part>> parse_multipart(std::string_view body, std::string_view boundary);

/// The fields of an application/x-www-form-urlencoded body in order, names
/// and values decoded ('+' is a space, %XX a byte); empty pairs skipped.
std::vector<std::pair<std::string, std::string>> parse_urlencoded(std::string_view body);

/// True when two request bodies say the same thing as a server reads them:
/// multipart bodies with the same parts (names, filenames, part content
/// types and bytes, in order) whatever their boundaries; urlencoded bodies
/// with the same fields and values in the same order, however they are
/// percent-encoded; any other body byte for byte. `content_type_*` are the
/// requests' Content-Type values. A body that does not parse as its media
/// type is compared byte for byte.
bool same_body(std::string_view content_type_a, std::string_view body_a,
               std::string_view content_type_b, std::string_view body_b);

/// A canonical text of a body for hashing and equality: equal for any two
/// bodies `same_body` calls the same (with its Content-Type's media type).
std::string canonical_body(std::string_view content_type, std::string_view body);

}  // namespace conform::core
