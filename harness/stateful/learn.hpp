#pragma once
// What a step teaches (stateful/walk.hpp): the tenants a credential reaches
// (a tenant id it was let through with), the scopes it holds (a 2xx of an
// operation that needs them), the ids that exist in its tenant (fixtures,
// from the ids a 2xx answer was given), the states resources were seen in,
// and which resources a write moved. Everything goes into the session's
// working target; nothing overwrites what the profile states.

#include "harness/stateful/walk.hpp"

namespace conform::harness::stateful {

/// Learns from `st`, a step sent as `a`.
void learn(session& s, const actor& a, const step& st);

/// True when `op` creates a resource: a POST to a path that ends in a static
/// segment, whose 2xx answer names the record's id.
bool creates(const openapi::operation& op);

/// The id a create's answer names ("" when none): the record's id.
std::string created_id(const step& st);

}  // namespace conform::harness::stateful
