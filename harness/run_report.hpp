#pragma once
// What a run finds, as plain values: the verdict of a check on one exchange,
// a reported failure with how to reproduce it, a check that could not run
// and why, and the whole run's report that the writers in reports/ render.
// Nothing here holds a secret: requests are kept as curl commands whose
// credentials are $ENV references.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace conform::harness {

/// The verdict of one check on one exchange.
struct check_verdict {
  /// not_applicable: the exchange is outside what the check looks at;
  /// not_run: it is inside, but the check could not judge it (`seen` says why).
  enum class kind : std::uint8_t { pass, violation, not_applicable, not_run } what = kind::pass;
  std::string expected;  // violation: what the description says
  std::string seen;      // violation: what came back
  /// violation: a short stable key, so that the same fault seen many times is
  /// reported once per (operation, check, cause): "status 500", "/data/id: type".
  /// With a note: the note's key ("refused 400").
  std::string cause;
  /// violation: set when its only ground is a constraint the description
  /// marks as an assumption of its own (x-assumption): each such
  /// assumption's text. The failure then "contradicts an assumption of the
  /// description" and fails the run only with --strict-assumptions.
  /// A pass with a note: the assumptions its exchange could neither confirm
  /// nor contradict (an invalid request refused for another reason).
  std::vector<std::string> assumptions = {};
  /// Something worth reading that is no failure, whatever the verdict (a
  /// pass, or not applicable): "refused a schema-valid request: 400 ...".
  /// Empty: no note. Kept once per (operation, auth model, check, cause).
  std::string note = {};

  static check_verdict pass() { return {}; }
  static check_verdict not_applicable() { return {kind::not_applicable, {}, {}, {}, {}}; }
  static check_verdict not_run(std::string why) {
    return {kind::not_run, {}, std::move(why), {}, {}};
  }
  /// This verdict with a note (`text`) kept once per `key`.
  check_verdict with_note(std::string text, std::string key) && {
    note = std::move(text);
    cause = std::move(key);
    return std::move(*this);
  }
  static check_verdict violation(std::string expected, std::string seen, std::string cause) {
    return {kind::violation, std::move(expected), std::move(seen), std::move(cause), {}};
  }
  /// This violation rests on `texts` alone (assumptions of the description,
  /// each "<where>: <why>"): recorded, and " (assumption <where>, ...)"
  /// added to its cause, so that it is kept apart from a sourced failure of
  /// the same kind and from one resting on another assumption.
  check_verdict& assumed(std::vector<std::string> texts);
};

/// How the request that showed a failure came about.
struct failure_mode {
  enum class kind : std::uint8_t {
    valid,     // a generated request that conforms to the description
    invalid,   // a generated request broken in one way (`detail` says how)
    scenario,  // requests a scenario sent (`detail` says what it did)
    traffic,   // requests a client sent under certification (`detail` says which rule)
  } what = kind::valid;
  std::string detail;

  /// "valid", "valid: <detail>" (a boundary value of the coverage phase),
  /// "invalid: <detail>" or "scenario: <detail>", as reports print it.
  std::string to_string() const;
  /// True when the failure went through shrinking (generated requests only).
  bool shrinkable() const { return what == kind::valid || what == kind::invalid; }
  friend bool operator==(const failure_mode&, const failure_mode&) = default;
};

