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

/// A -H credential: its scheme and the secret it carries, or no scheme.
struct header_credential {
  const openapi::security_scheme* scheme = nullptr;
  std::string secret;
};

/// The scheme whose header `name` is, and the secret `value` carries for it
/// (a bearer token without "Bearer ", a basic pair decoded). Several schemes
/// may share a header (an http bearer and an apiKey both in Authorization):
/// `auth_scheme` (--auth-scheme) decides when it names one of them, else a
/// value that starts with an auth-scheme name ("Bearer ", "Basic ",
/// case-insensitive: RFC 9110 section 11.1) goes to that http scheme, and
/// any other value to an apiKey scheme of the header.
header_credential header_scheme(const openapi::api_spec& spec, const std::string& auth_scheme,
                                const std::string& name, const std::string& value) {
  using type = openapi::security_scheme::type;
  auto starts = [&value](std::string_view prefix) {
    return value.size() > prefix.size() && http::iequals(value.substr(0, prefix.size()), prefix);
  };
  // What `value` carries for `s`, or nullopt when it cannot be for `s`.
  auto secret_for = [&](const openapi::security_scheme& s) -> std::optional<std::string> {
    if (s.kind == type::http_bearer) {
      if (starts("Bearer ")) return value.substr(7);
      return std::nullopt;
    }
    if (s.kind == type::http_basic) {
      if (!starts("Basic ")) return std::nullopt;
      return core::base64_decode(value.substr(6));
    }
    if (s.kind == type::api_key_header) return value;
    return std::nullopt;
  };
  std::vector<const openapi::security_scheme*> of_header;
  for (const auto& s : spec.schemes) {
    if (!s->header.empty() && http::iequals(s->header, name)) of_header.push_back(s.get());
  }
  for (const auto* s : of_header) {
    if (s->name != auth_scheme) continue;
    // Named by --auth-scheme: the value as that scheme carries it, else whole.
    auto secret = secret_for(*s);
    return {s, secret ? *secret : value};
  }
  // The http schemes first: their prefix says the value is theirs.
  for (const bool http_kind : {true, false}) {
    for (const auto* s : of_header) {
      if ((s->kind == type::api_key_header) == http_kind) continue;
      if (auto secret = secret_for(*s)) return {s, *secret};
    }
  }
  return {};
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
  t.made_from = profile::target::origin::url;
  auto parsed = http::parse_url(opts.url);
  if (!parsed.ok()) {
    return core::fail("--url: " + parsed.error);
  }
  t.base_url = std::move(*parsed.value);

  auto add_credential = [&](const openapi::security_scheme& s, profile::secret value,
                            const std::string& name) {
    profile::credential c;
    c.name = name;
    c.kind = s.kind_name();
    c.scheme = s.name;
    c.value = std::move(value);
    // Its scopes are not stated: the answers say which it holds.
    t.credentials.push_back(std::move(c));
  };

  std::set<std::string> seen;
  std::string tenant_id;          // a -H of the description's tenant header
  bool used_auth_scheme = false;  // a -H credential filed under --auth-scheme
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
    const auto [scheme, secret_value] = header_scheme(spec, opts.auth_scheme, name, value);
    if (scheme) {
      used_auth_scheme = used_auth_scheme || scheme->name == opts.auth_scheme;
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
  } else if (!opts.auth_scheme.empty() && !used_auth_scheme) {
    if (const auto chosen = chosen_scheme(opts, spec); !chosen) return core::fail(chosen.error());
    return core::fail(
        "--auth-scheme names the scheme of --auth-env or of a -H credential, and "
        "neither is given (no -H names the header of " +
        opts.auth_scheme + ")");
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
