#include "suites/tenants/tenants.hpp"

namespace conform::suites {

void register_tenants_scenarios(runner::scenario_registry& registry) { (void)registry; }

}  // namespace conform::suites
