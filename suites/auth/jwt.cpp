#include "suites/auth/jwt.hpp"

#include <boost/json.hpp>

#include <array>
#include <cstdint>

namespace conform::suites::auth::jwt {
namespace {

constexpr std::string_view alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::optional<boost::json::object> decode_object(std::string_view segment) {
  auto bytes = base64url_decode(segment);
  if (!bytes) return std::nullopt;
  boost::system::error_code ec;
  auto v = boost::json::parse(*bytes, ec);
  if (ec || !v.is_object()) return std::nullopt;
  return v.as_object();
}

std::string encode_object(const boost::json::object& o) {
  return base64url_encode(boost::json::serialize(o));
}

}  // namespace

std::string base64url_encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t v = (static_cast<std::uint8_t>(bytes[i]) << 16) |
                            (static_cast<std::uint8_t>(bytes[i + 1]) << 8) |
                            static_cast<std::uint8_t>(bytes[i + 2]);
    for (int shift = 18; shift >= 0; shift -= 6) out.push_back(alphabet[(v >> shift) & 0x3f]);
  }
  const std::size_t rest = bytes.size() - i;
  if (rest > 0) {
    std::uint32_t v = static_cast<std::uint8_t>(bytes[i]) << 16;
    if (rest == 2) v |= static_cast<std::uint8_t>(bytes[i + 1]) << 8;
    out.push_back(alphabet[(v >> 18) & 0x3f]);
    out.push_back(alphabet[(v >> 12) & 0x3f]);
    if (rest == 2) out.push_back(alphabet[(v >> 6) & 0x3f]);
  }
  return out;
}

std::optional<std::string> base64url_decode(std::string_view text) {
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  if (text.size() % 4 == 1) return std::nullopt;
  std::string out;
  std::uint32_t buffer = 0;
  int bits = 0;
  for (char c : text) {
    const auto at = alphabet.find(c);
    if (at == std::string_view::npos) return std::nullopt;
    buffer = (buffer << 6) | static_cast<std::uint32_t>(at);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buffer >> bits) & 0xff));
    }
  }
  return out;
}

std::optional<compact_token> compact_token::parse(std::string_view token) {
  const auto first = token.find('.');
  if (first == std::string_view::npos) return std::nullopt;
  const auto second = token.find('.', first + 1);
  if (second == std::string_view::npos || token.find('.', second + 1) != std::string_view::npos) {
    return std::nullopt;
  }
  compact_token t{std::string(token.substr(0, first)),
                  std::string(token.substr(first + 1, second - first - 1)),
                  std::string(token.substr(second + 1))};
  if (!decode_object(t.header) || !decode_object(t.payload)) return std::nullopt;
  return t;
}

compact_token wrong_signature(const compact_token& t, std::string_view salt_hex) {
  compact_token out = t;
  const std::size_t length =
      std::max<std::size_t>(base64url_decode(t.signature).value_or("").size(), 32);
  std::string bytes;
  for (std::size_t i = 0; bytes.size() < length; i += 2) {
    const auto digit = [&](std::size_t at) -> unsigned {
      const char c = salt_hex.empty() ? '0' : salt_hex[at % salt_hex.size()];
      return c >= 'a' ? static_cast<unsigned>(c - 'a' + 10) : static_cast<unsigned>(c - '0') & 0xfu;
    };
    bytes.push_back(static_cast<char>((digit(i) << 4) | digit(i + 1)));
  }
  out.signature = base64url_encode(bytes);
  if (out.signature == t.signature) out.signature.front() = t.signature.front() == 'A' ? 'B' : 'A';
  return out;
}

compact_token signature_stripped(const compact_token& t) {
  compact_token out = t;
  out.signature.clear();
  return out;
}

compact_token alg_none(const compact_token& t) {
  compact_token out = t;
  auto header = decode_object(t.header).value_or(boost::json::object{});
  header["alg"] = "none";
  out.header = encode_object(header);
  out.signature.clear();
  return out;
}

compact_token payload_changed(const compact_token& t, std::string_view claim,
                              std::string_view value) {
  compact_token out = t;
  auto payload = decode_object(t.payload).value_or(boost::json::object{});
  if (!claim.empty()) {
    payload[claim] = value;
  } else if (auto* sub = payload.if_contains("sub"); sub && sub->is_string()) {
    *sub = std::string(sub->as_string()) + "0";
  } else {
    payload["sub"] = "conform";
  }
  out.payload = encode_object(payload);
  return out;
}

std::optional<std::string> string_claim(const compact_token& t, std::string_view claim) {
  auto payload = decode_object(t.payload);
  if (!payload) return std::nullopt;
  const auto* v = payload->if_contains(claim);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return std::string(v->as_string());
}

bool payload_differs(const compact_token& a, const compact_token& b) {
  auto x = decode_object(a.payload), y = decode_object(b.payload);
  if (!x || !y) return a.payload != b.payload;
  return *x != *y;
}

std::string shown_without_signature(const compact_token& t, std::string_view env_reference) {
  return t.header + "." + t.payload + ".SIGNATURE-OF-" + std::string(env_reference);
}

}  // namespace conform::suites::auth::jwt
