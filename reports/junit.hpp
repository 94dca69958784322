#pragma once
// The JUnit XML report: a testsuite per operation, a testcase per (auth
// model, check), a <failure> per reported failure, <skipped> for a cell that
// could not run, with its reason.

#include <ostream>
#include <string>

#include "harness/runner/listener.hpp"

namespace conform::reports {

/// Renders `report` as JUnit XML.
void write_junit(const runner::run_report& report, std::ostream& out);

/// Writes the JUnit report to `path` when the run finishes.
class junit_writer final : public runner::listener {
 public:
  explicit junit_writer(std::string path) : path_(std::move(path)) {}
  void run_finished(const runner::run_report& report) override;
  /// Empty, or why the file could not be written.
  const std::string& error() const { return error_; }

 private:
  std::string path_;
  std::string error_;
};

}  // namespace conform::reports
