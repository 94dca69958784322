#include "reference/detail/jwt.hpp"

#include <boost/json.hpp>

#include "core/base64.hpp"
#include "reference/detail/util.hpp"

namespace conform::reference::detail {
namespace json = boost::json;

namespace {

std::string claims_json(const jwt_claims& c) {
  json::object o;
  o["sub"] = c.sub;
  o["exp"] = c.exp;
  json::array tenants;
  for (const auto& t : c.tenant_ids) tenants.emplace_back(t);
  o["tenant_ids"] = std::move(tenants);
  o["role"] = c.role;
  return json::serialize(o);
}

std::optional<json::object> parse_object(std::string_view b64) {
  auto raw = core::base64_decode(b64, core::base64_alphabet::url);
  if (!raw) return std::nullopt;
  json::error_code ec;
  json::value v = json::parse(*raw, ec);
  if (ec || !v.is_object()) return std::nullopt;
  return v.as_object();
}

}  // namespace

std::string sign_jwt(const jwt_claims& claims, std::string_view secret) {
  std::string head = core::base64url_encode(R"({"alg":"HS256","typ":"JWT"})");
  std::string body = core::base64url_encode(claims_json(claims));
  std::string input = head + "." + body;
  return input + "." + core::base64url_encode(hmac_sha256(secret, input));
}

std::string unsigned_jwt(const jwt_claims& claims) {
  return core::base64url_encode(R"({"alg":"none","typ":"JWT"})") + "." +
         core::base64url_encode(claims_json(claims)) + ".";
}

std::optional<jwt_claims> verify_jwt(std::string_view token, std::string_view secret,
                                     std::int64_t now, jwt_leniency leniency) {
  if (token.size() > 8192) return std::nullopt;
  auto d1 = token.find('.');
  if (d1 == std::string_view::npos) return std::nullopt;
  auto d2 = token.find('.', d1 + 1);
  if (d2 == std::string_view::npos || token.find('.', d2 + 1) != std::string_view::npos) {
    return std::nullopt;
  }
  auto header = parse_object(token.substr(0, d1));
  if (!header) return std::nullopt;
  const auto* alg = header->if_contains("alg");
  if (alg == nullptr || !alg->is_string()) return std::nullopt;
  std::string_view sig = token.substr(d2 + 1);
  if (alg->as_string() == "HS256") {
    auto raw_sig = core::base64_decode(sig, core::base64_alphabet::url);
    if (!raw_sig) return std::nullopt;
    std::string expected = hmac_sha256(secret, token.substr(0, d2));
    if (!equal_constant_time(*raw_sig, expected)) return std::nullopt;
  } else if (alg->as_string() == "none" && leniency.accept_alg_none) {
    // fault alg_none_accepted: the signature is not looked at
  } else {
    return std::nullopt;
  }
  auto payload = parse_object(token.substr(d1 + 1, d2 - d1 - 1));
  if (!payload) return std::nullopt;
  jwt_claims c;
  const auto* sub = payload->if_contains("sub");
  const auto* exp = payload->if_contains("exp");
  const auto* tenants = payload->if_contains("tenant_ids");
  const auto* role = payload->if_contains("role");
  if (sub == nullptr || !sub->is_string() || exp == nullptr || tenants == nullptr ||
      !tenants->is_array() || role == nullptr || !role->is_string()) {
    return std::nullopt;
  }
  c.sub = std::string(sub->as_string());
  if (exp->is_int64())
    c.exp = exp->as_int64();
  else if (exp->is_uint64() && exp->as_uint64() < (1ULL << 62))
    c.exp = static_cast<std::int64_t>(exp->as_uint64());
  else if (exp->is_double() && exp->as_double() > 0 && exp->as_double() < 1e15)
    c.exp = static_cast<std::int64_t>(exp->as_double());
  else
    return std::nullopt;
  for (const auto& t : tenants->as_array()) {
    if (!t.is_string()) return std::nullopt;
    c.tenant_ids.emplace_back(t.as_string());
  }
  c.role = std::string(role->as_string());
  if (c.role != "admin" && c.role != "member" && c.role != "viewer") return std::nullopt;
  if (c.exp <= now && !leniency.accept_expired) return std::nullopt;
  return c;
}

}  // namespace conform::reference::detail
