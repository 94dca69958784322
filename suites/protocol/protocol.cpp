#include "suites/protocol/protocol.hpp"

namespace conform::suites {

void register_protocol_scenarios(runner::scenario_registry& registry) { (void)registry; }

}  // namespace conform::suites
