#pragma once
// Small text helpers shared by the report writers.

#include <chrono>
#include <string>
#include <string_view>

#include "harness/outcome.hpp"

namespace conform::reports::detail {

/// `text` escaped for XML character data and attribute values.
std::string xml_escape(std::string_view text);

/// Seconds with millisecond precision: "1.234".
std::string seconds(std::chrono::nanoseconds d);

/// Writes `content` to `path`; false with `error` set on failure.
bool write_file(const std::string& path, std::string_view content, std::string& error);

/// The `conform run` line that reproduces failure `f` of the run `info`
/// describes (a scenario's is not narrowed to its operation).
std::string reproduce_command(const harness::failure& f, const harness::run_info& info);

}  // namespace conform::reports::detail
