#pragma once
// Private to the loader: the JSONPath subset OpenAPI Overlays use in
// practice, over core::node trees: `$`, `.name`, `['name']`, `[N]`, `[*]`,
// `.*`, `..name` (recursive descent) and filters `[?(@.key == 'v')]`,
// `[?(@.key != 'v')]`, `[?(@.key)]` (the parentheses optional).

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "openapi/detail/reader.hpp"

namespace conform::openapi::detail::jsonpath {

/// One step of a parsed path.
struct step {
  enum class kind {
    member,
    index,
    wildcard,
    descend_member,
    descend_wildcard,
    descend_self,  // `..[` : the node and every descendant, for the bracket after it
    filter
  } what;
  std::string name;  // member / descend_member; filter: the key path after '@.' ("a.b")
  long index = 0;    // index
  /// filter: "==", "!=", or "" (the key exists); `value` compared as text.
  std::string op, value;
};

/// A path, or where and why it is not one of the supported subset.
struct parsed {
  std::vector<step> steps;
  std::string error;         // "" when parsed
  std::size_t error_at = 0;  // 0-based character of the problem
};

/// Parses `text`.
parsed parse(const std::string& text);

/// Where a selected node is: the entry or item index at each level from the
/// root (empty for the root itself), and the node as it was when selected.
struct match {
  std::vector<std::size_t> path;
  std::string key;  // in a mapping: its key
  bool in_sequence = false;
  const node* value = nullptr;  // valid until the tree is edited
};

/// The nodes `path` selects in `root`, each once, in document order.
std::vector<match> select(const node& root, const std::vector<step>& path);

}  // namespace conform::openapi::detail::jsonpath
