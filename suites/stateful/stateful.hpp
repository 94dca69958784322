#pragma once
// The checks of the stateful phase's chains (see docs/checks.md).

#include "harness/catalogue.hpp"

namespace conform::suites {

/// Adds the checks the engine's stateful phase judges on its chains to
/// `catalogue` (a scenario whose `chain_checks` makes their observer).
void register_stateful_checks(harness::check_catalogue& catalogue);

}  // namespace conform::suites
