#pragma once
// The pagination scenarios (see docs/checks.md).

#include "harness/scenario.hpp"

namespace conform::suites {

/// Adds the pagination scenario to `registry`.
void register_pagination_scenarios(harness::scenario_registry& registry);

}  // namespace conform::suites
