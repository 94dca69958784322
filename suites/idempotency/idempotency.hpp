#pragma once
// The idempotency scenarios (see docs/checks.md).

#include "harness/catalogue.hpp"

namespace conform::suites {

/// Adds the idempotency scenario to `catalogue`.
void register_idempotency_scenarios(harness::check_catalogue& catalogue);

}  // namespace conform::suites
