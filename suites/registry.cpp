#include "suites/registry.hpp"

#include "suites/auth/auth.hpp"
#include "suites/client/client.hpp"
#include "suites/idempotency/idempotency.hpp"
#include "suites/pagination/pagination.hpp"
#include "suites/protocol/protocol.hpp"
#include "suites/response/response_checks.hpp"
#include "suites/stateful/stateful.hpp"
#include "suites/states/states.hpp"
#include "suites/tenants/tenants.hpp"
#include "suites/workflows/workflows.hpp"

namespace conform::suites {

harness::check_catalogue builtin_checks() {
  harness::check_catalogue catalogue;
  register_response_checks(catalogue);
  // The stateful checks: judged by the engine's stateful phase, which runs
  // before everything else (it learns the ids the rest uses).
  register_stateful_checks(catalogue);
  // Scenarios, in the order they run: the read-only concerns first, then
  // those that move state (idempotent effects, state machines, workflows),
  // then the rate limit, which leaves its credential throttled for a while.
  // Pagination leads: its page sizes follow the lists' lengths, so it walks
  // the data the target starts with, not what the suites before it created
  // (the auth scope matrix creates resources). That also makes a shard's
  // walks (`--shard K/N`, each suite whole in one shard) the whole run's.
  register_pagination_scenarios(catalogue);
  register_auth_scenarios(catalogue);
  register_tenants_scenarios(catalogue);
  register_idempotency_scenarios(catalogue);
  register_states_scenarios(catalogue);
  register_workflows_scenarios(catalogue);
  register_protocol_scenarios(catalogue);
  // Client rules: conform certify judges a client's recorded traffic with them.
  register_client_rules(catalogue);
  return catalogue;
}

bool judges_credentials(const harness::scenario& s) {
  // The names register_auth_scenarios and register_tenants_scenarios give.
  return s.name == "auth" || s.name == "tenants";
}

}  // namespace conform::suites
