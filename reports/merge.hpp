#pragma once
// The reports of a run's shards (`conform run --shard K/N`) merged into the
// report of the whole run (`conform report merge`). The shards must be of
// one run: the same seed, description, target, examples, checks and conform
// version, each shard given once, and every shard of N given (a missing one
// would leave part of the run unproved, never a silent pass).

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/outcome.hpp"
#include "harness/run_report.hpp"

namespace conform::reports {

/// A shard's report and the name it goes by in errors (its file).
struct named_report {
  std::string name;
  harness::run_report report;
};

/// The merged report, or nullopt with `error` set (one line naming the files).
/// Cells and failures of the same key add up (passes, failures, time,
/// occurrences); not-run entries are kept once. Counts add up; the wall time
/// is the longest shard's (shards run side by side), the other timings add up.
/// The cells keep every shard's order: operations in the description's order,
/// each auth model's cells together; where no shard orders two auth models of
/// an operation, the merged order may differ from a whole run's.
/// `operation_order`: the description's operationIds in order (empty when
/// it could not be read; then the shards' orders alone place operations, and
/// two that no shard orders keep the order they were first met in).
/// The error says why the reports are not the shards of one run.
core::outcome<harness::run_report> merge_reports(const std::vector<named_report>& shards,
                                                 const std::vector<std::string>& operation_order);

}  // namespace conform::reports
