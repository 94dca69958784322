#pragma once
// The JSON report, documented in docs/report-format.md: the run's seed, spec
// hash, target, timings and counts, every cell, failure and not-run reason.

#include <boost/json/value.hpp>

#include <ostream>
#include <string>

#include "harness/listener.hpp"
#include "reports/file_writer.hpp"

namespace conform::reports {

/// The report as a JSON value (format version 1).
boost::json::value to_json(const harness::run_report& report);

/// The report as JSON text, one line with a trailing newline.
std::string render_json(const harness::run_report& report);

/// Writes the JSON report to `path` when the run finishes.
class json_writer final : public file_writer {
 public:
  explicit json_writer(std::string path) : file_writer(std::move(path), render_json) {}
};

}  // namespace conform::reports
