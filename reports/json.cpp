#include "reports/json.hpp"

#include <boost/json.hpp>

#include <chrono>

#include "reports/detail_text.hpp"
#include "reports/reach.hpp"

namespace conform::reports {
namespace {

double secs(std::chrono::nanoseconds d) {
  return std::chrono::duration<double>(d).count();
}

boost::json::object failure_json(const harness::failure& f) {
  boost::json::object o{{"check", f.check},
                        {"operation_id", f.operation_id},
                        {"method_path", f.method_path},
                        {"auth_model", f.auth_model},
                        {"mode", f.mode.to_string()},
                        {"expected", f.expected},
                        {"seen", f.seen},
                        {"cause", f.cause},
                        {"status", f.status},
                        {"response_excerpt", f.response_excerpt},
                        {"seed", f.seed},
                        {"example", f.example},
                        {"shrink_steps", f.shrink_steps},
                        {"occurrences", f.occurrences},
                        {"curl", f.curl}};
  if (f.contradicts_assumption()) {
    // Its own class: "contradicts an assumption of the description".
    o["ground"] = "assumption";
    boost::json::array texts;
    for (const auto& a : f.assumptions) texts.emplace_back(a);
    o["assumptions"] = std::move(texts);
  }
  return o;
}

boost::json::object note_json(const harness::note& n) {
  boost::json::object o{{"check", n.check},
                        {"operation_id", n.operation_id},
                        {"method_path", n.method_path},
                        {"auth_model", n.auth_model},
                        {"mode", n.mode.to_string()},
                        {"text", n.text},
                        {"cause", n.cause},
                        {"status", n.status},
                        {"response_excerpt", n.response_excerpt},
                        {"occurrences", n.occurrences},
                        {"curl", n.curl}};
  if (!n.assumptions.empty()) {  // assumptions the run could not observe
    boost::json::array texts;
    for (const auto& a : n.assumptions) texts.emplace_back(a);
    o["assumptions"] = std::move(texts);
  }
  return o;
}

/// The run's facts: the tool, the seed, the description, the target, the
/// checks, the shard.
boost::json::object run_info_json(const harness::run_info& info) {
  boost::json::object run{
      {"tool_version", info.tool_version},
      {"seed", info.seed},
      {"spec",
       {{"file", info.spec_file},
        {"title", info.spec_title},
        {"version", info.spec_version},
        {"hash", info.spec_hash}}},
      {"target",
       {{"base_url", info.target},
        {"in_process_reference", info.in_process_reference},
        {"profile", info.profile_file},
        {"writes",
         {{"mode", info.writes == harness::write_mode::safe ? "safe" : "destructive"},
          {"text", info.writes_label()}}}}},
      {"examples", info.examples},
      {"workers", info.workers},
      {"started_at", info.started_at}};
  boost::json::array checks;
  for (const auto& c : info.checks) checks.emplace_back(c);
  run["checks"] = std::move(checks);
  if (info.skipped_operations > 0) run["skipped_operations"] = info.skipped_operations;
  if (info.shard_count > 0) {
    boost::json::object shard{{"count", info.shard_count}};
    if (info.merged_shards.empty()) {
      shard["index"] = info.shard_index;
    } else {
      boost::json::array merged;
      for (auto k : info.merged_shards) merged.emplace_back(k);
      shard["merged"] = std::move(merged);
    }
    run["shard"] = std::move(shard);
  }
  if (info.strict_assumptions) run["strict_assumptions"] = true;
  if (!info.security.empty()) run["security"] = info.security;
  if (info.operations_held_back > 0) run["operations_held_back"] = info.operations_held_back;

  return run;
}

/// Every cell: an operation, auth model and check, and how it went.
boost::json::array cells_json(const std::vector<harness::check_tally>& tallies) {
  boost::json::array cells;
  for (const auto& t : tallies) {
    boost::json::object cell{{"operation_id", t.operation_id},
                             {"method_path", t.method_path},
                             {"auth_model", t.auth_model},
                             {"check", t.check},
                             {"passed", t.passed},
                             {"failed", t.failed},
                             {"seconds", secs(t.time)}};
    cell["status"] = t.not_run_why      ? "not_run"
                     : t.failed > 0     ? "failed"
                     : t.nothing_judged ? "nothing_judged"
                                        : "passed";
    if (t.not_run_why) cell["not_run_why"] = *t.not_run_why;
    if (t.contradicted > 0) cell["contradicted"] = t.contradicted;
    cells.push_back(std::move(cell));
  }
  return cells;
}

/// The coverage phase: per operation, the constraints covered, per keyword.
boost::json::array coverage_json(const std::vector<harness::operation_coverage>& operations) {
  boost::json::array coverage;
  for (const auto& k : operations) {
    boost::json::array uncovered;
    for (const auto& u : k.uncovered) uncovered.emplace_back(u);
    boost::json::array by_keyword;
    for (const auto& b : k.by_keyword) {
      by_keyword.push_back(
          {{"keyword", b.keyword}, {"constraints", b.constraints}, {"covered", b.covered}});
    }
    coverage.push_back({{"operation_id", k.operation_id},
                        {"method_path", k.method_path},
                        {"constraints", k.constraints},
                        {"covered", k.covered},
                        {"uncovered", std::move(uncovered)},
                        {"by_keyword", std::move(by_keyword)}});
  }
  return coverage;
}

/// The description's assumptions: those the target contradicted, every one,
/// and those the run could not observe.
void add_assumption_lists(const harness::run_report& report, boost::json::object& out) {
  if (const auto contradicted = report.assumptions_contradicted(); !contradicted.empty()) {
    boost::json::array list;
    for (const auto& a : contradicted) {
      list.push_back({{"assumption", a.text}, {"failures", a.failures}});
    }
    out["assumptions_contradicted"] = std::move(list);
  }
  if (!report.assumptions.empty()) {  // every assumption of the description
    boost::json::array list;
    for (const auto& a : report.assumptions) list.emplace_back(a);
    out["assumptions"] = std::move(list);
  }
  if (const auto unobserved = report.assumptions_not_observed(); !unobserved.empty()) {
    boost::json::array list;
    for (const auto& a : unobserved) list.push_back({{"assumption", a.text}, {"status", a.status}});
    out["assumptions_not_observed"] = std::move(list);
  }
}

}  // namespace

boost::json::value to_json(const harness::run_report& report) {
  boost::json::object run = run_info_json(report.info);
  boost::json::array cells = cells_json(report.tallies);
  boost::json::array failures;
  for (const auto& f : report.failures) failures.push_back(failure_json(f));
  boost::json::array not_runs;
  for (const auto& n : report.not_runs) {
    not_runs.push_back({{"check", n.check},
                        {"operation_id", n.operation_id},
                        {"auth_model", n.auth_model},
                        {"why", n.why}});
  }
  boost::json::array coverage = coverage_json(report.coverage);
  const auto& c = report.counts;
  boost::json::object out{{"format_version", 1},
                          {"run", std::move(run)},
                          {"exit_code", report.exit_code()},
                          {"counts",
                           {{"requests", c.requests},
                            {"transport_errors", c.transport_errors},
                            {"checks_passed", c.checks_passed},
                            {"checks_failed", c.checks_failed},
                            {"cells_not_run", c.cells_not_run},
                            {"retries_429", c.retries_429},
                            {"failures", report.failures.size()}}},
                          {"timings",
                           {{"wall_seconds", secs(report.timings.wall)},
                            {"generation_seconds", secs(report.timings.generation)},
                            {"transport_seconds", secs(report.timings.transport)},
                            {"checking_seconds", secs(report.timings.checking)}}},
                          {"cells", std::move(cells)},
                          {"failures", std::move(failures)},
                          {"not_run", std::move(not_runs)},
                          {"coverage", std::move(coverage)}};
  if (c.relearned > 0) out["counts"].as_object()["relearned"] = c.relearned;
  if (c.checks_contradicted > 0) {
    out["counts"].as_object()["checks_contradicted"] = c.checks_contradicted;
  }
  add_assumption_lists(report, out);
  if (report.aborted) out["aborted"] = *report.aborted;
  if (!report.notes.empty()) {  // present only when there are notes
    boost::json::array notes;
    for (const auto& n : report.notes) notes.push_back(note_json(n));
    out["notes"] = std::move(notes);
  }
  add_reach_json(report, out);
  // Valid JSON whatever a server sent: bytes that are not UTF-8 become \xNN.
  boost::json::value v(std::move(out));
  detail::make_utf8(v);
  return v;
}

std::string render_json(const harness::run_report& report) {
  return boost::json::serialize(to_json(report)) + "\n";
}

}  // namespace conform::reports
