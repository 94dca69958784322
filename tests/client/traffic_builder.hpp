#pragma once
// Scripted client traffic for the client-rule tests: a tiny builder of
// recorded exchanges (times in milliseconds), and a judge that runs one rule
// of the shipped catalogue over it and says what it found.

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "harness/certification.hpp"
#include "openapi/loader.hpp"
#include "suites/registry.hpp"

namespace conform::testing {

/// The shipped description, loaded once.
inline const openapi::api_spec& spec() {
  static const auto loaded = [] {
    auto l = openapi::load(std::string(CONFORM_SPEC_DIR) + "/voice-api.yaml", {});
    if (!l.ok()) throw std::runtime_error("the shipped description does not load");
    return std::move(l.spec);
  }();
  return *loaded;
}

inline const char* partner_secret = "pk_test_partnersecret0001";
inline const char* live_secret = "pk_live_partnersecret0002";

/// Builds a traffic exchange by exchange, each sent `gap_ms` after the last answer.
class traffic_builder {
 public:
  traffic_builder() {
    t_.spec = &spec();
    t_.environment = "sandbox";
    t_.credentials = {{"partner", "partner_key", partner_secret}};
    t_.seed = 7;
  }

  /// A partner-key request; returns the exchange to set its answer.
  harness::traffic_exchange& send(http::verb method, std::string target, unsigned status,
                                  std::string response_body = "{}", long gap_ms = 10) {
    harness::traffic_exchange e;
    e.seq = t_.exchanges.size() + 1;
    now_ += std::chrono::milliseconds(gap_ms);
    e.sent = now_;
    now_ += std::chrono::milliseconds(5);
    e.answered = now_;
    e.request.method = method;
    e.request.target = std::move(target);
    e.request.add_header("X-Partner-Api-Key", partner_secret);
    e.status = status;
    e.response_body = std::move(response_body);
    t_.exchanges.push_back(std::move(e));
    return t_.exchanges.back();
  }

  /// The adversity the server planned (kind, met at seq; 0: not met).
  void plan(std::string kind, std::uint64_t met_at) {
    t_.planned.push_back({std::move(kind), "a class of request", "what it does", met_at});
  }

  /// The time now, for exchanges built by hand.
  std::chrono::microseconds now() const { return now_; }

  harness::traffic& finish() {
    harness::annotate(t_);
    return t_;
  }

 private:
  harness::traffic t_;
  std::chrono::microseconds now_{0};
};

/// What one rule found in a traffic.
struct judged {
  harness::rule_verdict verdict;
  std::vector<harness::failure> failures;
};

inline const harness::check_catalogue& catalogue() {
  static const harness::check_catalogue c = suites::builtin_checks();
  return c;
}

inline judged judge(harness::traffic& t, const std::string& rule) {
  const auto* e = catalogue().find(rule);
  if (!e || e->kind != harness::check_kind::traffic) throw std::runtime_error("no rule " + rule);
  harness::event_stream events;
  harness::run_info info;
  auto report = harness::judge_traffic(t, {e->traffic}, harness::rule_level::core, info, events);
  return {report.rules.at(0), report.run.failures};
}

/// The whole certification of `t` with every client rule.
inline harness::certification_report certify(harness::traffic& t,
                                             const harness::client_outcome& client = {}) {
  std::vector<const harness::traffic_check*> rules;
  for (const auto& e : catalogue().all()) {
    if (e.kind == harness::check_kind::traffic) rules.push_back(e.traffic);
  }
  harness::event_stream events;
  harness::run_info info;
  return harness::judge_traffic(t, rules, harness::rule_level::core, info, events, client);
}

/// A page-numbered list answer: page `page` of `pages`, one item.
inline std::string page_of(int page, int pages) {
  return R"({"data":{"items":[{"id":"1"}]},"meta":{"page":)" + std::to_string(page) +
         R"(,"pages":)" + std::to_string(pages) + R"(,"count":2},"message":null,"request_id":"r"})";
}

/// A cursor list answer with one item, and `next` as its next cursor (null when none).
inline std::string cursor_page(const char* next) {
  return std::string(R"({"data":{"items":[{"id":"1"}],"next_cursor":)") +
         (next ? "\"" + std::string(next) + "\"" : "null") +
         R"(},"meta":null,"message":null,"request_id":"r"})";
}

}  // namespace conform::testing
