#include "reports/console.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "reports/detail_text.hpp"
#include "reports/reach.hpp"

namespace conform::reports {
namespace {

std::string pad(std::string text, std::size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

/// One line per (operation, auth model): how its checks went.
struct row {
  std::string operation_id, method_path, auth_model;
  std::uint64_t passed = 0, failed_cells = 0, not_run_cells = 0, nothing_judged_cells = 0,
                assumed_cells = 0, cells = 0;
};

/// `text` as one line of at most about `max` bytes: shown (`detail::shown`),
/// line breaks and tabs as spaces, cut at a character's boundary with "...".
std::string one_line(std::string_view text, std::size_t max) {
  std::string out = detail::shown(text);
  std::replace_if(
      out.begin(), out.end(), [](char c) { return c == '\n' || c == '\t'; }, ' ');
  if (out.size() <= max) return out;
  std::size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
  out.resize(cut);
  return out + "...";
}

/// "not run: CHECK of OPERATION as AUTH" (its scope), before the reason.
std::string not_run_scope(const harness::not_run& n) {
  std::string out = "not run: " + (n.check == "*" ? std::string("all checks") : n.check);
  if (!n.operation_id.empty()) out += " of " + n.operation_id;
  if (!n.auth_model.empty()) out += " as " + n.auth_model;
  return out;
}

std::string counted(std::uint64_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

/// The line that opens phase `p`.
std::string phase_line(harness::phase p, std::uint64_t planned, std::uint64_t coverage) {
  std::string out = "phase " + std::string(harness::to_string(p));
  switch (p) {
    case harness::phase::stateful:
      return out + ": chains along the description's links, under every auth model";
    case harness::phase::scenarios:
      return out + ": " + counted(planned, "scenario suite", "scenario suites");
    case harness::phase::coverage:
      return out + ": " + counted(planned, "request", "requests") + ", one per constraint";
    case harness::phase::exchanges:
      // A replay does not know its count ahead.
      if (planned == 0) return out;
      if (coverage > 0 && coverage <= planned) {
        return out + ": " + counted(planned - coverage, "random request", "random requests") +
               " (after the coverage's " + std::to_string(coverage) + ")";
      }
      return out + ": " + counted(planned, "generated request", "generated requests");
    case harness::phase::shrinking:
      return out + ": " + counted(planned, "failure", "failures") + " to shrink";
  }
  return out;
}

constexpr std::size_t cause_width = 120;  // a streamed line's cause, at most

}  // namespace

console_writer::console_writer(std::ostream& out, bool interactive)
    : out_(out), interactive_(interactive) {}

void console_writer::run_started(const harness::event::run_started& e) {
  const harness::run_info& info = e.info;
  const std::uint64_t planned = e.planned;
  out_ << "conform " << info.tool_version << ": " << info.spec_title << " " << info.spec_version
       << " (" << info.spec_file << ")\n"
       << "target: " << info.target << (info.in_process_reference ? " (in-process reference)" : "")
       << "\nwrites: " << info.writes_label();
  if (info.operations_held_back > 0) {
    out_ << "; " << info.operations_held_back
         << (info.operations_held_back == 1 ? " operation is" : " operations are")
         << " never sent in this mode (each \"not run\" says why)";
  }
  if (!info.security.empty()) out_ << "\nauth: " << info.security;
  out_ << "\nseed: " << info.seed << ", examples: " << info.examples
       << ", workers: " << info.workers << ", " << planned << " generated requests planned";
  if (info.coverage_planned > 0) {
    out_ << " (" << info.coverage_planned << " covering each constraint once, "
         << planned - info.coverage_planned << " random)";
  }
  if (!info.shard_label().empty()) out_ << " (" << info.shard_label() << ")";
  // Scenarios send requests of their own, counted when the run ends.
  if (info.scenarios > 0) out_ << ", and " << info.scenarios << " scenario suites";
  out_ << "\n";
  // What the run read rather than was told (a token's claims are not verified).
  for (const auto& n : info.learned) out_ << "learned: " << n << "\n";
  out_.flush();
}

void console_writer::phase_started(const harness::event::phase_started& e) {
  if (e.which == harness::phase::coverage) coverage_planned_ = e.planned;
  line(phase_line(e.which, e.planned, coverage_planned_));
  if (e.which == harness::phase::exchanges) {
    progress_on_ = true;
    done_ = 0;
    planned_ = e.planned;
    last_percent_ = 101;
  }
}

void console_writer::exchange_done(const harness::event::exchange_done& e) {
  // Workers count in one order and may report in another: the bar never goes back.
  done_ = std::max(done_, e.done);
  planned_ = e.planned;
  if (!interactive_ || planned_ == 0) return;
  const auto percent = static_cast<unsigned>(std::min<std::uint64_t>(100, done_ * 100 / planned_));
  if (percent == last_percent_) return;
  last_percent_ = percent;
  draw_progress();
  out_.flush();
}

void console_writer::phase_finished(const harness::event::phase_finished& e) {
  if (e.which != harness::phase::exchanges) return;
  // The progress line goes with its phase: shrinking has none.
  clear_progress();
  progress_on_ = false;
  out_.flush();
}

void console_writer::failure_found(const harness::event::failure_found& e) {
  const harness::failure& f = e.found;
  std::string text = (f.contradicts_assumption() ? "  ASSUMPTION " : "  FAIL ") + f.check + ":";
  if (!f.operation_id.empty()) text += " " + f.operation_id;
  if (!f.auth_model.empty()) text += " as " + f.auth_model;
  text += ": " + one_line(f.cause.empty() ? f.seen : f.cause, cause_width);
  line(text);
}

void console_writer::not_run(const harness::event::not_run& e) {
  line("  " + not_run_scope(e.entry) + ": " + one_line(e.entry.why, cause_width));
}

void console_writer::line(const std::string& text) {
  clear_progress();
  out_ << text << "\n";
  draw_progress();
  out_.flush();
}

void console_writer::clear_progress() {
  if (drawn_ == 0) return;
  out_ << '\r' << std::string(drawn_, ' ') << '\r';
  drawn_ = 0;
}

void console_writer::draw_progress() {
  if (!interactive_ || !progress_on_ || planned_ == 0) return;
  const auto percent = static_cast<unsigned>(std::min<std::uint64_t>(100, done_ * 100 / planned_));
  constexpr unsigned width = 40;
  const unsigned filled = percent * width / 100;
  const std::string bar = "[" + std::string(filled, '#') + std::string(width - filled, ' ') + "] " +
                          std::to_string(percent) + "% " + std::to_string(done_) + "/" +
                          std::to_string(planned_);
  // Drawn over what was there: the old line is never longer (the counts only grow).
  out_ << '\r' << bar;
  drawn_ = std::max(drawn_, bar.size());
}

namespace {

/// By check, one line each however many cells (the scope matrix alone has
/// one per operation and credential); then the (operation, auth model) rows
/// that need a look.
void write_cells(std::ostream& out, const harness::run_report& report) {
  struct check_row {
    std::string check;
    std::uint64_t cells = 0, failed = 0, not_run = 0, nothing_judged = 0;
    std::uint64_t assumed = 0;        // cells whose failures all contradict assumptions
    std::uint64_t not_run_notes = 0;  // "not run" entries of cells that ran elsewhere
  };
  std::vector<check_row> checks;
  std::map<std::string, std::size_t> check_index;
  for (const auto& name : report.info.checks) {
    check_index.try_emplace(name, checks.size());
    checks.push_back({name});
  }
  std::vector<row> rows;
  std::map<std::pair<std::string, std::string>, std::size_t> index;
  for (const auto& t : report.tallies) {
    auto [cit, cadded] = check_index.try_emplace(t.check, checks.size());
    if (cadded) checks.push_back({t.check});
    auto& k = checks[cit->second];
    ++k.cells;
    // A cell that only contradicted assumptions fails under --strict-assumptions.
    const bool assumed_only = t.failed == 0 && t.contradicted > 0;
    const bool failed = t.failed > 0 || (assumed_only && report.info.strict_assumptions);
    if (failed) ++k.failed;
    if (assumed_only && !failed) ++k.assumed;
    if (t.not_run_why) ++k.not_run;
    if (t.nothing_judged) ++k.nothing_judged;

    auto [it, added] = index.try_emplace({t.operation_id, t.auth_model}, rows.size());
    if (added) rows.push_back({t.operation_id, t.method_path, t.auth_model});
    auto& r = rows[it->second];
    ++r.cells;
    r.passed += t.passed;
    if (failed) ++r.failed_cells;
    if (assumed_only && !failed) ++r.assumed_cells;
    if (t.not_run_why) ++r.not_run_cells;
    if (t.nothing_judged) ++r.nothing_judged_cells;
  }
  for (const auto& n : report.not_runs) {
    if (auto it = check_index.find(n.check); it != check_index.end()) {
      ++checks[it->second].not_run_notes;
    }
  }
  out << "\nChecks (cells: operation x auth model)\n";
  for (const auto& k : checks) {
    // A check that did not run everywhere is not "ok": the line says where not.
    const char* mark = k.failed                                        ? "FAIL"
                       : k.assumed                                     ? "ASMP"
                       : k.not_run                                     ? "SKIP"
                       : (k.cells == 0 || k.nothing_judged == k.cells) ? "----"
                       : k.not_run_notes                               ? "part"
                                                                       : "ok  ";
    out << "  " << mark << " " << pad(k.check, 30) << " ";
    if (k.cells == 0) {
      out << "no cell (nothing in the description for it to check)\n";
      continue;
    }
    out << (k.cells - k.failed - k.assumed - k.not_run - k.nothing_judged) << "/" << k.cells
        << " cells passed";
    if (k.failed) out << ", " << k.failed << " failed";
    if (k.assumed) out << ", " << k.assumed << " contradicted an assumption";
    if (k.not_run) out << ", " << k.not_run << " not run";
    if (k.nothing_judged) out << ", " << k.nothing_judged << " had nothing to judge";
    if (!k.not_run && k.not_run_notes) {
      out << ", " << k.not_run_notes << " not run in part (see Not run)";
    }
    out << "\n";
  }

  // Then only the (operation, auth model) rows that need a look. Rows
  // where no check ran at all (an operation safe mode never sends, on an
  // API of many) are counted in one line once there are many of them: the
  // "Not run" list says why, once per operation.
  constexpr std::size_t idle_rows_listed = 8;
  const auto idle = [](const auto& r) {
    return !r.failed_cells && !r.assumed_cells && r.not_run_cells > 0 &&
           r.not_run_cells + r.nothing_judged_cells == r.cells;
  };
  const auto idle_rows = static_cast<std::size_t>(std::count_if(rows.begin(), rows.end(), idle));
  const bool fold_idle = idle_rows > idle_rows_listed;
  bool header = false;
  for (const auto& r : rows) {
    if (!r.failed_cells && !r.not_run_cells && !r.assumed_cells) continue;
    if (fold_idle && idle(r)) continue;
    if (!header) out << "\nNeeding a look (operation, auth model: checks)\n";
    header = true;
    const char* mark = r.failed_cells ? "FAIL" : r.assumed_cells ? "ASMP" : "SKIP";
    out << "  " << mark << " " << pad(r.operation_id, 28) << " " << pad(r.auth_model, 34) << " "
        << (r.cells - r.failed_cells - r.assumed_cells - r.not_run_cells - r.nothing_judged_cells)
        << "/" << r.cells << " checks passed";
    if (r.failed_cells) out << ", " << r.failed_cells << " failed";
    if (r.assumed_cells) out << ", " << r.assumed_cells << " contradicted an assumption";
    if (r.not_run_cells) out << ", " << r.not_run_cells << " not run";
    if (r.nothing_judged_cells) out << ", " << r.nothing_judged_cells << " had nothing to judge";
    out << "\n";
  }
  if (fold_idle) {
    if (!header) out << "\nNeeding a look (operation, auth model: checks)\n";
    out << "  SKIP " << idle_rows
        << " (operation, auth model) rows where no check ran (see Not run for why)\n";
  }
}

/// Every failure with what reproduces it: sourced ones first, then those
/// that contradict only an assumption of the description (their own class:
/// they fail the run only with --strict-assumptions). Returns how many are sourced.
std::size_t write_failures(std::ostream& out, const harness::run_report& report) {
  // Sourced failures first, then those that contradict only an assumption
  // of the description (their own class: they fail the run only with
  // --strict-assumptions).
  std::vector<const harness::failure*> ordered;
  for (const auto& f : report.failures) {
    if (!f.contradicts_assumption()) ordered.push_back(&f);
  }
  const std::size_t sourced = ordered.size();
  for (const auto& f : report.failures) {
    if (f.contradicts_assumption()) ordered.push_back(&f);
  }
  if (sourced > 0) out << "\nFailures\n";
  for (std::size_t i = 0; i < ordered.size(); ++i) {
    const harness::failure& f = *ordered[i];
    if (i == sourced) {
      out << "\nContradicts an assumption of the description ("
          << (report.info.strict_assumptions ? "failing the run: --strict-assumptions"
                                             : "not failing the run; --strict-assumptions would")
          << ")\n";
    }
    out << "\n"
        << (f.contradicts_assumption() ? "ASSUMPTION " : "FAIL ") << f.check << ": "
        << f.operation_id << " (" << f.method_path << ") as " << f.auth_model << ", "
        << f.mode.to_string() << "\n"
        << "  expected: " << detail::shown(f.expected) << "\n"
        << "  seen:     " << detail::shown(f.seen) << "\n";
    for (const auto& a : f.assumptions) out << "  assumption: " << detail::shown(a) << "\n";
    if (!f.response_excerpt.empty())
      out << "  response: " << detail::shown(f.response_excerpt) << "\n";
    // A scenario's failure is not shrunk and may take several requests (one
    // curl command per line); its scenario may need other operations than
    // the failing one, so the reproduce line does not narrow them.
    const bool scenario = !f.mode.shrinkable();
    out << "  seen " << f.occurrences << " time(s)";
    if (!scenario) out << "; shrunk in " << f.shrink_steps << " step(s)";
    out << "\n  reproduce: " << detail::reproduce_command(f, report.info) << "\n";
    std::string curl = detail::shown(f.curl);
    for (auto at = curl.find('\n'); at != std::string::npos; at = curl.find('\n', at + 1)) {
      curl.insert(at + 1, "        ");
    }
    out << "  curl: " << curl << "\n";
  }
  if (!report.failures.empty()) {
    out << "\n(the curl commands name each credential by its ${VARIABLE}: its value_env, or\n"
           " CONFORM_SECRET_<NAME> for one given inline; set them before running)\n";
  }

  return sourced;
}

/// The notes, then what did not run.
void write_notes_and_not_runs(std::ostream& out, const harness::run_report& report) {
  if (!report.notes.empty()) out << "\nNotes (worth reading; not failures)\n";
  for (const auto& n : report.notes) {
    out << "  note " << n.check << ": " << n.operation_id << " as " << n.auth_model << ": "
        << detail::shown(n.text) << " (seen " << n.occurrences << " time(s))\n"
        << "    curl: " << detail::shown(n.curl) << "\n";
  }

  if (!report.not_runs.empty()) out << "\nNot run\n";
  for (const auto& n : report.not_runs) {
    out << "  " << not_run_scope(n) << ": " << detail::shown(n.why) << "\n";
  }
}

/// The coverage phase: constraints sent once each, what was not covered,
/// and what they test.
void write_coverage(std::ostream& out, const harness::run_report& report) {
  if (!report.coverage.empty()) {
    std::uint64_t constraints = 0, covered = 0;
    std::vector<std::string> uncovered;
    for (const auto& k : report.coverage) {
      constraints += k.constraints;
      covered += k.covered;
      for (const auto& u : k.uncovered) uncovered.push_back(k.operation_id + ": " + u);
    }
    out << "\nCoverage: " << covered << " of " << constraints << " constraints of "
        << report.coverage.size() << " operations sent once each";
    if (uncovered.empty()) {
      out << "\n";
    } else {
      out << "; not covered:\n";
      constexpr std::size_t shown = 10;
      for (std::size_t i = 0; i < uncovered.size() && i < shown; ++i) {
        out << "  not run: " << uncovered[i] << "\n";
      }
      if (uncovered.size() > shown) {
        out << "  ... and " << uncovered.size() - shown << " more (the JSON report lists all)\n";
      }
    }
    // What they test, summed over the operations ("type 120, enum 9, ...").
    std::vector<harness::operation_coverage::keyword_count> by_keyword;
    for (const auto& k : report.coverage) {
      for (const auto& b : k.by_keyword) {
        auto it = std::find_if(by_keyword.begin(), by_keyword.end(),
                               [&](const auto& x) { return x.keyword == b.keyword; });
        if (it == by_keyword.end()) it = by_keyword.insert(it, {b.keyword, 0, 0});
        it->constraints += b.constraints;
        it->covered += b.covered;
      }
    }
    if (!by_keyword.empty()) {
      out << "  by what they test:";
      for (std::size_t i = 0; i < by_keyword.size(); ++i) {
        const auto& b = by_keyword[i];
        out << (i == 0 ? " " : ", ") << b.keyword << " " << b.covered;
        if (b.covered != b.constraints) out << " of " << b.constraints;
      }
      out << "\n";
    }
  }
}

/// The assumptions of the description the target contradicted, those the
/// run could not observe, and how many were not contradicted.
void write_assumptions(std::ostream& out, const harness::run_report& report) {
  if (const auto contradicted = report.assumptions_contradicted(); !contradicted.empty()) {
    out << "\nAssumptions of the description the target contradicted (" << contradicted.size()
        << "; confirm or correct each in the description)\n";
    for (const auto& a : contradicted) {
      out << "  " << a.text << " (" << a.failures << " failure" << (a.failures == 1 ? "" : "s")
          << ")\n";
    }
  }
  if (const auto unobserved = report.assumptions_not_observed(); !unobserved.empty()) {
    out << "\nAssumptions of the description this run could not observe (" << unobserved.size()
        << "; a request breaking each alone was refused for another reason)\n";
    for (const auto& a : unobserved) {
      out << "  " << a.text << " (refused with " << a.status << ")\n";
    }
  }
  if (const auto held = report.assumptions_not_contradicted().size(); held > 0) {
    out << "\n"
        << held << " of the description's " << report.assumptions.size()
        << " assumptions were not contradicted by this run (the JSON report lists them all)\n";
  }
}

/// Requests, checks and the verdict with its seed.
void write_totals(std::ostream& out, const harness::run_report& report, std::size_t sourced) {
  const auto& c = report.counts;
  out << "\n" << c.requests << " requests in " << detail::seconds(report.timings.wall) << " s";
  if (c.transport_errors) out << ", " << c.transport_errors << " transport errors";
  if (c.retries_429) out << ", " << c.retries_429 << " retried after 429";
  out << "\n"
      << c.checks_passed << " checks passed, " << c.checks_failed << " failed (" << sourced
      << " distinct), ";
  if (c.checks_contradicted) {
    out << c.checks_contradicted << " contradicted an assumption of the description ("
        << report.failures.size() - sourced << " distinct), ";
  }
  out << c.cells_not_run << " not run";
  if (!report.notes.empty()) out << ", " << report.notes.size() << " notes";
  out << "\n";
  const int code = report.exit_code();
  out << (code == 0   ? "PASSED"
          : code == 1 ? "FAILED"
                      : "NOTHING PROVED (exit 2)")
      << " (seed " << report.info.seed
      << (report.info.shard_label().empty() ? "" : ", " + report.info.shard_label()) << ")\n";
}

}  // namespace

void console_writer::run_finished(const harness::event::run_finished& e) {
  const harness::run_report& report = e.report;
  clear_progress();
  if (report.aborted) out_ << "run aborted: " << detail::shown(*report.aborted) << "\n";
  write_cells(out_, report);
  const std::size_t sourced = write_failures(out_, report);
  write_notes_and_not_runs(out_, report);
  write_coverage(out_, report);
  write_assumptions(out_, report);
  out_ << reach_text(report, /*notes=*/false);  // the header said them
  write_totals(out_, report, sourced);
  out_.flush();
}

}  // namespace conform::reports
