// A streaming pre-pass over yaml-cpp's parser events; the first problem
// found stops the parse (by exception) at its position.

#include "core/yaml_guard.hpp"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

#include "core/limits.hpp"

namespace conform::core {

namespace {

/// Thrown by the handler; caught by check_yaml_text.
struct refusal {
  YAML::Mark mark;
  std::string message;
};

/// Length of the UTF-8 sequence starting at `s[i]`, 0 when it is not valid
/// (overlong forms, surrogates and code points past U+10FFFF included).
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned c = b(i);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  if (b(i + 1) < lo || b(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k) {
    if (b(i + k) < 0x80 || b(i + k) > 0xBF) return 0;
  }
  return n;
}

/// Invalid UTF-8 and the control characters YAML forbids (all C0 but tab,
/// line feed and carriage return; DEL), with their position.
std::optional<diagnostic> check_characters(std::string_view bytes, const std::string& display) {
  int line = 1, column = 1;
  std::size_t i = 0;
  if (bytes.substr(0, 3) == "\xEF\xBB\xBF") i = 3;  // a UTF-8 byte order mark
  while (i < bytes.size()) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    const std::size_t n = utf8_length(bytes, i);
    if (n == 0) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", c);
      return diagnostic{
          {display, line, column},
          severity::error,
          std::string("invalid UTF-8 (byte ") + hex + "): a description must be UTF-8 text"};
    }
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "U+%04X", c);
      return diagnostic{{display, line, column},
                        severity::error,
                        std::string("control character ") + hex + (c == 0 ? " (NUL)" : "") +
                            " is not allowed in YAML"};
    }
    if (c == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
    i += n;
  }
  return std::nullopt;
}

std::string mib(std::size_t bytes) {
  return std::to_string(bytes >> 20) + " MiB";
}

class guard final : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark& mark) override {
    if (++documents_ > 1) {
      throw refusal{mark, "a second YAML document: a description is exactly one document"};
    }
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    enter(mark, std::nullopt);
    leaf(mark, anchor, 0);
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    enter(mark, std::nullopt);
    if (open_anchors_.count(anchor) != 0) {
      throw refusal{mark, "an alias inside the node its anchor names (a cycle)"};
    }
    const auto it = sizes_.find(anchor);
    if (it == sizes_.end()) return;  // yaml-cpp reports unknown anchors itself
    grow(mark, it->second.nodes, it->second.bytes);
  }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                const std::string& value) override {
    if (value.size() > limits::max_scalar_bytes) {
      throw refusal{mark, "a scalar of " + std::to_string(value.size()) +
                              " bytes, more than the limit of " + mib(limits::max_scalar_bytes)};
    }
    enter(mark, value);
    leaf(mark, anchor, value.size());
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(mark, anchor, false);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open(mark, anchor, true);
  }
  void OnMapEnd() override { close(); }

 private:
  struct totals {
    std::size_t nodes = 0;
    std::size_t bytes = 0;
  };
  struct frame {
    bool is_map = false;
    bool at_key = true;  // mappings: the next node is a key
    YAML::anchor_t anchor = 0;
    totals start;
    std::set<std::string> keys;
  };

  /// A node starts: in a mapping, a scalar key must not repeat.
  void enter(const YAML::Mark& mark, const std::optional<std::string>& scalar) {
    if (frames_.empty() || !frames_.back().is_map) return;
    frame& f = frames_.back();
    const bool key = f.at_key;
    f.at_key = !f.at_key;
    if (!key) return;
    const std::string k = scalar ? *scalar : std::string("\0null", 5);
    if (!f.keys.insert(k).second) {
      throw refusal{mark, "duplicate key '" + (scalar ? *scalar : std::string("null")) +
                              "' in a mapping (each key may appear once)"};
    }
  }

  void leaf(const YAML::Mark& mark, YAML::anchor_t anchor, std::size_t bytes) {
    grow(mark, 1, bytes);
    if (anchor != 0) sizes_[anchor] = totals{1, bytes};
  }

  void grow(const YAML::Mark& mark, std::size_t nodes, std::size_t bytes) {
    total_.nodes += nodes;
    total_.bytes += bytes;
    if (total_.nodes > limits::max_expanded_nodes) {
      throw refusal{mark, "the document expands to more than " +
                              std::to_string(limits::max_expanded_nodes) +
                              " nodes (aliases included)"};
    }
    if (total_.bytes > limits::max_expanded_bytes) {
      throw refusal{mark, "the document expands to more than " + mib(limits::max_expanded_bytes) +
                              " of scalars (aliases included)"};
    }
  }

  void open(const YAML::Mark& mark, YAML::anchor_t anchor, bool is_map) {
    enter(mark, std::nullopt);
    if (frames_.size() >= limits::max_depth) {
      throw refusal{mark, "nesting deeper than " + std::to_string(limits::max_depth) +
                              " levels of mappings and sequences"};
    }
    grow(mark, 1, 0);
    frame f;
    f.is_map = is_map;
    f.anchor = anchor;
    f.start = total_;
    f.start.nodes -= 1;
    frames_.push_back(std::move(f));
    if (anchor != 0) open_anchors_.insert(anchor);
  }

  void close() {
    if (frames_.empty()) return;
    const frame& f = frames_.back();
    if (f.anchor != 0) {
      sizes_[f.anchor] = totals{total_.nodes - f.start.nodes, total_.bytes - f.start.bytes};
      open_anchors_.erase(f.anchor);
    }
    frames_.pop_back();
  }

  int documents_ = 0;
  totals total_;
  std::vector<frame> frames_;
  std::map<YAML::anchor_t, totals> sizes_;
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

std::optional<diagnostic> check_yaml_text(std::string_view bytes, const std::string& display) {
  if (auto bad = check_characters(bytes, display)) return bad;
  std::istringstream in{std::string(bytes)};
  try {
    YAML::Parser parser(in);
    guard g;
    while (parser.HandleNextDocument(g)) {
    }
  } catch (const refusal& r) {
    return diagnostic{at(display, r.mark), severity::error, r.message};
  } catch (const YAML::Exception& e) {
    return diagnostic{at(display, e.mark), severity::error, "invalid YAML: " + e.msg};
  }
  return std::nullopt;
}

}  // namespace conform::core
