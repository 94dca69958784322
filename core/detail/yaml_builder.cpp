// YAML into core::node from yaml-cpp's parser events, one pass: the bounds
// of core/limits.hpp are checked as the events arrive, so that nothing past
// a limit is ever built, and the first problem stops the parse (by
// exception) at its position.
//
// Merge keys (YAML 1.1's `<<: *anchor`, `<<: [*a, *b]`), which yaml-cpp's
// events leave as a plain key, are merged here as PyYAML, js-yaml,
// SnakeYAML and Go's yaml read them: a key written in the mapping wins over
// a merged one, and an earlier mapping of a merge list over a later one.

#include "core/detail/parsers.hpp"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <vector>

#include "core/limits.hpp"
#include "core/text.hpp"

namespace conform::core::detail {

namespace {

/// Thrown by the handler; caught by parse_yaml_text.
struct refusal {
  YAML::Mark mark;
  std::string message;
};

std::string mib(std::size_t bytes) {
  return std::to_string(bytes >> 20) + " MiB";
}

class builder final : public YAML::EventHandler {
 public:
  node take_root() { return std::move(root_); }

  void OnDocumentStart(const YAML::Mark& mark) override {
    if (++documents_ > 1) {
      throw refusal{mark, "a second YAML document: a description is exactly one document"};
    }
  }
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    grow(mark, 1, 0);
    node n;
    place(n, mark);
    if (anchor != 0) remember(mark, anchor, n, {1, 0}, 0);
    attach(std::move(n), mark, "", 0);
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    if (open_anchors_.count(anchor) != 0) {
      throw refusal{mark, "an alias inside the node its anchor names (a cycle)"};
    }
    const auto it = anchored_.find(anchor);
    if (it == anchored_.end()) throw refusal{mark, "an alias to an unknown anchor"};
    // What an alias pastes counts as if written there: its nodes, and its depth.
    if (frames_.size() + it->second.height > limits::max_depth) {
      throw refusal{mark, "an alias whose node, pasted here, nests deeper than " +
                              std::to_string(limits::max_depth) +
                              " levels of mappings and sequences"};
    }
    grow(mark, it->second.size.nodes, it->second.size.bytes);
    const node& target = it->second.value;
    attach(target.clone(), mark, target.is_scalar() ? target.text() : std::string(),
           it->second.height);
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    if (value.size() > limits::max_scalar_bytes) {
      throw refusal{mark, "a scalar of " + std::to_string(value.size()) +
                              " bytes, more than the limit of " + mib(limits::max_scalar_bytes)};
    }
    grow(mark, 1, value.size());
    // "!" is yaml-cpp's tag for a quoted scalar; !!str makes a string too.
    const bool quoted = tag == "!" || tag == "tag:yaml.org,2002:str";
    node n = node::scalar(value, quoted);
    place(n, mark);
    if (anchor != 0) remember(mark, anchor, n, {1, value.size()}, 0);
    attach(std::move(n), mark, value, 0);
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(mark, anchor, node::sequence());
  }
  void OnSequenceEnd() override { close(); }

  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open(mark, anchor, node::map());
  }
  void OnMapEnd() override { close(); }

 private:
  struct totals {
    std::size_t nodes = 0;
    std::size_t bytes = 0;
  };
  struct frame {
    node value;
    YAML::Mark mark;
    bool at_key = true;  // mappings: the next node is a key
    std::string key;     // mappings: the key whose value comes next
    YAML::Mark key_mark;
    std::set<std::string> keys;  // the keys written in it (not those merged)
    bool key_merges = false;     // mappings: the key whose value comes next is `<<`
    std::vector<node> merges;    // mappings: what `<<` merges, the first winning
    std::size_t merge_at = 0;    // mappings: the entry where the merged keys go
    YAML::anchor_t anchor = 0;
    totals start;
    std::size_t height = 0;  // of its tallest child so far
  };
  struct anchored {
    node value;
    totals size;
    std::size_t height = 0;  // levels of mappings and sequences in it
  };

  static void place(node& n, const YAML::Mark& m) {
    if (m.line >= 0) {
      n.set_position(static_cast<std::uint32_t>(m.line + 1),
                     static_cast<std::uint32_t>(m.column + 1));
    }
  }

