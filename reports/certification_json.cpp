// The certification report as JSON and as console text.
#include <boost/json.hpp>

#include <cstdio>

#include "reports/certification.hpp"
#include "reports/detail_text.hpp"
#include "reports/json.hpp"

namespace conform::reports {

namespace {

double secs(std::chrono::microseconds d) {
  return static_cast<double>(d.count()) / 1e6;
}

}  // namespace

boost::json::value certification_to_json(const harness::certification_report& r) {
  boost::json::object out;
  out["format_version"] = 1;
  out["kind"] = "certification";
  out["certified"] = r.certified;
  out["verdict"] = r.verdict;
  out["exit_code"] = r.exit_code();
  out["level"] = std::string(harness::to_string(r.level));
  const auto& info = r.run.info;
  out["client"] = {{"command", r.client_command}, {"exit", r.client_exit}};
  out["server"] = {{"environment", r.environment}, {"base_url", info.target}};
  out["run"] = {{"tool_version", info.tool_version},
                {"seed", info.seed},
                {"started_at", info.started_at},
                {"finished_at", r.finished_at},
                {"spec",
                 {{"file", info.spec_file},
                  {"title", info.spec_title},
                  {"version", info.spec_version},
                  {"hash", info.spec_hash}}}};
  out["requests"] = r.requests;
  boost::json::array rules;
  for (const auto& v : r.rules) {
    boost::json::object o{{"check", v.check},
                          {"description", v.description},
                          {"rule", v.rule},
                          {"level", std::string(harness::to_string(v.level))},
                          {"status", std::string(harness::to_string(v.what))},
                          {"judged", v.judged},
                          {"broken", v.broken}};
    if (!v.not_exercised_why.empty()) o["not_exercised_why"] = v.not_exercised_why;
    rules.push_back(std::move(o));
  }
  out["rules"] = std::move(rules);
  boost::json::array coverage;
  for (const auto& c : r.coverage) {
    boost::json::array adv;
    for (const auto& a : c.adversity) adv.emplace_back(a);
    coverage.push_back({{"operation_id", c.operation_id},
                        {"method_path", c.method_path},
                        {"auth_model", c.auth_model},
                        {"calls", c.calls},
                        {"succeeded", c.succeeded},
                        {"client_errors", c.client_errors},
                        {"server_errors", c.server_errors},
                        {"no_answer", c.no_answer},
                        {"adversity", std::move(adv)}});
  }
  out["coverage"] = std::move(coverage);
  boost::json::array plan;
  for (const auto& p : r.adversity_plan) plan.emplace_back(p);
  boost::json::array events;
  for (const auto& e : r.adversity) {
    events.push_back({{"seq", e.seq},
                      {"at_seconds", secs(e.at)},
                      {"kind", e.kind},
                      {"detail", e.detail},
                      {"operation_id", e.operation_id},
                      {"method_path", e.method_path},
                      {"survived", e.survived},
                      {"outcome", e.outcome}});
  }
  out["adversity"] = {{"plan", std::move(plan)}, {"events", std::move(events)}};
  // The cells, failures (with their evidence) and not-runs, as a run reports them.
  const boost::json::value run = to_json(r.run);
  boost::json::array failures;
  for (const auto& f : r.run.failures) {
    boost::json::array evidence;
    for (const auto& l : f.evidence) evidence.emplace_back(l);
    failures.push_back({{"check", f.check},
                        {"operation_id", f.operation_id},
                        {"method_path", f.method_path},
                        {"auth_model", f.auth_model},
                        {"expected", f.expected},
                        {"seen", f.seen},
                        {"cause", f.cause},
                        {"status", f.status},
                        {"evidence", std::move(evidence)}});
  }
  out["cells"] = run.at("cells");
  out["failures"] = std::move(failures);
  out["not_run"] = run.at("not_run");
  // Valid JSON whatever the client sent: bytes that are not UTF-8 become \xNN.
  boost::json::value v(std::move(out));
  detail::make_utf8(v);
  return v;
}

std::string render_certification_json(const harness::certification_report& report) {
  return boost::json::serialize(certification_to_json(report)) + "\n";
}

std::string render_certification_text(const harness::certification_report& r) {
  std::string out;
  out += "conform certify: " + r.verdict + "\n";
  out += "  client: " + r.client_command +
         (r.client_exit.empty() ? "" : " (" + r.client_exit + ")") + "\n";
  out += "  requests: " + std::to_string(r.requests) + ", seed " + std::to_string(r.run.info.seed) +
         "\n\nrules:\n";
  for (const auto& v : r.rules) {
    char line[256];
    std::snprintf(line, sizeof line, "  %-14s %-9s %-34s",
                  std::string(harness::to_string(v.what)).c_str(),
                  std::string(harness::to_string(v.level)).c_str(), v.check.c_str());
    out += line;
    out += v.what == harness::rule_verdict::status::not_exercised
               ? v.not_exercised_why
               : std::to_string(v.judged) + " held, " + std::to_string(v.broken) + " broken";
    out += "\n";
  }
  if (!r.adversity.empty()) out += "\nadversity:\n";
  for (const auto& e : r.adversity) {
    out += "  #" + std::to_string(e.seq) + " " + e.kind + " on " +
           (e.method_path.empty() ? std::string("?") : e.method_path) + ": " +
           (e.survived ? "survived, " : "not survived, ") + e.outcome + "\n";
  }
  for (const auto& f : r.run.failures) {
    out += "\nFAILED " + f.check + " (" + f.auth_model + ")\n  expected: " + f.expected +
           "\n  seen:     " + f.seen + "\n  evidence:\n";
    for (const auto& l : f.evidence) out += "    " + l + "\n";
  }
  return detail::shown(out);  // what a client sent, safe for a terminal
}

}  // namespace conform::reports
