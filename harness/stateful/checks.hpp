#pragma once
// The stateful checks, judged on the chains the walk sends. They need no
// extension: a POST to a collection that answered 2xx with an id created a
// resource (RFC 9110 section 9.3.3), which the same credential can then
// read (`GET <collection>/{id}`) and find in the collection's list; a 2xx
// DELETE removed it (section 9.3.5), so a read then answers 404 or 410,
// or, where the description declares the resource's states
// (x-state-machines), shows a final one. A failing chain is shrunk to the
// shortest chain that still fails: steps are left out one at a time and
// the rest is sent again from the start, with fresh data.

#include <vector>

#include "harness/check.hpp"
#include "harness/stateful/walk.hpp"

namespace conform::harness::stateful {

/// The checks the stateful phase reports under, in report order.
const std::vector<check_info>& check_infos();

/// The catalogue entry of those checks: a scenario the engine's stateful
/// phase reports for (`scenario::stateful`).
scenario checks_scenario();

inline constexpr const char* created_readable = "stateful_created_readable";
inline constexpr const char* created_listed = "stateful_created_listed";
inline constexpr const char* deleted_gone = "stateful_deleted_gone";

/// The observer that judges the checks on every step of a walk.
class chain_checks final : public observer {
 public:
  /// Reports into `results`, the checks `enabled` allows; shrinking spends
  /// at most `max_shrinks` requests per failure.
  chain_checks(results_sink& results, check_enabled enabled, unsigned max_shrinks)
      : results_(results), enabled_(std::move(enabled)), max_shrinks_(max_shrinks) {}

  void after(session& s, const actor& a, std::vector<step>& log, std::size_t index) override;

 private:
  void judge_read(session& s, const actor& a, std::vector<step>& log, std::size_t index);
  void judge_listed(session& s, const actor& a, std::vector<step>& log, std::size_t index);
  void judge_deleted(session& s, const actor& a, std::vector<step>& log, std::size_t index);

  results_sink& results_;
  check_enabled enabled_;
  unsigned max_shrinks_;
};

}  // namespace conform::harness::stateful
