#pragma once
// Comparing the failures of two runs: what a baseline (`conform run
// --baseline`) and a run diff (`conform report diff`) report. A failure is
// identified by a stable key, operation, auth model, check and normalised
// cause, so that ids, ports and times that change from run to run do not make
// the same fault look new (docs/report-format.md, "Failure keys").

#include <boost/json/value.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "harness/run_report.hpp"

namespace conform::reports {

/// `cause` with what changes between runs replaced: URL ports by <port>,
/// UUIDs by <uuid>, request-id-like tokens (letters, '_', then a part with a
/// digit: "req_8f3a2c") by "<letters>_<id>", hex tokens of 8+ characters with
/// a digit by <hex>, digit runs of 4+ digits, and of 3 digits outside
/// 100-599 (so HTTP statuses stay), by <n>.
std::string normalise_cause(std::string_view cause);

/// "<operation> | <auth model> | <check> | <normalised cause>".
std::string failure_key(const harness::failure& f);

/// True when a re-send did not reproduce the failure (its `seen` says so).
bool is_flaky(const harness::failure& f);

/// The failures of a new run against an older one (or a baseline).
struct run_diff {
  std::vector<harness::failure> new_failures;   // in NEW only, reproduced
  std::vector<harness::failure> fixed;          // in OLD only (OLD's failure)
  std::vector<harness::failure> still_failing;  // in both, reproduced (NEW's failure)
  std::vector<harness::failure> flaky;          // in NEW, not reproduced by a re-send
  /// NEW ran with --strict-assumptions: a new failure that contradicts an
  /// assumption of the description counts as new like any other.
  bool strict_assumptions = false;
  /// The new failures that fail the comparison: the sourced ones, and under
  /// strict_assumptions those that contradict an assumption too.
  std::size_t failing_new() const;
  /// Exit status of a comparison: 1 when something failing is new, 0 otherwise.
  int exit_code() const { return failing_new() == 0 ? 0 : 1; }
};

/// Compares by failure_key; each list in the order of its run.
run_diff compare(const std::vector<harness::failure>& old_failures,
                 const std::vector<harness::failure>& new_failures);

/// The same, NEW's strictness (run_info::strict_assumptions) carried over.
run_diff compare(const harness::run_report& old_report, const harness::run_report& new_report);

/// The diff as text: a section per class, a line per failure, then totals.
/// `known` names still-failing ones "known" (a baseline) instead of "still failing".
std::string render_diff_text(const run_diff& d, bool known = false);

/// The diff as JSON: {"new": [...], "fixed": [...], "still_failing": [...],
/// "flaky": [...], "counts": {...}}, each failure with its key.
boost::json::value diff_json(const run_diff& d);

}  // namespace conform::reports
