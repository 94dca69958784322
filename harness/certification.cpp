#include "harness/certification.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <tuple>

#include "core/text.hpp"
#include "harness/results.hpp"

namespace conform::harness {

namespace {

constexpr const char* completed_name = completed_rule;

/// True when `i` is where an adversity was met, not a later attempt of the
/// same request failing on (a 5xx chain, an outage).
bool first_meeting(const traffic& t, std::size_t i) {
  const traffic_exchange& e = t.exchanges[i];
  if (e.adversity.empty()) return false;
  for (std::size_t j = 0; j < i; ++j) {
    const traffic_exchange& earlier = t.exchanges[j];
    if (earlier.adversity == e.adversity && same_request(earlier, e)) return false;
  }
  return true;
}

adversity_event event_at(const traffic_exchange& e) {
  adversity_event ev;
  ev.seq = e.seq;
  ev.at = e.sent;
  ev.kind = e.adversity;
  ev.detail = e.adversity_detail;
  if (e.op) {
    ev.operation_id = e.op->operation_id;
    ev.method_path = e.op->method_path();
  } else {
    ev.method_path = std::string(http::method_name(e.request.method)) + " " + e.path;
  }
  return ev;
}

/// The coverage matrix: calls per (operation, auth model), in the description's order.
std::vector<coverage_row> coverage_of(const traffic& t) {
  std::vector<coverage_row> out;
  std::map<std::pair<std::string, std::string>, std::size_t> row_of;
  for (const traffic_exchange& e : t.exchanges) {
    const std::string op_id = e.op ? e.op->operation_id : "";
    auto [it, added] = row_of.try_emplace({op_id, e.auth_model()}, out.size());
    if (added) {
      coverage_row row;
      row.operation_id = op_id;
      row.method_path = e.op ? e.op->method_path()
                             : std::string(http::method_name(e.request.method)) + " " + e.path;
      row.auth_model = e.auth_model();
      out.push_back(std::move(row));
    }
    coverage_row& row = out[it->second];
    ++row.calls;
    if (e.status == 0) {
      ++row.no_answer;
    } else if (e.status < 400) {
      ++row.succeeded;
    } else if (e.status < 500) {
      ++row.client_errors;
    } else {
      ++row.server_errors;
    }
    if (!e.adversity.empty() &&
        std::find(row.adversity.begin(), row.adversity.end(), e.adversity) == row.adversity.end())
      row.adversity.push_back(e.adversity);
  }
  auto rank = [&](const std::string& id) {
    for (std::size_t i = 0; i < t.spec->operations.size(); ++i) {
      if (t.spec->operations[i].operation_id == id) return i;
    }
    return t.spec->operations.size();
  };
  std::stable_sort(out.begin(), out.end(), [&](const auto& a, const auto& b) {
    return std::pair(rank(a.operation_id), a.auth_model) <
           std::pair(rank(b.operation_id), b.auth_model);
  });
  return out;
}

std::string describe_plan(const planned_adversity& p) {
  return p.kind + " on " + p.where + ": " + p.what;
}

/// The client's exit as a cell of its own, so that JUnit says what the
/// verdict says when the client failed and no rule did.
void judge_completion(const client_outcome& client, results_sink& sink, std::uint64_t seed) {
  const auto c = sink.cell(nullptr, "", completed_name, results_sink::origin::scenarios);
  if (client.completed) {
    results_sink::pass(c);
    return;
  }
  results_sink::count_failure(c);
  failure f;
  f.check = completed_name;
  f.mode = {failure_mode::kind::traffic, completed_name};
  f.expected =
      "the certification programme (docs/certification.md, not the description) requires the "
      "client command to complete (exit 0 within --timeout) in a pass that scripts nothing it "
      "cannot get past";
  f.seen = "the client " + client.exit;
  f.cause = "client did not complete";
  f.seed = seed;
  sink.report(c, std::move(f), 0);
}

}  // namespace

std::string_view to_string(rule_verdict::status s) {
  switch (s) {
    case rule_verdict::status::passed:
      return "passed";
    case rule_verdict::status::failed:
      return "failed";
    case rule_verdict::status::not_exercised:
      return "not_exercised";
    case rule_verdict::status::not_applicable:
      return "not_applicable";
  }
  return "not_exercised";
}

std::vector<std::string> certification_report::passed_rules() const {
  std::vector<std::string> out;
  for (const auto& r : rules) {
    if (r.what == rule_verdict::status::passed) out.push_back(r.check);
  }
  return out;
}

namespace {

/// Each adversity met that a rule judged, by the request's seq: how the
/// client fared, and the rule that judged it.
using adversity_verdicts = std::map<std::uint64_t, std::pair<adversity_judged, std::string>>;

/// A rule as its check judged the traffic, before the verdict.
struct judged_rule {
  rule_verdict v;
  std::string first_not_exercised;
};

/// Runs every check over the traffic: what each held, broke or could not
/// exercise, and the adversity each judged (into `judged`).
std::vector<judged_rule> run_traffic_checks(const traffic& t,
                                            const std::vector<const traffic_check*>& checks,
                                            results_sink& sink, adversity_verdicts& judged) {
  std::vector<judged_rule> ran;
  for (const traffic_check* c : checks) {
    traffic_judgement j(t, sink, c->info.name);
    c->run(t, j);
    judged_rule r;
    r.v.check = c->info.name;
    r.v.description = c->info.description;
    // The description's own citation where it gives one (x-rule-citations).
    const auto* cited = t.spec->rules.citation_of(c->info.name);
    r.v.rule = cited ? cited->rule : c->info.rule;
    r.v.level = c->level;
    r.v.judged = j.held_count();
    r.v.broken = j.broken_count();
    r.v.not_exercised = j.not_exercised_count();
    r.first_not_exercised = j.first_not_exercised();
    for (const auto& a : j.adversity_judged_list()) judged[a.at->seq] = {a, c->info.name};
    ran.push_back(std::move(r));
  }
  return ran;
}

/// Each rule's status: failed when broken, else not exercised while the
/// adversity it owns was not met, else passed when it held anywhere.
void settle_rule_verdicts(const traffic& t, const std::vector<const traffic_check*>& checks,
                          std::vector<judged_rule>& ran, bool ended_on_outage, results_sink& sink,
                          certification_report& out) {
  for (std::size_t i = 0; i < checks.size(); ++i) {
    const traffic_check* c = checks[i];
    rule_verdict& v = ran[i].v;
    std::vector<std::string> owned_unmet;
    for (const auto& p : t.planned) {
      if (p.met_at == 0 && !ended_on_outage &&
          std::find(c->owns.begin(), c->owns.end(), p.kind) != c->owns.end()) {
        owned_unmet.push_back(p.kind + " on " + p.where);
      }
    }
    if (v.broken > 0) {
      v.what = rule_verdict::status::failed;
    } else if (!owned_unmet.empty()) {
      v.not_exercised_why = "not exercised: the planned adversity it judges was not met (" +
                            core::join(owned_unmet, "; ") + ")";
    } else if (v.judged > 0) {
      v.what = rule_verdict::status::passed;
    } else if (!ran[i].first_not_exercised.empty()) {
      v.not_exercised_why = "not exercised: " + ran[i].first_not_exercised;
    } else {
      v.not_exercised_why = "not exercised: the client's traffic had no " + c->exercised_by;
    }
    if (v.what == rule_verdict::status::not_exercised) {
      sink.not_run(nullptr, "", c->info.name, v.not_exercised_why);
    }
    out.rules.push_back(std::move(v));
  }
}

/// Every adversity the client met, once, with how it fared and the rule
/// that judged it (or why none did).
std::vector<adversity_event> adversity_timeline(const traffic& t,
                                                const adversity_verdicts& judged) {
  std::vector<adversity_event> out;
  for (std::size_t i = 0; i < t.exchanges.size(); ++i) {
    if (!first_meeting(t, i)) continue;
    adversity_event ev = event_at(t.exchanges[i]);
    auto it = judged.find(ev.seq);
    if (it == judged.end()) {
      ev.judged = false;
      ev.outcome = "not judged: no selected rule judges " + ev.kind;
    } else {
      ev.survived = it->second.first.survived;
      ev.outcome = it->second.first.outcome;
      ev.owner = it->second.second;
    }
    out.push_back(std::move(ev));
  }
  return out;
}

/// The verdict: the causes, the client's own first.
void state_traffic_verdict(const traffic& t, const client_outcome& client, rule_level level,
                           bool adversity_unmet, certification_report& out) {
  std::vector<std::string> failed, missing;
  for (const auto& r : out.rules) {
    if (r.what == rule_verdict::status::failed) failed.push_back(r.check);
    if (r.what == rule_verdict::status::not_exercised && r.level <= level) {
      missing.push_back(r.check);
    }
  }
  auto& causes = out.causes;
  if (client.known && !client.completed && !client.unrecoverable) {
    causes.push_back("the client did not complete (" + client.exit + ")");
  }
  if (t.exchanges.empty()) causes.push_back("the client sent no request");
  for (const auto& ev : out.adversity) {
    if (!ev.judged || ev.survived) continue;
    causes.push_back("the client did not get past " + ev.kind + " at #" + std::to_string(ev.seq) +
                     " (" + ev.method_path + "): " + ev.outcome + "; this breaks " + ev.owner);
  }
  if (!failed.empty()) causes.push_back("the client broke " + core::join(failed));
  if (adversity_unmet) {
    std::vector<std::string> short_unmet;
    for (const auto& p : t.planned) {
      if (p.met_at != 0) continue;
      // "the first keyed write (a POST with an Idempotency-Key)": the class without its gloss.
      short_unmet.push_back(p.kind + " (" + p.where.substr(0, p.where.find(" (")) + ")");
    }
    causes.push_back("planned adversity not met, the client never sent what it waits for: " +
                     core::join(short_unmet));
  }
  if (!missing.empty() && !t.exchanges.empty() && !client.in_plan) {
    causes.push_back("the " + std::string(to_string(level)) +
                     " level needs every rule exercised; not exercised: " + core::join(missing));
  }
  if (!client.adversity) {
    causes.push_back("--no-adversity (a certificate needs the scripted adversity)");
  }
  out.certified = causes.empty();
  if (out.certified) {
    out.verdict = "certified at level " + std::string(to_string(level)) + ": " +
                  std::to_string(out.passed_rules().size()) + " rules kept over " +
                  std::to_string(t.exchanges.size()) + " requests";
  } else {
    out.verdict = "not certified: " + core::join(causes, "; ");
  }
}

}  // namespace

certification_report judge_traffic(const traffic& t,
                                   const std::vector<const traffic_check*>& checks,
                                   rule_level level, const run_info& info, listener& events,
                                   const client_outcome& client) {
  certification_report out;
  out.level = level;
  out.environment = t.environment;
  out.requests = t.exchanges.size();
  out.run.info = info;
  out.run.counts.requests = t.exchanges.size();
  out.client_exit = client.exit;
  const auto started = std::chrono::steady_clock::now();

  std::vector<std::string> unmet;
  for (const auto& p : t.planned) {
    if (p.met_at == 0) unmet.push_back(describe_plan(p));
  }

  results_sink sink(*t.spec, events);
  events.run_started({info, 0});
  events.phase_started({phase::scenarios, checks.size()});
  adversity_verdicts judged;
  std::vector<judged_rule> ran = run_traffic_checks(t, checks, sink, judged);
  // In a pass that scripts an outage, a client that gave up on it may end
  // its run there (section 7: escalate a persistent failure): what it never
  // reached afterwards is not held against it.
  bool gave_up = false;
  for (const auto& [seq, a] : judged) {
    gave_up = gave_up || (a.first.at->adversity == "outage" && a.first.survived);
  }
  const bool ended_on_outage = client.unrecoverable && gave_up;
  if (ended_on_outage) unmet.clear();
  out.unmet_adversity = unmet;
  settle_rule_verdicts(t, checks, ran, ended_on_outage, sink, out);
  if (client.known && !client.unrecoverable) judge_completion(client, sink, t.seed);
  if (client.known && client.unrecoverable) {
    sink.not_run(nullptr, "", completed_rule,
                 "not judged in this pass: it scripts an outage, after which a client may end "
                 "its run as the description allows (section 7)");
  }
  events.phase_finished({phase::scenarios});
  sink.fold_into(out.run);
  for (const auto& e : t.exchanges) {
    if (e.status == 0) ++out.run.counts.transport_errors;
    if (e.status == 429) ++out.run.counts.retries_429;
  }

  out.coverage = coverage_of(t);
  out.adversity = adversity_timeline(t, judged);
  state_traffic_verdict(t, client, level, !unmet.empty(), out);
  out.run.timings.wall = std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::steady_clock::now() - started);
  events.run_finished({out.run});
  return out;
}

