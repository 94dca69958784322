#include "suites/client/client.hpp"

namespace conform::suites {

void register_client_rules(harness::check_catalogue& catalogue) {
  // In the order reports list them: what each request is, then idempotency,
  // retries, and traversals.
  client::add_request_rules(catalogue);
  client::add_idempotency_rules(catalogue);
  client::add_retry_rules(catalogue);
  client::add_traversal_rules(catalogue);
}

}  // namespace conform::suites
