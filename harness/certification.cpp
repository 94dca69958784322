#include "harness/certification.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "harness/results.hpp"

namespace conform::harness {

namespace {

std::string seconds(std::chrono::microseconds d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f s", static_cast<double>(d.count()) / 1e6);
  return buf;
}

/// Whether the client got past the adversity scripted for exchange `i`.
adversity_event event_of(const traffic& t, std::size_t i) {
  const traffic_exchange& e = t.exchanges[i];
  adversity_event ev;
  ev.seq = e.seq;
  ev.at = e.sent;
  ev.kind = e.adversity;
  ev.detail = e.adversity_detail;
  if (e.op) {
    ev.operation_id = e.op->operation_id;
    ev.method_path = e.op->method_path();
  }
  if (e.adversity == "slow") {
    ev.survived = e.status != 0;
    ev.outcome = "answered " + std::to_string(e.status) + " after " + seconds(e.answered - e.sent) +
                 "; the client waited for it";
    return ev;
  }
  for (std::size_t j = i + 1; j < t.exchanges.size(); ++j) {
    const traffic_exchange& later = t.exchanges[j];
    if (!same_request(e, later)) continue;
    if (later.status == 0 || later.status == 429 || later.status >= 500) continue;
    ev.survived = later.status < 400;
    ev.outcome = "retried; answered " + std::to_string(later.status) + " at #" +
                 std::to_string(later.seq) + ", " + seconds(later.sent - e.answered) +
                 " after the failure";
    if (later.response_header("Idempotent-Replayed")) ev.outcome += " (an idempotent replay)";
    return ev;
  }
  ev.outcome = "never retried to an answer";
  return ev;
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

certification_report judge_traffic(const traffic& t,
                                   const std::vector<const traffic_check*>& checks,
                                   rule_level level, const run_info& info, listener& events) {
  certification_report out;
  out.level = level;
  out.environment = t.environment;
  out.requests = t.exchanges.size();
  out.run.info = info;
  out.run.counts.requests = t.exchanges.size();
  const auto started = std::chrono::steady_clock::now();

  results_sink sink(*t.spec, events);
  events.run_started(info, 0);
  events.phase_started(phase::scenarios, checks.size());
  for (const traffic_check* c : checks) {
    c->run(t, sink);
    rule_verdict v;
    v.check = c->info.name;
    v.description = c->info.description;
    v.rule = c->info.rule;
    v.level = c->level;
    std::tie(v.judged, v.broken) = sink.totals(c->info.name);
    if (v.broken > 0) {
      v.what = rule_verdict::status::failed;
    } else if (v.judged > 0) {
      v.what = rule_verdict::status::passed;
    } else {
      v.not_exercised_why = "not exercised: the client's traffic had no " + c->exercised_by;
      sink.not_run(nullptr, "", c->info.name, v.not_exercised_why);
    }
    out.rules.push_back(std::move(v));
  }
  sink.finish(results_sink::origin::scenarios);
  events.phase_finished(phase::scenarios);
  sink.fold_into(out.run);
  for (const auto& e : t.exchanges) {
    if (e.status == 0) ++out.run.counts.transport_errors;
    if (e.status == 429) ++out.run.counts.retries_429;
  }

  // The coverage matrix and the adversity timeline.
  std::map<std::pair<std::string, std::string>, std::size_t> row_of;
  for (std::size_t i = 0; i < t.exchanges.size(); ++i) {
    const traffic_exchange& e = t.exchanges[i];
    const std::string op_id = e.op ? e.op->operation_id : "";
    auto [it, added] = row_of.try_emplace({op_id, e.auth_model()}, out.coverage.size());
    if (added) {
      coverage_row row;
      row.operation_id = op_id;
      row.method_path = e.op ? e.op->method_path()
                             : std::string(http::method_name(e.request.method)) + " " + e.path;
      row.auth_model = e.auth_model();
      out.coverage.push_back(std::move(row));
    }
    coverage_row& row = out.coverage[it->second];
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
    if (!e.adversity.empty()) {
      if (std::find(row.adversity.begin(), row.adversity.end(), e.adversity) == row.adversity.end())
        row.adversity.push_back(e.adversity);
      out.adversity.push_back(event_of(t, i));
    }
  }
  // Operations in the description's order, then the auth model.
  auto rank = [&](const std::string& id) {
    for (std::size_t i = 0; i < t.spec->operations.size(); ++i) {
      if (t.spec->operations[i].operation_id == id) return i;
    }
    return t.spec->operations.size();
  };
  std::stable_sort(out.coverage.begin(), out.coverage.end(), [&](const auto& a, const auto& b) {
    return std::pair(rank(a.operation_id), a.auth_model) <
           std::pair(rank(b.operation_id), b.auth_model);
  });

  // The verdict.
  std::vector<std::string> failed, missing;
  for (const auto& r : out.rules) {
    if (r.what == rule_verdict::status::failed) failed.push_back(r.check);
    if (r.what == rule_verdict::status::not_exercised && r.level <= level) {
      missing.push_back(r.check);
    }
  }
  auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
  };
  if (t.exchanges.empty()) {
    out.verdict = "not certified: the client sent no request";
  } else if (!failed.empty()) {
    out.verdict = "not certified: the client broke " + join(failed);
  } else if (!missing.empty()) {
    out.verdict = "not certified: the " + std::string(to_string(level)) +
                  " level needs every rule exercised; not exercised: " + join(missing);
  } else {
    out.certified = true;
    out.verdict = "certified at level " + std::string(to_string(level)) + ": " +
                  std::to_string(out.passed_rules().size()) + " rules kept over " +
                  std::to_string(t.exchanges.size()) + " requests";
  }
  out.run.timings.wall = std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::steady_clock::now() - started);
  events.run_finished(out.run);
  return out;
}

}  // namespace conform::harness
