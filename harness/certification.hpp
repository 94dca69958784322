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
#include <utility>
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
  std::uint64_t judged = 0;  // instances that held
  std::uint64_t broken = 0;  // instances that failed
  std::string not_exercised_why;
  std::uint64_t not_exercised = 0;  // instances the traffic did not let the rule judge
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
  std::string owner;    // the rule that judged it ("client_retry_after")
  bool judged = true;   // false: no selected rule owns this kind (--checks)
};

/// Everything a certification found.
struct certification_report {
  /// Cells (operation x auth model x rule), failures with their evidence,
  /// not-runs ("not exercised"), as a run would report them: what JUnit renders.
  run_report run;
  std::vector<rule_verdict> rules;
  std::vector<coverage_row> coverage;
  std::vector<adversity_event> adversity;
  std::vector<std::string> adversity_plan;  // the server's plan, one line per adversity
  /// Planned adversity the client never met, one line each (its rule is not exercised).
  std::vector<std::string> unmet_adversity;
  /// Why not certified, the first cause first: the client's exit, adversity
  /// not survived, broken rules, adversity not met, rules not exercised.
  std::vector<std::string> causes;
  std::string environment;
  std::string client_command;  // as given (argv joined), never the environment
  std::string client_exit;     // "exit status 0", "killed by signal 9", "" (listening mode)
  std::string client_name;     // --client-name, else the command as given
  /// What identifies the client: (file, sha256) of its executable and
  /// scripts (--client-artifact, else found from the command).
  std::vector<std::pair<std::string, std::string>> client_artifacts;
  std::string transcript;               // --transcript FILE ("" when not written)
  std::string transcript_sha256;        // of that file's bytes
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

/// How the client's run ended, for the verdict.
struct client_outcome {
  bool known = false;     // false: listening mode, or a traffic judged without a client
  bool completed = true;  // exited 0 within --timeout
  std::string exit;       // "exit status 1", "killed by signal 9", "stopped after --timeout 5 s"
  bool adversity = true;  // false: --no-adversity (never certified)
};

/// Judges `t` with `checks` (in that order), reporting to `events`, and
/// folds the verdict. `info` is the run's facts (seed, description, ...).
certification_report judge_traffic(const traffic& t,
                                   const std::vector<const traffic_check*>& checks,
                                   rule_level level, const run_info& info, listener& events,
                                   const client_outcome& client = {});

}  // namespace conform::harness
