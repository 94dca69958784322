#pragma once
// The protocol scenarios (see docs/checks.md).

#include "harness/scenario.hpp"

namespace conform::suites {

/// Adds the protocol scenario to `registry`.
void register_protocol_scenarios(harness::scenario_registry& registry);

}  // namespace conform::suites
