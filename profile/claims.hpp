#pragma once
// What a credential's own token says about it. Where the description names
// a JWT's claims (x-roles.claim for the role, x-tenant-claim for the tenants)
// and a credential of that scheme is a JWT, its payload is read, NOT
// verified (the token is the user's own; the target verifies it), to fill
// what the profile or the command line left unstated.

#include <optional>
#include <string>
#include <vector>

#include "openapi/model.hpp"
#include "profile/profile.hpp"

namespace conform::profile {

/// The claims of a JWT's payload that the description names.
struct token_claims {
  std::optional<std::string> role;   // the x-roles claim, when present and a string
  std::vector<std::string> tenants;  // the x-tenant-claim value(s), as text
  bool tenants_present = false;      // the claim was there (possibly empty)
};

/// Reads the payload of `token` (compact JWS: header.payload.signature,
/// base64url) for `scheme`'s claims; nullopt when it is not a JWT with a
/// JSON object payload.
std::optional<token_claims> read_claims(const std::string& token,
                                        const openapi::security_scheme& scheme);

/// Fills, for each JWT credential of `t` whose role or tenants are not
/// stated, what its token's claims say (tenants are added to `t` by id, named
/// "tenant-<id>"). Returns one note per credential it filled, saying that the
/// claims were read unverified.
std::vector<std::string> learn_from_tokens(target& t, const openapi::api_spec& spec);

}  // namespace conform::profile
