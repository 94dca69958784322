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

#include "generators/request.hpp"
#include "harness/detail/build.hpp"
#include "core/text.hpp"

namespace conform::harness {
namespace {

using clock = std::chrono::steady_clock;

/// One (operation, auth model, mode) to generate `examples` requests for.
struct cell {
  const openapi::operation* op = nullptr;
  const auth_choice* auth = nullptr;
  request_mode mode = request_mode::valid;
  rc::Gen<generators::generated_request> gen;
  /// Per enabled check, its tally index for (op, auth), or npos when the
  /// check has no cell there.
  std::shared_ptr<const std::vector<std::size_t>> tally_of_check;
};

constexpr std::size_t npos = static_cast<std::size_t>(-1);

/// Everything one exchange produced that checks and reports need.
struct sent {
  http::request request;
  http::result result;
  std::optional<boost::json::value> json;
  std::string json_error;
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

int size_for(std::uint32_t example, std::uint32_t examples) {
  if (examples <= 1) return 0;
  return static_cast<int>(static_cast<std::uint64_t>(example) * 100 / (examples - 1));
}

class engine {
 public:
  engine(const openapi::api_spec& spec, const target_view& target, const run_config& config,
         http::client& client, listener& events)
      : spec_(spec),
        target_(target),
        config_(config),
        client_(client),
        events_(events),
        redactor_(make_redactor(spec, target)) {}

  run_report run();

 private:
  void plan();
  void scenario_phase();
  void main_phase();
  void worker_main(unsigned worker);
  sent send(unsigned worker, const cell& c, const generators::generated_request& g);
  check_verdict evaluate(const cell& c, const check& k, const generators::generated_request& g,
                         const sent& s) const;
  void shrink_phase();
  failure shrink(unsigned worker, candidate& cand);
  void add_time(std::chrono::nanoseconds run_timings::*field, clock::duration d);
  std::string redact(std::string text) const {
    return redact_credentials(target_, std::move(text));
  }

  const openapi::api_spec& spec_;
  const target_view& target_;
  const run_config& config_;
  http::client& client_;
  listener& events_;
  http::secret_redactor redactor_;

  std::vector<std::vector<auth_choice>> auth_;  // per operation
  std::vector<cell> cells_;
  run_report report_;
  std::vector<std::atomic<std::uint64_t>> passed_, failed_;
  std::vector<std::atomic<std::int64_t>> tally_time_;

