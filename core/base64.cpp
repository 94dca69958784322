#include "core/base64.hpp"

#include <cstdint>

namespace conform::core {

std::string base64_encode(std::string_view bytes) {
  static constexpr char table[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
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
  while (out.size() % 4 != 0) out += '=';
  return out;
}

std::optional<std::string> base64_decode(std::string_view text, base64_alphabet alphabet) {
  const bool url = alphabet == base64_alphabet::either;
  std::string out;
  std::uint32_t buf = 0;
  int bits = 0;
  for (const char ch : text) {
    int v = -1;
    if (ch >= 'A' && ch <= 'Z') v = ch - 'A';
    if (ch >= 'a' && ch <= 'z') v = ch - 'a' + 26;
    if (ch >= '0' && ch <= '9') v = ch - '0' + 52;
    if (ch == '+' || (url && ch == '-')) v = 62;
    if (ch == '/' || (url && ch == '_')) v = 63;
    if (ch == '=') break;
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
