#pragma once
// The seeded credentials (keys derived from the seed, JWTs signed at start)
// and their lookup by secret.

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "reference/detail/store.hpp"

namespace conform::reference::detail {

/// The three credential models of the description (section 5).
enum class scheme : std::uint8_t { jwt, tenant_key, partner_key };

/// "jwt", "tenant_key", "partner_key".
std::string_view to_string(scheme s);

/// One seeded credential, as the profile lists it.
struct credential_record {
  std::string name;  // profile name, e.g. "t1-all"
  scheme kind = scheme::tenant_key;
  std::string secret;
  id_t tenant_id = 0;                // tenant key
  id_t partner_id = 0;               // partner key
  std::vector<std::string> tenants;  // profile tenant keys ("t1") it reaches
  std::set<std::string> scopes;      // keys
  std::string role;                  // jwt
  bool expired = false;              // jwt
  std::string environment;           // "sandbox" | "production"
  bool rate_limited = false;
};

/// Every scope a tenant key may hold by default (no opt-in ones).
const std::set<std::string>& default_tenant_scopes();
/// Every scope a partner key may hold by default (no opt-in ones).
const std::set<std::string>& default_partner_scopes();

/// The seeded credentials.
class credential_registry {
 public:
  /// Derives every key from `seed` and signs the JWTs with `jwt_secret` at `now`.
  credential_registry(std::uint64_t seed, const std::string& environment,
                      const std::string& jwt_secret, std::int64_t now);
  /// The key (tenant or partner) with this secret, or nullptr.
  const credential_record* find_key(std::string_view secret) const;
  /// The credential named `name`, or nullptr.
  const credential_record* find_name(std::string_view name) const;
  /// All credentials in profile order.
  const std::vector<credential_record>& all() const { return all_; }

 private:
  std::vector<credential_record> all_;
  std::unordered_map<std::string, std::size_t> by_secret_;
};

}  // namespace conform::reference::detail
