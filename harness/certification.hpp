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
#include "harness/run_report.hpp"
#include "harness/traffic.hpp"

namespace conform::harness {

/// One rule's verdict.
struct rule_verdict {
  std::string check;
  std::string description;
  std::string rule;  // the section or decision it enforces
  /// Where the rule comes from: "description" (its section, decision or
  /// extension is `rule`) or "programme" (what the certification programme
  /// itself requires, docs/certification.md).
  std::string source = "description";
  rule_level level = rule_level::core;
  enum class status : std::uint8_t {
    passed,
    failed,
    not_exercised,
    not_applicable,  // nothing in the partner's scope lets the rule apply
  } what = status::not_exercised;
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
  std::string pass;     // the plan's pass it was met in ("" for a single pass)
};

/// One pass of the plan: the client run anew against a fresh server that
/// scripts one family of adversity (none in the baseline).
struct pass_summary {
  std::string name;       // "baseline", "rate_limit", "transient", "outage", "slow"
  std::string adversity;  // what the pass scripts, one line
  bool run = true;        // false: nothing of its family falls in the scope
  std::string not_run_why;
  bool certified = false;  // its own verdict
  std::string verdict;
  std::vector<std::string> causes;
  std::vector<std::string> adversity_plan;
  std::vector<std::string> unmet_adversity;
  std::string client_exit;
  bool completion_judged = true;  // false: the pass scripts what cannot be got past
  std::uint64_t requests = 0;
  std::vector<std::string> planned_kinds;  // the adversity kinds its plan held
};

/// What was certified: the operations the client uses (learned from the
/// baseline pass, or declared with --scope) and the rules judged on them.
struct certification_scope {
  std::vector<std::string> operations;  // operationIds, in the description's order
  std::string source;                   // "learned from the baseline pass" | "declared in FILE"
  std::vector<std::string> classes;     // request classes the client's calls fall in
  std::vector<std::string> rules_judged;
  std::vector<std::string> rules_not_applicable;
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
  /// The plan's passes, in order; empty for a single pass (--listen).
  std::vector<pass_summary> passes;
  certification_scope scope;

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
  /// The pass scripts what no client can get past (an outage): there the
  /// client may end its run as the description allows after giving up (a
  /// non-zero exit with the failure reported), so its exit is not judged,
  /// and adversity it never reached after giving up is not counted.
  bool unrecoverable = false;
  /// One pass of a plan: whether every rule was exercised is judged over
  /// the whole plan (combine_passes), not here.
  bool in_plan = false;
};

/// The rule the certification programme adds to the description's: the
/// client command completes (docs/certification.md). Its source is the
/// programme, never the description.
inline constexpr const char* completed_rule = "client_completed";

/// Folds the passes of a plan into one report: a rule failed in any pass
/// has failed; one passed in some pass and failed in none has passed; one
/// that nothing in `scope` lets apply (no operation its `applies` takes, or
/// no pass that scripted the adversity it owns) is not applicable; any other
/// is not exercised. Coverage, adversity and failures are the passes'
/// together, each adversity and failure named by its pass. `checks` are the
/// rules judged, `spec` the description.
certification_report combine_passes(const std::vector<certification_report>& reports,
                                    std::vector<pass_summary> passes,
                                    const certification_scope& scope,
                                    const std::vector<const traffic_check*>& checks,
                                    const openapi::api_spec& spec, rule_level level);

/// Judges `t` with `checks` (in that order), reporting to `events`, and
/// folds the verdict. `info` is the run's facts (seed, description, ...).
certification_report judge_traffic(const traffic& t,
                                   const std::vector<const traffic_check*>& checks,
                                   rule_level level, const run_info& info, listener& events,
                                   const client_outcome& client = {});

}  // namespace conform::harness
