#pragma once
// Small text helpers shared by the report writers.

#include <chrono>
#include <string>
#include <string_view>

namespace conform::reports::detail {

/// `text` escaped for XML character data and attribute values.
std::string xml_escape(std::string_view text);

/// Seconds with millisecond precision: "1.234".
std::string seconds(std::chrono::nanoseconds d);

/// Writes `content` to `path`; false with `error` set on failure.
bool write_file(const std::string& path, std::string_view content, std::string& error);

}  // namespace conform::reports::detail
