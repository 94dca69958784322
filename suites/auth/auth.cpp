#include "suites/auth/auth.hpp"

namespace conform::suites {

void register_auth_scenarios(runner::scenario_registry& registry) { (void)registry; }

}  // namespace conform::suites
