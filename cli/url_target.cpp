#include "cli/url_target.hpp"

#include <algorithm>
#include <set>

#include "core/base64.hpp"
#include "http/message.hpp"
#include "profile/claims.hpp"

namespace conform::cli {
namespace {

/// True when `name` is the header an operation of the description takes its
/// tenant from (x-tenant-context).
bool tenant_header(const openapi::api_spec& spec, const std::string& name) {
  for (const auto& op : spec.operations) {
    const auto& t = op.tenant;
    if (t.from == openapi::tenant_context::source::header && http::iequals(t.name, name)) {
      return true;
    }
    if (!t.header_name.empty() && http::iequals(t.header_name, name)) return true;
  }
  return false;
}

/// The scheme an --auth-env credential is for: --auth-scheme, else the
/// first scheme an operation accepts, else the description's first.
core::outcome<const openapi::security_scheme*> chosen_scheme(const url_target_options& opts,
                                                             const openapi::api_spec& spec) {
  if (!opts.auth_scheme.empty()) {
    if (const auto* s = spec.find_scheme(opts.auth_scheme)) return s;
    std::string known;
    for (const auto& s : spec.schemes) known += (known.empty() ? "" : ", ") + s->name;
    return core::fail("--auth-scheme: the description has no security scheme '" + opts.auth_scheme +
                      "' (" + (known.empty() ? "it has none" : "it has " + known) + ")");
  }
  for (const auto& op : spec.operations) {
    if (auto accepted = op.accepted_schemes(); !accepted.empty()) return accepted.front();
  }
  if (!spec.schemes.empty()) return spec.schemes.front().get();
  return core::fail(
      "--auth-env: the description declares no security scheme to use the credential with");
}

}  // namespace

std::optional<std::string> check_identities(const http::client_options& opts) {
  for (const auto& id : opts.identities) {
    http::tls_options tls;
    tls.verify = false;  // only the certificate and key are read here
    tls.client_cert_pem = id.cert_pem;
    tls.client_key_pem = id.key_pem;
    const auto made = http::make_tls_context(tls);
    if (!made.ok()) return "credential '" + id.name + "': " + made.error();
  }
  return std::nullopt;
}

core::outcome<profile::target> url_target(const url_target_options& opts,
                                          const openapi::api_spec& spec,
                                          const profile::env_lookup& env) {
  profile::target t;
  t.file = "--url " + opts.url;
  auto parsed = http::parse_url(opts.url);
  if (!parsed.ok()) {
    return core::fail("--url: " + parsed.error);
  }
  t.base_url = std::move(*parsed.value);

  auto add_credential = [&](const openapi::security_scheme& s, profile::secret value,
                            const std::string& name) {
    profile::credential c;
    c.name = name;
    c.kind = s.credential;
    c.scheme = s.name;
    c.value = std::move(value);
    // Its scopes are not stated: the answers say which it holds.
    t.credentials.push_back(std::move(c));
  };

  std::set<std::string> seen;
  std::string tenant_id;  // a -H of the description's tenant header
  for (const auto& h : opts.headers) {
    const auto colon = h.find(':');
    std::string name = colon == std::string::npos ? "" : h.substr(0, colon);
    std::string value = colon == std::string::npos ? "" : h.substr(colon + 1);
    name.erase(0, name.find_first_not_of(" \t"));
    name.erase(name.find_last_not_of(" \t") + 1);
    value.erase(0, value.find_first_not_of(" \t"));
    if (name.empty() || value.empty()) {
      // Never echo the value: it may be a secret.
      return core::fail("-H takes 'Name: value' with a name and a value");
    }
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (!seen.insert(lower).second) {
      return core::fail("-H: header '" + name + "' given twice");
    }
    std::string env_name = "CONFORM_HEADER_";
    for (const char c : name)
      env_name += std::isalnum(static_cast<unsigned char>(c))
                      ? std::toupper(static_cast<unsigned char>(c))
                      : '_';
    // The header of a scheme: the credential of that scheme.
    const openapi::security_scheme* scheme = nullptr;
    std::string secret_value = value;
    for (const auto& s : spec.schemes) {
      if (s->header.empty() || !http::iequals(s->header, name)) continue;
      using type = openapi::security_scheme::type;
      if (s->kind == type::http_bearer && value.rfind("Bearer ", 0) == 0) {
        secret_value = value.substr(7);
      } else if (s->kind == type::http_basic && value.rfind("Basic ", 0) == 0) {
        auto decoded = core::base64_decode(value.substr(6));
        if (!decoded) continue;
        secret_value = *decoded;
      } else if (s->kind != type::api_key_header) {
        continue;
      }
      scheme = s.get();
      break;
    }
    if (scheme) {
      add_credential(*scheme, profile::secret(secret_value, env_name, false), "-H " + name);
    } else if (tenant_header(spec, name)) {
      // The tenant the credential acts for: the harness sends the header
      // where the description takes the tenant from it.
      tenant_id = value;
    } else {
      t.headers.emplace_back(name, profile::secret(value, env_name, false));
    }
  }

  // --auth-env, then each further (variable, scheme) pair.
  std::vector<std::pair<std::string, std::string>> from_env;
  if (!opts.auth_env.empty()) {
    from_env.emplace_back(opts.auth_env, opts.auth_scheme);
  } else if (!opts.auth_scheme.empty()) {
    return core::fail("--auth-scheme names the scheme of --auth-env, which is not given");
  }
  from_env.insert(from_env.end(), opts.more_auth.begin(), opts.more_auth.end());
  std::set<std::string> variables;
  for (const auto& [variable, scheme_key] : from_env) {
    url_target_options one = opts;
    one.auth_scheme = scheme_key;
    const auto chosen = chosen_scheme(one, spec);
    if (!chosen) return core::fail(chosen.error());
    const openapi::security_scheme* s = *chosen;
    if (!variables.insert(variable).second) {
      return core::fail("--auth-env: variable " + variable + " given twice");
    }
    const auto found = env ? env(variable) : std::nullopt;
    if (!found || found->empty()) {
      return core::fail("--auth-env: environment variable " + variable + " is " +
                        (found ? "empty" : "not set"));
    }
    add_credential(*s, profile::secret(*found, variable, true), "$" + variable);
  }
  if (!tenant_id.empty()) {
    profile::tenant named;
    named.name = "tenant-" + tenant_id;
    named.id = tenant_id;
    const profile::tenant& added = t.add_tenant(std::move(named));
    for (auto& c : t.credentials) c.tenants.push_back(&added);
    t.notes.push_back("tenant " + tenant_id + ": named by -H (the description's tenant header)");
  }
  // A JWT's claims fill its role and tenants where the description names them.
  profile::learn_from_tokens(t, spec);
  return t;
}

}  // namespace conform::cli
