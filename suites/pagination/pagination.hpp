#pragma once
// The pagination scenarios (see docs/checks.md).

#include "harness/runner/scenario.hpp"

namespace conform::suites {

/// Adds the pagination scenario to `registry`.
void register_pagination_scenarios(runner::scenario_registry& registry);

}  // namespace conform::suites
