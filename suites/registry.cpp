#include "suites/registry.hpp"

#include "suites/auth/auth.hpp"
#include "suites/idempotency/idempotency.hpp"
#include "suites/pagination/pagination.hpp"
#include "suites/protocol/protocol.hpp"
#include "suites/response/response_checks.hpp"
#include "suites/states/states.hpp"
#include "suites/tenants/tenants.hpp"
#include "suites/workflows/workflows.hpp"

namespace conform::suites {

harness::check_registry builtin_checks() {
  harness::check_registry registry;
  register_response_checks(registry);
  return registry;
}

harness::scenario_registry builtin_scenarios() {
  harness::scenario_registry registry;
  // In the order they run: the read-only concerns first, then those that
  // move state (idempotent effects, state machines, workflows), then the
  // rate limit, which leaves its credential throttled for a while.
  register_auth_scenarios(registry);
  register_tenants_scenarios(registry);
  register_pagination_scenarios(registry);
  register_idempotency_scenarios(registry);
  register_states_scenarios(registry);
  register_workflows_scenarios(registry);
  register_protocol_scenarios(registry);
  return registry;
}

}  // namespace conform::suites
