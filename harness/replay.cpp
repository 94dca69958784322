#include "harness/replay.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <chrono>

#include "core/outcome.hpp"
#include "core/text.hpp"
#include "harness/auth.hpp"
#include "harness/results.hpp"

namespace conform::harness {
namespace {

using replay_clock = std::chrono::steady_clock;

/// What a check needs of one answer: the result and its body as JSON.
struct replay_answer {
  http::result result;
  std::optional<boost::json::value> json;
  std::string json_error;
};

replay_answer replay_answer_of(http::result r) {
  replay_answer a;
  a.result = std::move(r);
  if (!a.result.ok()) {
    a.json_error = "no response";
  } else if (a.result.value().body.empty()) {
    a.json_error = "empty body";
  } else {
    boost::system::error_code ec;
    auto v = boost::json::parse(a.result.value().body, ec);
    if (ec) {
      a.json_error = ec.message();
    } else {
      a.json = std::move(v);
    }
  }
  return a;
}

std::optional<generators::request_mutation> replay_parse_mutation(std::string_view s) {
  using m = generators::request_mutation;
  for (auto v : {m::none, m::invalid_path_param, m::invalid_query_param, m::invalid_header_param,
                 m::missing_param, m::invalid_body, m::missing_body, m::malformed_body,
                 m::wrong_content_type, m::same_as_mismatch, m::invalid_cookie_param,
                 m::columns_not_in_header}) {
    if (generators::to_string(v) == s) return v;
  }
  return std::nullopt;
}

}  // namespace

std::string to_string(const replay_difference& d) {
  std::string out = "#" + std::to_string(d.seq) + " " + d.method_path;
  if (!d.auth_model.empty()) out += " (" + d.auth_model + ")";
  return out + ": " + d.aspect + " " + d.recorded + " -> " + d.now;
}

struct replayer::state {
  const openapi::api_spec& spec;
  const profile::target& target;
  replay_config config;
  http::client& client;
  event_stream events;
  results_sink results;
  http::secret_redactor redactor;
  profile::env_lookup env;
  run_report report;
  replay_clock::time_point start = replay_clock::now();

  state(const openapi::api_spec& s, const profile::target& t, replay_config c, http::client& cl,
        listener& l, profile::env_lookup e)
      : spec(s),
        target(t),
        config(std::move(c)),
        client(cl),
        events(l),
        results(s, events),
        redactor(make_redactor(t)),
        env(std::move(e)) {}

  /// The value a ${NAME} of the recording stands for here, or nullopt.
  std::optional<std::string> value_of(const std::string& name) const {
    for (const auto& c : target.credentials) {
      if (c.value.empty()) continue;
      if (c.value.env_name() == name) return c.value.reveal();
      if (c.value.env_name() + "_BASIC64" == name) return basic_token(c.value.reveal());
    }
    for (const auto& [header, value] : target.headers) {
      if (value.env_name() == name) return value.reveal();
    }
    if (auto v = env ? env(name) : std::nullopt; v && !v->empty()) return v;
    constexpr std::string_view basic = "_BASIC64";
    if (name.size() > basic.size() && name.ends_with(basic)) {
      if (auto v = value_of(name.substr(0, name.size() - basic.size()))) return basic_token(*v);
    }
    return std::nullopt;
  }

  /// `text` with each ${NAME} of the recording's secrets resolved
  /// (percent-encoded in a URL); the error is the name of one that is not.
  core::outcome<std::string> resolve(const std::string& text, bool in_url,
                                     const std::vector<std::string>& names) const {
    std::string out;
    std::size_t i = 0;
    while (i < text.size()) {
      const std::size_t open = text.find("${", i);
      if (open == std::string::npos) break;
      const std::size_t close = text.find('}', open + 2);
      if (close == std::string::npos) break;
      const std::string name = text.substr(open + 2, close - open - 2);
      out.append(text, i, open - i);
      if (std::find(names.begin(), names.end(), name) == names.end()) {
        out.append(text, open, close + 1 - open);  // not a secret of the recording
      } else if (auto v = value_of(name)) {
        out += in_url ? core::percent_encode(*v) : *v;
      } else {
        return core::fail(name);
      }
      i = close + 1;
    }
    out.append(text, i, std::string::npos);
    return out;
  }

  check_verdict judge(const exchange_check& k, const openapi::operation& op, const auth_model& auth,
                      const generators::request_mode& mode, const http::request& req,
                      const replay_answer& a) const {
    const exchange e{spec,        op, auth, mode, req, a.result, a.json ? &*a.json : nullptr,
                     a.json_error};
    return k.run(e);
  }

