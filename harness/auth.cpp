#include "harness/auth.hpp"

#include <algorithm>

#include "profile/profile.hpp"
#include "core/text.hpp"

namespace conform::harness {
namespace {

bool has_all(const std::vector<std::string>& have, const std::vector<std::string>& need) {
  return std::all_of(need.begin(), need.end(), [&](const std::string& s) {
    return std::find(have.begin(), have.end(), s) != have.end();
  });
}

bool role_may(const openapi::operation& op, const openapi::security_scheme& scheme,
              const credential_view& c) {
  if (op.access != openapi::access_kind::write || c.role.empty()) return true;
  const auto& ro = scheme.read_only_roles;
  return std::find(ro.begin(), ro.end(), c.role) == ro.end();
}

}  // namespace

target_view make_target_view(const profile::profile& p) {
  target_view view;
  view.base_url = p.base_url.to_string();
  view.environment = std::string(profile::to_string(p.env));
  view.tenants.reserve(p.tenants.size());
  for (const auto& t : p.tenants) view.tenants.push_back({t.name, t.id, t.fixtures});
  view.credentials.reserve(p.credentials.size());
  for (const auto& c : p.credentials) {
    credential_view cv;
    cv.name = c.name;
    cv.kind = c.scheme;
    for (std::size_t index : c.tenants) {
      if (index < view.tenants.size()) cv.tenants.push_back(&view.tenants[index]);
    }
    cv.scopes = c.scopes;
    if (c.role) cv.role = std::string(profile::to_string(*c.role));
    cv.expired = c.expired;
    cv.other_environment = p.environment_of(c) != p.env;
    cv.rate_limited = c.rate_limited;
    cv.value = c.value.reveal();
    cv.env_reference = c.value.env_name();
    view.credentials.push_back(std::move(cv));
  }
  return view;
}

bool is_sufficient(const openapi::operation& op, const openapi::security_scheme& scheme,
                   const credential_view& c) {
  if (c.kind != scheme.credential || c.expired || c.other_environment || c.rate_limited) {
    return false;
  }
  auto needed = op.scopes_for(scheme);
  if (!needed) return false;
  if (!needed->empty() && (!c.scopes || !has_all(*c.scopes, *needed))) return false;
  if (!role_may(op, scheme, c)) return false;
  return op.tenant.from == openapi::tenant_context::source::none || !c.tenants.empty();
}

std::vector<std::string> fixtures_needed(const openapi::operation& op) {
  std::vector<std::string> out;
  auto add = [&](const std::string& name) {
    if (name != "tenant_id" && std::find(out.begin(), out.end(), name) == out.end()) {
      out.push_back(name);
    }
  };
  for (const auto& p : op.parameters) {
    if (p.resource) add(p.resource->fixture);
  }
  // x-fixture anywhere in the request bodies (properties, items, compositions).
  std::vector<const schema::schema*> pending, seen;
  if (op.body) {
    for (const auto& m : op.body->content) {
      if (m.schema) pending.push_back(m.schema);
    }
  }
  while (!pending.empty()) {
    const schema::schema* s = pending.back();
    pending.pop_back();
    if (!s || std::find(seen.begin(), seen.end(), s) != seen.end()) continue;
    seen.push_back(s);
    if (s->fixture) add(*s->fixture);
    if (s->ref) pending.push_back(s->ref);
    for (const auto& [name, child] : s->properties) pending.push_back(child);
    pending.push_back(s->items);
    pending.push_back(s->additional_properties);
    for (const auto* group : {&s->all_of, &s->any_of, &s->one_of}) {
      pending.insert(pending.end(), group->begin(), group->end());
    }
  }
  return out;
}

std::vector<auth_choice> auth_models_for(const openapi::api_spec& spec,
                                         const openapi::operation& op, const target_view& target) {
  (void)spec;
  std::vector<auth_choice> out;
  const std::vector<std::string> fixtures = fixtures_needed(op);
  auto has_fixtures = [&](const tenant_view* t) {
    return std::all_of(fixtures.begin(), fixtures.end(),
                       [&](const std::string& f) { return t && t->fixtures.count(f) > 0; });
  };
  if (!op.needs_credentials()) {
    auth_choice none;
    none.model.name = "none";
    for (const auto& t : target.tenants) {
      if (has_fixtures(&t)) {
        none.tenant = &t;
        break;
      }
    }
    if (!none.tenant && !fixtures.empty()) {
      none.not_run_why = "no tenant of the profile has the fixtures " + core::join(fixtures);
    }
    out.push_back(std::move(none));
    return out;
  }
  for (const auto* scheme : op.accepted_schemes()) {
    auth_choice choice;
    choice.model.name = std::string(openapi::to_string(scheme->credential));
    choice.model.scheme = scheme;
    // The first sufficient credential whose tenant has every fixture the
    // operation names (valid requests need real ids), preferring, where a
    // role matters, one whose role is stated.
    const bool role_matters =
        op.access == openapi::access_kind::write && !scheme->read_only_roles.empty();
    const credential_view* best = nullptr;
    const credential_view* sufficient_without_fixtures = nullptr;
    for (const auto& c : target.credentials) {
      if (!is_sufficient(op, *scheme, c)) continue;
      const tenant_view* home = c.tenants.empty() ? nullptr : c.tenants.front();
      if (!fixtures.empty() && !has_fixtures(home)) {
        if (!sufficient_without_fixtures) sufficient_without_fixtures = &c;
        continue;
      }
      if (!best || (role_matters && best->role.empty() && !c.role.empty())) best = &c;
      if (!role_matters || !c.role.empty()) break;
    }
    if (best) {
      choice.credential = best;
      choice.model.credential_name = best->name;
      if (!best->tenants.empty()) {
        choice.tenant = best->tenants.front();
        choice.model.tenant_id = choice.tenant->id;
      }
    } else if (sufficient_without_fixtures) {
      choice.not_run_why = "the tenant of every sufficient " + choice.model.name +
                           " credential lacks a fixture the operation needs (" +
                           core::join(fixtures) + ")";
    } else {
      auto needed = op.scopes_for(*scheme).value_or(std::vector<std::string>{});
      std::string why = "the profile has no usable " + choice.model.name + " credential";
      if (!needed.empty()) why += " with scope " + core::join(needed);
      if (role_matters) why += " and a role that may write";
      if (op.tenant.from != openapi::tenant_context::source::none) why += " and a tenant";
      why += " (not expired, of this environment, not rate-limited)";
      choice.not_run_why = std::move(why);
    }
    out.push_back(std::move(choice));
  }
  return out;
}

void apply_credential(http::request& req, const openapi::security_scheme& scheme,
                      const credential_view& c) {
  if (scheme.kind == openapi::security_scheme::type::http_bearer) {
    req.add_header("Authorization", "Bearer " + c.value);
  } else {
    req.add_header(scheme.header, c.value);
  }
}

namespace {

void replace_all(std::string& text, const std::string& what, const std::string& with) {
  if (what.empty()) return;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + with.size())) {
    text.replace(at, what.size(), with);
  }
}

/// The signature of a compact JWS ("header.payload.signature"), or "" when
/// `value` is not one: a forged token that keeps it (a claim changed under
/// the old signature) must not let a report rebuild the real token.
std::string jws_signature(const std::string& value) {
  const auto first = value.find('.');
  if (first == std::string::npos) return {};
  const auto second = value.find('.', first + 1);
  if (second == std::string::npos || value.find('.', second + 1) != std::string::npos) return {};
  std::string signature = value.substr(second + 1);
  return signature.size() >= 16 ? signature : std::string();
}

}  // namespace

std::string redact_credentials(const target_view& target, std::string text) {
  for (const auto& c : target.credentials) {
    if (c.value.empty()) continue;
    replace_all(text, c.value, "${" + c.env_reference + "}");
    replace_all(text, jws_signature(c.value), "SIGNATURE-OF-" + c.env_reference);
  }
  return text;
}

http::secret_redactor make_redactor(const openapi::api_spec& spec, const target_view& target) {
  (void)spec;
  http::secret_redactor redactor;
  for (const auto& c : target.credentials) redactor.secret_value(c.value, c.env_reference);
  return redactor;
}

}  // namespace conform::harness
