#pragma once
// The target profile: where the target is, which tenants and fixtures exist
// there, and which credentials reach them (the YAML format is in
// /work/shared/user-contract.md). Loaded by loader.hpp; typed past the edge.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http/curl.hpp"
#include "http/url.hpp"
#include "profile/secret.hpp"
#include "openapi/model.hpp"
#include "core/source.hpp"

namespace conform::profile {

using openapi::credential_kind;

/// The environment a server or a key belongs to.
enum class environment : std::uint8_t { sandbox, production };
/// "sandbox" or "production".
std::string_view to_string(environment e);
/// Parses "sandbox" / "production".
std::optional<environment> parse_environment(std::string_view s);

/// A JWT's application role.
enum class jwt_role : std::uint8_t { admin, member, viewer };
/// "admin", "member" or "viewer".
std::string_view to_string(jwt_role r);
/// Parses "admin" / "member" / "viewer".
std::optional<jwt_role> parse_role(std::string_view s);

/// "jwt", "tenant_key" or "partner_key", as the profile spells them.
std::string_view scheme_name(credential_kind k);
/// Parses a profile scheme name.
std::optional<credential_kind> parse_scheme(std::string_view s);

/// One tenant of the target and the ids of resources that exist in it.
struct tenant {
  std::string name;                             // the profile's key ("t1")
  std::string id;                               // the tenant id the API uses ("101")
  std::map<std::string, std::string> fixtures;  // fixture name -> resource id (names are free)
  core::source_pos pos;

  /// The fixture's id, or nullptr.
  const std::string* fixture(std::string_view fixture_name) const;
};

/// One credential and what is known about it.
struct credential {
  std::string name;  // free text, shown in reports
  credential_kind scheme = credential_kind::tenant_key;
  secret value;
  std::vector<std::size_t> tenants;  // indices into profile::tenants, in the order given
  /// Granted scopes: nullopt = not stated (unknown); empty = none granted.
  std::optional<std::vector<std::string>> scopes;
  std::optional<jwt_role> role;    // jwt only; nullopt = not stated
  bool expired = false;            // known to be expired: must get 401
  std::optional<environment> env;  // the key's environment; nullopt = the profile's
  bool rate_limited = false;       // meant to hit 429 quickly
  /// Keys the format does not define, kept as text (a warning was given).
  std::map<std::string, std::string> extra;
  core::source_pos pos;

  /// True when the scopes are stated and include `scope`.
  bool grants(std::string_view scope) const;
};

/// What a check needs from the profile; the fields left at their defaults
/// ask for an ordinary credential (valid, of the profile's environment, not
/// rate-limited).
struct credential_need {
  std::optional<credential_kind> scheme;    // any scheme when empty
  std::vector<std::string> scopes;          // every one granted (scopes must be stated)
  std::vector<std::string> lacking_scopes;  // none of these granted (scopes must be stated)
  std::optional<jwt_role> role;             // jwt with this role
  bool expired = false;                     // an expired credential instead of a valid one
  bool other_environment = false;           // a key of the other environment instead
  bool rate_limited = false;                // a rate-limited credential instead
  bool second_tenant = false;               // a tenant the credential cannot reach must exist
  std::vector<std::string> fixtures;        // fixtures in the credential's first tenant

  /// "a tenant_key credential granting [contacts:write]", for reports.
  std::string describe() const;
};

/// A loaded profile.
struct profile {
  std::string file;  // where it was loaded from (or the display name)
  http::url base_url;
  environment env = environment::sandbox;
  std::vector<tenant> tenants;          // in document order
  std::vector<credential> credentials;  // in document order

  /// The tenant named `name` (the profile key), or nullptr.
  const tenant* find_tenant(std::string_view name) const;
  /// The tenant whose API id is `id`, or nullptr.
  const tenant* find_tenant_by_id(std::string_view id) const;
  /// The credential named `name`, or nullptr.
  const credential* find_credential(std::string_view name) const;
  /// Every credential of `scheme`, in document order.
  std::vector<const credential*> credentials_by_scheme(credential_kind scheme) const;
  /// The tenants `c` reaches, in the order given.
  std::vector<const tenant*> tenants_of(const credential& c) const;
  /// `c`'s first tenant (its own, for tenant keys), or nullptr.
  const tenant* home_tenant(const credential& c) const;
  /// Fixture `fixture_name` in `c`'s first tenant, or nullptr.
  const std::string* fixture(const credential& c, std::string_view fixture_name) const;
  /// A tenant `c` cannot reach (the "second tenant" of isolation checks), or nullptr.
  const tenant* other_tenant(const credential& c) const;
  /// The environment `c` belongs to (its own, else the profile's).
  environment environment_of(const credential& c) const;
  /// Credentials meeting `need`, in document order.
  std::vector<const credential*> matching(const credential_need& need) const;
  /// Why no credential meets `need` (for "not run: why"); empty when one does.
  std::vector<std::string> missing(const credential_need& need) const;
};

/// A redactor that shows every credential's secret as its variable ("${CONFORM_JWT_VIEWER}").
http::secret_redactor make_redactor(const profile& p);

}  // namespace conform::profile
