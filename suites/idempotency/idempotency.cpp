#include "suites/idempotency/idempotency.hpp"

namespace conform::suites {

void register_idempotency_scenarios(runner::scenario_registry& registry) { (void)registry; }

}  // namespace conform::suites
