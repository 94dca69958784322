#pragma once
// Scenarios: checks that need more than one exchange to judge (a walk over
// a paginated list, a replay of an idempotent request, a move of a state
// machine, the scope matrix). A scenario reads everything it tests from the
// description and the profile, sends through a scenario_context, and reports
// per (operation, auth model, check) cell into the run's results sink
// (results.hpp): passes, failures with every request needed to reproduce
// them as curl commands, and "not run: why" for what the profile or the
// description did not allow.
//
// The engine runs the scenarios one after another, before the per-exchange
// phase, so that no scenario's state (a value it reads, a resource it moves)
// is disturbed by another's requests.

#include <boost/json/value.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/outcome.hpp"
#include "generators/request.hpp"
#include "http/client.hpp"
#include "http/curl.hpp"
#include "harness/auth.hpp"
#include "harness/check.hpp"
#include "harness/run_report.hpp"
#include "harness/results.hpp"
#include "harness/write_guard.hpp"
#include "openapi/model.hpp"

namespace conform::harness {

namespace stateful {
class observer;  // harness/stateful/walk.hpp
}  // namespace stateful

/// One request a scenario sent and what came back.
struct probe {
  http::request request;
  http::result result;
  /// The body parsed as JSON, when it is JSON.
  std::optional<boost::json::value> json;

  /// Why the run's write guard kept it from the wire ("safe mode: ..."),
  /// or "" when it was sent.
  std::string refused;

  bool answered() const { return result.ok(); }
  /// 0 when no response came back.
  unsigned status() const;
  /// A 2xx answer came back.
  bool succeeded() const { return status() >= 200 && status() < 300; }
  /// Why this exchange says nothing about the rule under test, or nullopt
  /// when it can be judged: no answer came back, or the target refused it as
  /// rate-limited (the spec's x-rate-limit status) even after the client's
  /// retries. A check records such an exchange as "not run", never as a
  /// verdict.
  std::optional<std::string> unjudgeable(const openapi::api_spec& spec) const;
  /// The response body; empty when no response came back.
  const std::string& body() const;
  /// The value at JSON pointer `pointer` ("/a/b") of the body, or nullptr.
  const boost::json::value* at(std::string_view pointer) const;
  /// The error body's code (at x-error-envelope.code), or "" when there is none.
  std::string error_code() const;
  /// Where the error body carries its code (set by scenario_context::send).
  std::string_view code_pointer;
  /// The first value of response header `name`, or nullptr.
  const std::string* header(std::string_view name) const;
  /// "403 FORBIDDEN", "200", "no response (connection refused)".
  std::string summary() const;
};

/// A failure a scenario saw: what the description expects, what came back, a
/// stable cause (one report per operation, auth model, check and cause), and
/// the requests that show it, in order.
struct scenario_failure {
  std::string expected;
  std::string seen;
  std::string cause;
  std::string steps;  // one line: what the scenario did ("replayed the request with the same key")
  std::vector<const probe*> evidence;  // the last one's answer is quoted in the report
  /// When set, the reproduction shown instead of the evidence's curl
  /// commands (a body too large to quote, built by a shell pipeline).
  std::string reproduce;
  /// Not empty when the expectation rests on assumptions of the description
  /// alone (x-assumption): their texts (failure::assumptions).
  std::vector<std::string> assumptions = {};
};

/// What a scenario sends through: the target, request building from the
/// description, and sending. Not thread-safe except `send` on distinct lanes.
class scenario_context {
 public:
  /// `lanes` connections to the target with `options` (at least 2, so that
  /// scenarios can send concurrently).
  scenario_context(const openapi::api_spec& spec, const profile::target& target, std::uint64_t seed,
                   std::vector<const openapi::operation*> operations, const http::url& base,
                   http::client_options options, unsigned lanes = 4,
                   std::vector<std::string> workflow_files = {});

  const openapi::api_spec& spec() const { return spec_; }
  const profile::target& target() const { return target_; }
  std::uint64_t seed() const { return seed_; }
  /// The operations the run covers (--include/--exclude applied), in spec order.
  const std::vector<const openapi::operation*>& operations() const { return operations_; }
  bool covers(const openapi::operation& op) const;
  /// The Arazzo documents the run hands to the workflows scenario.
  const std::vector<std::string>& workflow_files() const { return workflow_files_; }
  /// The operation of `operation_id` when the run covers it, else nullptr.
  const openapi::operation* covered(std::string_view operation_id) const;

  /// Which credential requests go out with (the engine asks the same one).
  const credential_selector& credentials() const { return credentials_; }

