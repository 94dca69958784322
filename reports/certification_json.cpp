// The certification report as JSON and as console text.
#include <boost/json.hpp>

#include <cstdio>

#include "reports/certification.hpp"

#include "core/text.hpp"
#include "reports/detail_text.hpp"
#include "reports/json.hpp"

namespace conform::reports {

namespace {

double secs(std::chrono::microseconds d) {
  return static_cast<double>(d.count()) / 1e6;
}

/// A list of strings as a JSON array.
boost::json::array string_array(const std::vector<std::string>& v) {
  boost::json::array a;
  for (const auto& x : v) a.emplace_back(x);
  return a;
}

/// The plan's passes, each with its verdict.
boost::json::array certification_passes_json(const harness::certification_report& r) {
  boost::json::array passes;
  for (const auto& p : r.passes) {
    passes.push_back({{"name", p.name},
                      {"adversity", p.adversity},
                      {"run", p.run},
                      {"not_run_why", p.not_run_why},
                      {"certified", p.certified},
                      {"verdict", p.verdict},
                      {"causes", string_array(p.causes)},
                      {"plan", string_array(p.adversity_plan)},
                      {"not_met", string_array(p.unmet_adversity)},
                      {"client_exit", p.client_exit},
                      {"completion_judged", p.completion_judged},
                      {"requests", p.requests}});
  }
  return passes;
}

/// Each rule: what it enforces, its level, and how the client kept it.
boost::json::array certification_rules_json(const harness::certification_report& r) {
  boost::json::array rules;
  for (const auto& v : r.rules) {
    boost::json::object o{{"check", v.check},
                          {"description", v.description},
                          {"rule", v.rule},
                          {"source", v.source},
                          {"level", std::string(harness::to_string(v.level))},
                          {"status", std::string(harness::to_string(v.what))},
                          {"judged", v.judged},
                          {"broken", v.broken},
                          {"not_exercised", v.not_exercised}};
    if (!v.not_exercised_why.empty()) o["not_exercised_why"] = v.not_exercised_why;
    rules.push_back(std::move(o));
  }
  return rules;
}

/// Calls per operation and auth model, with the adversity they met.
boost::json::array certification_coverage_json(const harness::certification_report& r) {
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
  return coverage;
}

/// The adversity planned, met (each event) and not met.
boost::json::object certification_adversity_json(const harness::certification_report& r) {
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
                      {"judged", e.judged},
                      {"rule", e.owner},
                      {"outcome", e.outcome},
                      {"pass", e.pass}});
  }
  boost::json::array unmet;
  for (const auto& u : r.unmet_adversity) unmet.emplace_back(u);
  return {{"plan", std::move(plan)}, {"events", std::move(events)}, {"not_met", std::move(unmet)}};
}

