#include "profile/claims.hpp"

#include <algorithm>

#include "core/base64.hpp"
#include "core/parse.hpp"

namespace conform::profile {
namespace {

/// A scalar claim's text (a number's digits, a string's characters).
std::optional<std::string> scalar_text(const core::node& n) {
  if (!n.is_scalar()) return std::nullopt;
  return n.text();
}

}  // namespace

std::optional<token_claims> read_claims(const std::string& token,
                                        const openapi::security_scheme& scheme) {
  const auto first = token.find('.');
  if (first == std::string::npos) return std::nullopt;
  const auto second = token.find('.', first + 1);
  if (second == std::string::npos || token.find('.', second + 1) != std::string::npos) {
    return std::nullopt;
  }
  // A payload over 16 KiB is no token a person handed us.
  if (second - first > 16384) return std::nullopt;
  auto payload = core::base64_decode(std::string_view(token).substr(first + 1, second - first - 1),
                                     core::base64_alphabet::either);
  if (!payload) return std::nullopt;
  auto doc = core::parse_json(*payload, "the token's payload");
  if (doc.error || !doc.root.is_map()) return std::nullopt;
  token_claims out;
  if (!scheme.role_claim.empty()) out.role = scalar_text(doc.root.get(scheme.role_claim));
  if (!scheme.tenant_claim.empty()) {
    const core::node& tenants = doc.root.get(scheme.tenant_claim);
    if (tenants.is_sequence()) {
      out.tenants_present = true;
      for (const auto& item : tenants.items()) {
        if (auto text = scalar_text(item)) out.tenants.push_back(*text);
      }
    } else if (auto text = scalar_text(tenants)) {
      out.tenants_present = true;
      out.tenants.push_back(*text);
    }
  }
  return out;
}

std::vector<std::string> learn_from_tokens(target& t, const openapi::api_spec& spec) {
  std::vector<std::string> notes;
  for (std::size_t i = 0; i < t.credentials.size(); ++i) {
    const credential& c = t.credentials[i];
    const openapi::security_scheme* scheme = c.scheme_in(spec);
    if (!scheme || !scheme->is_jwt()) continue;
    if (scheme->role_claim.empty() && scheme->tenant_claim.empty()) continue;
    const bool want_role = c.role.empty() && !scheme->role_claim.empty();
    const bool want_tenants = c.tenants.empty() && !scheme->tenant_claim.empty();
    if (!want_role && !want_tenants) continue;
    auto claims = read_claims(c.value.reveal(), *scheme);
    if (!claims) continue;
    std::vector<std::string> read;
    if (want_role && claims->role && !claims->role->empty()) {
      t.credentials[i].role = *claims->role;
      read.push_back("role " + *claims->role + " (claim " + scheme->role_claim + ")");
    }
    if (want_tenants && claims->tenants_present) {
      std::vector<std::string> ids;
      for (const auto& id : claims->tenants) {
        if (id.empty()) continue;
        tenant fresh;
        fresh.name = "tenant-" + id;
        fresh.id = id;
        const tenant& added = t.add_tenant(std::move(fresh));
        auto& mine = t.credentials[i].tenants;
        if (std::find(mine.begin(), mine.end(), &added) == mine.end()) mine.push_back(&added);
        ids.push_back(id);
      }
      std::string list;
      for (const auto& id : ids) list += (list.empty() ? "" : ", ") + id;
      read.push_back("tenants " + (list.empty() ? std::string("(none)") : list) + " (claim " +
                     scheme->tenant_claim + ")");
    }
    if (read.empty()) continue;
    std::string note = t.credentials[i].name + ": ";
    for (std::size_t k = 0; k < read.size(); ++k) note += (k ? " and " : "") + read[k];
    note += " read from the token's payload, not verified";
    notes.push_back(note);
    t.notes.push_back(note);
  }
  return notes;
}

}  // namespace conform::profile
