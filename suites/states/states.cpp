#include "suites/states/states.hpp"

namespace conform::suites {

void register_states_scenarios(runner::scenario_registry& registry) { (void)registry; }

}  // namespace conform::suites
