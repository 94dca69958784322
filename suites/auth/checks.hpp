#pragma once
// The checks of the auth scenario, one function each (registered in auth.cpp).

#include "harness/scenario.hpp"

namespace conform::suites::auth {

inline constexpr std::string_view unauthenticated_check = "auth_unauthenticated";
inline constexpr std::string_view credential_rejected_check = "auth_credential_rejected";
inline constexpr std::string_view jwt_tampering_check = "auth_jwt_tampering";
inline constexpr std::string_view jwt_only_check = "auth_jwt_only";
inline constexpr std::string_view scope_matrix_check = "auth_scope_matrix";

/// No credential, an unknown one of the scheme's form, a malformed one: 401.
void run_unauthenticated(harness::scenario_context& ctx, harness::results_sink& results);
/// Expired and other-environment credentials of the profile: 401.
void run_credential_rejected(harness::scenario_context& ctx, harness::results_sink& results);
/// A usable JWT tampered four ways: 401.
void run_jwt_tampering(harness::scenario_context& ctx, harness::results_sink& results);
/// JWT-only operations called with every usable key: x-jwt-only's answer.
void run_jwt_only(harness::scenario_context& ctx, harness::results_sink& results);
/// Every operation with every usable credential, judged from the spec alone.
void run_scope_matrix(harness::scenario_context& ctx, harness::results_sink& results);

}  // namespace conform::suites::auth