  /// Keeps a copy of an anchored node for its aliases. The copy counts
  /// against the bounds too: anchors nested in anchors would otherwise hold
  /// copies of copies, far past what the expanded document may be.
  void remember(const YAML::Mark& mark, YAML::anchor_t anchor, const node& n, totals size,
                std::size_t height) {
    held_.nodes += size.nodes;
    held_.bytes += size.bytes;
    check(mark);
    anchored_[anchor] = anchored{n.clone(), size, height};
  }

  /// A finished node goes into its parent: a key, a mapping's value, an item,
  /// or the root. `key_text` is its text should it be a key; `height` its
  /// levels of mappings and sequences.
  void attach(node n, const YAML::Mark& mark, const std::string& key_text, std::size_t height) {
    if (frames_.empty()) {
      root_ = std::move(n);
      return;
    }
    frame& f = frames_.back();
    f.height = std::max(f.height, height);
    if (f.value.is_sequence()) {
      f.value.push_back(std::move(n));
      return;
    }
    if (f.at_key) {
      if (n.is_sequence() || n.is_map()) {
        throw refusal{mark, "a mapping key must be a scalar, not a mapping or a sequence"};
      }
      f.key_mark = mark;
      f.at_key = false;
      // A plain `<<` is the merge key; a quoted '<<' is a key like any other.
      // Like js-yaml, a mapping may have more than one.
      f.key_merges = key_text == "<<" && !n.quoted();
      if (f.key_merges) return;
      if (!f.keys.insert(key_text).second) {
        throw refusal{mark, "duplicate key '" + excerpt(key_text, 80) +
                                "' in a mapping (each key may appear once)"};
      }
      f.key = key_text;
      return;
    }
    if (f.key_merges) {
      take_merge(f, std::move(n), mark);
      return;
    }
    f.value.entries().push_back(node_entry{std::move(f.key), std::move(n),
                                           static_cast<std::uint32_t>(f.key_mark.line + 1),
                                           static_cast<std::uint32_t>(f.key_mark.column + 1)});
    f.key.clear();
    f.at_key = true;
  }

  /// The value of a merge key: a mapping (written there or an alias of
  /// one) or a list of them, kept until the mapping closes. The key and the
  /// list are not in the tree, and no longer count against the bounds.
  void take_merge(frame& f, node n, const YAML::Mark& mark) {
    f.key_merges = false;
    total_.nodes -= 1;
    total_.bytes -= 2;
    f.at_key = true;
    if (f.merges.empty()) f.merge_at = f.value.entries().size();
    if (n.is_map()) {
      f.merges.push_back(std::move(n));
      return;
    }
    const bool maps = n.is_sequence() && std::all_of(n.items().begin(), n.items().end(),
                                                     [](const node& m) { return m.is_map(); });
    if (!maps) {
      throw refusal{mark,
                    "a merge key '<<' takes a mapping or a list of mappings (an alias '*name' of "
                    "one, or '[*a, *b]'); quote it ('<<') for a key of that name"};
    }
    total_.nodes -= 1;
    for (node& m : n.items()) f.merges.push_back(std::move(m));
  }

  /// What `n` counts for against the bounds: its nodes and scalar bytes,
  /// keys included, as the events that built it counted them.
  static totals measure(const node& n) {
    totals t{1, n.is_scalar() ? n.text().size() : 0};
    for (const node& item : n.items()) {
      const totals c = measure(item);
      t.nodes += c.nodes;
      t.bytes += c.bytes;
    }
    for (const node_entry& e : n.entries()) {
      const totals c = measure(e.value);
      t.nodes += c.nodes + 1;
      t.bytes += c.bytes + e.key.size();
    }
    return t;
  }

  /// Merges what the mapping's merge keys named into it, where the first
  /// merge key stood: keys not written in the mapping, each from the first
  /// mapping that has it. What is left out (the merged mappings themselves,
  /// the keys that lost) no longer counts against the bounds: it was
  /// counted as it arrived, so nothing past them was built, and the mapping
  /// counts as what it holds, so that anchors of merges of merges do not
  /// count the copies the merges dropped.
  void merge(frame& f) {
    std::set<std::string> taken = f.keys;
    std::vector<node_entry> merged;
    for (node& m : f.merges) {
      total_.nodes -= 1;
      for (node_entry& e : m.entries()) {
        if (taken.insert(e.key).second) {
          merged.push_back(std::move(e));
          continue;
        }
        const totals dropped = measure(e.value);
        total_.nodes -= dropped.nodes + 1;
        total_.bytes -= dropped.bytes + e.key.size();
      }
    }
    f.merges.clear();
    auto& entries = f.value.entries();
    entries.insert(entries.begin() + static_cast<std::ptrdiff_t>(f.merge_at),
                   std::make_move_iterator(merged.begin()), std::make_move_iterator(merged.end()));
  }

