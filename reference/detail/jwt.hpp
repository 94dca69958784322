#pragma once
// HS256 user-session JWTs (D2.1): signing for the seeded tokens, verification
// for every request that carries `Authorization: Bearer`.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conform::reference::detail {

/// The claims a user-session JWT carries (D2.1).
struct jwt_claims {
  std::string sub;
  std::int64_t exp = 0;
  std::vector<std::string> tenant_ids;
  std::string role;  // admin | member | viewer
};

/// Leniencies that only the faults switch on.
struct jwt_leniency {
  bool accept_expired = false;
  bool accept_alg_none = false;
};

/// A signed compact HS256 token of `claims`.
std::string sign_jwt(const jwt_claims& claims, std::string_view secret);
/// A token with header {"alg":"none"} and no signature (for tests).
std::string unsigned_jwt(const jwt_claims& claims);
/// The claims of a valid token, or nullopt when it is malformed, not HS256,
/// badly signed, expired at `now`, or lacks a well-formed claim.
std::optional<jwt_claims> verify_jwt(std::string_view token, std::string_view secret,
                                     std::int64_t now, jwt_leniency leniency = {});

}  // namespace conform::reference::detail
