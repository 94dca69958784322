// JSON (RFC 8259) into core::node, with positions, in one pass over the
// text: no intermediate tree. A description of 9 MB is read in a few tens of
// milliseconds and kept in about five times its size (docs/performance.md).

#include "core/detail/parsers.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <numeric>
#include <optional>

#include "core/limits.hpp"
#include "core/text.hpp"

namespace conform::core::detail {

namespace {

/// Thrown inside the parser at the first problem; caught by parse_json_text.
struct json_error {
  std::size_t offset;
  std::string message;
  std::optional<source_pos> pos;  // when known already (a duplicate key)
  bool bound = false;             // a limit or a duplicate key, not the syntax
};

class json_parser {
 public:
  json_parser(std::string_view text, const std::string& display)
      : s_(text),
        display_(display),
        item_scratch_(limits::max_depth + 1),
        entry_scratch_(limits::max_depth + 1),
        offset_scratch_(limits::max_depth + 1) {}

  parsed_document run() {
    parsed_document out;
    try {
      if (s_.substr(0, 3) == "\xEF\xBB\xBF") skip_bom();
      skip_space();
      out.root = value(0);
      skip_space();
      if (i_ < s_.size()) fail(i_, "text after the end of the JSON document");
    } catch (const json_error& e) {
      out.root = node();
      out.error = diagnostic{e.pos ? *e.pos : position(e.offset), severity::error, e.message};
      out.past_a_bound = e.bound;
    }
    return out;
  }

 private:
  [[noreturn]] static void fail(std::size_t at, std::string message) {
    throw json_error{at, std::move(message), std::nullopt, false};
  }
  [[noreturn]] static void past_bound(std::size_t at, std::string message) {
    throw json_error{at, std::move(message), std::nullopt, true};
  }

  void skip_bom() {
    i_ = 3;
    line_start_ = 3;
    col_from_ = 3;
  }

  /// 1-based line and column (in characters) of byte `at`, on the line being
  /// read; positions are asked for in order, so each byte is counted once.
  source_pos position(std::size_t at) {
    at = std::min(at, s_.size());
    if (at < col_from_) {  // behind the last position asked for, on this line
      col_from_ = line_start_;
      column_ = 1;
    }
    for (; col_from_ < at; ++col_from_) {
      // Lines are counted as they are skipped (skip_space); here only columns.
      if ((static_cast<unsigned char>(s_[col_from_]) & 0xC0) != 0x80) ++column_;
    }
    return source_pos{display_, static_cast<int>(line_), static_cast<int>(column_)};
  }

  void skip_space() {
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '\n') {
        ++line_;
        line_start_ = i_ + 1;
        col_from_ = line_start_;
        column_ = 1;
      } else if (c != ' ' && c != '\t' && c != '\r') {
        return;
      }
      ++i_;
    }
  }

  void count_node(std::size_t at, std::size_t bytes) {
    if (++nodes_ > limits::max_expanded_nodes) {
      past_bound(at, "the document has more than " + std::to_string(limits::max_expanded_nodes) +
                         " nodes");
    }
    scalar_bytes_ += bytes;
    if (scalar_bytes_ > limits::max_expanded_bytes) {
      past_bound(at, "the document has more than " +
                         std::to_string(limits::max_expanded_bytes >> 20) + " MiB of scalars");
    }
  }

  node value(std::size_t depth) {
    if (i_ >= s_.size()) fail(i_, "the JSON document ends where a value was expected");
    const std::size_t at = i_;
    const source_pos p = position(at);  // before a container moves to later lines
    node n;
    switch (s_[i_]) {
      case '{':
        n = object(depth);
        break;
      case '[':
        n = array(depth);
        break;
      case '"': {
        std::string text = string();
        count_node(at, text.size());
        n = node::scalar(std::move(text), true);
        break;
      }
      case 't':
        n = literal("true");
        break;
      case 'f':
        n = literal("false");
        break;
      case 'n':
        literal("null");
        break;
      default:
        n = number();
        break;
    }
    n.set_position(static_cast<std::uint32_t>(p.line), static_cast<std::uint32_t>(p.column));
    return n;
  }

