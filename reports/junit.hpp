#pragma once
// The JUnit XML report: a testsuite per operation, a testcase per (auth
// model, check), a <failure> per reported failure, <skipped> for a cell that
// could not run, with its reason.

#include <ostream>
#include <string>

#include "harness/listener.hpp"
#include "reports/file_writer.hpp"

namespace conform::reports {

/// Renders `report` as JUnit XML.
void write_junit(const harness::run_report& report, std::ostream& out);

/// The report as JUnit XML text.
std::string render_junit(const harness::run_report& report);

/// Writes the JUnit report to `path` when the run finishes.
class junit_writer final : public file_writer {
 public:
  explicit junit_writer(std::string path) : file_writer(std::move(path), render_junit) {}
};

}  // namespace conform::reports
