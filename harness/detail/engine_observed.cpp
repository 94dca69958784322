// The exchanges the plan did not generate: a scenario's requests, the
// stateful walk's steps and the re-sends of shrinking. Each goes through
// every enabled check that judges the answer alone, so that what a phase
// triggers is judged wherever it was triggered (issue 37).

#include "harness/detail/engine.hpp"

namespace conform::harness::detail {

bool engine::judges_answers() const {
  const auto& checks = config_.checks.exchange;
  return std::any_of(checks.begin(), checks.end(),
                     [](const exchange_check* k) { return k->answers_alone; });
}

scenario_context::observer engine::observer_for(phase p, std::string mode, bool judge) {
  scenario_context::observer record;
  if (recorder_) record = recorder_for(p, mode);
  judge = judge && judges_answers();
  observed how;
  how.p = p;
  how.label = mode;
  how.mode = {failure_mode::kind::scenario,
              "a request of the " + std::string(to_string(p)) + " phase"};
  return [this, record = std::move(record), judge, how = std::move(how)](
             const http::request& req, const http::result& res, const boost::json::value* json,
             std::chrono::system_clock::time_point started) {
    if (record) record(req, res, json, started);
    // Counted like the plan's: a scenario's or a step's request unanswered.
    if (!res.ok()) transport_errors_.fetch_add(1, std::memory_order_relaxed);
    if (watch(res)) return;  // refused: the target is gone, and the run says so once
    if (judge) judge_observed(how, req, res, json);
    const auto* op = operation_of(spec_, req);
    if (!op) return;
    // Kept for a dying target's failure: a copy, but never of a body of
    // megabytes (payload_too_large sends one on purpose), which would stay
    // in memory for nothing but a reproduction no one could paste.
    constexpr std::size_t kept_body = 64 * 1024;
    if (req.body.size() <= kept_body) {
      remember({0, req, op, nullptr, how.label, how.mode, results_sink::origin::scenarios, res});
      return;
    }
    http::request head{
        req.method,      req.target,
        req.headers,     "<a body of " + std::to_string(req.body.size()) + " bytes, not kept>",
        req.method_text, req.client_identity};
    remember({0, std::move(head), op, nullptr, how.label, how.mode, results_sink::origin::scenarios,
              res});
  };
}

bool engine::judge_observed(const observed& how, const http::request& req, const http::result& res,
                            const boost::json::value* json) {
  const openapi::operation* op = how.c ? how.c->op : operation_of(spec_, req);
  if (op == nullptr) return false;  // no operation of the description: nothing documents it
  // Why the body is not JSON, said only when it is not: parsed again for
  // the parser's message alone.
  std::string json_error;
  if (json == nullptr) {
    if (!res.ok()) {
      json_error = "no response";
    } else if (res.value().body.empty()) {
      json_error = "empty body";
    } else {
      boost::system::error_code ec;
      (void)boost::json::parse(res.value().body, ec);
      json_error = ec ? ec.message() : "not JSON";
    }
  }
  auth_model phase_auth;
  phase_auth.name = how.label;
  generators::request_mode phase_mode;
  phase_mode.description = how.mode.detail;
  const exchange e{spec_,
                   *op,
                   how.c ? how.c->auth->model : phase_auth,
                   how.g ? how.g->mode : phase_mode,
                   req,
                   res,
                   json,
                   json_error,
                   how.g};
  const auto& checks = config_.checks.exchange;
  bool judged = false;
  for (std::size_t k = 0; k < checks.size(); ++k) {
    const exchange_check& chk = *checks[k];
    if (!chk.answers_alone || k == how.skip) continue;
    results_sink::cell_id cell = nullptr;
    if (how.c) {
      cell = (*how.c->cell_of_check)[k];
    } else if (!chk.concerns || chk.concerns(spec_, *op)) {
      cell = results_.cell(op, how.label, chk.info.name, results_sink::origin::scenarios);
    }
    if (cell == nullptr) continue;
    judged = true;
    check_verdict v = chk.run(e);
    if (v.what == check_verdict::kind::not_run) {
      // A re-send's cell says what the plan's exchanges could not judge.
      if (!how.c) results_.not_run(cell, std::move(v.seen));
      continue;
    }
    if (v.what == check_verdict::kind::pass) {
      // A re-send is judged for what it shows; the cell counts the plan's.
      if (!how.c) results_sink::pass(cell);
      continue;
    }
    if (v.what != check_verdict::kind::violation) continue;
    if (how.c) {
      // What the plan's own exchanges showed is reported, shrunk, by shrinking.
      const failure_key key{op->operation_id, how.label, chk.info.name, v.cause};
      if (candidates_.count(key) > 0) continue;
    }
    results_sink::count(cell, v);
    failure f;
    f.check = chk.info.name;
    f.operation_id = op->operation_id;
    f.method_path = op->method_path();
    f.auth_model = how.label;
    f.mode = how.mode;
    f.expected = redact(v.expected);
    f.seen = redact(v.seen);
    f.cause = v.cause;
    f.assumptions = v.assumptions;
    f.seed = config_.seed;
    f.curl = http::to_curl(req, client_.base(), redactor_);
    if (res.ok()) {
      const auto& answer = res.value();
      f.status = answer.status;
      const std::string* type = answer.find(http::field::content_type);
      f.response_excerpt =
          redact(core::body_excerpt(answer.body, type ? *type : std::string(), 300));
    }
    // After the failures of the plan's own exchanges of the same operation.
    const std::uint64_t order =
        (std::uint64_t{1} << 40) + observed_order_.fetch_add(1, std::memory_order_relaxed);
    results_.report(cell, std::move(f), order);
  }
  return judged;
}

}  // namespace conform::harness::detail
