#pragma once
// The run: from the description and the target, a plan of operations x auth
// models x modes x examples, each request generated from a seed, sent, and
// checked; failures shrunk to a minimal request and reported once per
// (operation, check, cause). The same seed and target send the same
// requests, whatever the number of workers.

#include <chrono>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "http/client.hpp"
#include "harness/auth.hpp"
#include "harness/catalogue.hpp"
#include "harness/listener.hpp"
#include "harness/run_report.hpp"
#include "openapi/model.hpp"

namespace conform::harness {

struct run_config {
  std::uint64_t seed = 0;
  std::uint32_t examples = 10;  // per operation, auth model and mode
  bool coverage = true;         // one request per constraint before the examples
  /// The stateful phase (harness/stateful/): chains along the description's
  /// links before the plan, whose learned ids, tenants and scopes the rest
  /// of the run uses. `conform run` turns it on (--no-stateful: off).
  bool stateful = false;
  /// Operations the user says only read (`--read-only`): safe mode sends
  /// them although their method may write (an RPC-style POST that reads).
  std::set<const openapi::operation*> read_only;
  unsigned max_shrinks = 64;  // requests spent shrinking one failure at most
  /// Time spent shrinking one failure at most, its confirming re-send
  /// included; a request is never waited for beyond it. 0: no bound.
  std::chrono::milliseconds shrink_time_per_failure{20000};
  /// Time the shrinking phase spends at most; failures it does not reach are
  /// reported as first seen (not re-sent, not shrunk). nullopt: as long as
  /// the requests before it took, and at least 30 s.
  std::optional<std::chrono::milliseconds> shrink_time;
  std::vector<const openapi::operation*> operations;  // in spec order; the filter already applied
  check_selection checks;                             // from the catalogue
  unsigned scenario_lanes = 4;                        // connections scenarios may send on at once
  /// Threads that drive the client's connections (one per worker) in the
  /// main phase, each keeping its share of them in flight at once
  /// (http::run_cooperatively). 0: one per core, at most one per worker.
  unsigned threads = 0;
  std::vector<std::string> workflow_files;  // Arazzo documents for the workflows scenario
  /// `--shard K/N` (1 <= K <= N): only this shard's part of the work; 0/0 is
  /// the whole run. The (operation, auth model) pairs of the whole plan,
  /// sorted by operationId and auth model label, are dealt round-robin (the
  /// i-th, from 0, to shard i mod N + 1); so are the selected scenario suites,
  /// each whole, in catalogue order. Every request's seed comes from the run
  /// seed and its cell's identity (example_seed), never from its place in the
  /// plan, so the N shards together send the requests of the whole run.
  std::uint32_t shard_index = 0, shard_count = 0;
  run_info info;  // written into the report as is (seed, target, ...)
  /// "not run" entries the run reports before it starts: the operations the
  /// description's errors kept out of it (`--skip-invalid-operations`).
  std::vector<not_run> not_run_before;
  /// Cells known not to run before the run starts, each with why: the
  /// checks of credentials on every operation whose security `--no-auth`
  /// set aside. Tallied as "not run", said once by `not_run_before`.
  struct cell_not_run {
    const openapi::operation* op = nullptr;
    std::string auth_model;
    std::string check;
    std::string why;
  };
  std::vector<cell_not_run> cells_not_run;
};

/// Runs the plan against `client`'s target and returns the report; events go
/// to `events` as they happen. Never throws for what the target answers.
run_report run(const openapi::api_spec& spec, const profile::target& target,
               const run_config& config, http::client& client, listener& events);

/// The per-example seed: a hash of the run seed and the example's identity.
std::uint64_t example_seed(std::uint64_t run_seed, std::string_view operation_id,
                           std::string_view auth_model, request_kind kind, std::uint32_t example);

}  // namespace conform::harness
