#pragma once
// The tenants scenarios (see docs/checks.md).

#include "harness/catalogue.hpp"

namespace conform::suites {

/// Adds the tenants scenario to `catalogue`.
void register_tenants_scenarios(harness::check_catalogue& catalogue);

}  // namespace conform::suites
