#pragma once
// The client rules: traffic checks that judge how a partner's client
// behaves toward the API (docs/certification.md), read from the description
// (x-idempotency, x-retry, x-rate-limit, x-pagination, x-tenant-context,
// x-key-prefixes and the operations' parameters and bodies).

#include "harness/catalogue.hpp"

namespace conform::suites {

/// Adds every client rule to `catalogue`.
void register_client_rules(harness::check_catalogue& catalogue);

}  // namespace conform::suites

namespace conform::suites::client {

// One function per concern, each adding its rules (client.cpp calls them).
void add_idempotency_rules(harness::check_catalogue& catalogue);
void add_retry_rules(harness::check_catalogue& catalogue);
void add_traversal_rules(harness::check_catalogue& catalogue);
void add_request_rules(harness::check_catalogue& catalogue);

}  // namespace conform::suites::client
