#include "suites/auth/auth.hpp"

#include "suites/auth/checks.hpp"

namespace conform::suites {

void register_auth_scenarios(harness::check_catalogue& catalogue) {
  namespace c = auth;
  harness::scenario s;
  s.name = "auth";
  s.checks = {
      {std::string(c::unauthenticated_check),
       "per operation and accepted scheme: no credential, an unknown one of the scheme's form "
       "(environment key prefix, or a JWT signed with another key), a malformed one; expects the "
       "operation's 401 with a documented 401 code",
       "OpenAPI security; RFC 9110 section 15.5.2 (401)"},
      {std::string(c::credential_rejected_check),
       "each profile credential marked expired or of the other environment, on the operations "
       "accepting its kind; expects 401 with a documented 401 code",
       "x-key-prefixes; RFC 7519 section 4.1.4 (exp)"},
      {std::string(c::jwt_tampering_check),
       "a usable JWT of the profile with its signature replaced, its signature stripped, alg none, "
       "or a claim changed under the old signature; expects 401 with a documented 401 code",
       "bearerFormat: JWT; RFC 7515 (JWS signatures)"},
      {std::string(c::jwt_only_check),
       "operations marked x-jwt-only, called with every usable tenant and partner key; expects "
       "x-jwt-only's status and error code",
       "x-jwt-only"},
      {std::string(c::scope_matrix_check),
       "every operation with every usable credential: a kind not accepted, a missing scope or a "
       "read-only role writing expects 403 (x-jwt-only's answer for keys on a JWT-only "
       "operation); a sufficient credential expects neither 401 nor 403",
       "OpenAPI security scopes; x-roles; the permission matrix"},
  };
  s.run = [](harness::scenario_context& ctx, harness::results_sink& results,
             const harness::check_enabled& enabled) {
    if (enabled(c::unauthenticated_check)) c::run_unauthenticated(ctx, results);
    if (enabled(c::credential_rejected_check)) c::run_credential_rejected(ctx, results);
    if (enabled(c::jwt_tampering_check)) c::run_jwt_tampering(ctx, results);
    if (enabled(c::jwt_only_check)) c::run_jwt_only(ctx, results);
    if (enabled(c::scope_matrix_check)) c::run_scope_matrix(ctx, results);
  };
  catalogue.add(std::move(s));
}

}  // namespace conform::suites
