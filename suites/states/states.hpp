#pragma once
// The states scenarios (see docs/checks.md).

#include "harness/catalogue.hpp"

namespace conform::suites {

/// Adds the states scenario to `catalogue`.
void register_states_scenarios(harness::check_catalogue& catalogue);

}  // namespace conform::suites
