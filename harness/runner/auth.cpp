#include "harness/runner/auth.hpp"

#include <algorithm>

#include "harness/profile/profile.hpp"

namespace conform::runner {
namespace {

bool has_all(const std::vector<std::string>& have, const std::vector<std::string>& need) {
  return std::all_of(need.begin(), need.end(), [&](const std::string& s) {
    return std::find(have.begin(), have.end(), s) != have.end();
  });
}

bool role_may(const spec::operation& op, const spec::security_scheme& scheme,
              const credential_view& c) {
  if (op.access != spec::access_kind::write || c.role.empty()) return true;
  const auto& ro = scheme.read_only_roles;
  return std::find(ro.begin(), ro.end(), c.role) == ro.end();
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
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

bool is_sufficient(const spec::operation& op, const spec::security_scheme& scheme,
                   const credential_view& c) {
  if (c.kind != scheme.credential || c.expired || c.other_environment || c.rate_limited) {
    return false;
  }
  auto needed = op.scopes_for(scheme);
  if (!needed) return false;
  if (!needed->empty() && (!c.scopes || !has_all(*c.scopes, *needed))) return false;
  if (!role_may(op, scheme, c)) return false;
  return op.tenant.from == spec::tenant_context::source::none || !c.tenants.empty();
}

std::vector<auth_choice> auth_models_for(const spec::api_spec& spec, const spec::operation& op,
                                         const target_view& target) {
  (void)spec;
  std::vector<auth_choice> out;
  if (!op.needs_credentials()) {
    auth_choice none;
    none.model.name = "none";
    if (!target.tenants.empty()) none.tenant = &target.tenants.front();
    out.push_back(std::move(none));
    return out;
  }
  for (const auto* scheme : op.accepted_schemes()) {
    auth_choice choice;
    choice.model.name = std::string(spec::to_string(scheme->credential));
    choice.model.scheme = scheme;
    for (const auto& c : target.credentials) {
      if (!is_sufficient(op, *scheme, c)) continue;
      choice.credential = &c;
      choice.model.credential_name = c.name;
      if (!c.tenants.empty()) {
        choice.tenant = c.tenants.front();
        choice.model.tenant_id = choice.tenant->id;
      }
      break;
    }
    if (!choice.credential) {
      auto needed = op.scopes_for(*scheme).value_or(std::vector<std::string>{});
      std::string why = "the profile has no usable " + choice.model.name + " credential";
      if (!needed.empty()) why += " with scope " + join(needed);
      if (op.access == spec::access_kind::write && !scheme->read_only_roles.empty()) {
        why += " and a role that may write";
      }
      if (op.tenant.from != spec::tenant_context::source::none) why += " and a tenant";
      why += " (not expired, of this environment, not rate-limited)";
      choice.not_run_why = std::move(why);
    }
    out.push_back(std::move(choice));
  }
  return out;
}

void apply_credential(http::request& req, const spec::security_scheme& scheme,
                      const credential_view& c) {
  if (scheme.kind == spec::security_scheme::type::http_bearer) {
    req.add_header("Authorization", "Bearer " + c.value);
  } else {
    req.add_header(scheme.header, c.value);
  }
}

http::secret_redactor make_redactor(const spec::api_spec& spec, const target_view& target) {
  (void)spec;
  http::secret_redactor redactor;
  for (const auto& c : target.credentials) redactor.secret_value(c.value, c.env_reference);
  return redactor;
}

}  // namespace conform::runner
