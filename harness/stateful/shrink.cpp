#include "harness/stateful/shrink.hpp"

#include <algorithm>
#include <optional>
#include <utility>

namespace conform::harness::stateful {
namespace {

std::string chain_text(const std::vector<step>& steps) {
  std::string out;
  for (const auto& st : steps) {
    out += (out.empty() ? "" : " -> ") + st.plan.op->operation_id;
  }
  return out;
}

/// `plans` without step `j`: a later step's value from `j` is taken from
/// where `j` had the same value; nullopt when one cannot be.
std::optional<std::vector<step_plan>> chain_without(const std::vector<step_plan>& plans,
                                                    std::size_t j) {
  std::vector<step_plan> out;
  for (std::size_t i = 0; i < plans.size(); ++i) {
    if (i == j) continue;
    step_plan p = plans[i];
    for (auto& b : p.bindings) {
      if (b.from_step == static_cast<int>(j)) {
        const auto& theirs = plans[j].bindings;
        auto same = std::find_if(theirs.begin(), theirs.end(),
                                 [&b](const binding& o) { return o.value == b.value; });
        if (same == theirs.end()) return std::nullopt;
        b.from_step = same->from_step;
        b.src = same->src;
      }
      if (b.from_step > static_cast<int>(j)) --b.from_step;
    }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace

void report_chain(session& s, const actor& a, results_sink& results, std::string_view check,
                  const openapi::operation& cell_op, failing_chain chain, const chain_judge& judge,
                  unsigned budget) {
  auto& [plans, anchor, steps, extra, v] = chain;
  const std::size_t original = plans.size();
  const std::uint64_t start = s.requests;
  bool shrunk = true;
  while (shrunk && plans.size() > 1) {
    shrunk = false;
    for (std::size_t j = plans.size() - 1; j-- > 0;) {
      if (j == anchor) continue;
      if (s.requests - start >= budget) break;
      auto candidate = chain_without(plans, j);
      if (!candidate) continue;
      auto again = replay(s, a, *candidate);
      if (!again) continue;
      probes more;
      chain_verdict w = judge(s, a, *again, more);
      if (w.what != chain_verdict::kind::fail || w.cause != v.cause) continue;
      plans = std::move(*candidate);
      steps = std::move(*again);
      extra = std::move(more);
      v = std::move(w);
      if (j < anchor) --anchor;
      shrunk = true;
      break;
    }
  }
  scenario_failure f;
  f.expected = v.expected;
  f.seen = v.seen;
  f.cause = v.cause;
  f.steps = "chain " + chain_text(steps);
  if (plans.size() < original) {
    f.steps += " (shrunk from " + std::to_string(original) + " steps to " +
               std::to_string(plans.size()) + ")";
  }
  for (const auto& st : steps) f.evidence.push_back(st.exchange.get());
  for (const auto& p : extra) f.evidence.push_back(p.get());
  results.fail(cell_op, a.label, check, f, s.ctx);
}

}  // namespace conform::harness::stateful
