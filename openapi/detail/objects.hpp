#pragma once
// Private to the spec loader: the objects an operation is made of
// (parameters, media types, request bodies, responses), each of which may be
// given by `$ref`.

#include <optional>
#include <string>
#include <vector>

#include "openapi/detail/operations.hpp"

namespace conform::openapi::detail {

/// Counts a `$ref` that stands where OpenAPI allows none (`what` names the
/// place, "an Operation Object"); the loader says so once per description.
void note_nonstandard(parse_context& ctx, const source_pos& at, std::string what);

/// `n` itself, or where its `$ref` leads when `n` is one that OpenAPI does
/// not allow there (counted by note_nonstandard as `what`); nullopt when the
/// reference cannot be followed (said at the reference).
std::optional<located> deref_nonstandard(parse_context& ctx, const source_doc& doc, const node& n,
                                         const std::string& pointer, const std::string& what);

/// A Parameter Object (or a Reference Object to one); nullopt when it cannot
/// be read (every reason said where it lies).
std::optional<parameter> parse_parameter(parse_context& ctx, const source_doc& doc, const node& n,
                                         const std::string& pointer);

/// The media types of a `content` map.
std::vector<media_type> parse_content(parse_context& ctx, const source_doc& d, const node& n,
                                      const std::string& pointer);

/// A Request Body Object (or a Reference Object to one).
std::optional<request_body> parse_body(parse_context& ctx, const source_doc& doc, const node& n,
                                       const std::string& pointer);

/// One entry of a Responses Object: its status key and its Response Object
/// (or a Reference Object to one).
std::optional<response> parse_response(parse_context& ctx, const source_doc& doc,
                                       const node_entry& entry, const std::string& pointer);

}  // namespace conform::openapi::detail
