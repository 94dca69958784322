#pragma once
// The protocol scenarios (see docs/checks.md).

#include "harness/catalogue.hpp"

namespace conform::suites {

/// Adds the protocol scenario to `catalogue`.
void register_protocol_scenarios(harness::check_catalogue& catalogue);

}  // namespace conform::suites
