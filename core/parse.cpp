#include "core/parse.hpp"

#include <cstdio>

#include "core/detail/parsers.hpp"

namespace conform::core {

namespace detail {

namespace {

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

}  // namespace

std::optional<diagnostic> check_characters(std::string_view bytes, const std::string& display,
                                           bool utf8_only) {
  int line = 1, column = 1;
  std::size_t i = 0;
  if (bytes.substr(0, 3) == "\xEF\xBB\xBF") i = 3;  // a UTF-8 byte order mark
  while (i < bytes.size()) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    if (c >= 0x20 && c < 0x7F) {  // the common case first
      ++column;
      ++i;
      continue;
    }
    const std::size_t n = utf8_length(bytes, i);
    if (n == 0) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", c);
      return diagnostic{{display, line, column},
                        severity::error,
                        std::string("invalid UTF-8 (byte ") + hex + "): the text must be UTF-8"};
    }
    if (!utf8_only && ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F)) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "U+%04X", c);
      return diagnostic{{display, line, column},
                        severity::error,
                        std::string("control character ") + hex + (c == 0 ? " (NUL)" : "") +
                            " is not allowed in YAML or JSON text"};
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

}  // namespace detail

namespace {

bool looks_like_json(std::string_view bytes) {
  std::size_t i = bytes.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  while (i < bytes.size() &&
         (bytes[i] == ' ' || bytes[i] == '\t' || bytes[i] == '\n' || bytes[i] == '\r')) {
    ++i;
  }
  return i < bytes.size() && (bytes[i] == '{' || bytes[i] == '[');
}

}  // namespace

parsed_document parse_json(std::string_view bytes, const std::string& display) {
  if (auto bad = detail::check_characters(bytes, display, true))
    return parsed_document{node(), bad};
  return detail::parse_json_text(bytes, display);
}

parsed_document parse_yaml(std::string_view bytes, const std::string& display) {
  if (auto bad = detail::check_characters(bytes, display, false)) {
    return parsed_document{node(), bad};
  }
  return detail::parse_yaml_text(bytes, display);
}

parsed_document parse_document(std::string_view bytes, const std::string& display) {
  if (!looks_like_json(bytes)) return parse_yaml(bytes, display);
  parsed_document json = parse_json(bytes, display);
  if (!json.error || json.past_a_bound) return json;  // YAML would end the same way
  // YAML's flow style also starts with '{' or '['; the JSON reader's error,
  // more precise, is the one reported when neither reads the text.
  parsed_document yaml = parse_yaml(bytes, display);
  if (!yaml.error) return yaml;
  return json;
}

}  // namespace conform::core
