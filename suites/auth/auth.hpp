#pragma once
// The auth scenarios (see docs/checks.md).

#include "harness/runner/scenario.hpp"

namespace conform::suites {

/// Adds the auth scenario to `registry`.
void register_auth_scenarios(runner::scenario_registry& registry);

}  // namespace conform::suites