  std::atomic<std::uint64_t> next_item_{0};
  std::uint64_t planned_ = 0;
  std::atomic<std::uint64_t> done_{0};
  std::atomic<std::uint64_t> requests_{0}, transport_errors_{0}, retries_429_{0};
  const std::uint64_t run_nonce_ =
      (static_cast<std::uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
  std::atomic<std::uint64_t> sends_{0};

  scenario_results scenario_results_;
  std::uint64_t scenario_requests_ = 0, scenario_retries_429_ = 0;

  std::mutex mutex_;  // guards candidates_, report_.timings, events_
  std::map<failure_key, candidate> candidates_;
};

void engine::add_time(std::chrono::nanoseconds run_timings::*field, clock::duration d) {
  std::lock_guard lock(mutex_);
  report_.timings.*field += std::chrono::duration_cast<std::chrono::nanoseconds>(d);
}

void engine::plan() {
  const auto n_checks = config_.checks.size();
  auth_.reserve(config_.operations.size());
  for (const auto* op : config_.operations) {
    auth_.push_back(auth_models_for(spec_, *op, target_));
  }
  for (std::size_t o = 0; o < config_.operations.size(); ++o) {
    const auto* op = config_.operations[o];
    const std::string method_path = op->method_path();
    for (const auto& choice : auth_[o]) {
      const std::string label = choice.model.label();
      // Which modes can run: valid always; invalid when the description
      // gives something to break.
      std::optional<rc::Gen<generators::generated_request>> gens[2];
      std::string why[2];
      if (!choice.not_run_why) {
        for (auto mode : {request_mode::valid, request_mode::invalid}) {
          auto made = detail::make_generator(spec_, *op, choice, mode);
          if (made.gen) {
            gens[static_cast<int>(mode)] = std::move(*made.gen);
          } else {
            why[static_cast<int>(mode)] = made.why;
          }
        }
      }
      auto tally_of_check = std::make_shared<std::vector<std::size_t>>(n_checks, npos);
      for (std::size_t ki = 0; ki < n_checks; ++ki) {
        const auto* k = config_.checks[ki];
        check_tally t{op->operation_id, method_path, label, k->name, 0, 0, std::nullopt, {}};
        const bool valid_runs = gens[0].has_value(), invalid_runs = gens[1].has_value();
        const bool runs = (k->to != check::applies::invalid && valid_runs) ||
                          (k->to != check::applies::valid && invalid_runs);
        if (choice.not_run_why) {
          t.not_run_why = *choice.not_run_why;
        } else if (!runs) {
          // A check of a mode that cannot run here: not a cell at all when the
          // description gives nothing to break; otherwise say why.
          const std::string& reason = k->to == check::applies::invalid ? why[1] : why[0];
          if (k->to == check::applies::invalid && reason.empty()) continue;
          t.not_run_why = reason.empty() ? "no request could be generated" : reason;
        }
        (*tally_of_check)[ki] = report_.tallies.size();
        report_.tallies.push_back(std::move(t));
      }
      if (choice.not_run_why) {
        report_.not_runs.push_back({"*", op->operation_id, label, *choice.not_run_why});
        continue;
      }
      for (int m = 0; m < 2; ++m) {
        if (!gens[m]) {
          if (!why[m].empty() && m == 0) {
            report_.not_runs.push_back({"*", op->operation_id, label, why[m]});
          }
          continue;
        }
        cells_.push_back(
            {op, &choice, static_cast<request_mode>(m), std::move(*gens[m]), tally_of_check});
      }
    }
  }
  passed_ = std::vector<std::atomic<std::uint64_t>>(report_.tallies.size());
  failed_ = std::vector<std::atomic<std::uint64_t>>(report_.tallies.size());
  tally_time_ = std::vector<std::atomic<std::int64_t>>(report_.tallies.size());
  planned_ = cells_.size() * static_cast<std::uint64_t>(config_.examples);
}

sent engine::send(unsigned worker, const cell& c, const generators::generated_request& g) {
  sent s;
  // Every send gets a key of its own: a run-wide random nonce (so a rerun
  // with the same seed against a target that keeps state is not answered
  // with the first run's replays) and a counter.
  char key[64];
  std::snprintf(key, sizeof key, "conform-%016llx-%llu",
                static_cast<unsigned long long>(run_nonce_),
                static_cast<unsigned long long>(sends_.fetch_add(1, std::memory_order_relaxed)));
  s.request = detail::to_http_request(spec_, *c.op, *c.auth, g, key);
  const auto t0 = clock::now();
  s.result = client_.send(worker, s.request);
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

check_verdict engine::evaluate(const cell& c, const check& k,
                               const generators::generated_request& g, const sent& s) const {
  // What was broken, as a stable key ("invalid_query_param query per_page").
  std::string mutation;
  if (!g.mode.valid()) {
    mutation = std::string(generators::to_string(g.mode.mutation));
    if (!g.mode.where.empty()) mutation += " " + g.mode.where;
  }
  const exchange e{spec_,       *c.op,     c.auth->model, c.mode,
                   mutation,    s.request, s.result,      s.json ? &*s.json : nullptr,
                   s.json_error};
  return k.run(e);
}

void engine::scenario_phase() {
  if (config_.scenarios.empty()) return;
  const auto t0 = clock::now();
  scenario_context ctx(spec_, target_, config_.seed, config_.operations, client_.base(),
                       client_.options(), std::max(2u, config_.scenario_lanes));
  const auto& enabled_names = config_.scenario_checks;
  const std::function<bool(std::string_view)> enabled = [&enabled_names](std::string_view name) {
    return std::find(enabled_names.begin(), enabled_names.end(), name) != enabled_names.end();
  };
  // One after another: a scenario reads state (a value, a resource's
  // status) that another's requests would move.
  for (const auto* s : config_.scenarios) {
    try {
      s->run(ctx, scenario_results_, enabled);
    } catch (const std::exception& ex) {
      // A scenario that throws is a harness fault: said, never a silent pass.
      for (const auto& c : s->checks) {
        if (enabled(c.name)) {
          scenario_results_.not_run(nullptr, "", c.name,
                                    "the " + s->name + " scenario stopped: " + ex.what());
        }
      }
    }
  }
  scenario_requests_ = ctx.requests();
  scenario_retries_429_ = ctx.retries_429();
  add_time(&run_timings::transport, clock::now() - t0);
}

void engine::worker_main(unsigned worker) {
  const auto examples = config_.examples;
  for (;;) {
    const std::uint64_t item = next_item_.fetch_add(1, std::memory_order_relaxed);
    if (item >= planned_) return;
    const std::size_t cell_index = item / examples;
    const auto example = static_cast<std::uint32_t>(item % examples);
    const cell& c = cells_[cell_index];
    const std::uint64_t seed =
        example_seed(config_.seed, c.op->operation_id, c.auth->model.label(), c.mode, example);

    const auto g0 = clock::now();
    std::optional<rc::Shrinkable<generators::generated_request>> value;
    std::optional<generators::generated_request> generated;
    std::string gen_error;
    try {
      // The generators avoid gen::exec (whose state RapidCheck keeps in
      // process-wide statics), so workers generate in parallel.
      value = c.gen(rc::Random(seed), size_for(example, examples));
      generated = value->value();  // a generator that gave up throws here
    } catch (const std::exception& ex) {
      gen_error = ex.what();
      value.reset();
    }
    add_time(&run_timings::generation, clock::now() - g0);
    if (!value) {
      // Said once per (operation, auth model): the first example that failed.
      std::lock_guard lock(mutex_);
      const std::string label = c.auth->model.label();
      const bool said =
          std::any_of(report_.not_runs.begin(), report_.not_runs.end(), [&](const not_run& n) {
            return n.operation_id == c.op->operation_id && n.auth_model == label;
          });
      if (!said) {
        report_.not_runs.push_back(
            {"*", c.op->operation_id, label,
             "the generator gave up (example " + std::to_string(example) + "): " + gen_error});
      }
    } else {
      const auto& g = *generated;
      sent s = send(worker, c, g);
      const auto k0 = clock::now();
      for (std::size_t k = 0; k < config_.checks.size(); ++k) {
        const check& chk = *config_.checks[k];
        const std::size_t tally = (*c.tally_of_check)[k];
        if (tally == npos) continue;
        const bool applies = chk.to == check::applies::both ||
                             (chk.to == check::applies::valid) == (c.mode == request_mode::valid);
        if (!applies) continue;
        const auto t0 = clock::now();
        check_verdict v = evaluate(c, chk, g, s);
        tally_time_[tally].fetch_add((clock::now() - t0).count(), std::memory_order_relaxed);
        if (v.what == check_verdict::kind::pass) {
          passed_[tally].fetch_add(1, std::memory_order_relaxed);
        } else if (v.what == check_verdict::kind::violation) {
          failed_[tally].fetch_add(1, std::memory_order_relaxed);
          std::lock_guard lock(mutex_);
          failure_key key{c.op->operation_id, c.auth->model.label(), chk.name, v.cause};
          auto it = candidates_.find(key);
          if (it == candidates_.end()) {
            candidates_.emplace(key, candidate{item, cell_index, example, k, seed, *value,
                                               std::move(v), 1, std::make_shared<const sent>(s)});
          } else {
            ++it->second.occurrences;
            if (item < it->second.item) {
              auto occurrences = it->second.occurrences;
              it->second = candidate{item,
                                     cell_index,
                                     example,
                                     k,
                                     seed,
                                     *value,
                                     std::move(v),
                                     occurrences,
                                     std::make_shared<const sent>(s)};
            }
          }
        }
      }
      add_time(&run_timings::checking, clock::now() - k0);
    }
    const auto done = done_.fetch_add(1, std::memory_order_relaxed) + 1;
    std::lock_guard lock(mutex_);
    events_.exchange_done(done, planned_);
  }
}

void engine::main_phase() {
  const unsigned workers = std::max(1u, client_.workers());
  std::vector<std::thread> threads;
  threads.reserve(workers);
  for (unsigned w = 0; w < workers; ++w) threads.emplace_back([this, w] { worker_main(w); });
  for (auto& t : threads) t.join();
}

failure engine::shrink(unsigned worker, candidate& cand) {
  const cell& c = cells_[cand.cell_index];
  const check& chk = *config_.checks[cand.check_index];
  rc::Shrinkable<generators::generated_request> current = cand.value;
  check_verdict verdict = cand.verdict;
  unsigned steps = 0, budget = config_.max_shrinks;
  generators::generated_request current_value = current.value();
  sent last = send(worker, c, current_value);
  // The first re-send confirms the failure is still there; if it is not
  // (the target's state moved on), the failure is reported unshrunk.
  bool reproduced = evaluate(c, chk, current_value, last).cause == verdict.cause;
  if (reproduced) {
    bool progressed = true;
    while (progressed && budget > 0) {
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
        sent s = send(worker, c, child_value);
        check_verdict v = evaluate(c, chk, child_value, s);
        if (v.what == check_verdict::kind::violation && v.cause == verdict.cause) {
          current = std::move(*child);
          current_value = std::move(child_value);
          verdict = std::move(v);
          last = std::move(s);
          ++steps;
          progressed = true;
          break;
        }
      }
    }
  }
  if (!reproduced) {
    // Report what was seen first, and say that a re-send did not show it.
    verdict.seen += " (not reproduced by a re-send, which got " +
                    (last.result.ok() ? "status " + std::to_string(last.result.value().status)
                                      : std::string("no response")) +
                    ")";
    last = *cand.original;
  }
  failure f;
  f.check = chk.name;
  f.operation_id = c.op->operation_id;
  f.method_path = c.op->method_path();
  f.auth_model = c.auth->model.label();
  f.mode = c.mode == request_mode::valid ? "valid" : "invalid: " + current_value.mode.description;
  f.expected = verdict.expected;
  f.seen = redact(verdict.seen);
  f.cause = verdict.cause;
  f.seed = config_.seed;
  f.example = cand.example;
  f.curl = http::to_curl(last.request, client_.base(), redactor_);
  if (last.result.ok()) {
    f.status = last.result.value().status;
    const auto& body = last.result.value().body;
    f.response_excerpt = redact(core::utf8_prefix(body, 300));
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
  std::vector<failure> found(pending.size());
  std::atomic<std::size_t> next{0};
  const unsigned workers = std::max(1u, std::min<unsigned>(client_.workers(), pending.size()));
  std::vector<std::thread> threads;
  for (unsigned w = 0; w < workers; ++w) {
    threads.emplace_back([&, w] {
      for (std::size_t i; (i = next.fetch_add(1)) < pending.size();) {
        found[i] = shrink(w, *pending[i]);
        std::lock_guard lock(mutex_);
        events_.failure_found(found[i]);
      }
    });
  }
  for (auto& t : threads) t.join();
  report_.failures = std::move(found);
}

run_report engine::run() {
  const auto start = clock::now();
  report_.info = config_.info;
  plan();
  events_.run_started(report_.info, planned_);
  scenario_phase();
  main_phase();
  shrink_phase();
  for (std::size_t i = 0; i < report_.tallies.size(); ++i) {
    auto& t = report_.tallies[i];
    t.passed = passed_[i].load();
    t.failed = failed_[i].load();
    t.time = std::chrono::nanoseconds(tally_time_[i].load());
    report_.counts.checks_passed += t.passed;
    report_.counts.checks_failed += t.failed;
    if (t.not_run_why) ++report_.counts.cells_not_run;
    t.nothing_judged = !t.not_run_why && t.passed == 0 && t.failed == 0;
  }
  scenario_results_.merge_into(report_, spec_, config_.seed);
  report_.counts.requests = requests_.load() + scenario_requests_;
  report_.counts.transport_errors = transport_errors_.load();
  report_.counts.retries_429 = retries_429_.load() + scenario_retries_429_;
  report_.timings.wall = std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - start);
  events_.run_finished(report_);
  return std::move(report_);
}

}  // namespace

std::uint64_t example_seed(std::uint64_t run_seed, std::string_view operation_id,
                           std::string_view auth_model, request_mode mode, std::uint32_t example) {
  std::uint64_t h = 14695981039346656037ull;
  h = core::fnv1a(operation_id, h);
  h = core::fnv1a("\x1f", h);
  h = core::fnv1a(auth_model, h);
  h = mix(h ^ mix(run_seed) ^ (static_cast<std::uint64_t>(mode) << 32) ^ example);
  return h;
}

run_report run(const openapi::api_spec& spec, const target_view& target, const run_config& config,
               http::client& client, listener& events) {
  engine e(spec, target, config, client, events);
  return e.run();
}

}  // namespace conform::harness
