#include "harness/scenario.hpp"

#include <boost/json.hpp>
#include <rapidcheck.h>

#include <algorithm>
#include <cstdio>
#include <random>

#include "harness/build.hpp"
#include "core/text.hpp"

namespace conform::harness {
unsigned probe::status() const {
  return result.ok() ? result.value().status : 0;
}

const std::string& probe::body() const {
  static const std::string empty;
  return result.ok() ? result.value().body : empty;
}

const boost::json::value* probe::at(std::string_view pointer) const {
  if (!json) return nullptr;
  if (pointer.empty()) return &*json;
  boost::system::error_code ec;
  const auto* v = json->find_pointer(pointer, ec);
  return ec ? nullptr : v;
}

std::string probe::error_code() const {
  if (code_pointer.empty()) return {};
  const auto* code = at(code_pointer);
  if (!code || !code->is_string()) return {};
  return std::string(code->as_string());
}

const std::string* probe::header(std::string_view name) const {
  return result.ok() ? result.value().find(name) : nullptr;
}

std::optional<std::string> probe::unjudgeable(const openapi::api_spec& spec) const {
  if (!refused.empty()) return refused;
  if (!answered()) return "the target did not answer: " + summary();
  if (spec.rules.rate_limited_status != 0 &&
      static_cast<int>(status()) == spec.rules.rate_limited_status) {
    return "the target refused the request as rate-limited (" + summary() +
           ") even after waiting as it said";
  }
  return std::nullopt;
}

std::string probe::summary() const {
  if (!refused.empty()) return "not sent (" + refused + ")";
  if (!result.ok()) return "no response (" + result.error().message + ")";
  std::string out = std::to_string(status());
  if (auto code = error_code(); !code.empty()) out += " " + code;
  return out;
}

scenario_context::scenario_context(const openapi::api_spec& spec, const profile::target& target,
                                   std::uint64_t seed,
                                   std::vector<const openapi::operation*> operations,
                                   const http::url& base, http::client_options options,
                                   unsigned lanes, std::vector<std::string> workflow_files)
    : spec_(spec),
      target_(target),
      credentials_(spec, target),
      seed_(seed),
      operations_(std::move(operations)),
      workflow_files_(std::move(workflow_files)),
      client_(base,
              [&] {
                options.workers = std::max(2u, lanes);
                return options;
              }()),
      redactor_(make_redactor(target)),
      nonce_((static_cast<std::uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}()) {}

bool scenario_context::covers(const openapi::operation& op) const {
  return std::find(operations_.begin(), operations_.end(), &op) != operations_.end();
}

const openapi::operation* scenario_context::covered(std::string_view operation_id) const {
  for (const auto* op : operations_) {
    if (op->operation_id == operation_id) return op;
  }
  return nullptr;
}

core::outcome<generators::generated_request> scenario_context::valid_request(
    const openapi::operation& op, const auth_choice& auth, std::string_view salt) const {
  auto made = make_generator(spec_, op, auth, request_kind::valid);
  if (!made.gen) {
    return core::fail(made.why.empty() ? "no valid request could be generated" : made.why);
  }
  const std::uint64_t s = core::fnv1a(salt, core::fnv1a(op.operation_id, seed_ ^ 0x5ce7a710ull));
  try {
    return made.gen->operator()(rc::Random(s), 30).value();
  } catch (const std::exception& ex) {
    return core::fail(std::string("the generator gave up: ") + ex.what());
  }
}

http::request scenario_context::build(const openapi::operation& op, const auth_choice& auth,
                                      const generators::generated_request& g,
                                      std::optional<std::string_view> key) {
  const std::string fresh = key ? std::string() : fresh_key();
  http::request req = to_http_request(spec_, op, auth, g, key ? *key : std::string_view(fresh));
  apply_target_headers(req, target_);
  return req;
}

std::string scenario_context::fresh_key() {
  char key[64];
  std::snprintf(key, sizeof key, "conform-s%016llx-%llu", static_cast<unsigned long long>(nonce_),
                static_cast<unsigned long long>(keys_.fetch_add(1)));
  return key;
}

probe scenario_context::send(const http::request& req, unsigned lane, bool once) {
  probe p;
  p.request = req;
  p.code_pointer = spec_.rules.error_code_pointer;
  lane = lane % client_.workers();
  if (auto why = refusal(nullptr, req)) {
    p.refused = std::move(*why);
    p.result.outcome = core::fail(http::transport_error{
        http::transport_error::kind::invalid_request, "not sent: " + p.refused});
    return p;
  }
  const auto started = std::chrono::system_clock::now();
  p.result = once ? client_.send_once(lane, req) : client_.send(lane, req);
  if (p.result.ok() && !p.result.value().body.empty()) {
    boost::system::error_code ec;
    auto v = boost::json::parse(p.result.value().body, ec);
    if (!ec) p.json = std::move(v);
  }
  if (observer_) observer_(req, p.result, p.json ? &*p.json : nullptr, started);
  if (guard_) guard_->learn(nullptr, req, p.result);
  requests_.fetch_add(1 + p.result.retries_429, std::memory_order_relaxed);
  retries_429_.fetch_add(p.result.retries_429, std::memory_order_relaxed);
  return p;
}

std::string scenario_context::curl(const http::request& req) const {
  return http::to_curl(req, client_.base(), redactor_);
}

failure scenario_context::to_failure(const openapi::operation& op, std::string_view auth,
                                     std::string_view check, const scenario_failure& f) const {
  failure out;
  out.check = std::string(check);
  out.operation_id = op.operation_id;
  out.method_path = op.method_path();
  out.auth_model = std::string(auth);
  out.mode = {failure_mode::kind::scenario, f.steps};
  // Workflow documents and servers both feed these texts: all redacted.
  out.expected = redact(f.expected);
  out.seen = redact(f.seen);
  out.cause = redact(f.cause);
  if (!f.assumptions.empty()) {
    check_verdict v = check_verdict::violation({}, {}, out.cause);
    v.assumed(f.assumptions);
    out.assumptions = std::move(v.assumptions);
    out.cause = std::move(v.cause);
  }
  out.seed = seed_;
  if (!f.reproduce.empty()) out.curl = redact(f.reproduce);
  for (const probe* p : f.evidence) {
    if (!p || !f.reproduce.empty()) continue;
    if (!out.curl.empty()) out.curl += "\n";
    out.curl += curl(p->request);
  }
  if (!f.evidence.empty() && f.evidence.back() && f.evidence.back()->answered()) {
    out.status = f.evidence.back()->status();
    const http::response& answer = f.evidence.back()->result.value();
    const std::string* type = answer.find(http::field::content_type);
    out.response_excerpt =
        redact(core::body_excerpt(answer.body, type ? *type : std::string(), 300));
  }
  return out;
}

}  // namespace conform::harness
