#include "suites/auth/support.hpp"

#include <algorithm>
#include <cctype>

namespace conform::suites::auth {

using core::fnv1a;

namespace {

std::uint64_t splitmix(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace

const openapi::security_scheme* accepted_scheme(const openapi::operation& op,
                                                std::string_view kind) {
  for (const auto* s : op.accepted_schemes()) {
    if (s->named_by(kind)) return s;
  }
  return nullptr;
}

const openapi::security_scheme* accepted_jwt_scheme(const openapi::operation& op) {
  for (const auto* s : op.accepted_schemes()) {
    if (s->is_jwt()) return s;
  }
  return nullptr;
}

const openapi::security_scheme* accepted_scheme(const openapi::operation& op,
                                                const profile::credential& c) {
  for (const auto* s : op.accepted_schemes()) {
    if (c.fits(*s)) return s;
  }
  return nullptr;
}

std::vector<std::string> documented_codes(const openapi::operation& op, int status) {
  if (const auto* r = op.find_response(status)) return r->error_codes;
  return {};
}

namespace {

bool refused_with(const harness::probe& p, int status, const std::vector<std::string>& codes) {
  if (status == 0 || !p.answered() || p.status() != static_cast<unsigned>(status)) return false;
  if (codes.empty()) return true;
  return std::find(codes.begin(), codes.end(), p.error_code()) != codes.end();
}

std::string refusal_text(int status, const std::vector<std::string>& codes) {
  std::string out = std::to_string(status);
  if (codes.empty()) return out;
  out += " with code ";
  for (std::size_t i = 0; i < codes.size(); ++i) {
    if (i > 0) out += i + 1 == codes.size() ? " or " : ", ";
    out += codes[i];
  }
  return out;
}

}  // namespace

bool expected_refusal::matches(const harness::probe& p) const {
  return refused_with(p, status, codes) || refused_with(p, also_status, also_codes);
}

std::string expected_refusal::text() const {
  std::string out = refusal_text(status, codes);
  if (also_status != 0) out += " or " + refusal_text(also_status, also_codes);
  return out;
}

expected_refusal refusal(const openapi::operation& op, int status,
                         const std::vector<std::string>& excluded) {
  expected_refusal out{status, {}};
  for (auto& code : documented_codes(op, status)) {
    if (std::find(excluded.begin(), excluded.end(), code) == excluded.end()) {
      out.codes.push_back(std::move(code));
    }
  }
  return out;
}

expected_refusal auth_refusal(const openapi::api_spec& spec, const openapi::operation& op,
                              refusal_kind kind, const std::vector<std::string>& excluded) {
  const bool unauthenticated = kind == refusal_kind::unauthenticated;
  const int declared =
      unauthenticated ? spec.rules.unauthenticated_status : spec.rules.forbidden_status;
  if (declared != 0) return refusal(op, declared, excluded);
  expected_refusal out = refusal(op, unauthenticated ? 401 : 403, excluded);
  expected_refusal other = refusal(op, unauthenticated ? 403 : 401, excluded);
  out.also_status = other.status;
  out.also_codes = std::move(other.codes);
  return out;
}

std::string outcome_class(const harness::probe& p) {
  if (!p.answered()) return "no response";
  if (p.status() >= 200 && p.status() < 300) return "2xx";
  return p.summary();
}

std::string seeded_hex(std::uint64_t seed, std::string_view salt, std::size_t n) {
  static constexpr char digits[] = "0123456789abcdef";
  std::uint64_t state = fnv1a(salt, seed ^ 0xa17b5eedull);
  std::string out;
  while (out.size() < n) {
    std::uint64_t v = splitmix(state);
    for (int i = 0; i < 16 && out.size() < n; ++i, v >>= 4) out.push_back(digits[v & 0xf]);
  }
  return out;
}

std::string unknown_id(std::string_view like, std::uint64_t seed, std::string_view salt) {
  std::uint64_t state = fnv1a(salt, fnv1a(like, seed ^ 0x0dd1d5ull));
  const bool decimal = !like.empty() && std::all_of(like.begin(), like.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
  if (decimal || like.empty()) {
    // 18 digits: past any id a real table holds, and still a signed 64-bit integer.
    std::string out = "9";
    while (out.size() < 18) out.push_back(static_cast<char>('0' + splitmix(state) % 10));
    return out;
  }
  std::string out(like);
  for (char& c : out) {
    const std::uint64_t r = splitmix(state);
    if (std::isdigit(static_cast<unsigned char>(c))) {
      c = static_cast<char>('0' + r % 10);
    } else if (std::islower(static_cast<unsigned char>(c))) {
      c = static_cast<char>('a' + r % 26);
    } else if (std::isupper(static_cast<unsigned char>(c))) {
      c = static_cast<char>('A' + r % 26);
    }
  }
  return out;
}

safe_request make_safe_request(const harness::scenario_context& ctx, const openapi::operation& op,
                               const harness::auth_choice& auth, std::string_view salt) {
  safe_request out;
  out.auth = auth;
  if (op.transition && auth.tenant) {
    const openapi::parameter* moved = nullptr;
    for (const auto& p : op.parameters) {
      if (p.in == openapi::param_location::path && p.name == op.transition->parameter &&
          p.resource) {
        moved = &p;
      }
    }
    if (moved) {
      out.tenant_copy = std::make_shared<profile::tenant>(*auth.tenant);
      auto& fixture = out.tenant_copy->fixtures[moved->resource->fixture];
      fixture = unknown_id(fixture, ctx.seed(), std::string("safe:") + std::string(salt));
      out.auth.tenant = out.tenant_copy.get();
    }
  }
  auto made = ctx.valid_request(op, out.auth, salt);
  if (made) {
    out.request = std::move(made).value();
  } else {
    out.why = std::move(made).error();
  }
  return out;
}

std::string tenant_header(const openapi::operation& op) {
  if (op.tenant.from == openapi::tenant_context::source::header) return op.tenant.name;
  return op.tenant.header_name;
}

}  // namespace conform::suites::auth