/// A reported failure: the check, where, what was expected and seen, and how
/// to reproduce it (the run's seed and a curl command).
struct failure {
  std::string check;
  std::string operation_id;
  std::string method_path;  // "DELETE /items/{id}"
  std::string auth_model;   // "org_token (org-admin)"
  failure_mode mode;
  std::string expected;
  std::string seen;
  std::string cause;
  std::uint64_t seed = 0;        // the run's seed
  std::uint32_t example = 0;     // index of the example within (operation, auth model, mode)
  std::string curl;              // reproduces the (shrunk) request; secrets as $ENV
  unsigned status = 0;           // 0 when no response came back
  std::string response_excerpt;  // start of the response body
  unsigned shrink_steps = 0;
  std::uint64_t occurrences = 1;  // how many exchanges showed the same (operation, check, cause)
  /// Client traffic (conform certify): the requests that show the failure,
  /// one line each with its time, in order; never a secret. Empty otherwise.
  std::vector<std::string> evidence;
  /// Not empty when the failure's only ground is an assumption of the
  /// description (x-assumption): each assumption's text. Such a failure is of
  /// its own class, "contradicts an assumption of the description", and
  /// fails the run only with --strict-assumptions.
  std::vector<std::string> assumptions;
  bool contradicts_assumption() const { return !assumptions.empty(); }
};

/// Something a check saw that is worth reading but is no failure: a
/// schema-valid request the target refused where the description does not
/// promise acceptance (`docs/checks.md`). Kept once per (operation, auth
/// model, check, cause), with how often it was seen.
struct note {
  std::string check;
  std::string operation_id;
  std::string method_path;
  std::string auth_model;
  failure_mode mode;
  std::string text;   // "refused a schema-valid request: 400 end must follow start"
  std::string cause;  // a short stable key: "refused 400"
  unsigned status = 0;
  std::string response_excerpt;  // start of the response body (binary summarised)
  std::uint64_t occurrences = 1;
  std::string curl;  // the first request that showed it; secrets as $ENV
  /// The assumptions of the description the exchange could neither confirm
  /// nor contradict (check_verdict::assumptions of a pass); usually empty.
  std::vector<std::string> assumptions = {};
};

/// A check, or a group of checks, that could not run, and why.
struct not_run {
  std::string check;         // a check name, or "*" for every check of the scope
  std::string operation_id;  // empty for the whole run
  std::string auth_model;    // empty for every auth model
  std::string why;
};

/// One (operation, auth model, check) cell: a JUnit testcase.
struct check_tally {
  std::string operation_id;
  std::string method_path;
  std::string auth_model;
  std::string check;
  std::uint64_t passed = 0;
  std::uint64_t failed = 0;
  std::optional<std::string> not_run_why;  // set when the cell never ran
  std::chrono::nanoseconds time{0};
  /// The cell ran but judged nothing (every exchange was outside what the
  /// check looks at, e.g. no error response for an error-code check): shown
  /// as such, never as passed.
  bool nothing_judged = false;
  /// Exchanges whose failure rested on an assumption of the description
  /// alone (not counted in `failed`).
  std::uint64_t contradicted = 0;
};

/// Facts about the run, written at its start.
/// Whether a run may write to resources it did not create
/// (harness/write_guard.hpp): `safe` writes only to what the run creates.
enum class write_mode : std::uint8_t { safe, destructive };

