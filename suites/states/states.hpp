#pragma once
// The states scenarios (see docs/checks.md).

#include "harness/scenario.hpp"

namespace conform::suites {

/// Adds the states scenario to `registry`.
void register_states_scenarios(harness::scenario_registry& registry);

}  // namespace conform::suites