  /// One recorded exchange as it is replayed: where it belongs, and the
  /// request sent again.
  struct replay_item {
    const recorded_exchange& recorded;
    const openapi::operation* op = nullptr;
    std::string label, op_id, method_path;
    http::request req;
    generators::request_mode mode;
    auth_model auth;
    bool scenario = false;
  };

  /// Resolves the ${NAME}s of `req` (its target, headers and body); the
  /// name of the first secret nobody holds, or "".
  std::string resolve_request(http::request& req, const std::vector<std::string>& names) const {
    std::string missing;
    auto fill = [&](std::string& text, bool in_url) {
      if (!missing.empty()) return;
      if (auto v = resolve(text, in_url, names)) {
        text = std::move(*v);
      } else {
        missing = std::move(v).error();
      }
    };
    fill(req.target, true);
    for (auto& [name, value] : req.headers) fill(value, false);
    fill(req.body, false);
    return missing;
  }

  /// The failure check `k` found in the replayed answer `now`.
  failure replay_failure(const exchange_check& k, const replay_item& r, check_verdict v,
                         const replay_answer& now) const {
    failure f;
    f.check = k.info.name;
    f.operation_id = r.op->operation_id;
    f.method_path = r.method_path;
    f.auth_model = r.label;
    f.mode = r.scenario       ? failure_mode{failure_mode::kind::scenario,
                                       "request #" + std::to_string(r.recorded.seq) + " replayed"}
             : r.mode.valid() ? failure_mode{failure_mode::kind::valid, r.mode.description}
                              : failure_mode{failure_mode::kind::invalid, r.mode.description};
    f.expected = v.expected;
    f.seen = redact_credentials(target, v.seen);
    f.cause = v.cause;
    f.curl = http::to_curl(r.req, client.base(), redactor);
    if (now.result.ok()) {
      f.status = now.result.value().status;
      f.response_excerpt = redact_credentials(target, core::excerpt(now.result.value().body, 300));
    }
    return f;
  }

  /// Judges the answer by the same checks as a run, in cells of their own.
  void judge_replayed(const replay_item& r, const replay_answer& now) {
    for (const auto* k : config.checks) {
      if (r.scenario ? k->to != applies_to::both : !applies(k->to, r.mode.kind())) continue;
      if (k->concerns && !k->concerns(spec, *r.op)) continue;
      const auto cell = results.cell(r.op, r.label, k->info.name, results_sink::origin::exchanges);
      const auto t0 = replay_clock::now();
      check_verdict v = judge(*k, *r.op, r.auth, r.mode, r.req, now);
      results_sink::add_time(cell, replay_clock::now() - t0);
      if (v.what == check_verdict::kind::pass) {
        results_sink::pass(cell);
      } else if (v.what == check_verdict::kind::not_run) {
        results.not_run(cell, std::move(v.seen));
      } else if (v.what == check_verdict::kind::violation) {
        results_sink::count_failure(cell);
        results.report(cell, replay_failure(*k, r, std::move(v), now), r.recorded.seq);
      }
    }
  }

  /// Why two answers were not compared, when they were not.
  enum class not_compared { no, rate_limited, concurrent };

