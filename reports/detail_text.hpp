#pragma once
// Small text helpers shared by the report writers.

#include <boost/json/value.hpp>

#include <chrono>
#include <string>
#include <string_view>

#include "core/outcome.hpp"
#include "harness/run_report.hpp"

namespace conform::reports::detail {

/// `text` for a terminal or a Markdown page: bytes that are not UTF-8, and
/// control characters other than tab and line feed, as the text `\xNN`.
std::string shown(std::string_view text);

/// Every string of `v` (keys too) made valid UTF-8 (`\xNN` for a byte that
/// is not), so that a report stays valid JSON whatever a server sent.
void make_utf8(boost::json::value& v);

/// Seconds with millisecond precision: "1.234".
std::string seconds(std::chrono::nanoseconds d);

/// The `conform run` line that reproduces failure `f` of the run `info`
/// describes (a scenario's is not narrowed to its operation).
std::string reproduce_command(const harness::failure& f, const harness::run_info& info);

}  // namespace conform::reports::detail
