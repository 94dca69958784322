#pragma once
// The idempotency scenarios (see docs/checks.md).

#include "harness/scenario.hpp"

namespace conform::suites {

/// Adds the idempotency scenario to `registry`.
void register_idempotency_scenarios(harness::scenario_registry& registry);

}  // namespace conform::suites
