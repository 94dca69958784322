#pragma once
// The tenants scenarios (see docs/checks.md).

#include "harness/runner/scenario.hpp"

namespace conform::suites {

/// Adds the tenants scenario to `registry`.
void register_tenants_scenarios(runner::scenario_registry& registry);

}  // namespace conform::suites
