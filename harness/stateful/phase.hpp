#pragma once
// The stateful phase: before the plan of the rest of the run, walk the
// description's producer-consumer graph (stateful/graph.hpp) under every
// auth model, learn what the target teaches (tenants a credential reaches,
// scopes it holds, ids that exist, states resources are in), let the checks
// of the chains (the catalogue's, suites/stateful/) judge each step, and
// hand the run a target with what was learned. `conform profile discover` runs the same
// walk without the checks and writes the learned target as a profile.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "harness/reach.hpp"
#include "harness/results.hpp"
#include "harness/scenario.hpp"
#include "http/client.hpp"
#include "openapi/model.hpp"
#include "profile/profile.hpp"

namespace conform::harness::stateful {

struct phase_options {
  std::uint64_t seed = 0;
  std::vector<const openapi::operation*> operations;  // the run's, in spec order
  http::url base;
  http::client_options client;
  unsigned lanes = 2;
  /// Where the checks report (nullptr: no checks, a discovery), and which run.
  results_sink* results = nullptr;
  check_enabled enabled;
  /// The checks that judge the chains (scenario::chain_checks), each making
  /// the observer that sees every step.
  std::vector<chain_checks_factory> checks;
  unsigned max_shrinks = 64;
  /// Steps that write act only on what the walk created (a discovery
  /// leaves the target's own data as it found it).
  bool only_created = false;
  /// Every usable credential walks (a discovery), not one per scheme.
  bool every_credential = false;
  reach_tracker* reach = nullptr;
  /// Whether checks judge the steps' answers, so that reach counts them as
  /// judged requests; else apart (operation_reach::unjudged_succeeded).
  bool judged = true;
  /// What every send of the phase passes (the run's); nullptr: none.
  write_guard* guard = nullptr;
  /// Sees every request the phase sends, and its answer (`--record`).
  scenario_context::observer observe;
};

struct phase_outcome {
  /// The target with what was learned added (tenants, fixtures, scopes).
  profile::target learned;
  /// Every response link of the description and whether it was followed.
  std::vector<link_use> links;
  /// One line per thing learned, for the run header.
  std::vector<std::string> notes;
  std::uint64_t requests = 0, retries_429 = 0;
  /// The last answer per (credential name, operationId), a 2xx kept once seen.
  std::map<std::pair<std::string, std::string>, unsigned> answers;
};

/// Runs the phase against the target `target` (not changed).
phase_outcome run_phase(const openapi::api_spec& spec, const profile::target& target,
                        const phase_options& options);

}  // namespace conform::harness::stateful
