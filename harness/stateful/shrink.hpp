#pragma once
// Failing chains, shrunk and reported. A check of the stateful phase's
// chains (suites/stateful/) judges a chain and, when it fails, hands it
// here: each step but the one the check is about and the last is left out
// in turn, and the rest is sent again from the start with fresh data; a
// shorter chain that fails for the same cause replaces it.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "harness/results.hpp"
#include "harness/stateful/walk.hpp"
#include "openapi/model.hpp"

namespace conform::harness::stateful {

/// What a check made of a chain: held, failed (and how), or nothing to say.
struct chain_verdict {
  enum class kind : std::uint8_t { pass, fail, none } what = kind::none;
  std::string expected, seen, cause;
  std::string why;  // none: why there is no verdict
};

/// The exchanges a check sent beside a chain's steps (a list read, a read
/// after a delete): evidence of its verdict.
using probes = std::vector<std::shared_ptr<probe>>;

/// Judges a chain sent again (`steps`), sending what else it needs (`extra`).
using chain_judge =
    std::function<chain_verdict(session&, const actor&, std::vector<step>& steps, probes& extra)>;

/// A chain a check found failing, as it was sent.
struct failing_chain {
  std::vector<step_plan> plans;  // its steps' plans (plans_of)
  std::size_t anchor = 0;        // the step whose id the check is about: never left out
  std::vector<step> steps;       // the steps sent
  probes extra;                  // what the check sent beside them
  chain_verdict verdict;         // kind::fail
};

/// Shrinks `chain`, re-judged by `judge` and spending at most `budget`
/// requests, and reports it in the cell (`cell_op`, `a`, `check`) of
/// `results`: the chain's steps, and how far it shrank, as the failure's.
void report_chain(session& s, const actor& a, results_sink& results, std::string_view check,
                  const openapi::operation& cell_op, failing_chain chain, const chain_judge& judge,
                  unsigned budget);

}  // namespace conform::harness::stateful
