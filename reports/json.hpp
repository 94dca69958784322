#pragma once
// The JSON report, documented in docs/report-format.md: the run's seed, spec
// hash, target, timings and counts, every cell, failure and not-run reason.

#include <boost/json/value.hpp>

#include <ostream>
#include <string>

#include "harness/runner/listener.hpp"

namespace conform::reports {

/// The report as a JSON value (format version 1).
boost::json::value to_json(const runner::run_report& report);

/// Writes the JSON report to `path` when the run finishes.
class json_writer final : public runner::listener {
 public:
  explicit json_writer(std::string path) : path_(std::move(path)) {}
  void run_finished(const runner::run_report& report) override;
  /// Empty, or why the file could not be written.
  const std::string& error() const { return error_; }

 private:
  std::string path_;
  std::string error_;
};

}  // namespace conform::reports
