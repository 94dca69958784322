#pragma once
// What the auth and tenants scenarios share: which profile credentials are
// usable, what a refusal must look like according to the description, ids
// no server knows, and requests that cannot move the profile's fixtures.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/text.hpp"
#include "harness/scenario.hpp"

namespace conform::suites::auth {

/// The scheme of `op` that a profile's `scheme: kind` names (its x-credential
/// label, or its kind when it has none), or nullptr.
const openapi::security_scheme* accepted_scheme(const openapi::operation& op,
                                                std::string_view kind);

/// The scheme of `op` that is a JWT (bearerFormat: JWT), or nullptr.
const openapi::security_scheme* accepted_jwt_scheme(const openapi::operation& op);

/// The scheme of `op` that credential `c` is for, or nullptr.
const openapi::security_scheme* accepted_scheme(const openapi::operation& op,
                                                const profile::credential& c);

/// The error codes `op` documents for `status` (empty: none documented).
std::vector<std::string> documented_codes(const openapi::operation& op, int status);

/// A refusal the description allows: `status`, with one of `codes` when
/// there are any.
struct expected_refusal {
  int status = 0;
  std::vector<std::string> codes;
  /// Another status accepted as well (0: none), with its own codes: 401 and
  /// 403 where the description does not say which is which (x-auth-refusals).
  int also_status = 0;
  std::vector<std::string> also_codes;

  bool matches(const harness::probe& p) const;
  /// "401", "401 with code A or B", "401 or 403".
  std::string text() const;
};

/// The refusal `op` documents for `status`, minus the codes in `excluded`.
expected_refusal refusal(const openapi::operation& op, int status,
                         const std::vector<std::string>& excluded = {});

/// Why a credential is refused, for the 401-versus-403 rule.
enum class refusal_kind : std::uint8_t {
  unauthenticated,  // no credential, or an unknown, malformed, expired or forged one
  forbidden,        // a valid credential the operation does not accept
};

/// The refusal of `kind` on `op`: the status x-auth-refusals names for it
/// (401 unauthenticated, 403 forbidden by RFC 9110's reading); where the
/// description does not name one, 401 and 403 alike, each with its codes.
expected_refusal auth_refusal(const openapi::api_spec& spec, const openapi::operation& op,
                              refusal_kind kind, const std::vector<std::string>& excluded = {});

/// What a probe's answer was, without ids: "2xx", "401 <code>", "no response".
std::string outcome_class(const harness::probe& p);

/// `n` lower-case hex digits, the same for the same seed and salt.
std::string seeded_hex(std::uint64_t seed, std::string_view salt, std::size_t n);

/// An id shaped like `like` that no server holds: a long decimal number for
/// a decimal id, else the same length and character classes, from the seed.
std::string unknown_id(std::string_view like, std::uint64_t seed, std::string_view salt);

/// A valid request for `op` under `auth` whose sending cannot move a fixture
/// of the profile: when `op` moves a state machine (x-transition), the id of
/// the resource it moves is one no server holds. Credentials, scope, role and
/// tenant context are judged before that id (docs/checks.md), so refusals
/// still show.
struct safe_request {
  std::optional<generators::generated_request> request;
  std::string why;  // when there is no request
  /// The auth model the request was made with (its tenant may be a copy).
  harness::auth_choice auth;
  std::shared_ptr<profile::tenant> tenant_copy;  // keeps `auth.tenant` alive
};
safe_request make_safe_request(const harness::scenario_context& ctx, const openapi::operation& op,
                               const harness::auth_choice& auth, std::string_view salt);

/// The header naming the effective tenant of `op` (x-tenant-context), or ""
/// when the operation reads none.
std::string tenant_header(const openapi::operation& op);

using core::join;

}  // namespace conform::suites::auth
