// Shrinking: each failure reduced along its shrink tree, within its time
// budget, and reported once.

#include "harness/detail/engine.hpp"

namespace conform::harness::detail {

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
  // A random example's tree is grown again from its seed, as it was drawn:
  // the generators keep the values they computed in the tree
  // (generators/detail/memo.hpp), and two candidates of one request (two
  // checks that failed on it) would otherwise share one tree between two
  // shrinking workers. A coverage case's is its one value.
  rc::Shrinkable<generators::generated_request> current =
      cand.item < coverage_.size()
          ? cand.value
          : c.gen(rc::Random(cand.seed), size_for(cand.example, config_.examples));
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
    // What else the re-send shows (a 5xx, a body against its schema) is a
    // failure of its own, with this request's reproduction.
    observed how;
    how.p = phase::shrinking;
    how.label = c.auth->model.label();
    how.mode = {
        c.kind == request_kind::valid ? failure_mode::kind::valid : failure_mode::kind::invalid,
        g.mode.description + (g.mode.description.empty() ? "" : " ") +
            "(re-sent while shrinking a " + chk.info.name + " failure)"};
    how.c = &c;
    how.g = &g;
    how.skip = cand.check_index;
    judge_observed(how, s.request, s.result, s.json ? &*s.json : nullptr);
    record(phase::shrinking, c, g, s, {{chk.info.name, v.what, v.cause, v.expected, v.seen}});
    return v;
  };
  // A timeout is reported as first seen: every re-send would wait it out again.
  const bool timed_out = !cand.original->result.ok() &&
                         cand.original->result.error().what == http::transport_error::kind::timeout;
  // The first re-send confirms the failure is still there; if it is not
  // (the target's state moved on), the failure is reported unshrunk.
  std::optional<sent> resent;
  if (!timed_out && !target_gone()) resent = send_within(worker, c, current_value, deadline);
  if (resent && resent->lost) resent.reset();  // the target is gone: nothing re-sent
  const bool reproduced = resent && judged(current_value, *resent).cause == verdict.cause;
  sent last = resent ? std::move(*resent) : *cand.original;
  if (reproduced) {
    bool progressed = true, in_time = true;
    while (progressed && in_time && budget > 0 && !target_gone()) {
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
  events_.phase_started({phase::shrinking, pending.size()});
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
  events_.phase_finished({phase::shrinking});
}

}  // namespace conform::harness::detail
