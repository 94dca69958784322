#include "harness/auth.hpp"

#include <algorithm>

#include "core/base64.hpp"
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
              const profile::credential& c) {
  if (op.access != openapi::access_kind::write || c.role.empty()) return true;
  const auto& ro = scheme.read_only_roles;
  return std::find(ro.begin(), ro.end(), c.role) == ro.end();
}

using scheme_type = openapi::security_scheme::type;

/// True when every alternative of `op` that lists `s` lists other schemes
/// too: a mutualTLS scheme paired so is presented with them, not alone.
bool only_paired(const openapi::operation& op, const openapi::security_scheme& s) {
  bool seen = false;
  for (const auto& alt : op.security) {
    for (const auto& u : alt.schemes) {
      if (u.scheme != &s) continue;
      seen = true;
      if (alt.schemes.size() == 1) return false;
    }
  }
  return seen;
}

/// True when every alternative of `op` that lists `s` also lists a mutualTLS scheme.
bool paired_with_certificate(const openapi::operation& op, const openapi::security_scheme& s) {
  bool seen = false;
  for (const auto& alt : op.security) {
    bool has_s = false, has_tls = false;
    for (const auto& u : alt.schemes) {
      has_s = has_s || u.scheme == &s;
      has_tls = has_tls || (u.scheme && u.scheme->kind == scheme_type::mutual_tls);
    }
    if (!has_s) continue;
    seen = true;
    if (!has_tls) return false;
  }
  return seen;
}

/// Why no client certificate can be presented to `target`, or nullopt.
std::optional<std::string> no_tls(const profile::target& target) {
  if (target.base_url.scheme == http::url_scheme::https) return std::nullopt;
  return "no client certificate can be presented: the target " + target.base_url.to_string() +
         " is not https, and a client certificate travels in the TLS handshake";
}

}  // namespace

bool credential_selector::usable(const profile::credential& c) {
  return !c.expired && !c.other_environment && !c.rate_limited;
}

bool credential_selector::sufficient(const openapi::operation& op,
                                     const openapi::security_scheme& scheme,
                                     const profile::credential& c) {
  if (!c.fits(scheme) || !usable(c)) return false;
  auto needed = op.scopes_for(scheme);
  if (!needed) return false;
  if (!needed->empty()) {
    // Stated scopes, else those an answer proved (a 2xx that needed them).
    const bool stated = c.scopes && has_all(*c.scopes, *needed);
    if (!stated && !(!c.scopes && has_all(c.proven_scopes, *needed))) return false;
  }
  if (!role_may(op, scheme, c)) return false;
  return op.tenant.from == openapi::tenant_context::source::none || !c.tenants.empty();
}