struct run_info {
  std::string tool_version;
  std::uint64_t seed = 0;
  std::string spec_file;
  std::string spec_title;
  std::string spec_version;
  std::string spec_hash;
  std::string target;  // base URL
  bool in_process_reference = false;
  std::string profile_file;   // the --profile given, empty for the in-process reference
  std::string spec_argument;  // the --spec given, empty for the default
  std::uint32_t examples = 0;
  unsigned workers = 0;
  std::vector<std::string> checks;  // enabled checks
  std::string started_at;           // RFC 3339, UTC
  std::uint32_t scenarios = 0;      // scenario suites the run enables (set by the engine)
  /// Requests the coverage phase plans (set by the engine): one per
  /// constraint, operation and auth model, before the random examples.
  std::uint64_t coverage_planned = 0;
  /// " --overlay F --url BASE -H \"Name: ${CONFORM_HEADER_NAME}\" --auth-env NAME":
  /// what else a rerun needs to name (secrets as variables), else empty.
  std::string target_arguments;
  /// `--shard K/N`: this run did shard `shard_index` (1-based) of
  /// `shard_count`; 0 of 0 for a whole run. A merged report (`conform report
  /// merge`) keeps the count and lists the shards it holds in `merged_shards`.
  std::uint32_t shard_index = 0;
  std::uint32_t shard_count = 0;
  std::vector<std::uint32_t> merged_shards;
  /// --strict-assumptions: a failure that contradicts an assumption of the
  /// description fails the run like any other.
  bool strict_assumptions = false;
  /// Operations left out because the description has errors in them
  /// (`--skip-invalid-operations`); each is a "not run" entry that says why.
  std::uint32_t skipped_operations = 0;
  /// What the run learned rather than was told, one line each (a token's
  /// claims read unverified, tenants and ids found): the run header says it.
  std::vector<std::string> learned;
  /// Which writes the run allowed itself, and why (`writes_because`:
  /// "--allow-destructive", "the profile says disposable: true", "the
  /// in-process reference"; empty in safe mode).
  write_mode writes = write_mode::destructive;  // conform run decides (cli/run_command.cpp)
  std::string writes_because;
  /// What the run was told about the target's security, when it was told
  /// to set the description's aside (`--no-auth`): "not enforced by the
  /// target (--no-auth): ..."; empty otherwise.
  std::string security;
  /// Operations the run never sends, as its write mode stands (safe mode:
  /// a POST not documented to create, a write with no resource to name):
  /// each has one "not run" entry that says why.
  std::uint32_t operations_held_back = 0;

  /// "safe: writes only to what this run creates", or "destructive: writes
  /// to any resource it reaches (--allow-destructive)".
  std::string writes_label() const;
  /// "shard 2/3", "shards 1, 2, 3 of 3, merged", or "" for a whole run.
  std::string shard_label() const;
};

/// Counters of the run.
struct run_counts {
  std::uint64_t requests = 0;
  std::uint64_t transport_errors = 0;
  std::uint64_t checks_passed = 0;
  std::uint64_t checks_failed = 0;
  std::uint64_t cells_not_run = 0;
  std::uint64_t retries_429 = 0;
  /// Exchanges whose failure rested on an assumption alone (check_tally::contradicted).
  std::uint64_t checks_contradicted = 0;
  /// Of `requests`, the stateful walk's in a shard that does not judge it:
  /// every shard walks to learn the target, one judges the walk, and
  /// `conform report merge` counts the others' walks out (docs/report-format.md).
  std::uint64_t relearned = 0;
};

/// Where the run's time went.
struct run_timings {
  std::chrono::nanoseconds wall{0};
  std::chrono::nanoseconds generation{0};  // summed over workers
  std::chrono::nanoseconds transport{0};   // summed over workers
  std::chrono::nanoseconds checking{0};    // summed over workers
};

/// What the coverage phase covered of one operation, over its auth models.
struct operation_coverage {
  std::string operation_id;
  std::string method_path;
  /// Constraints of the operation the phase tests one at a time (each broken
  /// once, each boundary value, each required part left out, ...).
  std::uint32_t constraints = 0;
  /// Of those, the ones sent under at least one auth model.
  std::uint32_t covered = 0;
  /// "constraint: why" for each one not sent (no value could be made).
  std::vector<std::string> uncovered;
  /// The constraints counted by what they test: a schema keyword ("type",
  /// "enum", "maxLength", ...) or a part of the request ("required
  /// parameter", "content type", ...), in first-seen order.
  struct keyword_count {
    std::string keyword;
    std::uint32_t constraints = 0;
    std::uint32_t covered = 0;
    friend bool operator==(const keyword_count&, const keyword_count&) = default;
  };
  std::vector<keyword_count> by_keyword;
};

