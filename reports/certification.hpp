#pragma once
// The certification reports (`conform certify --json/--html/--junit`): the
// verdict, every client rule with its evidence, the coverage matrix and the
// adversity timeline. JUnit renders the report's `run` (render_junit).

#include <boost/json/value.hpp>

#include <string>

#include "harness/certification.hpp"

namespace conform::reports {

/// The certification as JSON (docs/report-format.md, "Certification").
boost::json::value certification_to_json(const harness::certification_report& report);
std::string render_certification_json(const harness::certification_report& report);

/// The certification as one self-contained HTML page.
std::string render_certification_html(const harness::certification_report& report);

/// The console summary: the verdict, each rule, each failure with its evidence.
std::string render_certification_text(const harness::certification_report& report);

}  // namespace conform::reports
