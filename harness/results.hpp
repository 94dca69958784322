#pragma once
// The one results sink of a run. Both kinds of checks report here, per
// (operation, auth model, check) cell: how many exchanges passed and failed,
// each failure once per cause (with how often it was seen), and "not run:
// why". Each finding goes to the run's event stream as it is recorded, and
// at the end the sink folds everything into the report's cells, failures and
// not-runs, in a stable order whatever the threads did. Thread-safe.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "harness/listener.hpp"
#include "harness/run_report.hpp"
#include "openapi/model.hpp"

namespace conform::harness {

struct scenario_failure;
class scenario_context;

class results_sink {
 public:
  /// Which kind of check a cell belongs to; the report lists a given
  /// operation's per-exchange cells before its scenario cells.
  enum class origin : std::uint8_t { exchanges, scenarios };

  /// One cell's counters. Its address is stable for the life of the sink,
  /// so counting through a cell_id needs no lock.
  struct cell_state {
    std::string operation_id, method_path, auth, check;
    origin from = origin::exchanges;
    std::atomic<std::uint64_t> passed{0}, failed{0};
    /// Exchanges whose failure rested on an assumption alone (not in `failed`).
    std::atomic<std::uint64_t> contradicted{0};
    std::atomic<std::int64_t> time_ns{0};
    std::optional<std::string> not_run_why;
  };
  using cell_id = cell_state*;

  /// Findings go to `events` as they are recorded.
  results_sink(const openapi::api_spec& spec, listener& events) : spec_(spec), events_(events) {}

  /// The cell of (`op`, `auth`, `check`), made on first use. `op` nullptr
  /// is the run-wide cell of a check (no operation could be chosen).
  cell_id cell(const openapi::operation* op, std::string_view auth, std::string_view check,
               origin from);

  /// The cell judged one more exchange and it held. Lock-free.
  static void pass(cell_id c) { c->passed.fetch_add(1, std::memory_order_relaxed); }
  /// The cell judged one more exchange and it failed (reported or not). Lock-free.
  static void count_failure(cell_id c) { c->failed.fetch_add(1, std::memory_order_relaxed); }
  /// The same for a failure that rests on an assumption of the description
  /// alone (check_verdict::assumptions): counted apart. Lock-free.
  static void count_contradicted(cell_id c) {
    c->contradicted.fetch_add(1, std::memory_order_relaxed);
  }
  /// count_failure or count_contradicted, as the verdict's ground says.
  static void count(cell_id c, const check_verdict& v) {
    if (v.assumptions.empty()) {
      count_failure(c);
    } else {
      count_contradicted(c);
    }
  }
  /// Time spent judging the cell. Lock-free.
  static void add_time(cell_id c, std::chrono::nanoseconds t) {
    c->time_ns.fetch_add(t.count(), std::memory_order_relaxed);
  }
  /// Keeps `f` once per (cell, cause): a new cause is kept and goes to the
  /// listeners; a known one adds `f.occurrences` to the kept one. `order`
  /// places it among the failures of the same operation and origin.
  void report(cell_id c, failure f, std::uint64_t order);
  /// The cell cannot run, and why (the first reason is kept). With `say`,
  /// the reason is also a not-run entry of its own.
  void not_run(cell_id c, std::string why, bool say = true);
  /// A not-run entry for a group of checks ("*") of an operation and auth model.
  void not_run(harness::not_run n);

  /// Scenario side: one more thing judged in the cell, and it held.
  void pass(const openapi::operation& op, std::string_view auth, std::string_view check);
  /// Scenario side: the cell saw `f`; counted, and kept once per cause.
  void fail(const openapi::operation& op, std::string_view auth, std::string_view check,
            const scenario_failure& f, const scenario_context& ctx);
  /// Scenario side: the cell (or with `op` nullptr the whole check) could not run.
  void not_run(const openapi::operation* op, std::string_view auth, std::string_view check,
               std::string why);

  /// Exchanges passed and failed so far over every cell of `check`.
  std::pair<std::uint64_t, std::uint64_t> totals(std::string_view check);

  /// Moves the cells, failures and not-runs into `report`, operations in
  /// spec order, and adds the cells' counts to its counters.
  void fold_into(run_report& report);

 private:
  struct kept_failure {
    failure f;
    origin from;
    std::uint64_t order;
  };
  check_tally tally_of(const cell_state& c) const;

  const openapi::api_spec& spec_;
  listener& events_;
  std::mutex mutex_;
  std::deque<cell_state> cells_;  // a deque: its elements stay put while it grows
  std::map<std::tuple<std::string, std::string, std::string>, cell_id> index_;
  std::map<std::pair<const cell_state*, std::string>, std::size_t> failure_of_cause_;
  std::vector<kept_failure> failures_;
  std::vector<std::pair<origin, harness::not_run>> not_runs_;
  std::uint64_t scenario_order_ = 0;
};

}  // namespace conform::harness