  /// Where the answer `now` differs from the recorded one: the status, the
  /// error code, whether the body matches its schema.
  not_compared compare_answers(const replay_item& r, const replay_answer& now,
                               std::vector<replay_difference>& out) const {
    const recorded_exchange& recorded = r.recorded;
    auto differ = [&](std::string aspect, std::string was, std::string is) {
      out.push_back({recorded.seq, r.op_id, r.method_path, recorded.auth_model, std::move(aspect),
                     std::move(was), std::move(is), http::to_curl(r.req, client.base(), redactor)});
    };
    const unsigned was_status = recorded.response ? recorded.response->status : 0;
    const unsigned now_status = now.result.ok() ? now.result.value().status : 0;
    auto status_text = [](unsigned s, const std::string& error) {
      return s != 0 ? std::to_string(s) : "no answer (" + error + ")";
    };
    // A rate-limit answer says nothing of the request: not compared.
    const unsigned limited = spec.rules.rate_limited_status != 0
                                 ? static_cast<unsigned>(spec.rules.rate_limited_status)
                                 : 429u;
    if (was_status != now_status && (was_status == limited || now_status == limited)) {
      return not_compared::rate_limited;
    }
    // An in-progress conflict depends on timing a sequential replay cannot recreate.
    const auto* op = r.op;
    if (was_status != now_status && op && op->idempotent && op->idempotent->conflict_status != 0 &&
        was_status == static_cast<unsigned>(op->idempotent->conflict_status)) {
      return not_compared::concurrent;
    }
    if (was_status != now_status) {
      differ("status", status_text(was_status, recorded.error),
             status_text(now_status, now.result.ok() ? "" : now.result.error().message));
      return not_compared::no;
    }
    if (!recorded.response) return not_compared::no;
    http::result was_result;
    was_result.outcome = *recorded.response;
    const replay_answer was = replay_answer_of(std::move(was_result));
    const std::string& pointer = spec.rules.error_code_pointer;
    auto code_of = [&](const replay_answer& a) -> std::string {
      if (pointer.empty() || !a.json) return {};
      boost::system::error_code ec;
      const auto* c = a.json->find_pointer(pointer, ec);
      return !ec && c && c->is_string() ? std::string(c->as_string()) : std::string();
    };
    if (const std::string a = code_of(was), b = code_of(now); a != b) {
      differ("error code", a.empty() ? "none" : a, b.empty() ? "none" : b);
    }
    if (op && config.schema_check) {
      const check_verdict a = judge(*config.schema_check, *op, r.auth, r.mode, r.req, was);
      const check_verdict b = judge(*config.schema_check, *op, r.auth, r.mode, r.req, now);
      const bool a_bad = a.what == check_verdict::kind::violation;
      const bool b_bad = b.what == check_verdict::kind::violation;
      if (a_bad != b_bad) {
        differ("schema",
               a_bad ? "does not match its schema (" + a.cause + ")" : "matches its schema",
               b_bad ? "does not match its schema (" + redact_credentials(target, b.seen) + ")"
                     : "matches its schema");
      }
    }
    return not_compared::no;
  }
};

replayer::replayer(const openapi::api_spec& spec, const profile::target& target,
                   replay_config config, http::client& client, listener& events,
                   profile::env_lookup env)
    : s_(std::make_unique<state>(spec, target, std::move(config), client, events, std::move(env))) {
}

replayer::~replayer() = default;

void replayer::start() {
  s_->report.info = s_->config.info;
  s_->events.run_started({s_->report.info, 0});
  s_->events.phase_started({phase::exchanges, 0});
}

std::vector<replay_difference> replayer::replay(const recorded_exchange& recorded) {
  state& st = *s_;
  const openapi::operation* op = recorded.operation_id.empty()
                                     ? operation_of(st.spec, recorded.request)
                                     : st.spec.find_operation(recorded.operation_id);
  state::replay_item r{recorded, op};
  r.label = recorded.auth_model.empty() ? "scenario" : recorded.auth_model;
  r.op_id = op ? op->operation_id : recorded.operation_id;
  r.method_path =
      op ? op->method_path()
         : std::string(http::method_name(recorded.request)) + " " + recorded.request.target;

  // The request again, its secrets this target's (or the environment's).
  r.req = recorded.request;
  if (const std::string missing = st.resolve_request(r.req, recorded.secrets); !missing.empty()) {
    ++skipped_;
    st.results.not_run({"*", r.op_id, r.label,
                        "recorded request #" + std::to_string(recorded.seq) + " not resent: ${" +
                            missing +
                            "} is held by no credential or header of the target and is not set "
                            "in the environment"});
    return {};
  }
  ++replayed_;
  const replay_answer now = replay_answer_of(st.client.send(0, r.req));

  // Judged by the same checks, in cells of their own.
  r.scenario = recorded.phase == to_string(phase::scenarios);
  if (auto m = replay_parse_mutation(recorded.mutation)) r.mode.mutation = *m;
  r.mode.where = recorded.where;
  r.mode.description = recorded.mode;
  r.auth.name = r.label;
  if (op) st.judge_replayed(r, now);

  // Where the answer differs from the recorded one.
  std::vector<replay_difference> out;
  switch (st.compare_answers(r, now, out)) {
    case state::not_compared::rate_limited:
      ++rate_limited_;
      break;
    case state::not_compared::concurrent:
      ++concurrent_;
      break;
    case state::not_compared::no:
      break;
  }
  return out;
}

run_report replayer::finish() {
  state& st = *s_;
  st.events.phase_finished({phase::exchanges});
  st.results.fold_into(st.report);
  st.report.counts.requests = replayed_;
  st.report.timings.wall =
      std::chrono::duration_cast<std::chrono::nanoseconds>(replay_clock::now() - st.start);
  st.events.run_finished({st.report});
  return std::move(st.report);
}

}  // namespace conform::harness
