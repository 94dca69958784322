#include "suites/workflows/workflows.hpp"

namespace conform::suites {

void register_workflows_scenarios(runner::scenario_registry& registry) { (void)registry; }

}  // namespace conform::suites
