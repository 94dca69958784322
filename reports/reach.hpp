#pragma once
// Reach in every report: per operation and auth model whether a 2xx was
// reached, the operations never reached with why, the description's links
// and whether the run followed each, and what the run learned rather than
// was told (its notes). Each writer adds these beside its own content.

#include <boost/json/object.hpp>

#include <ostream>
#include <string>

#include "harness/run_report.hpp"

namespace conform::reports {

/// The console's and Markdown's block: "Reach: 19 of 22 operations answered
/// 2xx", one line per auth model, the never-reached with why, the links.
/// Empty when the report has no reach (a report of an older version).
/// With `notes`, the run's notes (what it learned) come first.
std::string reach_text(const harness::run_report& report, bool notes = true);

/// The JSON report's `reach`, `links` and `run.learned` members (only those
/// that are not empty).
void add_reach_json(const harness::run_report& report, boost::json::object& out);

/// Reads them back (json_read); unknown or missing members are left empty.
void read_reach_json(const boost::json::object& in, harness::run_report& report);

/// Adds `from`'s reach, links and notes to `into` (a shard merge): counts
/// add up per (operation, auth model), a link is followed when any shard
/// followed it.
void merge_reach(const harness::run_report& from, harness::run_report& into);

/// JUnit `<property>` lines: the reach summary, each never-reached
/// operation with why, the links followed.
void write_reach_properties(const harness::run_report& report, std::ostream& out);

/// An HTML section (a table per operation and auth model), or "".
std::string reach_html(const harness::run_report& report);

}  // namespace conform::reports