/// Whether an operation answered 2xx to an auth model (a credential), and
/// what it answered otherwise: the depth a run reached, beside its verdict.
struct operation_reach {
  std::string operation_id;
  std::string method_path;
  std::string auth_model;       // "jwt ($JWT)", "none"
  std::uint64_t sent = 0;       // valid judged requests (stateful steps and generated ones)
  std::uint64_t succeeded = 0;  // of those, answered 2xx
  std::uint64_t unauthorized = 0, forbidden = 0, not_found = 0;  // 401, 403, 404
  std::uint64_t invalid = 0;  // refused as invalid: 400, 415, 422 with a validation code
  std::uint64_t other = 0;    // any other answer, or none
  /// 2xx answers to requests no check judged (a stateful step of a shard
  /// that does not judge them, a run whose checks judge no answer): not
  /// reach, and shown apart so that reach never overstates what was tested.
  std::uint64_t unjudged_succeeded = 0;
  /// Why no 2xx came back ("" when one did): "not sent: ...", "refused:
  /// 403 (...)", "no id found: ...", "every request refused as invalid".
  std::string why;
  bool reached() const { return succeeded > 0; }
};

/// One response link of the description (OpenAPI `links`) and whether the
/// run followed it: a value it gave was sent to the operation it names.
struct link_use {
  std::string from_operation;  // the operation whose answer carries the link
  std::string status;          // the response key ("201", "2XX")
  std::string name;            // the link's key
  std::string to_operation;    // the operation it feeds
  std::uint64_t followed = 0;  // requests sent with a value it gave
  std::string why;             // never followed: why
};

/// Everything a run found; what the report writers render.
struct run_report {
  run_info info;
  std::vector<check_tally> tallies;  // sorted by operation (spec order), auth model, check
  std::vector<failure> failures;     // one per (operation, check, cause), in tally order
  std::vector<not_run> not_runs;
  std::vector<operation_coverage> coverage;  // operation order; empty when the phase did not run
  /// Notes, one per (operation, auth model, check, cause), in tally order.
  /// They never change the exit status.
  std::vector<note> notes;
  /// Every assumption of the description (its constraints that rest on an
  /// x-assumption alone, openapi/provenance.hpp), as failures name them: the
  /// whole list the contradicted and unobserved ones are drawn from.
  std::vector<std::string> assumptions;
  /// Per operation (spec order) and auth model: whether a 2xx was reached.
  std::vector<operation_reach> reach;
  /// Every response link of the description, in spec order; empty when the
  /// stateful phase did not run.
  std::vector<link_use> links;
  run_counts counts;
  run_timings timings;
  /// A harness problem that stopped the run early (target unreachable, ...).
  std::optional<std::string> aborted;

  /// 0 when every check that ran passed, 1 when any failed, 2 when aborted
  /// or when no check judged anything (nothing was proved), 3 when every
  /// check that ran passed but operations were skipped (info.skipped_operations).
  /// A failure that contradicts an assumption fails the run only with
  /// strict_assumptions.
  int exit_code() const;

  /// True when `f` fails the run: sourced, or under strict_assumptions.
  bool fails_run(const failure& f) const {
    return !f.contradicts_assumption() || info.strict_assumptions;
  }

  /// One assumption of the description the target contradicted, and how
  /// many reported failures rest on it.
  struct contradicted_assumption {
    std::string text;
    std::uint64_t failures = 0;
  };
  /// Every assumption the run's failures contradicted, each once, in the
  /// order first seen: the list the API team confirms or corrects.
  std::vector<contradicted_assumption> assumptions_contradicted() const;

  /// An assumption of the description a request broke alone, which the
  /// target refused for another reason (404, a state conflict) and no
  /// failure contradicted: the run could neither confirm nor contradict it.
  struct unobserved_assumption {
    std::string text;
    unsigned status = 0;  // the refusal of the first such request
  };
  /// Every such assumption, each once, in the order the notes list them.
  std::vector<unobserved_assumption> assumptions_not_observed() const;
  /// The assumptions of the description neither contradicted nor left
  /// unobserved by this run, in the description's order.
  std::vector<std::string> assumptions_not_contradicted() const;
};

}  // namespace conform::harness
