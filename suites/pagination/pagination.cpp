#include "suites/pagination/pagination.hpp"

namespace conform::suites {

void register_pagination_scenarios(runner::scenario_registry& registry) { (void)registry; }

}  // namespace conform::suites
