#pragma once
// Auth models: for each operation and each scheme it accepts, the profile
// credential that is sufficient for it (scheme, scopes, role, tenant,
// environment), or why there is none. Also how a credential is put on a
// request and how it is named in a curl command.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "http/curl.hpp"
#include "http/message.hpp"
#include "openapi/model.hpp"

namespace conform::profile {
struct credential;
struct profile;
}  // namespace conform::profile

namespace conform::harness {

/// How a request was authenticated: a scheme of the operation and the
/// profile credential used for it, or none for an operation without security.
struct auth_model {
  std::string name;                                  // "jwt", "tenant_key", "partner_key", "none"
  const openapi::security_scheme* scheme = nullptr;  // nullptr for "none"
  const profile::credential* credential = nullptr;   // nullptr for "none"
  std::string credential_name;
  std::string tenant_id;  // the effective tenant, when the operation has one

  /// "tenant_key (tenant-all)", or "none".
  std::string label() const;
};

/// A profile tenant as the runner needs it.
struct tenant_view {
  std::string name;
  std::string id;
  std::map<std::string, std::string> fixtures;
};

/// A profile credential as the runner needs it. `value` is the secret: it goes
/// on the wire and nowhere else; reports name it by `env_reference`.
struct credential_view {
  std::string name;
  openapi::credential_kind kind = openapi::credential_kind::tenant_key;
  std::vector<const tenant_view*> tenants;         // in profile order
  std::optional<std::vector<std::string>> scopes;  // nullopt: not stated
  std::string role;                                // jwt; empty: not stated
  bool expired = false;
  bool other_environment = false;
  bool rate_limited = false;
  std::string value;
  std::string env_reference;  // "CONFORM_TENANT_ALL" (no '$')
};

/// The profile's tenants and credentials, flattened for the runner.
struct target_view {
  std::string base_url;
  std::string environment;
  std::vector<tenant_view> tenants;
  std::vector<credential_view> credentials;
};

/// Builds the view of a loaded profile (resolving secrets already resolved by the loader).
target_view make_target_view(const profile::profile& p);

/// One auth model of an operation: usable, or not and why.
struct auth_choice {
  auth_model model;
  const credential_view* credential = nullptr;
  const tenant_view* tenant = nullptr;  // the effective tenant (fixtures come from it)
  std::optional<std::string> not_run_why;
};

/// The profile fixtures `op` names: its path parameters' x-resource and the
/// x-fixture properties of its bodies ("tenant_id", the tenant's own id, aside).
std::vector<std::string> fixtures_needed(const openapi::operation& op);

/// The auth models of `op`: "none" for an operation without security, else
/// one per accepted scheme with the first sufficient credential of the profile.
std::vector<auth_choice> auth_models_for(const openapi::api_spec& spec,
                                         const openapi::operation& op, const target_view& target);

/// True when `c` should be let through `op` under `scheme` by the
/// description: the right kind, every needed scope, a role that may do it, a
/// tenant, and usable (not expired, this environment, not rate-limited).
bool is_sufficient(const openapi::operation& op, const openapi::security_scheme& scheme,
                   const credential_view& c);

/// Puts the credential on `req` the way `scheme` says (Authorization: Bearer,
/// or the API key header).
void apply_credential(http::request& req, const openapi::security_scheme& scheme,
                      const credential_view& c);

/// `text` with every credential value of `target` replaced by its ${ENV}
/// reference: for what a server echoes back into a report.
std::string redact_credentials(const target_view& target, std::string text);

/// A redactor that names every credential of the target by its env reference.
http::secret_redactor make_redactor(const openapi::api_spec& spec, const target_view& target);

}  // namespace conform::harness
