#pragma once
// The idempotency scenarios (see docs/checks.md).

#include "harness/runner/scenario.hpp"

namespace conform::suites {

/// Adds the idempotency scenario to `registry`.
void register_idempotency_scenarios(runner::scenario_registry& registry);

}  // namespace conform::suites
