#pragma once
// The tenants scenarios (see docs/checks.md).

#include "harness/scenario.hpp"

namespace conform::suites {

/// Adds the tenants scenario to `registry`.
void register_tenants_scenarios(harness::scenario_registry& registry);

}  // namespace conform::suites
