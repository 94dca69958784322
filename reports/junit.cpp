#include "reports/junit.hpp"

#include <map>
#include <sstream>
#include <vector>

#include "core/text.hpp"
#include "reports/detail_text.hpp"
#include "reports/reach.hpp"

namespace conform::reports {
namespace {

using core::xml_escape;

struct suite {
  std::string operation_id;
  std::string method_path;
  std::vector<const harness::check_tally*> cells;
  std::chrono::nanoseconds time{0};
  unsigned failures = 0, skipped = 0;
};

std::string failure_text(const harness::failure& f) {
  std::ostringstream text;
  text << "expected: " << f.expected << "\n"
       << "seen:     " << f.seen << "\n"
       << "mode:     " << f.mode.to_string() << "\n";
  if (!f.response_excerpt.empty()) text << "response: " << f.response_excerpt << "\n";
  text << "seen " << f.occurrences << " time(s)";
  if (f.mode.shrinkable()) text << "; shrunk in " << f.shrink_steps << " step(s)";
  text << "\n"
       << "seed:     " << f.seed << " (example " << f.example << ")\n"
       << "curl:     " << f.curl << "\n";
  for (const auto& a : f.assumptions) text << "assumption: " << a << "\n";
  return text.str();
}

}  // namespace

void write_junit(const harness::run_report& report, std::ostream& out) {
  std::vector<suite> suites;
  std::map<std::string, std::size_t> index;
  for (const auto& cell : report.tallies) {
    auto [it, added] = index.try_emplace(cell.operation_id, suites.size());
    if (added) suites.push_back({cell.operation_id, cell.method_path, {}, {}, 0, 0});
    auto& s = suites[it->second];
    s.cells.push_back(&cell);
    s.time += cell.time;
    // A cell that only contradicted assumptions fails under --strict-assumptions.
    if (cell.failed > 0 || (cell.contradicted > 0 && report.info.strict_assumptions)) ++s.failures;
    if (cell.not_run_why || cell.nothing_judged) ++s.skipped;
  }
  const std::size_t tests = report.tallies.size();
  std::size_t failures = 0, skipped = 0;
  for (const auto& s : suites) {
    failures += s.failures;
    skipped += s.skipped;
  }

  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"conform\" tests=\"" << tests << "\" failures=\"" << failures
      << "\" errors=\"" << (report.aborted ? 1 : 0) << "\" skipped=\"" << skipped << "\" time=\""
      << detail::seconds(report.timings.wall) << "\">\n";
  out << "  <properties>\n"
      << "    <property name=\"seed\" value=\"" << report.info.seed << "\"/>\n"
      << "    <property name=\"spec\" value=\"" << xml_escape(report.info.spec_file) << "\"/>\n"
      << "    <property name=\"spec_hash\" value=\"" << xml_escape(report.info.spec_hash)
      << "\"/>\n"
      << "    <property name=\"target\" value=\"" << xml_escape(report.info.target) << "\"/>\n";
  if (!report.info.shard_label().empty()) {
    out << "    <property name=\"shard\" value=\"" << xml_escape(report.info.shard_label())
        << "\"/>\n";
  }
  if (report.info.strict_assumptions) {
    out << "    <property name=\"strict_assumptions\" value=\"true\"/>\n";
  }
  // Every assumption of the description the target contradicted, once.
  for (const auto& a : report.assumptions_contradicted()) {
    out << "    <property name=\"assumption_contradicted\" value=\"" << xml_escape(a.text)
        << "\"/>\n";
  }
  for (const auto& a : report.assumptions_not_observed()) {
    out << "    <property name=\"assumption_not_observed\" value=\"" << xml_escape(a.text)
        << "\"/>\n";
  }
  write_reach_properties(report, out);
  out << "  </properties>\n";
  if (report.aborted) {
    out << "  <testsuite name=\"run\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\">\n"
        << "    <testcase classname=\"run\" name=\"run\"><error message=\""
        << xml_escape(*report.aborted) << "\"/></testcase>\n  </testsuite>\n";
  }
  for (const auto& s : suites) {
    out << "  <testsuite name=\"" << xml_escape(s.operation_id) << "\" tests=\"" << s.cells.size()
        << "\" failures=\"" << s.failures << "\" errors=\"0\" skipped=\"" << s.skipped
        << "\" time=\"" << detail::seconds(s.time) << "\">\n";
    for (const auto* cell : s.cells) {
      out << "    <testcase classname=\"" << xml_escape(s.operation_id) << "\" name=\""
          << xml_escape(cell->auth_model + " / " + cell->check) << "\" time=\""
          << detail::seconds(cell->time) << "\">\n";
      if (cell->not_run_why) {
        out << "      <skipped message=\"" << xml_escape("not run: " + *cell->not_run_why)
            << "\"/>\n";
      } else if (cell->nothing_judged) {
        out << "      <skipped message=\"nothing to judge: no exchange fell under this check\"/>\n";
      }
      std::string contradicted;  // failures of an assumption that do not fail the run
      for (const auto& f : report.failures) {
        if (f.operation_id != cell->operation_id || f.check != cell->check ||
            f.auth_model != cell->auth_model) {
          continue;
        }
        if (!report.fails_run(f)) {
          contradicted +=
              "contradicts an assumption of the description (not a failure "
              "without --strict-assumptions):\n" +
              failure_text(f);
          continue;
        }
        const std::string type =
            f.contradicts_assumption() ? "contradicts an assumption: " + f.check : f.check;
        out << "      <failure type=\"" << xml_escape(type) << "\" message=\""
            << xml_escape(f.expected + "; seen " + f.seen) << "\">" << xml_escape(failure_text(f))
            << "</failure>\n";
      }
      out << "      <system-out>" << cell->passed << " passed, " << cell->failed << " failed";
      if (cell->contradicted > 0) {
        out << ", " << cell->contradicted << " contradicted an assumption of the description";
      }
      for (const auto& n : report.notes) {  // notes are no failures: read, not counted
        if (n.operation_id != cell->operation_id || n.check != cell->check ||
            n.auth_model != cell->auth_model) {
          continue;
        }
        out << "\nnote: " << xml_escape(n.text) << " (seen " << n.occurrences << " time(s))\n"
            << "curl: " << xml_escape(n.curl);
      }
      out << "</system-out>\n";
      if (!contradicted.empty()) {
        out << "      <system-err>" << xml_escape(contradicted) << "</system-err>\n";
      }
      out << "    </testcase>\n";
    }
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
}

std::string render_junit(const harness::run_report& report) {
  std::ostringstream text;
  write_junit(report, text);
  return text.str();
}

}  // namespace conform::reports
