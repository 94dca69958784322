#pragma once
// The HTML report of a run (`conform run --html FILE`): one self-contained
// file a person reads in a browser, with no network and no external asset.

#include <string>

#include "harness/run_report.hpp"

namespace conform::reports {

/// The run as one HTML page.
std::string render_html(const harness::run_report& report);

}  // namespace conform::reports