  /// A valid request for `op` under `auth`, the same for the same run seed and
  /// `salt`, or why none can be generated.
  core::outcome<generators::generated_request> valid_request(const openapi::operation& op,
                                                             const auth_choice& auth,
                                                             std::string_view salt) const;
  /// The request on the wire: `g` with the credential, tenant context and
  /// idempotency headers of `auth`. The idempotency key is `key` when given,
  /// else a fresh one.
  http::request build(const openapi::operation& op, const auth_choice& auth,
                      const generators::generated_request& g,
                      std::optional<std::string_view> key = std::nullopt);
  /// A key no other send of this run uses.
  std::string fresh_key();

  /// Sends every later request through `g` (harness/write_guard.hpp), which
  /// must outlive the context; nullptr (the default): every write goes out.
  void guard(write_guard* g) { guard_ = g; }
  /// Why the guard keeps `req` (built for `op`, nullptr: matched by its
  /// path) from the wire, or nullopt.
  std::optional<std::string> refusal(const openapi::operation* op, const http::request& req) const {
    return guard_ ? guard_->refusal(op, req) : std::nullopt;
  }

  /// Sends `req` on connection `lane` (< lanes()). 429 is waited for and
  /// retried as the run's client does, unless `once`. A request the guard
  /// refuses is not sent: the probe says why (`refused`, `unjudgeable`).
  probe send(const http::request& req, unsigned lane = 0, bool once = false);
  unsigned lanes() const { return client_.workers(); }
  /// The target's base URL.
  const http::url& base() const { return client_.base(); }

  /// `req` as a curl command, credentials as ${ENV} references.
  std::string curl(const http::request& req) const;
  /// The reported form of `f`, seen in the (`op`, `auth`, `check`) cell:
  /// every text redacted, the evidence as curl commands, the run's seed.
  failure to_failure(const openapi::operation& op, std::string_view auth, std::string_view check,
                     const scenario_failure& f) const;
  /// What sees every request a scenario sends, and its answer (`--record`,
  /// the engine's judging): the answer's body parsed once, here, as JSON
  /// (nullptr when it is not JSON, or there is none).
  using observer =
      std::function<void(const http::request&, const http::result&, const boost::json::value* json,
                         std::chrono::system_clock::time_point started)>;
  /// Calls `f` after each send (from the thread that sent).
  void observe(observer f) { observer_ = std::move(f); }

  /// `text` with every credential value replaced by its ${ENV} reference.
  std::string redact(std::string text) const {
    return redact_credentials(target_, std::move(text));
  }

  /// Requests sent and 429 retries, for the run's counts.
  std::uint64_t requests() const { return requests_.load(); }
  std::uint64_t retries_429() const { return retries_429_.load(); }

 private:
  const openapi::api_spec& spec_;
  const profile::target& target_;
  credential_selector credentials_;
  std::uint64_t seed_;
  std::vector<const openapi::operation*> operations_;
  std::vector<std::string> workflow_files_;
  http::client client_;
  http::secret_redactor redactor_;
  std::uint64_t nonce_;
  std::atomic<std::uint64_t> keys_{0};
  std::atomic<std::uint64_t> requests_{0}, retries_429_{0};
  observer observer_;
  write_guard* guard_ = nullptr;
};

/// Whether a check is enabled in this run (a scenario runs only those).
using check_enabled = std::function<bool(std::string_view)>;

/// What the stateful phase hands the checks that judge its chains: where
/// they report, which of them the run enables, and the requests shrinking
/// one failing chain may spend at most.
struct chain_judging {
  results_sink& results;
  check_enabled enabled;
  unsigned max_shrinks = 64;
};

/// Makes the observer (harness/stateful/walk.hpp) that judges every step of
/// the stateful phase's walks.
using chain_checks_factory =
    std::function<std::unique_ptr<stateful::observer>(const chain_judging&)>;

/// A scenario: the checks it reports under and the procedure that runs them.
struct scenario {
  std::string name;  // the concern: "auth", "pagination"
  std::vector<check_info> checks;
  /// Runs every enabled check of the scenario.
  std::function<void(scenario_context&, results_sink&, const check_enabled& enabled)> run;
  /// Set when its checks judge the chains of the engine's stateful phase
  /// (harness/stateful/phase.hpp), before the plan: the phase makes their
  /// observer with it, and the scenario phase does not call `run`.
  chain_checks_factory chain_checks;
  /// True when its checks are judged by the stateful phase (`chain_checks`).
  bool stateful() const { return static_cast<bool>(chain_checks); }
};

}  // namespace conform::harness
