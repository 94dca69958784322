#pragma once
// The pagination scenarios (see docs/checks.md).

#include "harness/catalogue.hpp"

namespace conform::suites {

/// Adds the pagination scenario to `catalogue`.
void register_pagination_scenarios(harness::check_catalogue& catalogue);

}  // namespace conform::suites
