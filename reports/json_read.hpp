#pragma once
// Reads a JSON run report (docs/report-format.md, format version 1) back into
// a run_report: what baselines (`conform run --baseline`) and run diffs
// (`conform report diff`) compare. Every error says what was wrong and where:
// the file and the JSON pointer of the offending value.

#include <optional>
#include <string>
#include <string_view>

#include "core/outcome.hpp"
#include "harness/run_report.hpp"

namespace conform::reports {

/// Parses the text of a JSON report; `source` names it in errors. The error
/// says why ("<source>: <pointer>: <what>") when it is not a report.
/// Reads the run's facts (with the enabled checks and the shard), the cells
/// (with their time), the failures, the not-run list, the counts and the
/// timings: everything `conform report merge` adds up.
core::outcome<harness::run_report> parse_json_report(std::string_view text,
                                                     const std::string& source);

/// Reads and parses the JSON report in file `path`.
core::outcome<harness::run_report> read_json_report(const std::string& path);

}  // namespace conform::reports