namespace {

/// Why nothing in `scope` lets `c` apply ("not applicable: ..."); nullopt
/// when something does: an operation it judges, and a pass that scripted an
/// adversity kind it owns.
std::optional<std::string> not_applicable(const traffic_check& c, const certification_scope& scope,
                                          const std::vector<pass_summary>& passes,
                                          const openapi::api_spec& spec) {
  if (c.applies) {
    bool any = false;
    for (const auto& op : spec.operations) {
      if (std::find(scope.operations.begin(), scope.operations.end(), op.operation_id) !=
              scope.operations.end() &&
          c.applies(op)) {
        any = true;
      }
    }
    if (!any) return "not applicable: the scope has no " + c.exercised_by;
  }
  if (!c.owns.empty()) {
    for (const auto& p : passes) {
      for (const auto& k : p.planned_kinds) {
        if (std::find(c.owns.begin(), c.owns.end(), k) != c.owns.end()) return std::nullopt;
      }
    }
    return "not applicable: no pass scripted " + core::join(c.owns, " or ") +
           " on the scope's requests (the programme scripts it on other classes)";
  }
  return std::nullopt;
}

/// Where each coverage row and tally of the combined report is, by key.
struct combined_places {
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> tally_at;
  std::map<std::pair<std::string, std::string>, std::size_t> row_at;
};

/// One pass's coverage rows added into the combined matrix.
void add_pass_coverage(const certification_report& r, combined_places& at,
                       certification_report& out) {
  for (const auto& c : r.coverage) {
    auto [it, added] = at.row_at.try_emplace({c.operation_id, c.auth_model}, out.coverage.size());
    if (added) {
      out.coverage.push_back(c);
      continue;
    }
    coverage_row& row = out.coverage[it->second];
    row.calls += c.calls;
    row.succeeded += c.succeeded;
    row.client_errors += c.client_errors;
    row.server_errors += c.server_errors;
    row.no_answer += c.no_answer;
    for (const auto& a : c.adversity) {
      if (std::find(row.adversity.begin(), row.adversity.end(), a) == row.adversity.end())
        row.adversity.push_back(a);
    }
  }
}

/// One pass's report added into the combined one: its counts, adversity,
/// coverage, failures, judged cells and causes, each named by its pass.
void add_pass_report(const pass_summary& p, const certification_report& r, combined_places& at,
                     certification_report& out) {
  out.requests += r.requests;
  out.run.counts.requests += r.run.counts.requests;
  out.run.counts.transport_errors += r.run.counts.transport_errors;
  out.run.counts.retries_429 += r.run.counts.retries_429;
  for (const auto& line : r.adversity_plan) out.adversity_plan.push_back(p.name + ": " + line);
  for (const auto& line : r.unmet_adversity) {
    out.unmet_adversity.push_back(p.name + ": " + line);
  }
  for (auto ev : r.adversity) {
    ev.pass = p.name;
    out.adversity.push_back(std::move(ev));
  }
  add_pass_coverage(r, at, out);
  for (auto f : r.run.failures) {
    f.seen = "in the " + p.name + " pass: " + f.seen;
    out.run.failures.push_back(std::move(f));
  }
  for (const auto& tl : r.run.tallies) {
    if (tl.not_run_why) continue;  // rebuilt from the combined verdicts
    auto [it, added] =
        at.tally_at.try_emplace({tl.operation_id, tl.auth_model, tl.check}, out.run.tallies.size());
    if (added) {
      out.run.tallies.push_back(tl);
      continue;
    }
    check_tally& into = out.run.tallies[it->second];
    into.passed += tl.passed;
    into.failed += tl.failed;
    into.contradicted += tl.contradicted;
    into.time += tl.time;
    into.nothing_judged = into.nothing_judged && tl.nothing_judged;
  }
  for (const auto& cause : r.causes) out.causes.push_back("in the " + p.name + " pass, " + cause);
}

/// Rule `i` over every pass that ran: failed when any pass broke it, else
/// passed when any held it, else not exercised, with the first pass's why.
rule_verdict combine_rule(std::size_t i, const std::vector<certification_report>& reports,
                          const std::vector<pass_summary>& passes) {
  rule_verdict v;
  bool any_pass = false;
  std::size_t k = 0;
  for (const auto& p : passes) {
    if (!p.run) continue;
    const rule_verdict& in = reports.at(k++).rules.at(i);
    if (!any_pass) {
      v = in;
      v.judged = v.broken = v.not_exercised = 0;
      v.not_exercised_why.clear();
      v.what = rule_verdict::status::not_exercised;
      any_pass = true;
    }
    v.judged += in.judged;
    v.broken += in.broken;
    v.not_exercised += in.not_exercised;
    if (in.what == rule_verdict::status::failed) v.what = rule_verdict::status::failed;
    if (in.what == rule_verdict::status::passed && v.what != rule_verdict::status::failed) {
      v.what = rule_verdict::status::passed;
    }
    if (in.what == rule_verdict::status::not_exercised && v.not_exercised_why.empty()) {
      v.not_exercised_why = in.not_exercised_why + " (the " + p.name + " pass)";
    }
  }
  return v;
}

/// The verdict over every pass: certified when nothing is held against
/// the client.
void state_combined_verdict(const certification_scope& scope, rule_level level,
                            const std::vector<std::string>& missing, certification_report& out) {
  if (scope.operations.empty()) {
    out.causes.push_back("the scope holds no authenticated operation: the baseline pass saw none");
  }
  if (!missing.empty()) {
    out.causes.push_back("the " + std::string(to_string(level)) +
                         " level needs every rule that applies to the scope exercised; not "
                         "exercised: " +
                         core::join(missing));
  }
  out.certified = out.causes.empty();
  if (out.certified) {
    out.verdict = "certified at level " + std::string(to_string(level)) + " for " +
                  std::to_string(scope.operations.size()) +
                  " operations: " + std::to_string(out.passed_rules().size()) +
                  " rules kept over " + std::to_string(out.requests) + " requests in " +
                  std::to_string(out.passes.size()) + " passes";
  } else {
    out.verdict = "not certified: " + core::join(out.causes, "; ");
  }
}

}  // namespace