  node literal(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) fail(i_, unexpected("a value"));
    count_node(i_, word.size());
    i_ += word.size();
    return node::scalar(std::string(word), false);
  }

  node number() {
    const std::size_t start = i_;
    if (i_ < s_.size() && s_[i_] == '-') ++i_;
    if (i_ >= s_.size() || !digit(s_[i_])) fail(start, unexpected("a value"));
    if (s_[i_] == '0') {
      ++i_;
    } else {
      while (i_ < s_.size() && digit(s_[i_])) ++i_;
    }
    if (i_ < s_.size() && s_[i_] == '.') {
      ++i_;
      if (i_ >= s_.size() || !digit(s_[i_])) fail(i_, "a digit must follow the decimal point");
      while (i_ < s_.size() && digit(s_[i_])) ++i_;
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      if (i_ >= s_.size() || !digit(s_[i_])) fail(i_, "a digit must follow the exponent");
      while (i_ < s_.size() && digit(s_[i_])) ++i_;
    }
    const std::size_t length = i_ - start;
    if (length > limits::max_scalar_bytes) past_bound(start, too_long(length));
    count_node(start, length);
    return node::scalar(std::string(s_.substr(start, length)), false);
  }

  static bool digit(char c) { return c >= '0' && c <= '9'; }

  std::string unexpected(std::string_view wanted) const {
    if (i_ >= s_.size())
      return "the JSON document ends where " + std::string(wanted) + " was expected";
    const auto c = static_cast<unsigned char>(s_[i_]);
    std::string seen;
    if (c >= 0x20 && c < 0x7F) {
      seen = std::string("'") + static_cast<char>(c) + "'";
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", c);
      seen = std::string("byte ") + hex;
    }
    return "expected " + std::string(wanted) + ", found " + seen;
  }

  static std::string too_long(std::size_t bytes) {
    return "a scalar of " + std::to_string(bytes) + " bytes, more than the limit of " +
           std::to_string(limits::max_scalar_bytes >> 20) + " MiB";
  }

  void enter(std::size_t depth) const {
    if (depth + 1 > limits::max_depth) {
      past_bound(i_, "nesting deeper than " + std::to_string(limits::max_depth) +
                         " levels of mappings and sequences");
    }
  }

  node array(std::size_t depth) {
    enter(depth);
    count_node(i_, 0);
    ++i_;  // '['
    // Items gather in this depth's scratch list, reused from one array to the
    // next, and move into one exactly sized vector at the end.
    std::vector<node>& items = scratch(item_scratch_, depth);
    skip_space();
    if (i_ < s_.size() && s_[i_] == ']') {
      ++i_;
      return node::sequence();
    }
    while (true) {
      skip_space();
      items.push_back(value(depth + 1));
      skip_space();
      if (i_ < s_.size() && s_[i_] == ',') {
        ++i_;
        continue;
      }
      if (i_ < s_.size() && s_[i_] == ']') {
        ++i_;
        break;
      }
      fail(i_, unexpected("',' or ']'"));
    }
    node n = node::sequence();
    auto& out = n.items();
    out.reserve(items.size());
    std::move(items.begin(), items.end(), std::back_inserter(out));
    items.clear();
    return n;
  }

  /// The scratch list of depth `depth`, empty. The lists are made once, as
  /// many as the depth limit allows: a reference to one stays valid while
  /// deeper containers are read.
  template <class T>
  static std::vector<T>& scratch(std::vector<std::vector<T>>& lists, std::size_t depth) {
    lists[depth].clear();
    return lists[depth];
  }

  node object(std::size_t depth) {
    enter(depth);
    count_node(i_, 0);
    ++i_;  // '{'
    std::vector<node_entry>& entries = scratch(entry_scratch_, depth);
    std::vector<std::size_t>& key_offsets = scratch(offset_scratch_, depth);
    skip_space();
    if (i_ < s_.size() && s_[i_] == '}') {
      ++i_;
      return node::map();
    }
    while (true) {
      skip_space();
      if (i_ >= s_.size() || s_[i_] != '"') fail(i_, unexpected("a key in double quotes"));
      const std::size_t key_at = i_;
      std::string key = string();
      count_node(key_at, key.size());
      const source_pos kp = position(key_at);
      skip_space();
      if (i_ >= s_.size() || s_[i_] != ':') fail(i_, unexpected("':' after the key"));
      ++i_;
      skip_space();
      node v = value(depth + 1);
      entries.push_back(node_entry{std::move(key), std::move(v),
                                   static_cast<std::uint32_t>(kp.line),
                                   static_cast<std::uint32_t>(kp.column)});
      key_offsets.push_back(key_at);
      skip_space();
      if (i_ < s_.size() && s_[i_] == ',') {
        ++i_;
        continue;
      }
      if (i_ < s_.size() && s_[i_] == '}') {
        ++i_;
        break;
      }
      fail(i_, unexpected("',' or '}'"));
    }
    check_duplicates(entries, key_offsets);
    node n = node::map();
    auto& out = n.entries();
    out.reserve(entries.size());
    std::move(entries.begin(), entries.end(), std::back_inserter(out));
    entries.clear();
    return n;
  }

  /// The first key (in document order) that repeats an earlier one, if any.
  void check_duplicates(const std::vector<node_entry>& entries,
                        const std::vector<std::size_t>& offsets) {
    const std::size_t n = entries.size();
    std::size_t first_dup = n;
    if (n <= 16) {
      for (std::size_t k = 1; k < n && first_dup == n; ++k) {
        for (std::size_t j = 0; j < k; ++j) {
          if (entries[j].key == entries[k].key) {
            first_dup = k;
            break;
          }
        }
      }
    } else {
      std::vector<std::size_t> order(n);
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return entries[a].key < entries[b].key;
      });
      for (std::size_t k = 1; k < n; ++k) {
        if (entries[order[k]].key == entries[order[k - 1]].key) {
          first_dup = std::min(first_dup, order[k]);
        }
      }
    }
    if (first_dup == n) return;
    const node_entry& e = entries[first_dup];
    throw json_error{
        offsets[first_dup],
        "duplicate key '" + excerpt(e.key, 80) + "' in a mapping (each key may appear once)",
        source_pos{display_, static_cast<int>(e.line), static_cast<int>(e.column)}, true};
  }

  std::string string() {
    const std::size_t start = i_;
    ++i_;  // '"'
    std::string out;
    while (true) {
      // The longest run without a quote, an escape or a control character.
      const std::size_t run_start = i_;
      while (i_ < s_.size()) {
        const auto c = static_cast<unsigned char>(s_[i_]);
        if (c == '"' || c == '\\' || c < 0x20) break;
        ++i_;
      }
      out.append(s_.data() + run_start, i_ - run_start);
      if (out.size() > limits::max_scalar_bytes) past_bound(start, too_long(out.size()));
      if (i_ >= s_.size()) fail(start, "a string that is never closed");
      const char c = s_[i_];
      if (c == '"') {
        ++i_;
        return out;
      }
      if (c != '\\') fail(i_, "a control character inside a string (write it as an escape)");
      escape(out);
    }
  }

  void escape(std::string& out) {
    const std::size_t at = i_;
    ++i_;  // '\'
    if (i_ >= s_.size()) fail(at, "a string that is never closed");
    const char c = s_[i_++];
    switch (c) {
      case '"':
      case '\\':
      case '/':
        out += c;
        return;
      case 'b':
        out += '\b';
        return;
      case 'f':
        out += '\f';
        return;
      case 'n':
        out += '\n';
        return;
      case 'r':
        out += '\r';
        return;
      case 't':
        out += '\t';
        return;
      case 'u':
        break;
      default:
        fail(at, std::string("unknown escape '\\") + c + "' in a string");
    }
    unsigned code = hex4(at);
    if (code >= 0xDC00 && code <= 0xDFFF) fail(at, "a \\u escape of a lone low surrogate");
    if (code >= 0xD800 && code <= 0xDBFF) {
      if (s_.substr(i_, 2) != "\\u") fail(at, "a \\u escape of a high surrogate without its pair");
      i_ += 2;
      const unsigned low = hex4(at);
      if (low < 0xDC00 || low > 0xDFFF) {
        fail(at, "a \\u escape of a high surrogate without its pair");
      }
      code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
    }
    append_utf8(out, code);
  }

  unsigned hex4(std::size_t at) {
    if (i_ + 4 > s_.size()) fail(at, "a \\u escape needs four hexadecimal digits");
    unsigned v = 0;
    for (int k = 0; k < 4; ++k) {
      const char h = s_[i_++];
      v <<= 4;
      if (h >= '0' && h <= '9') {
        v |= static_cast<unsigned>(h - '0');
      } else if (h >= 'a' && h <= 'f') {
        v |= static_cast<unsigned>(h - 'a' + 10);
      } else if (h >= 'A' && h <= 'F') {
        v |= static_cast<unsigned>(h - 'A' + 10);
      } else {
        fail(at, "a \\u escape needs four hexadecimal digits");
      }
    }
    return v;
  }

  static void append_utf8(std::string& out, unsigned code) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  std::string_view s_;
  const std::string& display_;
  std::size_t i_ = 0;
  // Line counting (skip_space) and column counting (position).
  std::size_t line_ = 1;
  std::size_t line_start_ = 0;
  std::size_t col_from_ = 0;
  std::size_t column_ = 1;
  std::size_t nodes_ = 0;
  std::size_t scalar_bytes_ = 0;
  // Per depth: the items, entries and key offsets of the container being read.
  std::vector<std::vector<node>> item_scratch_;
  std::vector<std::vector<node_entry>> entry_scratch_;
  std::vector<std::vector<std::size_t>> offset_scratch_;
};

}  // namespace

parsed_document parse_json_text(std::string_view text, const std::string& display) {
  return json_parser(text, display).run();
}

}  // namespace conform::core::detail
