#pragma once
// Fixtures a walk can make rather than find: a resource in a given state
// (a state machine's `fixtures`), one a precondition fails on, one in the
// state an x-resource's `fixture_state` names. Each is made fresh by sending
// again, as the same actor, the chain that led a resource there in the walk
// (create -> import -> launch for a running campaign; the create alone for
// a draft, or for a campaign without contacts), so that no resource the
// target had is handed out, and none the walk moved on.

#include <vector>

#include "harness/stateful/walk.hpp"

namespace conform::harness::stateful {

/// Adds to `a`'s tenant (in the session's working target) the fixtures it
/// lacks that a chain of `log` can make fresh.
void prepare_fixtures(session& s, const actor& a, const std::vector<step>& log);

}  // namespace conform::harness::stateful
