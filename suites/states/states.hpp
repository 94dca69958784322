#pragma once
// The states scenarios (see docs/checks.md).

#include "harness/runner/scenario.hpp"

namespace conform::suites {

/// Adds the states scenario to `registry`.
void register_states_scenarios(runner::scenario_registry& registry);

}  // namespace conform::suites