certification_report combine_passes(const std::vector<certification_report>& reports,
                                    std::vector<pass_summary> passes,
                                    const certification_scope& scope,
                                    const std::vector<const traffic_check*>& checks,
                                    const openapi::api_spec& spec, rule_level level) {
  certification_report out;
  if (!reports.empty()) {
    out.environment = reports.front().environment;
    out.run.info = reports.front().run.info;
  }
  out.level = level;
  out.scope = scope;
  combined_places at;
  std::size_t k = 0;
  for (const auto& p : passes) {
    if (p.run) add_pass_report(p, reports.at(k++), at, out);
  }
  // Each rule over every pass.
  std::vector<std::string> missing;
  for (std::size_t i = 0; i < checks.size(); ++i) {
    const traffic_check& c = *checks[i];
    rule_verdict v = combine_rule(i, reports, passes);
    const auto why = v.what == rule_verdict::status::failed
                         ? std::nullopt
                         : not_applicable(c, scope, passes, spec);
    if (why) {
      v.what = rule_verdict::status::not_applicable;
      v.not_exercised_why = *why;
      out.scope.rules_not_applicable.push_back(c.info.name);
    } else {
      out.scope.rules_judged.push_back(c.info.name);
    }
    if (v.what == rule_verdict::status::passed || v.what == rule_verdict::status::failed) {
      v.not_exercised_why.clear();  // what a pass did not exercise, another did
    }
    if (v.what == rule_verdict::status::not_exercised ||
        v.what == rule_verdict::status::not_applicable) {
      out.run.not_runs.push_back({c.info.name, "", "", v.not_exercised_why});
      ++out.run.counts.cells_not_run;
    }
    if (v.what == rule_verdict::status::not_exercised && v.level <= level) {
      missing.push_back(c.info.name);
    }
    out.rules.push_back(std::move(v));
  }
  for (const auto& tl : out.run.tallies) {
    out.run.counts.checks_passed += tl.passed;
    out.run.counts.checks_failed += tl.failed;
  }
  out.passes = std::move(passes);
  state_combined_verdict(scope, level, missing, out);
  return out;
}

}  // namespace conform::harness