std::vector<std::string> fixtures_needed(const openapi::api_spec& spec,
                                         const openapi::operation& op) {
  std::vector<std::string> out;
  auto add = [&](const std::string& name) {
    if (name != spec.rules.tenant_id_fixture &&
        std::find(out.begin(), out.end(), name) == out.end()) {
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

std::string singular(std::string_view word) {
  std::string w;
  for (const char c : word) {
    w += c == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  auto ends = [&w](std::string_view suffix) {
    return w.size() > suffix.size() + 1 &&
           w.compare(w.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (ends("ies")) return w.substr(0, w.size() - 3) + "y";
  if (ends("sses") || ends("xes") || ends("ches") || ends("shes")) return w.substr(0, w.size() - 2);
  if (ends("s") && !ends("ss") && !ends("us")) return w.substr(0, w.size() - 1);
  return w;
}

std::string fixture_name_for(const openapi::operation& op, const openapi::parameter& p) {
  if (p.resource) return p.resource->fixture;
  std::string lower;
  for (const char c : p.name)
    lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower != "id") return p.name;
  // The static segment before "{id}".
  const std::string marker = "{" + p.name + "}";
  const auto at = op.path.find(marker);
  if (at == std::string::npos || at < 2) return p.name;
  const auto end = at - 1;  // the '/' before it
  const auto start = op.path.rfind('/', end - 1);
  const std::string segment =
      op.path.substr(start == std::string::npos ? 0 : start + 1, end - (start + 1));
  if (segment.empty() || segment.find('{') != std::string::npos) return p.name;
  return singular(segment) + "_id";
}

namespace {

/// True when tenant `t` has every fixture of `fixtures` (always, when none is needed).
bool tenant_has_fixtures(const profile::tenant* t, const std::vector<std::string>& fixtures) {
  return std::all_of(fixtures.begin(), fixtures.end(),
                     [&](const std::string& f) { return t && t->fixtures.count(f) > 0; });
}

/// The one model of an operation sent without a credential (the target does
/// not enforce the description's security, --no-auth): the first tenant with
/// the fixtures, else `shared`, else why none can be run.
auth_choice auth_without_credential(const profile::target& target,
                                    const std::vector<std::string>& fixtures,
                                    const profile::tenant* shared) {
  auth_choice none;
  none.model.name = "none";
  for (const auto& t : target.tenants) {
    if (tenant_has_fixtures(&t, fixtures)) {
      none.tenant = &t;
      break;
    }
  }
  if (!none.tenant) none.tenant = shared;
  if (!none.tenant && !fixtures.empty()) {
    none.not_run_why =
        "no tenant of " + std::string(target.noun()) + " has the fixtures " + core::join(fixtures);
  }
  return none;
}

/// Puts `best` on `choice`: its tenant (else `shared`), whether its role is
/// unverified, and the client certificate it goes with, its own or, for a
/// scheme `paired` with mutualTLS, the first usable one of the target.
void auth_with_credential(auth_choice& choice, const profile::credential& best,
                          const profile::target& target, const openapi::security_scheme& scheme,
                          const profile::tenant* shared, bool role_matters, bool paired) {
  choice.credential = &best;
  choice.model.credential_name = best.name;
  if (!best.tenants.empty()) {
    choice.tenant = best.tenants.front();
    choice.model.tenant_id = choice.tenant->id;
  } else {
    choice.tenant = shared;
  }
  if (role_matters && best.role.empty()) {
    choice.model.unverified = "the role of " + best.name + " is not stated";
  }
  if (best.has_certificate()) {
    choice.certificate = &best;
  } else if (paired) {
    for (const auto& c : target.credentials) {
      if (c.has_certificate() && credential_selector::usable(c)) {
        choice.certificate = &c;
        break;
      }
    }
    if (!choice.certificate) {
      choice.not_run_why = "no client certificate: " + scheme.name +
                           " is required together with a mutualTLS scheme, and no "
                           "credential of " +
                           std::string(target.noun()) + " has certificate and key";
    }
  }
}

/// Why the target has no credential for `scheme` on `op`, whatever it lacks.
std::string auth_shortfall(const openapi::operation& op, const openapi::security_scheme& scheme,
                           const profile::target& target, const std::string& model_name,
                           bool role_matters) {
  auto needed = op.scopes_for(scheme).value_or(std::vector<std::string>{});
  std::string why = std::string(target.noun()) + " has no usable " + model_name + " credential";
  if (!needed.empty()) why += " with scope " + core::join(needed);
  if (role_matters) why += " and a role that may write";
  if (op.tenant.from != openapi::tenant_context::source::none) why += " and a tenant";
  why += " (not expired, of this environment, not rate-limited)";
  return why;
}

}  // namespace

std::vector<auth_choice> credential_selector::auth_models(const openapi::operation& op,
                                                          bool try_unverified) const {
  const profile::target& target = target_;
  std::vector<auth_choice> out;
  const std::vector<std::string> fixtures = fixtures_needed(spec_, op);
  const profile::tenant* const shared = shared_for(op);
  // A target that does not enforce the description's security (--no-auth)
  // is sent every request without a credential.
  if (!asks_credential(op)) {
    out.push_back(auth_without_credential(target, fixtures, shared));
    return out;
  }
  for (const auto* scheme : op.accepted_schemes()) {
    // A mutualTLS scheme listed only beside others goes with their models.
    if (scheme->kind == scheme_type::mutual_tls && only_paired(op, *scheme)) continue;
    auth_choice choice;
    choice.model.name = scheme->label();
    choice.model.scheme = scheme;
    const bool mtls = scheme->kind == scheme_type::mutual_tls;
    const bool paired = !mtls && paired_with_certificate(op, *scheme);
    if (mtls || paired) {
      if (auto why = no_tls(target)) {
        choice.not_run_why = std::move(*why);
        out.push_back(std::move(choice));
        continue;
      }
    }
    if (scheme->kind == openapi::security_scheme::type::http_digest) {
      choice.not_run_why =
          "http digest needs a challenge round trip (WWW-Authenticate), which "
          "Conform does not do";
      out.push_back(std::move(choice));
      continue;
    }
    // The first sufficient credential whose tenant has every fixture the
    // operation names (valid requests need real ids), preferring, where a
    // role matters, one whose role is stated.
    const bool role_matters =
        op.access == openapi::access_kind::write && !scheme->read_only_roles.empty();
    const profile::credential* best = nullptr;
    const profile::credential* sufficient_without_fixtures = nullptr;
    for (const auto& c : target.credentials) {
      if (!sufficient(op, *scheme, c)) continue;
      if (!fixtures.empty() && !tenant_has_fixtures(c.home() ? c.home() : shared, fixtures)) {
        if (!sufficient_without_fixtures) sufficient_without_fixtures = &c;
        continue;
      }
      if (!best || (role_matters && best->role.empty() && !c.role.empty())) best = &c;
      if (!role_matters || !c.role.empty()) break;
    }
    if (!best && try_unverified) {
      if (auto trial = unverified_choice(op, *scheme, fixtures)) {
        out.push_back(std::move(*trial));
        continue;
      }
    }
    if (best) {
      auth_with_credential(choice, *best, target, *scheme, shared, role_matters, paired);
    } else if (mtls) {
      choice.not_run_why = "no client certificate: " + std::string(target.noun()) +
                           " has no usable credential with "
                           "certificate and key for mutualTLS scheme '" +
                           scheme->name + "'";
    } else if (sufficient_without_fixtures) {
      choice.not_run_why = "the tenant of every sufficient " + choice.model.name +
                           " credential lacks a fixture the operation needs (" +
                           core::join(fixtures) + ")";
    } else {
      choice.not_run_why = auth_shortfall(op, *scheme, target, choice.model.name, role_matters);
    }
    out.push_back(std::move(choice));
  }
  return out;
}

std::optional<auth_choice> credential_selector::unverified_choice(
    const openapi::operation& op, const openapi::security_scheme& scheme,
    const std::vector<std::string>& fixtures) const {
  const auto needed = op.scopes_for(scheme).value_or(std::vector<std::string>{});
  const bool role_matters =
      op.access == openapi::access_kind::write && !scheme.read_only_roles.empty();
  const bool tenant_matters = op.tenant.from != openapi::tenant_context::source::none;
  for (const auto& c : target_.credentials) {
    if (!c.fits(scheme) || !usable(c)) continue;
    std::vector<std::string> unknown;
    // Known to lack a scope, or of a read-only role on a write: not tried.
    if (!needed.empty()) {
      std::vector<std::string> have = c.scopes.value_or(std::vector<std::string>{});
      have.insert(have.end(), c.proven_scopes.begin(), c.proven_scopes.end());
      if (!has_all(have, needed)) {
        if (c.scopes) continue;
        unknown.push_back("its scopes are not stated");
      }
    }
    if (!role_may(op, scheme, c)) continue;
    if (role_matters && c.role.empty()) unknown.push_back("its role is not stated");
    if (tenant_matters && c.tenants.empty()) unknown.push_back("no tenant is known for it");
    auth_choice choice;
    choice.model.name = scheme.label();
    choice.model.scheme = &scheme;
    choice.credential = &c;
    choice.model.credential_name = c.name;
    if (!c.tenants.empty()) {
      choice.tenant = c.tenants.front();
      choice.model.tenant_id = choice.tenant->id;
    } else {
      choice.tenant = shared_for(op);
    }
    for (const auto& f : fixtures) {
      if (!choice.tenant || choice.tenant->fixtures.count(f) == 0)
        choice.model.made_up.push_back(f);
    }
    if (!unknown.empty()) {
      choice.model.unverified = c.name + ": " + core::join(unknown, ", ");
    }
    return choice;
  }
  return std::nullopt;
}

std::vector<auth_choice> credential_selector::sufficient_models(
    const openapi::operation& op) const {
  std::vector<auth_choice> out;
  for (auto& choice : auth_models(op)) {
    if (!choice.not_run_why) out.push_back(std::move(choice));
  }
  return out;
}

auth_choice credential_selector::auth_for(const openapi::operation& op,
                                          const profile::credential& c,
                                          const profile::tenant* tenant) const {
  auth_choice choice;
  const openapi::security_scheme* scheme = nullptr;
  for (const auto* s : op.accepted_schemes()) {
    if (c.fits(*s)) scheme = s;
  }
  if (!scheme) scheme = c.scheme_in(spec_);
  choice.model.name = scheme ? scheme->label() : c.kind;
  choice.model.scheme = scheme;
  choice.model.credential_name = c.name;
  choice.credential = &c;
  if (c.has_certificate()) choice.certificate = &c;
  choice.tenant = tenant ? tenant : c.home();
  if (choice.tenant) choice.model.tenant_id = choice.tenant->id;
  if (!choice.tenant) choice.tenant = shared_for(op);
  return choice;
}

void apply_credential(http::request& req, const openapi::security_scheme& scheme,
                      const profile::credential& c) {
  using type = openapi::security_scheme::type;
  switch (scheme.kind) {
    case type::http_bearer:
      req.add_header("Authorization", "Bearer " + c.value.reveal());
      return;
    case type::http_basic:
      req.add_header("Authorization", "Basic " + basic_token(c.value.reveal()));
      return;
    case type::http_digest:
      return;  // never chosen: auth_models says why
    case type::api_key_header:
      req.add_header(scheme.header, c.value.reveal());
      return;
    case type::api_key_query:
      req.target += (req.target.find('?') == std::string::npos ? "?" : "&") +
                    core::percent_encode(scheme.param) + "=" +
                    core::percent_encode(c.value.reveal());
      return;
    case type::api_key_cookie:
      req.add_header("Cookie", scheme.param + "=" + c.value.reveal());
      return;
    case type::mutual_tls:
      req.client_identity = c.name;  // the certificate, in the TLS handshake
      return;
  }
}

void apply_target_headers(http::request& req, const profile::target& target) {
  for (const auto& [name, value] : target.headers) req.set_header(name, value.reveal());
}

std::string basic_token(const std::string& user_password) {
  return core::base64_encode(user_password);
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

std::string redact_credentials(const profile::target& target, std::string text) {
  for (const auto& c : target.credentials) {
    if (c.value.empty()) continue;
    const std::string& value = c.value.reveal();
    replace_all(text, value, "${" + c.value.env_name() + "}");
    replace_all(text, basic_token(value), "${" + c.value.env_name() + "_BASIC64}");
    replace_all(text, core::percent_encode(value), "${" + c.value.env_name() + "}");
    replace_all(text, jws_signature(value), "SIGNATURE-OF-" + c.value.env_name());
  }
  for (const auto& [name, value] : target.headers) {
    replace_all(text, value.reveal(), "${" + value.env_name() + "}");
  }
  return text;
}

http::secret_redactor make_redactor(const profile::target& target) {
  http::secret_redactor redactor;
  for (const auto& c : target.credentials) {
    if (c.value.empty()) continue;
    redactor.secret_value(c.value.reveal(), c.value.env_name());
    // How http basic and an apiKey in the query carry it.
    redactor.secret_value(basic_token(c.value.reveal()), c.value.env_name() + "_BASIC64");
    const std::string encoded = core::percent_encode(c.value.reveal());
    if (encoded != c.value.reveal()) redactor.secret_value(encoded, c.value.env_name());
  }
  for (const auto& [name, value] : target.headers) {
    redactor.secret_value(value.reveal(), value.env_name());
  }
  return redactor;
}

std::string auth_model::label() const {
  if (credential_name.empty()) return name;
  return name + " (" + credential_name + ")";
}

}  // namespace conform::harness
