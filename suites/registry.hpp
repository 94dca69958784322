#pragma once
// Every built-in check, grouped by concern in suites/<concern>/.

#include "harness/check.hpp"
#include "harness/scenario.hpp"

namespace conform::suites {

/// A registry with every built-in check, in the order reports list them.
harness::check_registry builtin_checks();

/// A registry with every built-in scenario (checks of more than one
/// exchange), in the order they run.
harness::scenario_registry builtin_scenarios();

}  // namespace conform::suites
