#pragma once
// The checks of the tenants scenario, one function each (registered in tenants.cpp).

#include "harness/scenario.hpp"

namespace conform::suites::tenants {

inline constexpr std::string_view header_enforcement_check = "tenant_header_enforcement";
inline constexpr std::string_view context_required_check = "tenant_context_required";
inline constexpr std::string_view foreign_resource_check = "tenant_foreign_resource";
inline constexpr std::string_view list_isolation_check = "tenant_list_isolation";

/// The tenant header naming an unreachable tenant or no tenant: 403.
void run_header_enforcement(harness::scenario_context& ctx, harness::results_sink& results);
/// Multi-tenant callers leaving the tenant header out: x-tenant-context's missing answer.
void run_context_required(harness::scenario_context& ctx, harness::results_sink& results);
/// Another tenant's resource id answers like an unknown one: 404 with its code.
void run_foreign_resource(harness::scenario_context& ctx, harness::results_sink& results);
/// No item of one tenant's list appears in another tenant's.
void run_list_isolation(harness::scenario_context& ctx, harness::results_sink& results);

}  // namespace conform::suites::tenants
