#pragma once
// Which of the tenants a run knows each credential reaches, learned from
// answers: a read that takes its tenant from a header or the path, sent for
// each tenant the credential is not known to reach, once it answered 2xx for
// one it does. A 2xx adds the tenant to the credential; a 403 says it does
// not reach it; any other answer leaves it unknown, and the phase says so.

#include <vector>

#include "harness/stateful/walk.hpp"

namespace conform::harness::stateful {

/// Probes, for each actor with a credential, every tenant of the session's
/// working target that it is not known to reach.
void probe_tenants(session& s, const std::vector<actor>& actors);

}  // namespace conform::harness::stateful
