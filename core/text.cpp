#include "core/text.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <system_error>

namespace conform::core {

std::string join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i != 0) out += sep;
    out += items[i];
  }
  return out;
}

std::string number_text(double d) {
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);
  return ec == std::errc() ? std::string(buf, end) : std::string("?");
}

std::string whole_number_text(double d) {
  if (std::isfinite(d) && std::floor(d) == d && std::fabs(d) < 1e15) {
    return std::to_string(static_cast<long long>(d));
  }
  return number_text(d);
}

namespace {

char lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

}  // namespace

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (auto& c : out) c = lower(c);
  return out;
}

std::string media_type_of(std::string_view content_type) {
  std::string_view type = content_type.substr(0, content_type.find(';'));
  while (!type.empty() && (type.back() == ' ' || type.back() == '\t')) type.remove_suffix(1);
  while (!type.empty() && (type.front() == ' ' || type.front() == '\t')) type.remove_prefix(1);
  return ascii_lower(type);
}

std::uint64_t fnv1a(std::string_view s, std::uint64_t h) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string escape_pointer_token(std::string_view token) {
  std::string out;
  out.reserve(token.size());
  for (char c : token) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

std::size_t code_points(std::string_view text) {
  std::size_t n = 0;
  for (char c : text) n += (static_cast<unsigned char>(c) & 0xC0u) != 0x80u ? 1 : 0;
  return n;
}

std::string percent_encode(std::string_view text, std::string_view kept) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
        c == '.' || c == '_' || c == '~' || kept.find(ch) != std::string_view::npos) {
      out += ch;
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::string percent_decode(std::string_view text, bool plus_is_space) {
  const auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && hex(text[i + 1]) >= 0 && hex(text[i + 2]) >= 0) {
      out += static_cast<char>(hex(text[i + 1]) * 16 + hex(text[i + 2]));
      i += 2;
    } else if (plus_is_space && text[i] == '+') {
      out += ' ';
    } else {
      out += text[i];
    }
  }
  return out;
}

std::size_t utf8_sequence_length(std::string_view text, std::size_t at) {
  if (at >= text.size()) return 0;
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[at + i]); };
  const unsigned char b0 = byte(0);
  if (b0 < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3;
    if (b0 == 0xE0) lo = 0xA0;  // no overlong forms
    if (b0 == 0xED) hi = 0x9F;  // no surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4;
    if (b0 == 0xF0) lo = 0x90;  // no overlong forms
    if (b0 == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  if (at + n > text.size()) return 0;
  if (byte(1) < lo || byte(1) > hi) return 0;
  for (std::size_t i = 2; i < n; ++i) {
    if ((byte(i) & 0xC0u) != 0x80u) return 0;
  }
  return n;
}

bool is_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    // Plain ASCII eight bytes at a time: most text is, and each byte of it
    // is a sequence of its own.
    if (i + 8 <= text.size()) {
      std::uint64_t word = 0;
      std::memcpy(&word, text.data() + i, 8);
      if ((word & 0x8080808080808080ull) == 0) {
        i += 8;
        continue;
      }
    }
    const std::size_t n = utf8_sequence_length(text, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string escape_invalid_utf8(std::string_view text, bool controls) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_sequence_length(text, i);
    const auto c = static_cast<unsigned char>(text[i]);
    const bool control = controls && n == 1 && (c < 0x20 || c == 0x7F) && c != '\t' && c != '\n';
    if (n == 0 || control) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  static constexpr char hex[] = "0123456789abcdef";
  auto escaped_byte = [&out](unsigned char c) {
    out += "\\x";
    out += hex[c >> 4];
    out += hex[c & 15];
  };
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      const std::size_t n = utf8_sequence_length(text, i);
      // XML 1.0 forbids U+FFFE and U+FFFF (EF BF BE, EF BF BF) as well.
      const bool nonchar = n == 3 && c == 0xEF && static_cast<unsigned char>(text[i + 1]) == 0xBF &&
                           static_cast<unsigned char>(text[i + 2]) >= 0xBE;
      if (n == 0 || nonchar) {
        escaped_byte(c);
        ++i;
      } else {
        out.append(text.substr(i, n));
        i += n;
      }
      continue;
    }
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      case '\n':
      case '\t':
      case '\r':
        out += static_cast<char>(c);
        break;
      default:
        // XML 1.0 forbids other control characters: show them as \xNN.
        if (c < 0x20) {
          escaped_byte(c);
        } else {
          out += static_cast<char>(c);
        }
    }
    ++i;
  }
  return out;
}

std::string excerpt(std::string_view text, std::size_t max) {
  if (text.size() <= max) return escape_invalid_utf8(text);
  std::size_t end = max;
  // Back off to a character boundary: at most 3 bytes, as a character has
  // at most 3 continuation bytes (a longer run is no character, and is
  // escaped byte by byte).
  while (end > 0 && max - end < 3 && (static_cast<unsigned char>(text[end]) & 0xC0u) == 0x80u) {
    --end;
  }
  return escape_invalid_utf8(text.substr(0, end)) + "...";
}

namespace {

/// 1234567 as "1,234,567".
std::string excerpt_grouped(std::size_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

/// True for a media type whose bodies are text: text/*, JSON, XML, forms, scripts.
bool excerpt_textual(std::string_view media) {
  return media.starts_with("text/") || media.find("json") != std::string_view::npos ||
         media.find("xml") != std::string_view::npos ||
         media.find("javascript") != std::string_view::npos ||
         media.find("x-www-form-urlencoded") != std::string_view::npos ||
         media.find("yaml") != std::string_view::npos ||
         media.find("csv") != std::string_view::npos;
}

}  // namespace

std::string body_excerpt(std::string_view body, std::string_view content_type, std::size_t max) {
  if (body.empty()) return {};
  const std::string media = media_type_of(content_type);
  // Text is what the type says is text, or, with no type, what reads as text:
  // UTF-8 with no NUL.
  const bool text = media.empty() ? is_utf8(body) && body.find('\0') == std::string_view::npos
                                  : excerpt_textual(media);
  if (!text) {
    return excerpt_grouped(body.size()) + " bytes of " +
           (media.empty() ? "an undeclared type" : media);
  }
  return excerpt(body, max);
}

}  // namespace conform::core
