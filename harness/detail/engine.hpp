#pragma once
// Private to the run (harness/engine.cpp): the engine behind one
// `harness::run`, and the values its phases pass on. engine.cpp holds
// `engine::run()`, the table of contents; the plan, the exchanges, the
// stateful and scenario phases, and shrinking each have a file beside this
// one (engine_plan.cpp, engine_exchanges.cpp, engine_phases.cpp,
// engine_shrink.cpp), as do the judging of the exchanges the plan did not
// generate (engine_observed.cpp) and a target that dies (engine_liveness.cpp).

#include <boost/json.hpp>
#include <rapidcheck.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <thread>
#include <tuple>

#include "core/outcome.hpp"
#include "core/text.hpp"
#include "generators/request.hpp"
#include "harness/build.hpp"
#include "harness/detail/gate.hpp"
#include "harness/detail/notes.hpp"
#include "harness/engine.hpp"
#include "harness/reach.hpp"
#include "harness/results.hpp"
#include "harness/stateful/phase.hpp"

namespace conform::harness::detail {

using clock = std::chrono::steady_clock;

/// One (operation, auth model, mode) to generate `examples` requests for.
struct cell {
  const openapi::operation* op = nullptr;
  const auth_choice* auth = nullptr;
  request_kind kind = request_kind::valid;
  rc::Gen<generators::generated_request> gen;
  /// Per enabled per-exchange check, its results cell for (op, auth), or
  /// nullptr when the check has no cell there.
  std::shared_ptr<const std::vector<results_sink::cell_id>> cell_of_check;
};

/// One request of the coverage phase: a case of (operation, auth model),
/// sent once with a fixed seed and never shrunk.
struct coverage_item {
  std::size_t cell_index = 0;  // the cell of its kind for (operation, auth model)
  std::uint32_t case_index = 0;
  std::size_t op_index = 0;    // into run_config::operations
  std::size_t constraint = 0;  // into the operation's constraint names; npos: the valid baseline
  rc::Gen<generators::generated_request> gen;
};

/// What became of a coverage item (each written by the one worker that ran it).
struct coverage_outcome {
  bool sent = false;
  std::string why;  // not sent: the generator's reason
};

/// Everything one exchange produced that checks and reports need.
struct sent {
  http::request request;
  http::result result;
  std::optional<boost::json::value> json;
  std::string json_error;
  /// Set when the request was not sent: the part its mode breaks would not
  /// reach the wire as broken (harness::claim_lost says why).
  std::optional<std::string> lost;
  std::chrono::system_clock::time_point started;  // for --record
};

/// A violation seen during the main phase, before shrinking.
struct candidate {
  std::size_t item = 0;  // cell * examples + example: the lowest wins, for determinism
  std::size_t cell_index = 0;
  std::uint32_t example = 0;
  std::size_t check_index = 0;
  std::uint64_t seed = 0;
  /// The tree it came from; shrinking grows a random example's again from
  /// `seed` (engine::shrink), and uses this one for a coverage case.
  rc::Shrinkable<generators::generated_request> value;
  check_verdict verdict;
  std::uint64_t occurrences = 1;
  std::shared_ptr<const sent> original;  // the exchange that showed it first
};

struct failure_key {
  std::string operation_id, auth_model, check, cause;
  auto operator<=>(const failure_key&) const = default;
};

inline std::uint64_t mix(std::uint64_t x) {  // splitmix64 finaliser
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

std::vector<const scenario*> shard_scenarios(const run_config& config);

inline int size_for(std::uint32_t example, std::uint32_t examples) {
  if (examples <= 1) return 0;
  return static_cast<int>(static_cast<std::uint64_t>(example) * 100 / (examples - 1));
}

class engine {
 public:
  engine(const openapi::api_spec& spec, const profile::target& target, const run_config& config,
         http::client& client, listener& events)
      : spec_(spec),
        target_(&target),
        config_(config),
        client_(client),
        events_(events),
        gate_(events_),
        results_(spec, gate_),
        reach_(spec),
        redactor_(make_redactor(target)),
        guard_(spec, config.info.writes, client.base().base_path, writable_ids(target)) {
    credentials_.emplace(spec, target);
    guard_.read_only(config.read_only);
    if (events_.records_exchanges()) recorder_.emplace(target);
  }

  run_report run();

 private:
  void plan();
  void stateful_phase();
  void scenario_phase();
  void plan_coverage(std::size_t o, const auth_choice& choice, std::size_t first_cell);
  void main_phase();
  void worker_main(unsigned worker);
  /// A generated request and the shrink tree it came from.
  struct generated {
    rc::Shrinkable<generators::generated_request> tree;
    generators::generated_request value;
  };
  /// Generates item `item` of the plan (coverage items first), or says why
  /// the generator gave up.
  core::outcome<generated> generate(std::uint64_t item, std::size_t& cell_index,
                                    std::uint32_t& example, std::uint64_t& seed) const;
  void judge(std::uint64_t item, std::size_t cell_index, std::uint32_t example, std::uint64_t seed,
             const rc::Shrinkable<generators::generated_request>& value,
             const generators::generated_request& g, const sent& s);
  void fold_coverage();
  sent send(unsigned worker, const cell& c, const generators::generated_request& g,
            std::chrono::milliseconds timeout = std::chrono::milliseconds(0));
  /// A send of the shrinking phase: within what is left until `deadline`
  /// (never the full timeout past it); nullopt when nothing is left, or when
  /// the time left ran out before an answer.
  std::optional<sent> send_within(unsigned worker, const cell& c,
                                  const generators::generated_request& g,
                                  clock::time_point deadline);
  check_verdict evaluate(const cell& c, const exchange_check& k,
                         const generators::generated_request& g, const sent& s) const;
  void shrink_phase();
  failure shrink(unsigned worker, candidate& cand, clock::time_point phase_deadline);
  void add_time(std::chrono::nanoseconds run_timings::*field, clock::duration d);
  std::string redact(std::string text) const {
    return redact_credentials(*target_, std::move(text));
  }
  /// What sees each request a scenario context of phase `p` sends (its mode:
  /// `mode`): --record's recorder, and with `judge` every enabled check that
  /// judges the answer alone (judge_observed). The scenarios and the stateful
  /// walk judge what they sent for; these judge the answer as any answer
  /// (issue 37: every exchange judged, a 5xx anywhere a failure with its own
  /// reproduction).
  scenario_context::observer observer_for(phase p, std::string mode, bool judge = true);
  /// How an exchange the plan did not generate is judged and filed.
  struct observed {
    phase p = phase::scenarios;
    std::string label;        // the auth model its cells are filed under
    failure_mode mode;        // as its failures say
    const cell* c = nullptr;  // a re-send of shrinking: the cell it re-sends
    const generators::generated_request* g = nullptr;  // and its request
    std::size_t skip = static_cast<std::size_t>(-1);   // the check being shrunk
  };
  /// Judges `req` and what came back by every enabled check that judges the
  /// answer alone (exchange_check::answers_alone); true when one did. A
  /// scenario's or a step's verdicts are counted in cells of their own
  /// (`how.label`); a shrinking re-send's failures go to its cell's, once
  /// per cause that the plan's own exchanges did not show.
  /// `json`: the answer's body parsed (nullptr when it is not JSON), as the
  /// sender already parsed it.
  bool judge_observed(const observed& how, const http::request& req, const http::result& res,
                      const boost::json::value* json);
  /// True when some enabled check judges answers alone.
  bool judges_answers() const;

  /// A request the target took, kept for the failure that says it stopped
  /// answering (engine_liveness.cpp).
  struct taken {
    std::uint64_t order = 0;  // when it was sent, over the whole run
    http::request request;
    const openapi::operation* op = nullptr;
    /// Its auth model (the plan's cell: its label is made only if it fails),
    /// or the phase's cells.
    const auth_choice* auth = nullptr;
    std::string label;
    failure_mode mode;
    results_sink::origin from = results_sink::origin::exchanges;
    http::result result;  // what came back, or the transport error
  };
  /// Sees each answer or transport error: a connection refused after the
  /// target had answered means it stopped answering (issue 37 item 8). The
  /// first time, files a failure against the last request it took and
  /// stops the run; true when the target is gone.
  bool watch(const http::result& res);
  /// Keeps `t` if it is the latest request the target answered, or the
  /// latest it took and did not answer.
  void remember(taken t);
  /// True once the target stopped answering: phases take no more work.
  bool target_gone() const { return gone_.load(std::memory_order_relaxed); }
  /// --record: what records each request a scenario context of phase `p`
  /// sends (its mode: `mode`).
  scenario_context::observer recorder_for(phase p, std::string mode) {
    return [this, p, mode = std::move(mode)](const http::request& req, const http::result& res,
                                             const boost::json::value*,
                                             std::chrono::system_clock::time_point started) {
      const auto* op = operation_of(spec_, req);
      gate_.exchange_recorded(
          {recorder_->record(to_string(p), op, "", mode, client_.base(), req, res, started)});
    };
  }
  /// --record: the exchange `s` of cell `c`, with what the checks said.
  void record(phase p, const cell& c, const generators::generated_request& g, const sent& s,
              std::vector<recorded_verdict> verdicts) {
    if (!recorder_) return;
    recorded_exchange e =
        recorder_->record(to_string(p), c.op, c.auth->model.label(),
                          failure_mode{c.kind == request_kind::valid ? failure_mode::kind::valid
                                                                     : failure_mode::kind::invalid,
                                       g.mode.description}
                              .to_string(),
                          client_.base(), s.request, s.result, s.started, std::move(verdicts));
    e.mutation = std::string(generators::to_string(g.mode.mutation));
    e.where = g.mode.where;
    gate_.exchange_recorded({e});
  }

  const openapi::api_spec& spec_;
  /// The target as given, or as the stateful phase learned it.
  const profile::target* target_;
  std::optional<profile::target> learned_;
  std::optional<credential_selector> credentials_;
  const run_config& config_;
  http::client& client_;
  event_stream events_;  // the caller's listener, one event at a time
  /// Holds the stateful phase's findings until the run has started.
  detail::gate gate_;
  results_sink results_;
  reach_tracker reach_;
  http::secret_redactor redactor_;
  /// What every send of the run passes: in safe mode, no write to what the
  /// run did not create.
  write_guard guard_;
  std::optional<exchange_recorder> recorder_;  // set when a listener records exchanges

  std::vector<std::vector<auth_choice>> auth_;  // per operation
  std::vector<cell> cells_;
  std::vector<coverage_item> coverage_;
  std::vector<coverage_outcome> coverage_outcomes_;
  std::vector<std::vector<std::string>> constraints_;  // per operation, in first-seen order
  std::vector<std::vector<std::string>> keywords_;     // per constraint, what it tests
  run_report report_;

  std::atomic<std::uint64_t> next_item_{0};
  std::uint64_t planned_ = 0;
  std::atomic<std::uint64_t> done_{0};
  std::atomic<std::uint64_t> requests_{0}, transport_errors_{0}, retries_429_{0};
  const std::uint64_t run_nonce_ =
      (static_cast<std::uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
  std::atomic<std::uint64_t> sends_{0};
  std::atomic<std::uint64_t> observed_order_{0};  // failures of observed exchanges, in order
  std::atomic<bool> answered_{false}, gone_{false};
  std::atomic<std::uint64_t> taken_order_{0};
  std::mutex taken_mutex_;              // guards the two below
  std::optional<taken> answered_last_;  // the latest request the target answered
  std::optional<taken> unanswered_;     // the latest it took and did not answer
  /// The operations of the latest requests it took and did not answer, in
  /// that order (a few: those in flight when it died).
  std::deque<std::pair<std::uint64_t, std::string>> unanswered_ops_;

  std::uint64_t scenario_requests_ = 0, scenario_retries_429_ = 0;
  std::uint64_t stateful_requests_ = 0, stateful_retries_429_ = 0;

  std::mutex mutex_;  // guards candidates_, report_.timings
  std::map<failure_key, candidate> candidates_;
  detail::note_keeper notes_;
  clock::time_point started_;  // when the run started: shrinking's default budget follows it
};

}  // namespace conform::harness::detail
