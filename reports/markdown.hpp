#pragma once
// A Markdown summary of a run, for CI pages (GitHub's $GITHUB_STEP_SUMMARY):
// the verdict, the counts, and the failures, new ones only when a baseline
// was given, each with its `conform run` line and curl command. Curl commands
// name secrets as ${ENV}, as in every report.

#include <string>

#include "core/outcome.hpp"
#include "harness/run_report.hpp"
#include "reports/diff.hpp"

namespace conform::reports {

/// The summary of `report`; with `baseline` (the run compared with it), the
/// new failures in full and the known and fixed ones by key.
std::string render_markdown(const harness::run_report& report, const run_diff* baseline);

/// The summary without a baseline (the "markdown" format of --report).
std::string render_markdown(const harness::run_report& report);

}  // namespace conform::reports
