// The exchanges: each planned request generated from its seed, sent, and
// judged by every per-exchange check, by a pool of workers.

#include "harness/detail/engine.hpp"

#include <charconv>

#include "http/cooperative.hpp"

namespace conform::harness::detail {

sent engine::send(unsigned worker, const cell& c, const generators::generated_request& g,
                  std::chrono::milliseconds timeout) {
  sent s;
  // Every send gets a key of its own: a run-wide random nonce (so a rerun
  // with the same seed against a target that keeps state is not answered
  // with the first run's replays) and a counter.
  // Written by hand: snprintf's parsing of its format was 2 % of a run.
  static constexpr char hex[] = "0123456789abcdef";
  char key[48] = "conform-";
  for (int i = 0; i < 16; ++i) key[8 + i] = hex[(run_nonce_ >> (60 - 4 * i)) & 0xfu];
  key[24] = '-';
  *std::to_chars(key + 25, key + sizeof key - 1, sends_.fetch_add(1, std::memory_order_relaxed))
       .ptr = '\0';
  s.request = harness::to_http_request(spec_, *c.op, *c.auth, g, key);
  apply_target_headers(s.request, *target_);
  if (auto why = harness::claim_lost(g, s.request)) {
    s.lost = std::move(why);
    return s;
  }
  if (auto why = guard_.refusal(c.op, s.request)) {
    s.lost = std::move(why);
    return s;
  }
  s.started = std::chrono::system_clock::now();
  const auto t0 = clock::now();
  s.result = client_.send(worker, s.request, timeout);
  add_time(&run_timings::transport, clock::now() - t0);
  if (watch(s.result)) {
    // Refused because the target is gone: watch() said so once, for the run.
    s.lost = "the target stopped answering";
    return s;
  }
  guard_.learn(c.op, s.request, s.result);
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

core::outcome<engine::generated> engine::generate(std::uint64_t item, std::size_t& cell_index,
                                                  std::uint32_t& example,
                                                  std::uint64_t& seed) const {
  const std::uint64_t covering = coverage_.size();
  if (item < covering) {
    // A coverage case: small (size 0 first) and fixed; a few seeds before
    // giving up, since a filter may reject the first sample. Never shrunk:
    // the case breaks one constraint of an otherwise minimal request.
    const coverage_item& ci = coverage_[item];
    const cell& c = cells_[ci.cell_index];
    cell_index = ci.cell_index;
    example = ci.case_index;
    std::string error;
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
    return core::fail(std::move(error));
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
    return core::fail(std::string(ex.what()));
  }
}

void engine::worker_main(unsigned worker) {
  const std::uint64_t covering = coverage_.size();
  for (;;) {
    if (target_gone()) return;  // the run stopped: watch() said why
    const std::uint64_t item = next_item_.fetch_add(1, std::memory_order_relaxed);
    if (item >= planned_) return;
    std::size_t cell_index = 0;
    std::uint32_t example = 0;
    std::uint64_t seed = 0;
    const auto g0 = clock::now();
    auto made = generate(item, cell_index, example, seed);
    add_time(&run_timings::generation, clock::now() - g0);
    const cell& c = cells_[cell_index];
    if (!made) {
      const std::string& gen_error = made.error();
      if (item < covering) {
        coverage_outcomes_[item].why = "no value could be made: " + gen_error;
      } else {
        // Said once per (operation, auth model): the first example that failed.
        results_.not_run(
            {"*", c.op->operation_id, c.auth->model.label(),
             "the generator gave up (example " + std::to_string(example) + "): " + gen_error});
      }
    } else {
      sent s = send(worker, c, made->value);
      if (s.lost && target_gone()) {
        // Not sent: the run-wide "not run" says why, once.
      } else if (s.lost) {
        // A case whose broken part would not reach the wire is not run,
        // never judged as if it were (issue 22).
        // The write guard's refusal says itself ("safe mode: ...").
        const std::string why =
            s.lost->rfind("safe mode: ", 0) == 0 ? *s.lost : "not sent: " + *s.lost;
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
        // Moved, not copied: what a dying target's failure would need.
        remember({0,
                  std::move(s.request),
                  c.op,
                  c.auth,
                  {},
                  failure_mode{c.kind == request_kind::valid ? failure_mode::kind::valid
                                                             : failure_mode::kind::invalid,
                               std::move(made->value.mode.description)},
                  results_sink::origin::exchanges,
                  std::move(s.result)});
      }
    }
    const auto done = done_.fetch_add(1, std::memory_order_relaxed) + 1;
    events_.exchange_done({done, planned_});
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
      n.assumptions = v.assumptions;
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
  if (!coverage_.empty()) events_.phase_started({phase::coverage, coverage_.size()});
  events_.phase_started({phase::exchanges, planned_});
  // Each worker is a connection with one request in flight. A thread drives
  // a share of them, taking turns whenever one waits for its answer, so
  // that one wake-up serves every answer that came in meanwhile (a thread
  // per worker would sleep and wake once per request).
  const unsigned workers = std::max(1u, client_.workers());
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const unsigned count = std::min(workers, config_.threads > 0 ? config_.threads : cores);
  std::vector<std::thread> threads;
  threads.reserve(count);
  for (unsigned t = 0; t < count; ++t) {
    // Workers first .. first + share - 1, dealt as evenly as they go.
    const unsigned first = workers * t / count, share = workers * (t + 1) / count - first;
    threads.emplace_back([this, first, share] {
      http::run_cooperatively(share, [this, first](unsigned i) { worker_main(first + i); });
    });
  }
  for (auto& t : threads) t.join();
  if (!coverage_.empty()) events_.phase_finished({phase::coverage});
  events_.phase_finished({phase::exchanges});
  fold_coverage();
}

}  // namespace conform::harness::detail
