#include "harness/results.hpp"

#include <algorithm>
#include <unordered_map>

#include "harness/scenario.hpp"

namespace conform::harness {

results_sink::cell_id results_sink::cell(const openapi::operation* op, std::string_view auth,
                                         std::string_view check, origin from) {
  std::lock_guard lock(mutex_);
  std::string id = op ? op->operation_id : std::string();
  auto key = std::make_tuple(id, std::string(auth), std::string(check));
  if (auto it = index_.find(key); it != index_.end()) return it->second;
  cell_state& c = cells_.emplace_back();
  c.operation_id = std::move(id);
  if (op) c.method_path = op->method_path();
  c.auth = std::string(auth);
  c.check = std::string(check);
  c.from = from;
  index_.emplace(std::move(key), &c);
  return &c;
}

void results_sink::report(cell_id c, failure f, std::uint64_t order) {
  std::lock_guard lock(mutex_);
  auto [it, added] = failure_of_cause_.try_emplace({c, f.cause}, failures_.size());
  if (!added) {
    failures_[it->second].f.occurrences += f.occurrences;
    return;
  }
  events_.failure_found({f});
  failures_.push_back({std::move(f), c->from, order});
}

void results_sink::not_run(cell_id c, std::string why, bool say) {
  std::lock_guard lock(mutex_);
  if (!c->not_run_why) c->not_run_why = why;
  if (!say) return;
  for (const auto& [from, n] : not_runs_) {
    if (n.check == c->check && n.operation_id == c->operation_id && n.auth_model == c->auth) return;
  }
  harness::not_run n{c->check, c->operation_id, c->auth, std::move(why)};
  events_.not_run({n});
  not_runs_.emplace_back(c->from, std::move(n));
}

void results_sink::not_run(harness::not_run n) {
  std::lock_guard lock(mutex_);
  for (const auto& [from, said] : not_runs_) {
    if (said.check == n.check && said.operation_id == n.operation_id &&
        said.auth_model == n.auth_model) {
      return;
    }
  }
  events_.not_run({n});
  not_runs_.emplace_back(origin::exchanges, std::move(n));
}

void results_sink::pass(const openapi::operation& op, std::string_view auth,
                        std::string_view check) {
  pass(cell(&op, auth, check, origin::scenarios));
}

void results_sink::fail(const openapi::operation& op, std::string_view auth, std::string_view check,
                        const scenario_failure& f, const scenario_context& ctx) {
  const cell_id c = cell(&op, auth, check, origin::scenarios);
  if (f.assumptions.empty()) {
    count_failure(c);
  } else {
    count_contradicted(c);
  }
  failure out = ctx.to_failure(op, auth, check, f);
  std::uint64_t order;
  {
    std::lock_guard lock(mutex_);
    order = scenario_order_++;
  }
  report(c, std::move(out), order);
}

void results_sink::not_run(const openapi::operation* op, std::string_view auth,
                           std::string_view check, std::string why) {
  not_run(cell(op, auth, check, origin::scenarios), std::move(why));
}

check_tally results_sink::tally_of(const cell_state& c) const {
  check_tally t;
  t.operation_id = c.operation_id;
  t.method_path = c.method_path;
  t.auth_model = c.auth;
  t.check = c.check;
  t.passed = c.passed.load();
  t.failed = c.failed.load();
  t.contradicted = c.contradicted.load();
  t.time = std::chrono::nanoseconds(c.time_ns.load());
  // A cell that passed or failed somewhere ran: a reason it could not run
  // elsewhere stays in the not-run entries only.
  const bool judged = t.passed != 0 || t.failed != 0 || t.contradicted != 0;
  if (!judged) t.not_run_why = c.not_run_why;
  t.nothing_judged = !t.not_run_why && !judged;
  return t;
}

std::pair<std::uint64_t, std::uint64_t> results_sink::totals(std::string_view check) {
  std::lock_guard lock(mutex_);
  std::pair<std::uint64_t, std::uint64_t> out{0, 0};
  for (const auto& c : cells_) {
    if (c.check != check) continue;
    out.first += c.passed.load();
    out.second += c.failed.load();
  }
  return out;
}

void results_sink::fold_into(run_report& report) {
  std::lock_guard lock(mutex_);
  // An operation's place in the description, looked up once per id: run-wide
  // cells (no operation) first, unknown ids last.
  std::unordered_map<std::string, std::size_t> place;
  for (std::size_t i = 0; i < spec_.operations.size(); ++i) {
    place.emplace(spec_.operations[i].operation_id, i + 1);
  }
  auto rank = [&place, last = spec_.operations.size() + 1](const std::string& operation_id) {
    if (operation_id.empty()) return std::size_t{0};
    auto it = place.find(operation_id);
    return it == place.end() ? last : it->second;
  };
  // Operations in spec order; for each, the per-exchange cells before the
  // scenario cells, each in the order it was made.
  std::vector<const cell_state*> cells;
  for (const auto& c : cells_) cells.push_back(&c);
  std::stable_sort(cells.begin(), cells.end(), [&](const cell_state* a, const cell_state* b) {
    return std::pair(rank(a->operation_id), a->from) < std::pair(rank(b->operation_id), b->from);
  });
  for (const auto* c : cells) {
    check_tally t = tally_of(*c);
    report.counts.checks_passed += t.passed;
    report.counts.checks_failed += t.failed;
    report.counts.checks_contradicted += t.contradicted;
    if (t.not_run_why) ++report.counts.cells_not_run;
    report.tallies.push_back(std::move(t));
  }
  std::stable_sort(failures_.begin(), failures_.end(),
                   [&](const kept_failure& a, const kept_failure& b) {
                     return std::tuple(rank(a.f.operation_id), a.from, a.order) <
                            std::tuple(rank(b.f.operation_id), b.from, b.order);
                   });
  for (auto& k : failures_) report.failures.push_back(std::move(k.f));
  std::stable_sort(not_runs_.begin(), not_runs_.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [from, n] : not_runs_) report.not_runs.push_back(std::move(n));
  failures_.clear();
  failure_of_cause_.clear();
  not_runs_.clear();
}

}  // namespace conform::harness
