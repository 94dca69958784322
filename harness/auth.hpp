#pragma once
// Auth models: for each operation and each scheme it accepts, the profile
// credential that is sufficient for it (scheme, scopes, role, tenant,
// environment), or why there is none. Also how a credential is put on a
// request and how it is named in a curl command.

#include <optional>
#include <string>
#include <vector>

#include "http/curl.hpp"
#include "http/message.hpp"
#include "openapi/model.hpp"
#include "profile/profile.hpp"

namespace conform::harness {

/// How a request was authenticated: a scheme of the operation and the
/// profile credential used for it, or none for an operation without security.
struct auth_model {
  std::string name;  // the scheme's label ("org_token", "petstore_auth"), or "none"
  const openapi::security_scheme* scheme = nullptr;  // nullptr for "none"
  std::string credential_name;
  std::string tenant_id;  // the effective tenant, when the operation has one
  /// Why the credential's rights here are not known (its scopes or role
  /// not stated, no tenant known for it), or "" when the description and
  /// the profile say it is sufficient. Requests still go out: a 401 or 403
  /// is then what the target teaches about the credential, not a failure.
  std::string unverified;
  /// The fixtures the operation's requests name that no tenant of the
  /// profile has: those ids are made up, so a refusal of them proves nothing.
  std::vector<std::string> made_up;

  /// "org_token (org-admin)", or "none".
  std::string label() const;
};

/// One auth model of an operation: usable, or not and why.
struct auth_choice {
  auth_model model;
  const profile::credential* credential = nullptr;
  /// The credential whose client certificate the requests present (mutual
  /// TLS): `credential` itself when it has one, else the profile's for an
  /// alternative that pairs a mutualTLS scheme with this one; nullptr: none.
  const profile::credential* certificate = nullptr;
  const profile::tenant* tenant = nullptr;  // the effective tenant (fixtures come from it)
  std::optional<std::string> not_run_why;
};

/// The profile fixtures `op` names: its path parameters' x-resource and the
/// x-fixture properties of its bodies (x-tenant-id-fixture, the tenant's own
/// id, aside).
std::vector<std::string> fixtures_needed(const openapi::api_spec& spec,
                                         const openapi::operation& op);

/// The profile fixture that fills path parameter `p` of `op`: its
/// x-resource fixture; else its own name ("petId"), or for a parameter
/// named just `id` the singular of the path segment before it and "_id"
/// (`/pets/{id}`: "pet_id"). The user contract: a path parameter is filled
/// from the fixture of the same name, or from one the description maps to it.
std::string fixture_name_for(const openapi::operation& op, const openapi::parameter& p);

/// "pet" for "pets", "category" for "categories", "purchase_order" for
/// "purchase-orders", lower-cased, '-' as '_'.
std::string singular(std::string_view word);

/// Which profile credential a request goes out with: the one service the
/// engine and the scenarios ask, so that both judge "sufficient" alike.
class credential_selector {
 public:
  /// `spec` and `target` must outlive the selector.
  credential_selector(const openapi::api_spec& spec, const profile::target& target)
      : spec_(spec), target_(target) {}

  const profile::target& target() const { return target_; }

  /// True when a request of `op` goes with a credential: the description
  /// asks for one, and the target enforces it (not `--no-auth`).
  bool asks_credential(const openapi::operation& op) const {
    return op.needs_credentials() && target_.enforces_security;
  }

  /// Not expired, of the target's environment, not rate-limited.
  static bool usable(const profile::credential& c);
  /// True when `c` should be let through `op` under `scheme` by the
  /// description: the right kind, every needed scope, a role that may do it,
  /// a tenant, and usable.
  static bool sufficient(const openapi::operation& op, const openapi::security_scheme& scheme,
                         const profile::credential& c);

  /// The auth models of `op`: "none" for an operation without security, else
  /// one per accepted scheme with the first sufficient credential whose tenant
  /// has the fixtures the operation needs, or why there is none. With
  /// `try_unverified`, where no credential is known to be sufficient, one
  /// that is not known to be insufficient (its scopes, role or tenant not
  /// stated, or its tenant lacking fixtures) is taken, and the model says
  /// why it is unverified (`auth_model::unverified`, `made_up`).
  std::vector<auth_choice> auth_models(const openapi::operation& op,
                                       bool try_unverified = false) const;
  /// The usable ones of auth_models(op).
  std::vector<auth_choice> sufficient_models(const openapi::operation& op) const;
  /// The auth model `op` gets with `c` acting for `tenant` (nullptr: its
  /// own), sufficient or not. The scheme is the one of `c`'s kind that `op`
  /// accepts, else the description's scheme of that kind (nullptr: none).
  auth_choice auth_for(const openapi::operation& op, const profile::credential& c,
                       const profile::tenant* tenant = nullptr) const;

 private:
  /// The first usable credential for `scheme` not known to be insufficient
  /// for `op`, as an unverified auth model; nullopt when there is none.
  std::optional<auth_choice> unverified_choice(const openapi::operation& op,
                                               const openapi::security_scheme& scheme,
                                               const std::vector<std::string>& fixtures) const;
  /// For an operation without a tenant context, the target's ids of no
  /// tenant (profile::target::shared); else nullptr.
  const profile::tenant* shared_for(const openapi::operation& op) const {
    return op.tenant.from == openapi::tenant_context::source::none ? &target_.shared : nullptr;
  }

  const openapi::api_spec& spec_;
  const profile::target& target_;
};

/// Puts the credential on `req` the way `scheme` says (Authorization: Bearer
/// or Basic, the API key header, query parameter or cookie).
void apply_credential(http::request& req, const openapi::security_scheme& scheme,
                      const profile::credential& c);

/// Puts the target's own headers (`conform run -H`) on `req`.
void apply_target_headers(http::request& req, const profile::target& target);

/// base64 of "user:password", as http basic sends it.
std::string basic_token(const std::string& user_password);

/// `text` with every credential value of `target` replaced by its ${ENV}
/// reference: for what a server echoes back into a report.
std::string redact_credentials(const profile::target& target, std::string text);

/// A redactor that names every credential of the target by its env reference.
http::secret_redactor make_redactor(const profile::target& target);

}  // namespace conform::harness
