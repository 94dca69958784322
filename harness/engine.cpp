#include "harness/engine.hpp"

#include <boost/json.hpp>
#include <rapidcheck.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <thread>
#include <tuple>

#include "core/text.hpp"
#include "generators/request.hpp"
#include "harness/detail/build.hpp"
#include "harness/detail/notes.hpp"
#include "harness/detail/gate.hpp"
#include "harness/reach.hpp"
#include "harness/results.hpp"
#include "harness/stateful/phase.hpp"

namespace conform::harness {
namespace {

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
  /// reach the wire as broken (detail::claim_lost says why).
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
  rc::Shrinkable<generators::generated_request> value;
  check_verdict verdict;
  std::uint64_t occurrences = 1;
  std::shared_ptr<const sent> original;  // the exchange that showed it first
};

struct failure_key {
  std::string operation_id, auth_model, check, cause;
  auto operator<=>(const failure_key&) const = default;
};

std::uint64_t mix(std::uint64_t x) {  // splitmix64 finaliser
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

std::vector<const scenario*> shard_scenarios(const run_config& config);

int size_for(std::uint32_t example, std::uint32_t examples) {
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
        redactor_(make_redactor(target)) {
    credentials_.emplace(spec, target);
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
  /// Generates item `item` of the plan (coverage items first); nullopt and
  /// `error` when the generator gave up.
  std::optional<generated> generate(std::uint64_t item, std::size_t& cell_index,
                                    std::uint32_t& example, std::uint64_t& seed,
                                    std::string& error) const;
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
  /// --record: what records each request a scenario context of phase `p`
  /// sends (its mode: `mode`).
  scenario_context::observer recorder_for(phase p, std::string mode) {
    return [this, p, mode = std::move(mode)](const http::request& req, const http::result& res,
                                             std::chrono::system_clock::time_point started) {
      const auto* op = operation_of(spec_, req);
      gate_.exchange_recorded(
          recorder_->record(to_string(p), op, "", mode, client_.base(), req, res, started));
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
    gate_.exchange_recorded(e);
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

  std::uint64_t scenario_requests_ = 0, scenario_retries_429_ = 0;
  std::uint64_t stateful_requests_ = 0, stateful_retries_429_ = 0;

  std::mutex mutex_;  // guards candidates_, report_.timings
  std::map<failure_key, candidate> candidates_;
  detail::note_keeper notes_;
  clock::time_point started_;  // when the run started: shrinking's default budget follows it
};

void engine::add_time(std::chrono::nanoseconds run_timings::*field, clock::duration d) {
  std::lock_guard lock(mutex_);
  report_.timings.*field += std::chrono::duration_cast<std::chrono::nanoseconds>(d);
}

void engine::plan() {
  const auto& checks = config_.checks.exchange;
  auth_.reserve(config_.operations.size());
  for (const auto* op : config_.operations) {
    auth_.push_back(credentials_->auth_models(*op, /*try_unverified=*/true));
  }
  // This shard's (operation, auth model) pairs: all of them in a whole run.
  std::vector<std::vector<bool>> mine(auth_.size());
  for (std::size_t o = 0; o < auth_.size(); ++o) mine[o].assign(auth_[o].size(), true);
  if (config_.shard_count > 1) {
    std::vector<std::tuple<std::string_view, std::string, std::size_t, std::size_t>> pairs;
    for (std::size_t o = 0; o < auth_.size(); ++o) {
      for (std::size_t a = 0; a < auth_[o].size(); ++a) {
        pairs.emplace_back(config_.operations[o]->operation_id, auth_[o][a].model.label(), o, a);
      }
    }
    std::sort(pairs.begin(), pairs.end());
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      mine[std::get<2>(pairs[i])][std::get<3>(pairs[i])] =
          i % config_.shard_count == config_.shard_index - 1;
    }
  }
  for (std::size_t o = 0; o < config_.operations.size(); ++o) {
    const auto* op = config_.operations[o];
    for (std::size_t a = 0; a < auth_[o].size(); ++a) {
      if (!mine[o][a]) continue;
      const auth_choice& choice = auth_[o][a];
      const std::string label = choice.model.label();
      // Which kinds can run: valid always; invalid when the description
      // gives something to break.
      std::optional<rc::Gen<generators::generated_request>> gens[2];
      std::string why[2];
      if (!choice.not_run_why) {
        for (auto kind : {request_kind::valid, request_kind::invalid}) {
          auto made = detail::make_generator(spec_, *op, choice, kind);
          if (made.gen) {
            gens[static_cast<int>(kind)] = std::move(*made.gen);
          } else {
            why[static_cast<int>(kind)] = made.why;
          }
        }
      }
      auto cell_of_check =
          std::make_shared<std::vector<results_sink::cell_id>>(checks.size(), nullptr);
      for (std::size_t ki = 0; ki < checks.size(); ++ki) {
        const exchange_check& k = *checks[ki];
        if (k.concerns && !k.concerns(spec_, *op)) continue;
        const bool valid_runs = gens[0].has_value(), invalid_runs = gens[1].has_value();
        const bool runs = (k.to != applies_to::invalid && valid_runs) ||
                          (k.to != applies_to::valid && invalid_runs);
        std::optional<std::string> not_run_why;
        if (choice.not_run_why) {
          not_run_why = *choice.not_run_why;
        } else if (!runs) {
          // A check of a kind that cannot run here: not a cell at all when the
          // description gives nothing to break; otherwise say why.
          const std::string& reason = k.to == applies_to::invalid ? why[1] : why[0];
          if (k.to == applies_to::invalid && reason.empty()) continue;
          not_run_why = reason.empty() ? "no request could be generated" : reason;
        }
        const auto id = results_.cell(op, label, k.info.name, results_sink::origin::exchanges);
        if (not_run_why) results_.not_run(id, std::move(*not_run_why), /*say=*/false);
        (*cell_of_check)[ki] = id;
      }
      if (choice.not_run_why) {
        results_.not_run({"*", op->operation_id, label, *choice.not_run_why});
        reach_.not_sent(*op, label, *choice.not_run_why);
        continue;
      }
      const std::size_t first_cell = cells_.size();
      for (int m = 0; m < 2; ++m) {
        if (!gens[m]) {
          if (!why[m].empty() && m == 0) results_.not_run({"*", op->operation_id, label, why[m]});
          continue;
        }
        cells_.push_back(
            {op, &choice, static_cast<request_kind>(m), std::move(*gens[m]), cell_of_check});
      }
      plan_coverage(o, choice, first_cell);
    }
  }
  coverage_outcomes_.resize(coverage_.size());
  planned_ = coverage_.size() + cells_.size() * static_cast<std::uint64_t>(config_.examples);
}

void engine::plan_coverage(std::size_t o, const auth_choice& choice, std::size_t first_cell) {
  // Without a per-exchange check nothing would judge the cases.
  if (!config_.coverage || config_.checks.exchange.empty()) return;
  if (constraints_.size() <= o) constraints_.resize(config_.operations.size());
  if (keywords_.size() <= o) keywords_.resize(config_.operations.size());
  const auto* op = config_.operations[o];
  auto cases = detail::make_coverage(spec_, *op, choice);
  auto& names = constraints_[o];
  for (std::uint32_t i = 0; i < cases.size(); ++i) {
    auto& c = cases[i];
    std::size_t constraint = std::string::npos;
    if (c.constraint != "valid") {
      auto it = std::find(names.begin(), names.end(), c.constraint);
      constraint = static_cast<std::size_t>(it - names.begin());
      if (it == names.end()) {
        names.push_back(c.constraint);
        keywords_[o].push_back(c.keyword);
      }
    }
    // The cell of the case's kind; a kind the random phase does not run
    // (nothing it could break) leaves the case uncovered, said in the report.
    std::optional<std::size_t> cell_index;
    for (std::size_t k = first_cell; k < cells_.size(); ++k) {
      if (cells_[k].kind == c.kind) cell_index = k;
    }
    if (!cell_index) continue;
    coverage_.push_back({*cell_index, i, o, constraint, std::move(c.gen)});
  }
}

void engine::fold_coverage() {
  std::vector<std::vector<std::string>> why(constraints_.size());
  std::vector<std::vector<bool>> covered(constraints_.size());
  for (std::size_t o = 0; o < constraints_.size(); ++o) {
    covered[o].assign(constraints_[o].size(), false);
    why[o].resize(constraints_[o].size());
  }
  for (std::size_t i = 0; i < coverage_.size(); ++i) {
    const auto& item = coverage_[i];
    if (item.constraint == std::string::npos) continue;
    if (coverage_outcomes_[i].sent) {
      covered[item.op_index][item.constraint] = true;
    } else if (why[item.op_index][item.constraint].empty()) {
      why[item.op_index][item.constraint] = coverage_outcomes_[i].why;
    }
  }
  for (std::size_t o = 0; o < constraints_.size(); ++o) {
    if (constraints_[o].empty()) continue;
    operation_coverage c;
    c.operation_id = config_.operations[o]->operation_id;
    c.method_path = config_.operations[o]->method_path();
    c.constraints = static_cast<std::uint32_t>(constraints_[o].size());
    for (std::size_t k = 0; k < constraints_[o].size(); ++k) {
      const std::string& keyword = keywords_[o][k];
      auto kc = std::find_if(c.by_keyword.begin(), c.by_keyword.end(),
                             [&](const auto& x) { return x.keyword == keyword; });
      if (kc == c.by_keyword.end()) kc = c.by_keyword.insert(kc, {keyword, 0, 0});
      ++kc->constraints;
      if (covered[o][k]) ++kc->covered;
      if (covered[o][k]) {
        ++c.covered;
      } else {
        c.uncovered.push_back(
            constraints_[o][k] + ": " +
            (why[o][k].empty() ? std::string("no request of its kind runs here") : why[o][k]));
      }
    }
    report_.coverage.push_back(std::move(c));
  }
}

sent engine::send(unsigned worker, const cell& c, const generators::generated_request& g,
                  std::chrono::milliseconds timeout) {
  sent s;
  // Every send gets a key of its own: a run-wide random nonce (so a rerun
  // with the same seed against a target that keeps state is not answered
  // with the first run's replays) and a counter.
  char key[64];
  std::snprintf(key, sizeof key, "conform-%016llx-%llu",
                static_cast<unsigned long long>(run_nonce_),
                static_cast<unsigned long long>(sends_.fetch_add(1, std::memory_order_relaxed)));
  s.request = detail::to_http_request(spec_, *c.op, *c.auth, g, key);
  apply_target_headers(s.request, *target_);
  if (auto why = detail::claim_lost(g, s.request)) {
    s.lost = std::move(why);
    return s;
  }
  s.started = std::chrono::system_clock::now();
  const auto t0 = clock::now();
  s.result = client_.send(worker, s.request, timeout);
  add_time(&run_timings::transport, clock::now() - t0);
  requests_.fetch_add(1, std::memory_order_relaxed);
  retries_429_.fetch_add(s.result.retries_429, std::memory_order_relaxed);
  if (!s.result.ok()) {
    transport_errors_.fetch_add(1, std::memory_order_relaxed);
    s.json_error = "no response";
  } else if (const auto& body = s.result.value().body; body.empty()) {
    s.json_error = "empty body";
  } else {
    boost::system::error_code ec;
    auto v = boost::json::parse(body, ec);
    if (ec) {
      s.json_error = ec.message();
    } else {
      s.json = std::move(v);
    }
  }
  return s;
}

check_verdict engine::evaluate(const cell& c, const exchange_check& k,
                               const generators::generated_request& g, const sent& s) const {
  const exchange e{
      spec_,        *c.op, c.auth->model, g.mode, s.request, s.result, s.json ? &*s.json : nullptr,
      s.json_error, &g};
  return k.run(e);
}

std::vector<const scenario*> shard_scenarios(const run_config& config) {
  const auto& all = config.checks.scenarios;
  if (config.shard_count <= 1) return all;
  std::vector<const scenario*> out;
  for (std::size_t j = 0; j < all.size(); ++j) {
    if (j % config.shard_count == config.shard_index - 1) out.push_back(all[j]);
  }
  return out;
}

void engine::stateful_phase() {
  report_.info.learned = target_->notes;
  if (!config_.stateful) return;
  // Its checks are judged in the shard that holds their suite; every shard learns.
  const auto mine = shard_scenarios(config_);
  const bool judges =
      std::any_of(mine.begin(), mine.end(), [](const scenario* s) { return s->stateful; });
  gate_.phase_started(phase::stateful, 1);
  const auto t0 = clock::now();
  stateful::phase_options o;
  o.seed = config_.seed;
  o.operations = config_.operations;
  o.base = client_.base();
  o.client = client_.options();
  o.lanes = std::max(2u, config_.scenario_lanes);
  o.results = judges ? &results_ : nullptr;
  const auto& selection = config_.checks;
  o.enabled = [&selection](std::string_view name) { return selection.enabled(name); };
  o.max_shrinks = config_.max_shrinks;
  o.reach = &reach_;
  if (recorder_) o.observe = recorder_for(phase::stateful, "stateful");
  auto outcome = stateful::run_phase(spec_, *target_, o);
  learned_.emplace(std::move(outcome.learned));
  target_ = &*learned_;
  credentials_.emplace(spec_, *target_);
  report_.links = std::move(outcome.links);
  report_.info.learned.insert(report_.info.learned.end(), outcome.notes.begin(),
                              outcome.notes.end());
  stateful_requests_ = outcome.requests;
  stateful_retries_429_ = outcome.retries_429;
  results_.finish(results_sink::origin::scenarios);
  add_time(&run_timings::transport, clock::now() - t0);
  gate_.phase_finished(phase::stateful);
}

void engine::scenario_phase() {
  const auto& selection = config_.checks;
  auto scenarios = shard_scenarios(config_);
  std::erase_if(scenarios, [](const scenario* s) { return s->stateful; });
  if (scenarios.empty()) return;
  events_.phase_started(phase::scenarios, scenarios.size());
  const auto t0 = clock::now();
  scenario_context ctx(spec_, *target_, config_.seed, config_.operations, client_.base(),
                       client_.options(), std::max(2u, config_.scenario_lanes),
                       config_.workflow_files);
  if (recorder_) ctx.observe(recorder_for(phase::scenarios, "scenario"));
  const check_enabled enabled = [&selection](std::string_view name) {
    return selection.enabled(name);
  };
  // One after another: a scenario reads state (a value, a resource's
  // status) that another's requests would move.
  for (const auto* s : scenarios) {
    try {
      s->run(ctx, results_, enabled);
    } catch (const std::exception& ex) {
      // A scenario that throws is a harness fault: said, never a silent pass.
      for (const auto& c : s->checks) {
        if (enabled(c.name)) {
          results_.not_run(nullptr, "", c.name,
                           "the " + s->name + " scenario stopped: " + ex.what());
        }
      }
    }
    results_.finish(results_sink::origin::scenarios);
  }
  scenario_requests_ = ctx.requests();
  scenario_retries_429_ = ctx.retries_429();
  add_time(&run_timings::transport, clock::now() - t0);
  events_.phase_finished(phase::scenarios);
}

std::optional<engine::generated> engine::generate(std::uint64_t item, std::size_t& cell_index,
                                                  std::uint32_t& example, std::uint64_t& seed,
                                                  std::string& error) const {
  const std::uint64_t covering = coverage_.size();
  if (item < covering) {
    // A coverage case: small (size 0 first) and fixed; a few seeds before
    // giving up, since a filter may reject the first sample. Never shrunk:
    // the case breaks one constraint of an otherwise minimal request.
    const coverage_item& ci = coverage_[item];
    const cell& c = cells_[ci.cell_index];
    cell_index = ci.cell_index;
    example = ci.case_index;
    for (std::uint32_t attempt = 0; attempt < 4; ++attempt) {
      seed = example_seed(config_.seed, c.op->operation_id, c.auth->model.label(), c.kind,
                          0x80000000u + ci.case_index * 4 + attempt);
      try {
        auto v = ci.gen(rc::Random(seed), static_cast<int>(attempt * 10)).value();
        return generated{rc::shrinkable::just(v), std::move(v)};
      } catch (const std::exception& ex) {
        error = ex.what();
      }
    }
    return std::nullopt;
  }
  const auto examples = config_.examples;
  const std::uint64_t random = item - covering;
  cell_index = static_cast<std::size_t>(random / examples);
  example = static_cast<std::uint32_t>(random % examples);
  const cell& c = cells_[cell_index];
  seed = example_seed(config_.seed, c.op->operation_id, c.auth->model.label(), c.kind, example);
  try {
    // The generators avoid gen::exec (whose state RapidCheck keeps in
    // process-wide statics), so workers generate in parallel.
    // A Shrinkable computes its value on each call: take it once.
    auto tree = c.gen(rc::Random(seed), size_for(example, examples));
    auto value = tree.value();  // a generator that gave up throws here
    return generated{std::move(tree), std::move(value)};
  } catch (const std::exception& ex) {
    error = ex.what();
  }
  return std::nullopt;
}

void engine::worker_main(unsigned worker) {
  const std::uint64_t covering = coverage_.size();
  for (;;) {
    const std::uint64_t item = next_item_.fetch_add(1, std::memory_order_relaxed);
    if (item >= planned_) return;
    std::size_t cell_index = 0;
    std::uint32_t example = 0;
    std::uint64_t seed = 0;
    std::string gen_error;
    const auto g0 = clock::now();
    auto made = generate(item, cell_index, example, seed, gen_error);
    add_time(&run_timings::generation, clock::now() - g0);
    const cell& c = cells_[cell_index];
    if (!made) {
      if (item < covering) {
        coverage_outcomes_[item].why = "no value could be made: " + gen_error;
      } else {
        // Said once per (operation, auth model): the first example that failed.
        results_.not_run(
            {"*", c.op->operation_id, c.auth->model.label(),
             "the generator gave up (example " + std::to_string(example) + "): " + gen_error});
      }
    } else {
      const sent s = send(worker, c, made->value);
      if (s.lost) {
        // A case whose broken part would not reach the wire is not run,
        // never judged as if it were (issue 22).
        const std::string why = "not sent: " + *s.lost;
        if (item < covering) {
          coverage_outcomes_[item].why = why;
        } else {
          const auto& checks = config_.checks.exchange;
          for (std::size_t k = 0; k < checks.size(); ++k) {
            const results_sink::cell_id cell_id = (*c.cell_of_check)[k];
            if (cell_id && applies(checks[k]->to, c.kind)) results_.not_run(cell_id, why);
          }
        }
      } else {
        if (item < covering) coverage_outcomes_[item].sent = true;
        if (c.kind == request_kind::valid) {
          reach_.record(*c.op, c.auth->model, s.result, s.json ? &*s.json : nullptr);
        }
        judge(item, cell_index, example, seed, made->tree, made->value, s);
      }
    }
    const auto done = done_.fetch_add(1, std::memory_order_relaxed) + 1;
    events_.exchange_done(done, planned_);
  }
}

void engine::judge(std::uint64_t item, std::size_t cell_index, std::uint32_t example,
                   std::uint64_t seed, const rc::Shrinkable<generators::generated_request>& value,
                   const generators::generated_request& g, const sent& s) {
  const cell& c = cells_[cell_index];
  const auto k0 = clock::now();
  const auto& checks = config_.checks.exchange;
  std::vector<recorded_verdict> verdicts;
  for (std::size_t k = 0; k < checks.size(); ++k) {
    const exchange_check& chk = *checks[k];
    const results_sink::cell_id cell_id = (*c.cell_of_check)[k];
    if (!cell_id || !applies(chk.to, c.kind)) continue;
    const auto t0 = clock::now();
    check_verdict v = evaluate(c, chk, g, s);
    results_sink::add_time(cell_id, clock::now() - t0);
    if (!v.note.empty()) {
      note n;
      n.check = chk.info.name;
      n.operation_id = c.op->operation_id;
      n.method_path = c.op->method_path();
      n.auth_model = c.auth->model.label();
      n.mode = {
          c.kind == request_kind::valid ? failure_mode::kind::valid : failure_mode::kind::invalid,
          g.mode.description};
      n.text = v.note;
      n.cause = v.cause;
      const auto at = std::find(config_.operations.begin(), config_.operations.end(), c.op);
      notes_.keep(item, static_cast<std::size_t>(at - config_.operations.begin()), std::move(n),
                  s.request, s.result);
    }
    if (recorder_) verdicts.push_back({chk.info.name, v.what, v.cause, v.expected, v.seen});
    if (v.what == check_verdict::kind::not_run) {
      // Said once per cell; the cell still counts what it did judge.
      results_.not_run(cell_id, std::move(v.seen));
    } else if (v.what == check_verdict::kind::pass) {
      results_sink::pass(cell_id);
    } else if (v.what == check_verdict::kind::violation) {
      results_sink::count(cell_id, v);
      std::lock_guard lock(mutex_);
      failure_key key{c.op->operation_id, c.auth->model.label(), chk.info.name, v.cause};
      auto it = candidates_.find(key);
      if (it == candidates_.end()) {
        candidates_.emplace(key, candidate{item, cell_index, example, k, seed, value, std::move(v),
                                           1, std::make_shared<const sent>(s)});
      } else {
        ++it->second.occurrences;
        if (item < it->second.item) {
          auto occurrences = it->second.occurrences;
          it->second = candidate{item,
                                 cell_index,
                                 example,
                                 k,
                                 seed,
                                 value,
                                 std::move(v),
                                 occurrences,
                                 std::make_shared<const sent>(s)};
        }
      }
    }
  }
  add_time(&run_timings::checking, clock::now() - k0);
  record(item < coverage_.size() ? phase::coverage : phase::exchanges, c, g, s,
         std::move(verdicts));
}

void engine::main_phase() {
  // Coverage, then the random examples: one pool of workers takes the items
  // in plan order (coverage items first), so the two phases overlap only
  // while the last coverage requests are in flight.
  if (!coverage_.empty()) events_.phase_started(phase::coverage, coverage_.size());
  events_.phase_started(phase::exchanges, planned_);
  const unsigned workers = std::max(1u, client_.workers());
  std::vector<std::thread> threads;
  threads.reserve(workers);
  for (unsigned w = 0; w < workers; ++w) threads.emplace_back([this, w] { worker_main(w); });
  for (auto& t : threads) t.join();
  if (!coverage_.empty()) events_.phase_finished(phase::coverage);
  results_.finish(results_sink::origin::exchanges);
  events_.phase_finished(phase::exchanges);
  fold_coverage();
}

std::optional<sent> engine::send_within(unsigned worker, const cell& c,
                                        const generators::generated_request& g,
                                        clock::time_point deadline) {
  if (deadline == clock::time_point::max()) return send(worker, c, g);
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now());
  if (left.count() < 1) return std::nullopt;
  const auto full = client_.options().connection.total_timeout;
  const bool cut = full.count() == 0 || left < full;
  sent s = send(worker, c, g, cut ? left : full);
  // A timeout the budget cut short says nothing of the target: no answer.
  if (cut && !s.result.ok() && s.result.error().what == http::transport_error::kind::timeout) {
    return std::nullopt;
  }
  return s;
}

failure engine::shrink(unsigned worker, candidate& cand, clock::time_point phase_deadline) {
  const cell& c = cells_[cand.cell_index];
  const exchange_check& chk = *config_.checks.exchange[cand.check_index];
  rc::Shrinkable<generators::generated_request> current = cand.value;
  check_verdict verdict = cand.verdict;
  unsigned steps = 0, budget = config_.max_shrinks;
  generators::generated_request current_value = current.value();
  // This failure's share of time, within the phase's.
  clock::time_point deadline = phase_deadline;
  if (config_.shrink_time_per_failure.count() > 0 &&
      clock::now() + config_.shrink_time_per_failure < deadline) {
    deadline = clock::now() + config_.shrink_time_per_failure;
  }
  auto judged = [&](const generators::generated_request& g, const sent& s) {
    check_verdict v = evaluate(c, chk, g, s);
    record(phase::shrinking, c, g, s, {{chk.info.name, v.what, v.cause, v.expected, v.seen}});
    return v;
  };
  // A timeout is reported as first seen: every re-send would wait it out again.
  const bool timed_out = !cand.original->result.ok() &&
                         cand.original->result.error().what == http::transport_error::kind::timeout;
  // The first re-send confirms the failure is still there; if it is not
  // (the target's state moved on), the failure is reported unshrunk.
  std::optional<sent> resent;
  if (!timed_out) resent = send_within(worker, c, current_value, deadline);
  const bool reproduced = resent && judged(current_value, *resent).cause == verdict.cause;
  sent last = resent ? std::move(*resent) : *cand.original;
  if (reproduced) {
    bool progressed = true, in_time = true;
    while (progressed && in_time && budget > 0) {
      progressed = false;
      auto children = current.shrinks();
      while (budget > 0) {
        auto child = children.next();
        if (!child) break;
        --budget;
        generators::generated_request child_value;
        try {
          child_value = child->value();
        } catch (const std::exception&) {
          continue;  // a shrink the generator cannot realise is no candidate
        }
        std::optional<sent> s = send_within(worker, c, child_value, deadline);
        if (!s) {
          in_time = false;  // the time is spent: report what was reached
          break;
        }
        if (s->lost) continue;  // a shrink whose broken part would not be sent
        check_verdict v = judged(child_value, *s);
        if (v.what == check_verdict::kind::violation && v.cause == verdict.cause) {
          current = std::move(*child);
          current_value = std::move(child_value);
          verdict = std::move(v);
          last = std::move(*s);
          ++steps;
          progressed = true;
          break;
        }
      }
    }
  }
  if (resent && !reproduced) {
    // Report what was seen first, and say that a re-send did not show it.
    verdict.seen += " (not reproduced by a re-send, which got " +
                    (last.result.ok() ? "status " + std::to_string(last.result.value().status)
                                      : std::string("no response")) +
                    ")";
    last = *cand.original;
  }
  failure f;
  f.check = chk.info.name;
  f.operation_id = c.op->operation_id;
  f.method_path = c.op->method_path();
  f.auth_model = c.auth->model.label();
  f.mode = c.kind == request_kind::valid
               ? failure_mode{failure_mode::kind::valid, current_value.mode.description}
               : failure_mode{failure_mode::kind::invalid, current_value.mode.description};
  f.expected = verdict.expected;
  f.seen = redact(verdict.seen);
  f.cause = verdict.cause;
  f.assumptions = verdict.assumptions;
  f.seed = config_.seed;
  f.example = cand.example;
  f.curl = http::to_curl(last.request, client_.base(), redactor_);
  if (last.result.ok()) {
    f.status = last.result.value().status;
    const auto& answer = last.result.value();
    const std::string* type = answer.find(http::field::content_type);
    f.response_excerpt = redact(core::body_excerpt(answer.body, type ? *type : std::string(), 300));
  }
  f.shrink_steps = steps;
  f.occurrences = cand.occurrences;
  return f;
}

void engine::shrink_phase() {
  std::vector<candidate*> pending;
  for (auto& [key, cand] : candidates_) pending.push_back(&cand);
  std::sort(pending.begin(), pending.end(), [](const candidate* a, const candidate* b) {
    return std::tie(a->item, a->check_index) < std::tie(b->item, b->check_index);
  });
  if (pending.empty()) return;
  events_.phase_started(phase::shrinking, pending.size());
  // The phase's time: as given, else as long as the run so far, at least 30 s.
  clock::time_point deadline = clock::time_point::max();
  const auto spent = std::chrono::duration_cast<std::chrono::milliseconds>(clock::now() - started_);
  const auto total = config_.shrink_time
                         ? *config_.shrink_time
                         : std::max<std::chrono::milliseconds>(spent, std::chrono::seconds(30));
  if (total.count() > 0) deadline = clock::now() + total;
  std::atomic<std::size_t> next{0};
  const unsigned workers = std::max(1u, std::min<unsigned>(client_.workers(), pending.size()));
  std::vector<std::thread> threads;
  for (unsigned w = 0; w < workers; ++w) {
    threads.emplace_back([&, w] {
      for (std::size_t i; (i = next.fetch_add(1)) < pending.size();) {
        const candidate& cand = *pending[i];
        const results_sink::cell_id cell_id =
            (*cells_[cand.cell_index].cell_of_check)[cand.check_index];
        // Kept in the plan's order (`i`), whichever worker finishes first.
        results_.report(cell_id, shrink(w, *pending[i], deadline), i);
      }
    });
  }
  for (auto& t : threads) t.join();
  events_.phase_finished(phase::shrinking);
}

run_report engine::run() {
  const auto start = clock::now();
  started_ = start;
  report_.info = config_.info;
  {
    auto suites = shard_scenarios(config_);
    report_.info.scenarios = static_cast<std::uint32_t>(std::count_if(
        suites.begin(), suites.end(), [](const scenario* s) { return !s->stateful; }));
  }
  if (config_.shard_count > 0) {
    report_.info.shard_index = config_.shard_index;
    report_.info.shard_count = config_.shard_count;
  }
  // The stateful phase first: what it learns (ids, tenants, scopes) goes
  // into the plan; its findings are held until the run has started.
  stateful_phase();
  plan();
  report_.info.coverage_planned = coverage_.size();
  events_.run_started(report_.info, planned_);
  for (const auto& n : config_.not_run_before) results_.not_run(n);
  gate_.open();
  scenario_phase();
  main_phase();
  shrink_phase();
  results_.fold_into(report_);
  report_.notes = notes_.take(
      [this](const http::request& r) { return http::to_curl(r, client_.base(), redactor_); },
      [this](std::string text) { return redact(std::move(text)); });
  report_.reach = reach_.fold(config_.operations);
  report_.counts.requests = requests_.load() + scenario_requests_ + stateful_requests_;
  report_.counts.transport_errors = transport_errors_.load();
  report_.counts.retries_429 = retries_429_.load() + scenario_retries_429_ + stateful_retries_429_;
  report_.timings.wall = std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - start);
  events_.run_finished(report_);
  return std::move(report_);
}

}  // namespace

std::uint64_t example_seed(std::uint64_t run_seed, std::string_view operation_id,
                           std::string_view auth_model, request_kind kind, std::uint32_t example) {
  std::uint64_t h = 14695981039346656037ull;
  h = core::fnv1a(operation_id, h);
  h = core::fnv1a("\x1f", h);
  h = core::fnv1a(auth_model, h);
  h = mix(h ^ mix(run_seed) ^ (static_cast<std::uint64_t>(kind) << 32) ^ example);
  return h;
}

run_report run(const openapi::api_spec& spec, const profile::target& target,
               const run_config& config, http::client& client, listener& events) {
  engine e(spec, target, config, client, events);
  return e.run();
}

}  // namespace conform::harness
