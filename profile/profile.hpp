#pragma once
// The target model: where the target is, which tenants and fixtures exist
// there, and which credentials reach them, as the engine and the suites read
// it. Loaded from a profile (the YAML format of /work/shared/user-contract.md)
// by loader.hpp; typed past the edge.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "http/client.hpp"
#include "http/url.hpp"
#include "core/source.hpp"
#include "openapi/model.hpp"
#include "profile/secret.hpp"

namespace conform::profile {

using openapi::credential_kind;

/// The environment a server or a key belongs to.
enum class environment : std::uint8_t { sandbox, production };
/// "sandbox" or "production".
std::string_view to_string(environment e);
/// Parses "sandbox" / "production".
std::optional<environment> parse_environment(std::string_view s);

/// One tenant of the target and the ids of resources that exist in it.
struct tenant {
  std::string name;                             // the profile's key ("t1")
  std::string id;                               // the tenant id the API uses ("101")
  std::map<std::string, std::string> fixtures;  // fixture name -> resource id (names are free)
  /// The fixtures (by name) a run may write to in safe mode (`writable:`);
  /// the others are read-only unless the target is disposable.
  std::set<std::string> writable;
  core::source_pos pos;
};

/// One credential and what is known about it. The secret goes on the wire
/// and nowhere else; reports name it by its variable (`value.env_name()`).
struct credential {
  std::string name;  // free text, shown in reports
  /// What the profile's `scheme:` names: an x-credential label of the
  /// description ("org_token"), or, for schemes without one, a kind of
  /// openapi::credential_kind ("bearer", "api_key"). bind() sets it to the
  /// scheme's `kind_name()` when `scheme:` gave a scheme's key.
  std::string kind;
  /// The security scheme it is for, by its components.securitySchemes key,
  /// when the profile named one ("" = any scheme `kind` names). bind() finds
  /// it in the description.
  std::string scheme;
  secret value;
  /// The tenants it reaches, in the order given: its own first.
  std::vector<const tenant*> tenants;
  /// Granted scopes: nullopt = not stated (unknown); empty = none granted.
  std::optional<std::vector<std::string>> scopes;
  /// Scopes an answer proved granted (a 2xx of an operation that needs
  /// them) while `scopes` is not stated: enough to call it sufficient for
  /// such an operation, never a statement of everything it holds.
  std::vector<std::string> proven_scopes;
  std::string role;                // one of its scheme's x-roles values ("viewer"); "" = not stated
  bool expired = false;            // known to be expired: must get 401
  bool other_environment = false;  // a key of the other environment than the target's
  bool rate_limited = false;       // meant to hit 429 quickly
  /// Mutual TLS: the client certificate (PEM) presented in the TLS handshake
  /// with this credential, and its private key, a secret; both empty when it
  /// presents none. A `mutual_tls` credential has nothing else.
  std::string certificate_pem;
  secret key;
  /// Keys the format does not define, kept as text (a warning was given).
  std::map<std::string, std::string> extra;
  core::source_pos pos;
  /// Where `scheme`, `tenant`/`tenants` and `role` are written (bind()'s
  /// errors point there); unknown when absent.
  core::source_pos scheme_pos, tenants_pos, role_pos;

  /// Its own tenant (the first it reaches), or nullptr.
  const tenant* home() const { return tenants.empty() ? nullptr : tenants.front(); }
  /// True when it is a credential for `s`: that scheme by name, else one
  /// `kind` names (its label, or its kind when it has none); a mutualTLS
  /// scheme takes any credential with a certificate.
  bool fits(const openapi::security_scheme& s) const {
    if (s.credential == credential_kind::mutual_tls && has_certificate()) return true;
    return scheme.empty() ? s.named_by(kind) : scheme == s.name;
  }
  /// The scheme of `spec` it is for (by key, else the first `kind` names), or nullptr.
  const openapi::security_scheme* scheme_in(const openapi::api_spec& spec) const {
    return scheme.empty() ? spec.find_scheme_named_by(kind) : spec.find_scheme(scheme);
  }
  /// True when its scheme in `spec` is a JWT (bearerFormat: JWT).
  bool is_jwt(const openapi::api_spec& spec) const {
    const openapi::security_scheme* s = scheme_in(spec);
    return s != nullptr && s->is_jwt();
  }
  /// True when it presents a client certificate.
  bool has_certificate() const { return !certificate_pem.empty(); }
};

/// The target a run tests: where it is, which tenants and fixtures exist
/// there, and which credentials reach them. Move-only: credentials point at
/// its tenants.
struct target {
  /// What the target was made from: the words "not run" reasons use for it.
  enum class origin : std::uint8_t {
    profile,    // --profile FILE
    url,        // --url BASE with -H and --auth-env, no profile
    reference,  // the in-process reference server (the profile it writes)
  };
  std::string file;  // where it was loaded from (or the display name)
  origin made_from = origin::profile;
  http::url base_url;
  environment env = environment::sandbox;
  /// `disposable: true`: the target's data may be changed by any run (a
  /// throwaway server); otherwise runs write only to what they create.
  bool disposable = false;
  /// False when the user says the target does not enforce the description's
  /// security (`conform run --no-auth`: a server run with authentication
  /// off): requests go without a credential, and a refusal is not expected.
  bool enforces_security = true;
  std::vector<tenant> tenants;  // in document order
  /// Ids that belong to no tenant: those a run learned from operations
  /// without a tenant context, which fill the parameters of such operations
  /// as a tenant's fixtures fill its own (its name and id are empty).
  tenant shared;
  std::vector<credential> credentials;  // in document order
  /// Headers sent on every request (`conform run -H`), values kept secret.
  std::vector<std::pair<std::string, secret>> headers;
  /// What was learned rather than stated (a token's claims read unverified,
  /// tenants and ids a discovery found), one line each, for the run header.
  std::vector<std::string> notes;
  /// `ca_file`: certificate authorities (PEM) trusted beside the system's
  /// for an https target (a private CA, a test server); "" when none.
  std::string ca_file;

  target() = default;
  target(target&&) = default;
  target& operator=(target&&) = default;
  target(const target&) = delete;
  target& operator=(const target&) = delete;

  /// A deep copy whose credentials point at the copy's tenants.
  target clone() const;
  /// Adds `t` (or finds the tenant of its id) and returns it; credentials
  /// keep pointing at the right tenants when the list grows.
  tenant& add_tenant(tenant t);
  /// Room for `n` tenants in all, so that adding up to that many moves none
  /// (credentials keep pointing at the right tenants either way).
  void reserve_tenants(std::size_t n);
  /// The tenant whose API id is `id`, or nullptr.
  const tenant* find_tenant_id(std::string_view id) const;
  /// The target as a reason names it: "the profile", "the target (--url)",
  /// "the in-process reference".
  std::string_view noun() const;
};

/// The client certificates of `t`'s credentials, each named after its
/// credential, for the transport (http::client_options::identities).
std::vector<http::client_identity> client_identities(const target& t);

}  // namespace conform::profile