/// The rules broken, each with its evidence.
boost::json::array certification_failures_json(const harness::certification_report& r) {
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
  return failures;
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
  boost::json::array causes;
  for (const auto& c : r.causes) causes.emplace_back(c);
  out["causes"] = std::move(causes);
  boost::json::array artifacts;
  for (const auto& [file, digest] : r.client_artifacts) {
    artifacts.push_back({{"file", file}, {"sha256", digest}});
  }
  out["client"] = {{"command", r.client_command},
                   {"exit", r.client_exit},
                   {"name", r.client_name},
                   {"artifacts", std::move(artifacts)}};
  if (!r.transcript.empty()) {
    out["transcript"] = {{"file", r.transcript}, {"sha256", r.transcript_sha256}};
  }
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
  out["scope"] = {{"operations", string_array(r.scope.operations)},
                  {"source", r.scope.source},
                  {"classes", string_array(r.scope.classes)},
                  {"rules_judged", string_array(r.scope.rules_judged)},
                  {"rules_not_applicable", string_array(r.scope.rules_not_applicable)}};
  out["passes"] = certification_passes_json(r);
  out["rules"] = certification_rules_json(r);
  out["coverage"] = certification_coverage_json(r);
  out["adversity"] = certification_adversity_json(r);
  // The cells, failures (with their evidence) and not-runs, as a run reports them.
  const boost::json::value run = to_json(r.run);
  out["cells"] = run.at("cells");
  out["failures"] = certification_failures_json(r);
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
  if (r.causes.size() > 1) {
    out += "  why, the first cause first:\n";
    for (std::size_t i = 0; i < r.causes.size(); ++i) {
      out += "    " + std::to_string(i + 1) + ". " + r.causes[i] + "\n";
    }
  }
  out +=
      "  client: " + (r.client_name.empty() ? r.client_command : r.client_name) +
      (r.client_name.empty() || r.client_name == r.client_command ? std::string()
                                                                  : " (" + r.client_command + ")") +
      (r.client_exit.empty() ? "" : ", " + r.client_exit) + "\n";
  for (const auto& [file, digest] : r.client_artifacts) {
    out += "  artifact: " + file + " (sha256 " + digest + ")\n";
  }
  if (!r.transcript.empty()) {
    out += "  transcript: " + r.transcript + " (sha256 " + r.transcript_sha256 + ")\n";
  }
  out += "  requests: " + std::to_string(r.requests) + ", seed " + std::to_string(r.run.info.seed) +
         "\n";
  if (!r.scope.operations.empty()) {
    out += "  scope (" + r.scope.source + "): " + std::to_string(r.scope.operations.size()) +
           " operations: " + core::join(r.scope.operations) + "\n";
  }
  if (!r.passes.empty()) out += "\npasses:\n";
  for (const auto& p : r.passes) {
    char line[64];
    std::snprintf(line, sizeof line, "  %-11s ", p.name.c_str());
    out += line;
    if (!p.run) {
      out += p.not_run_why + "\n";
      continue;
    }
    out += std::to_string(p.requests) + " requests, " + p.client_exit +
           (p.completion_judged ? "" : " (completion not judged: an outage)") + "; " +
           (p.certified ? "nothing held against the client" : core::join(p.causes, "; ")) + "\n";
  }
  if (!r.adversity.empty() || !r.unmet_adversity.empty()) out += "\nadversity:\n";
  for (const auto& e : r.adversity) {
    out += "  " + (e.pass.empty() ? std::string() : e.pass + " ") + "#" + std::to_string(e.seq) +
           " " + e.kind + " on " + (e.method_path.empty() ? std::string("?") : e.method_path) +
           ": " +
           (!e.judged    ? "not judged, "
            : e.survived ? "survived, "
                         : "NOT SURVIVED (" + e.owner + "), ") +
           e.outcome + "\n";
  }
  for (const auto& u : r.unmet_adversity) out += "  not met: " + u + "\n";
  out += "\nrules:\n";
  for (const auto& v : r.rules) {
    char line[256];
    std::snprintf(line, sizeof line, "  %-14s %-9s %-34s",
                  std::string(harness::to_string(v.what)).c_str(),
                  std::string(harness::to_string(v.level)).c_str(), v.check.c_str());
    out += line;
    out += v.what == harness::rule_verdict::status::not_exercised ||
                   v.what == harness::rule_verdict::status::not_applicable
               ? v.not_exercised_why
               : std::to_string(v.judged) + " held, " + std::to_string(v.broken) + " broken";
    out += "\n";
  }
  for (const auto& f : r.run.failures) {
    out += "\nFAILED " + f.check + " (" + f.auth_model + ")\n  " +
           (f.check == harness::completed_rule ? "the programme requires: "
                                               : "the description says: ") +
           f.expected + "\n  seen:     " + f.seen + "\n  evidence:\n";
    for (const auto& l : f.evidence) out += "    " + l + "\n";
  }
  return detail::shown(out);  // what a client sent, safe for a terminal
}

}  // namespace conform::reports
