#pragma once
// Certification of a partner's client: the client rules (traffic checks of
// the one catalogue) judge a recorded traffic through the one results sink
// and event stream, and the verdict is folded into a certification report:
// each rule passed, failed or not exercised, the coverage matrix of the
// integration, and the adversity it met. The report writers in reports/
// render it (JSON, HTML, JUnit); cli/certify_command.cpp makes it.

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/catalogue.hpp"
#include "harness/listener.hpp"
#include "harness/outcome.hpp"
#include "harness/traffic.hpp"

namespace conform::harness {

/// One rule's verdict.
struct rule_verdict {
  std::string check;
  std::string description;
  std::string rule;  // the section or decision it enforces
  rule_level level = rule_level::core;
  enum class status : std::uint8_t { passed, failed, not_exercised } what = status::not_exercised;
  std::uint64_t judged = 0;  // judgements that held
  std::uint64_t broken = 0;  // judgements that failed
  std::string not_exercised_why;
};
std::string_view to_string(rule_verdict::status s);

/// One row of the coverage matrix: an operation called under an auth model.
struct coverage_row {
  std::string operation_id;  // "" for requests that match no operation
  std::string method_path;
  std::string auth_model;
  std::uint64_t calls = 0, succeeded = 0, client_errors = 0, server_errors = 0, no_answer = 0;
  std::vector<std::string> adversity;  // kinds met here, each once
};

/// One scripted adversity and whether the client got past it.
struct adversity_event {
  std::uint64_t seq = 0;
  std::chrono::microseconds at{0};
  std::string kind;    // "rate_limited", "server_error", "connection_dropped", "slow"
  std::string detail;  // what was done
  std::string operation_id;
  std::string method_path;
  bool survived = false;
  std::string outcome;  // "answered 200 at #15 after 1.02 s", "never retried"
};

/// Everything a certification found.
struct certification_report {
  /// Cells (operation x auth model x rule), failures with their evidence,
  /// not-runs ("not exercised"), as a run would report them: what JUnit renders.
  run_report run;
  std::vector<rule_verdict> rules;
  std::vector<coverage_row> coverage;
  std::vector<adversity_event> adversity;
  std::vector<std::string> adversity_plan;  // the server's plan, one line per kind
  std::string environment;
  std::string client_command;  // as given (argv joined), never the environment
  std::string client_exit;     // "exit status 0", "killed by signal 9", "" (listening mode)
  rule_level level = rule_level::core;  // the level asked for
  std::uint64_t requests = 0;
  bool certified = false;
  std::string verdict;  // one line: why certified or not
  std::string finished_at;

  /// 0 certified, 1 not (a rule broken, or a rule of the level not exercised).
  int exit_code() const { return certified ? 0 : 1; }
  /// The names of the rules that passed.
  std::vector<std::string> passed_rules() const;
};

/// Judges `t` with `checks` (in that order), reporting to `events`, and
/// folds the verdict. `info` is the run's facts (seed, description, ...).
certification_report judge_traffic(const traffic& t,
                                   const std::vector<const traffic_check*>& checks,
                                   rule_level level, const run_info& info, listener& events);

}  // namespace conform::harness