  /// The expanded document grows by `nodes` and `bytes` of scalars.
  void grow(const YAML::Mark& mark, std::size_t nodes, std::size_t bytes) {
    total_.nodes += nodes;
    total_.bytes += bytes;
    check(mark);
  }

  /// The expanded document and the copies anchors keep, against the bounds.
  void check(const YAML::Mark& mark) const {
    if (total_.nodes + held_.nodes > limits::max_expanded_nodes) {
      throw refusal{mark, "the document expands to more than " +
                              std::to_string(limits::max_expanded_nodes) +
                              " nodes (aliases included)"};
    }
    if (total_.bytes + held_.bytes > limits::max_expanded_bytes) {
      throw refusal{mark, "the document expands to more than " + mib(limits::max_expanded_bytes) +
                              " of scalars (aliases included)"};
    }
  }

  void open(const YAML::Mark& mark, YAML::anchor_t anchor, node container) {
    if (frames_.size() >= limits::max_depth) {
      throw refusal{mark, "nesting deeper than " + std::to_string(limits::max_depth) +
                              " levels of mappings and sequences"};
    }
    if (!frames_.empty() && frames_.back().value.is_map() && frames_.back().at_key) {
      throw refusal{mark, "a mapping key must be a scalar, not a mapping or a sequence"};
    }
    grow(mark, 1, 0);
    frame f;
    place(container, mark);
    f.value = std::move(container);
    f.mark = mark;
    f.anchor = anchor;
    f.start = total_;
    f.start.nodes -= 1;
    frames_.push_back(std::move(f));
    if (anchor != 0) open_anchors_.insert(anchor);
  }

  void close() {
    if (frames_.empty()) return;
    frame f = std::move(frames_.back());
    frames_.pop_back();
    if (f.value.is_map() && !f.at_key && f.key_merges) {
      throw refusal{f.key_mark, "a merge key '<<' without a value"};
    }
    if (f.value.is_map() && !f.at_key) {  // a key without a value: null
      node null_value;
      place(null_value, f.key_mark);
      f.value.entries().push_back(node_entry{std::move(f.key), std::move(null_value),
                                             static_cast<std::uint32_t>(f.key_mark.line + 1),
                                             static_cast<std::uint32_t>(f.key_mark.column + 1)});
    }
    if (!f.merges.empty()) merge(f);
    const std::size_t height = f.height + 1;
    if (f.anchor != 0) {
      remember(f.mark, f.anchor, f.value,
               totals{total_.nodes - f.start.nodes, total_.bytes - f.start.bytes}, height);
      open_anchors_.erase(f.anchor);
    }
    attach(std::move(f.value), f.mark, std::string(), height);
  }

  int documents_ = 0;
  totals total_;  // the document, every alias expanded
  totals held_;   // the copies of anchored nodes kept for their aliases
  std::vector<frame> frames_;
  node root_;
  std::map<YAML::anchor_t, anchored> anchored_;
  std::set<YAML::anchor_t> open_anchors_;
};

source_pos at(const std::string& display, const YAML::Mark& m) {
  source_pos p{display, 0, 0};
  if (m.line >= 0) {
    p.line = m.line + 1;
    p.column = m.column + 1;
  }
  return p;
}

}  // namespace

parsed_document parse_yaml_text(std::string_view text, const std::string& display) {
  parsed_document out;
  std::istringstream in{std::string(text)};
  try {
    YAML::Parser parser(in);
    builder b;
    while (parser.HandleNextDocument(b)) {
    }
    out.root = b.take_root();
    if (out.root.line() == 0) out.root.set_position(1, 1);  // an empty text: null, at its start
  } catch (const refusal& r) {
    out.error = diagnostic{at(display, r.mark), severity::error, r.message};
  } catch (const YAML::Exception& e) {
    out.error = diagnostic{at(display, e.mark), severity::error, "invalid YAML: " + e.msg};
  }
  return out;
}

}  // namespace conform::core::detail
