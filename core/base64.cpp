#include "core/base64.hpp"

#include <cstdint>

namespace conform::core {

namespace {

/// The 6-bit groups of `bytes` in `table`, the last one zero-filled; no padding.
std::string encode(std::string_view bytes, const char* table) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::uint32_t buf = 0;
  int bits = 0;
  for (const unsigned char ch : bytes) {
    buf = (buf << 8) | ch;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += table[(buf >> bits) & 0x3f];
    }
  }
  if (bits > 0) out += table[(buf << (6 - bits)) & 0x3f];
  return out;
}

}  // namespace

std::string base64_encode(std::string_view bytes) {
  std::string out =
      encode(bytes, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/");
  while (out.size() % 4 != 0) out += '=';
  return out;
}

std::string base64url_encode(std::string_view bytes) {
  return encode(bytes, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_");
}

std::optional<std::string> base64_decode(std::string_view text, base64_alphabet alphabet) {
  const bool strict_url = alphabet == base64_alphabet::url;
  const bool url_ok = strict_url || alphabet == base64_alphabet::either;
  const bool standard_ok = !strict_url;
  if (strict_url) {
    while (!text.empty() && text.back() == '=') text.remove_suffix(1);
    if (text.size() % 4 == 1) return std::nullopt;  // a dangling character
  }
  std::string out;
  std::uint32_t buf = 0;
  int bits = 0;
  for (const char ch : text) {
    int v = -1;
    if (ch >= 'A' && ch <= 'Z') v = ch - 'A';
    if (ch >= 'a' && ch <= 'z') v = ch - 'a' + 26;
    if (ch >= '0' && ch <= '9') v = ch - '0' + 52;
    if ((standard_ok && ch == '+') || (url_ok && ch == '-')) v = 62;
    if ((standard_ok && ch == '/') || (url_ok && ch == '_')) v = 63;
    if (ch == '=' && !strict_url) break;
    if (v < 0) return std::nullopt;
    buf = (buf << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((buf >> bits) & 0xff);
    }
  }
  return out;
}

}  // namespace conform::core
