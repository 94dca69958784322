#pragma once
// The document tree every reader of Conform's inputs walks: descriptions,
// the files their $refs name, overlays, permission matrices, profiles and
// workflows. Both text readers fill it (core/parse.hpp: JSON by a parser of
// ours, YAML through yaml-cpp's event parser), so that no reader depends on
// how the text was written. Each node keeps its 1-based line and column.
//
// A node is a value: it owns its children, copying one is a compile error
// (clone() says so), and a lookup that finds nothing returns the one
// undefined node rather than inserting. Mapping keys are text (a description
// has no other kind), each with its own position.

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace conform::core {

struct node_entry;

/// One node of a document: null, a scalar, a sequence or a mapping (or the
/// undefined node that lookups return when nothing is there).
class node {
 public:
  enum class kind : std::uint8_t { undefined, null, scalar, sequence, map };

  /// A null node (`null`, `~` or nothing at all in YAML; `null` in JSON).
  node() = default;
  node(node&&) noexcept = default;
  node& operator=(node&&) noexcept = default;
  node(const node&) = delete;
  node& operator=(const node&) = delete;
  ~node() = default;

  /// A scalar. `quoted`: written in quotes or tagged `!!str`, so a string
  /// whatever its text looks like; plain scalars are typed by their text
  /// (core::classify).
  static node scalar(std::string text, bool quoted = true);
  /// An empty sequence.
  static node sequence();
  /// An empty mapping.
  static node map();
  /// The undefined node: what lookups return when nothing is there.
  static const node& undefined();

  kind type() const;
  /// False only for the undefined node.
  bool defined() const { return type() != kind::undefined; }
  bool is_null() const { return type() == kind::null; }
  bool is_scalar() const { return type() == kind::scalar; }
  bool is_sequence() const { return type() == kind::sequence; }
  bool is_map() const { return type() == kind::map; }

  /// A scalar's text; empty for anything else.
  const std::string& text() const;
  /// A scalar written quoted (or tagged as a string).
  bool quoted() const { return quoted_; }

  /// 1-based line and column where the node starts; 0 when made by code.
  std::uint32_t line() const { return line_; }
  std::uint32_t column() const { return column_; }
  /// Sets where the node starts (1-based).
  void set_position(std::uint32_t line, std::uint32_t column);

  /// Items of a sequence, entries of a mapping, 0 otherwise.
  std::size_t size() const;

  /// A sequence's items (empty for anything else).
  const std::vector<node>& items() const;
  /// A sequence's items, to change them (a null node becomes an empty
  /// sequence first). Throws std::bad_variant_access on a scalar or a mapping.
  std::vector<node>& items();
  /// The i-th item of a sequence; the undefined node when there is none.
  const node& item(std::size_t i) const;
  /// Appends to a sequence (a null node becomes an empty sequence first).
  node& push_back(node value);

  /// A mapping's entries, in document order (empty for anything else).
  const std::vector<node_entry>& entries() const;
  /// A mapping's entries, to change them (a null node becomes an empty
  /// mapping first). Throws std::bad_variant_access on a scalar or a sequence.
  std::vector<node_entry>& entries();
  /// The value of `key` in a mapping; the undefined node when absent.
  const node& get(std::string_view key) const;
  /// The value of `key` in a mapping, to change it; nullptr when absent.
  node* find(std::string_view key);
  /// Sets `key` to `value`, in place when present, else appended (a null
  /// node becomes an empty mapping first). Returns the stored value.
  node& set(std::string_view key, node value);
  /// Removes `key` from a mapping; false when it was not there.
  bool remove(std::string_view key);

  /// A deep copy, positions included.
  node clone() const;
  /// The nodes of this subtree, itself included (what a clone() would make).
  std::size_t tree_size() const;

 private:
  // null: monostate; scalar: string; sequence: items; map: entries.
  std::variant<std::monostate, std::string, std::vector<node>, std::vector<node_entry>> value_;
  std::uint32_t line_ = 0;
  std::uint32_t column_ = 0;
  bool quoted_ = false;
  bool undefined_ = false;
};

/// One `key: value` of a mapping, with the key's own position.
struct node_entry {
  std::string key;
  node value;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
};

}  // namespace conform::core
