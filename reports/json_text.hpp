#pragma once
// JSON text appended straight to a buffer, for writers that write many
// records of a known shape (the HAR entries of --record): no tree of values
// is built first.

#include <algorithm>
#include <array>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "core/text.hpp"

namespace conform::reports {

/// `s` as text for a JSON string: each byte that starts no UTF-8 sequence
/// becomes U+FFFD.
inline std::string utf8_text_of(std::string_view s) {
  if (core::is_utf8(s)) return std::string(s);
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = core::utf8_sequence_length(s, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(s, i, n);
      i += n;
    }
  }
  return out;
}

/// JSON text appended straight to one buffer, members in the order they are
/// written (as boost::json::serialize writes an object of them, but for
/// numbers with a fraction: "0.25", not "2.5E-1"), without building the
/// object first (for a HAR entry, a tree of a few dozen allocations cost more
/// than the request it records).
class json_text {
 public:
  /// Appends to `out`; what it wrote is there once `finish()` was called.
  explicit json_text(std::string& out) : out_(out), len_(out.size()) {}
  json_text(const json_text&) = delete;
  json_text& operator=(const json_text&) = delete;
  void finish() { out_.resize(len_); }

  void open_object() { open('{'); }
  void close_object() { close('}'); }
  void open_array() { open('['); }
  void close_array() { close(']'); }
  /// A member's key (one of this file's names, which need no escaping); its
  /// value is the next thing written.
  void key(std::string_view k) {
    separate();
    put('"');
    put(k);
    put("\":");
    after_key_ = true;
  }
  /// A string as it is (boost::json passes bytes through, escaping only
  /// quotes, backslashes and control characters).
  void raw_string(std::string_view v) {
    separate();
    escaped(v);
  }
  /// A string with each invalid UTF-8 byte as U+FFFD (utf8_text_of).
  void text(std::string_view v) {
    if (core::is_utf8(v)) {
      raw_string(v);
    } else {
      raw_string(utf8_text_of(v));
    }
  }
  template <typename N>
  void number(N v) {
    separate();
    char buf[32];
    put(std::string_view(
        buf, static_cast<std::size_t>(std::to_chars(buf, buf + sizeof buf, v).ptr - buf)));
  }
  /// Two strings as one, as they are.
  void raw_string_of(std::string_view a, std::string_view b) {
    separate();
    escaped(a, b);
  }
  /// A member whose value is a string as it is.
  void member(std::string_view k, std::string_view v) {
    key(k);
    raw_string(v);
  }
  void text_member(std::string_view k, std::string_view v) {
    key(k);
    text(v);
  }
  template <typename N>
  void number_member(std::string_view k, N v) {
    key(k);
    number(v);
  }

 private:
  // The buffer grows ahead of what is written (len_), 2 KiB at a time (its
  // capacity doubles as a string's does): one size check per piece, not one
  // per character.
  [[gnu::noinline]] void grow(std::size_t n) { out_.resize(len_ + n + 2048); }
  [[gnu::always_inline]] void put(std::string_view v) {
    if (len_ + v.size() > out_.size()) grow(v.size());
    std::memcpy(out_.data() + len_, v.data(), v.size());
    len_ += v.size();
  }
  [[gnu::always_inline]] void put(char c) {
    if (len_ + 1 > out_.size()) grow(1);
    out_[len_++] = c;
  }
  void separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (depth_ == 0 || depth_ > kDepth) return;  // deeper than kept: a HAR entry nests four deep
    if (!first_[depth_ - 1]) put(',');
    first_[depth_ - 1] = false;
  }
  void open(char c) {
    separate();
    put(c);
    if (depth_ < kDepth) first_[depth_] = true;
    ++depth_;
  }
  void close(char c) {
    put(c);
    --depth_;
  }
  void escaped(std::string_view s) {
    put('"');
    escape_into(s);
    put('"');
  }
  void escaped(std::string_view a, std::string_view b) {
    put('"');
    escape_into(a);
    escape_into(b);
    put('"');
  }
  void escape_into(std::string_view s) {
    static constexpr char hex[] = "0123456789abcdef";
    std::size_t run = 0;  // the start of the bytes not yet appended
    for (std::size_t i = 0; i < s.size(); ++i) {
      // Eight bytes at a time while none of them needs escaping.
      while (i + 8 <= s.size() && !needs_escape(s.data() + i)) i += 8;
      if (i >= s.size()) break;
      const auto c = static_cast<unsigned char>(s[i]);
      if (!kEscapes[c]) continue;
      put(s.substr(run, i - run));
      run = i + 1;
      const char two[2] = {'\\', kShort[c]};
      if (two[1] != 0) {
        put(std::string_view(two, 2));
      } else {
        const char six[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xf]};
        put(std::string_view(six, 6));
      }
    }
    put(s.substr(run));
  }

  /// Whether any of the eight bytes at `p` is a control character, '"' or
  /// '\\' (a byte is below 0x20 when subtracting 0x20 borrows into its top
  /// bit while its own top bit is clear; equal to c when x ^ c is zero).
  static bool needs_escape(const char* p) {
    constexpr std::uint64_t ones = 0x0101010101010101ull, tops = 0x8080808080808080ull;
    std::uint64_t x = 0;
    std::memcpy(&x, p, 8);
    const auto zero_byte = [&](std::uint64_t v) { return (v - ones) & ~v & tops; };
    return (((x - 0x20 * ones) & ~x & tops) | zero_byte(x ^ ('"' * ones)) |
            zero_byte(x ^ ('\\' * ones))) != 0;
  }

  static constexpr std::size_t kDepth = 8;
  /// The bytes a JSON string escapes: control characters, '"' and '\\'.
  static constexpr std::array<bool, 256> kEscapes = [] {
    std::array<bool, 256> t{};
    for (std::size_t c = 0; c < 0x20; ++c) t[c] = true;
    t['"'] = t['\\'] = true;
    return t;
  }();
  /// The escapes of two characters (0: written as \u00XX).
  static constexpr std::array<char, 256> kShort = [] {
    std::array<char, 256> t{};
    t['"'] = '"';
    t['\\'] = '\\';
    t['\b'] = 'b';
    t['\f'] = 'f';
    t['\n'] = 'n';
    t['\r'] = 'r';
    t['\t'] = 't';
    return t;
  }();
  std::string& out_;
  std::size_t len_;          // what is written of out_
  bool first_[kDepth] = {};  // per open container: nothing written in it yet
  std::size_t depth_ = 0;
  bool after_key_ = false;
};

}  // namespace conform::reports
