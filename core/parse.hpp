#pragma once
// Text into a core::node tree, within the bounds of core/limits.hpp. JSON
// (a document whose first character is `{` or `[`) is read by a parser of
// ours that builds the tree directly; YAML by a handler of yaml-cpp's events
// that does the same, so neither builds yaml-cpp's own node tree.
//
// Refused, each with its position: invalid UTF-8 and control characters, a
// second document, a duplicate key, a mapping key that is not a scalar,
// nesting deeper than limits::max_depth, a scalar over
// limits::max_scalar_bytes, a document over limits::max_expanded_nodes or
// limits::max_expanded_bytes once every alias is expanded, an alias inside
// the node its anchor names, and every syntax error.

#include <optional>
#include <string>
#include <string_view>

#include "core/node.hpp"
#include "core/source.hpp"

namespace conform::core {

/// A parsed document, or the first problem of its text.
struct parsed_document {
  node root;
  std::optional<diagnostic> error;
  /// The error is a bound of core/limits.hpp (or a duplicate key), not the
  /// syntax: reading the text another way would end the same.
  bool past_a_bound = false;
};

/// Parses `bytes` (named `display` in positions): JSON when its first
/// character (after a byte order mark and white space) is `{` or `[` and it
/// parses as JSON, YAML otherwise.
parsed_document parse_document(std::string_view bytes, const std::string& display);

/// Parses `bytes` as JSON (RFC 8259) only.
parsed_document parse_json(std::string_view bytes, const std::string& display);

/// Parses `bytes` as YAML 1.2 only.
parsed_document parse_yaml(std::string_view bytes, const std::string& display);

}  // namespace conform::core
