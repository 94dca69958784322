#pragma once
// The auth scenarios (see docs/checks.md).

#include "harness/scenario.hpp"

namespace conform::suites {

/// Adds the auth scenario to `registry`.
void register_auth_scenarios(harness::scenario_registry& registry);

}  // namespace conform::suites
