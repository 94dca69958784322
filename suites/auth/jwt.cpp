#include "suites/auth/jwt.hpp"

#include <boost/json.hpp>

#include <array>
#include <cstdint>

#include "core/base64.hpp"

namespace conform::suites::auth::jwt {
namespace {

std::optional<boost::json::object> decode_object(std::string_view segment) {
  auto bytes = core::base64_decode(segment, core::base64_alphabet::url);
  if (!bytes) return std::nullopt;
  boost::system::error_code ec;
  auto v = boost::json::parse(*bytes, ec);
  if (ec || !v.is_object()) return std::nullopt;
  return v.as_object();
}

std::string encode_object(const boost::json::object& o) {
  return core::base64url_encode(boost::json::serialize(o));
}

}  // namespace

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
  const std::size_t length = std::max<std::size_t>(
      core::base64_decode(t.signature, core::base64_alphabet::url).value_or("").size(), 32);
  std::string bytes;
  for (std::size_t i = 0; bytes.size() < length; i += 2) {
    const auto digit = [&](std::size_t at) -> unsigned {
      const char c = salt_hex.empty() ? '0' : salt_hex[at % salt_hex.size()];
      return c >= 'a' ? static_cast<unsigned>(c - 'a' + 10) : static_cast<unsigned>(c - '0') & 0xfu;
    };
    bytes.push_back(static_cast<char>((digit(i) << 4) | digit(i + 1)));
  }
  out.signature = core::base64url_encode(bytes);
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
