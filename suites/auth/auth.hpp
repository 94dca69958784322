#pragma once
// The auth scenarios (see docs/checks.md).

#include "harness/catalogue.hpp"

namespace conform::suites {

/// Adds the auth scenario to `catalogue`.
void register_auth_scenarios(harness::check_catalogue& catalogue);

}  // namespace conform::suites
