#pragma once
// The report files a run can write, by name. A format is a function that
// renders the finished run; adding one is a render function and a line in
// registry.cpp, and `conform run --<name> FILE` and `--report <name>=FILE`
// then write it.

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "harness/run_report.hpp"
#include "reports/file_writer.hpp"

namespace conform::reports {

struct report_format {
  std::string_view name;         // "junit"
  std::string_view description;  // one line, for --help
  file_writer::render_fn render;
};

/// Every format, in the order --help lists them.
std::span<const report_format> report_formats();

/// Every format's name, in that order: "junit, json, html, markdown".
std::string report_format_names();

/// Every format as --help lists it, a line each: "  junit     JUnit XML: ...".
std::string report_format_lines();

/// The format named `name`, or nullptr.
const report_format* find_report_format(std::string_view name);

/// A listener that writes `format` to `path` when the run finishes.
std::unique_ptr<file_writer> make_writer(const report_format& format, std::string path);

}  // namespace conform::reports
