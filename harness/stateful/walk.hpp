#pragma once
// The stateful walk: per actor (a credential acting for a tenant, or no
// credential for the public operations), operations are sent in
// producer-consumer order. An answer's values feed, along the graph's edges,
// the operations that take them; the ids, tenants and scopes the answers
// prove are learned into a working copy of the target; each step is a
// chain (the steps whose values it used), and the checks of the chains
// (suites/stateful/, through an `observer`) judge each one.

#include <boost/json/value.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/outcome.hpp"
#include "harness/reach.hpp"
#include "harness/results.hpp"
#include "harness/scenario.hpp"
#include "harness/stateful/graph.hpp"
#include "profile/profile.hpp"

namespace conform::harness::stateful {

/// One value a step pins, and where it came from.
struct binding {
  slot where;
  boost::json::value value;
  int from_step = -1;  // the step whose answer gave it (-1: none)
  source src;          // how it was read from that step's exchange
};

/// A step to send: an operation and the values it must carry.
struct step_plan {
  const openapi::operation* op = nullptr;
  std::vector<binding> bindings;
  std::size_t edge = static_cast<std::size_t>(-1);  // the edge that made it, if any
  /// Send no optional parameter (a list read whole, without filters).
  bool bare = false;
  bool deferred = false;  // a delete put off until the rest is done
};

/// A step sent, with what came back.
struct step {
  step_plan plan;
  auth_choice auth;
  std::shared_ptr<probe> exchange;  // the last attempt; never null once sent
  std::optional<boost::json::value> request_json;
  std::uint64_t order = 0;  // when it was sent (session::order)
  bool succeeded() const { return exchange && exchange->succeeded(); }
  /// The value of path parameter `name` as sent, or nullopt.
  std::optional<std::string> path_value(const std::string& name) const;
};

/// Who a walk acts as: a credential of the (working) target, or none.
struct actor {
  const profile::credential* credential = nullptr;
  std::string label;  // "jwt ($JWT)", "none"
};

/// What the walks share: the description, the sending context, the
/// learning target, what the checks report into.
struct session {
  session(const openapi::api_spec& spec, scenario_context& ctx, profile::target& work,
          const profile::target& original, reach_tracker* reach)
      : spec(spec), ctx(ctx), work(work), original(original), reach(reach) {}

  const openapi::api_spec& spec;
  scenario_context& ctx;
  profile::target& work;  // learned tenants, fixtures and scopes go here
  const profile::target& original;
  reach_tracker* reach;
  bool judged = true;  // reach counts the steps as judged requests (phase_options::judged)
  graph g;
  /// Ids of the original profile's fixtures: no step moves them.
  std::set<std::string> protected_ids;
  /// Steps that write act only on ids the run created (a discovery).
  bool only_created = false;
  std::uint32_t max_steps = 400;  // per actor and round
  std::uint64_t requests = 0;
  /// Per link (graph::links): how often followed, and the last reason it was not.
  std::vector<std::uint64_t> followed;
  std::vector<std::string> not_followed;
  /// Ids created by a 2xx create, per actor label: value -> the step.
  std::map<std::string, std::map<std::string, int>> created;
  /// Observed states: (tenant id, machine, resource id) -> (state, step order).
  std::map<std::tuple<std::string, std::string, std::string>, std::pair<std::string, std::uint64_t>>
      observed;
  /// The last write step order per (tenant id, resource id).
  std::map<std::pair<std::string, std::string>, std::uint64_t> moved;
  std::uint64_t order = 0;  // steps sent so far, over every actor
  /// The last answer per (credential name, operationId), a 2xx kept once seen.
  std::map<std::pair<std::string, std::string>, unsigned> answers;
  /// Why steps of an operation were not sent (the last reason), per operationId.
  std::map<std::string, std::string> withheld;
  /// Operations that answered 2xx in a walk.
  std::set<std::string> succeeded;
  /// Notes of what was learned, for the run header.
  std::vector<std::string> notes;
};

/// What judges the chains of a walk: the checks of the chains
/// (suites/stateful/, made by scenario::chain_checks) implement it.
class observer {
 public:
  virtual ~observer() = default;
  /// Called after step `log[index]` of a walk as `a` was sent and learned from.
  virtual void after(session& s, const actor& a, std::vector<step>& log, std::size_t index) = 0;
};

/// Sends `plan` as `a` (the first of a few attempts that is not refused as
/// invalid: the description's examples first), learns from the answer and
/// returns the step, or why no request could be made.
core::outcome<step> send_step(session& s, const actor& a, const step_plan& plan,
                              std::uint32_t attempts = 3, const char* salt = "walk");

/// Walks every operation `a` may call, in producer-consumer order; each of
/// `checks` sees every step. Returns the steps, in the order sent.
std::vector<step> walk(session& s, const actor& a,
                       const std::vector<std::unique_ptr<observer>>& checks);

/// The steps `log[index]` depends on (its bindings' sources, transitively)
/// and itself, in order: the chain that led to it.
std::vector<std::size_t> chain_of(const std::vector<step>& log, std::size_t index);

/// The plans of `chain` (indices into `log`), their sources renumbered
/// within the chain.
std::vector<step_plan> plans_of(const std::vector<step>& log,
                                const std::vector<std::size_t>& chain);

/// Sends `plans` from the start as `a`, each value read again from the new
/// answers (fresh data: a create makes another resource); nullopt when a
/// step's value is no longer there.
std::optional<std::vector<step>> replay(session& s, const actor& a,
                                        const std::vector<step_plan>& plans);

/// The auth model `a` gets on `op` (its current tenant), or nullopt when
/// `a` cannot call `op` (no scheme of its kind, or known insufficient).
std::optional<auth_choice> auth_of(session& s, const actor& a, const openapi::operation& op);

}  // namespace conform::harness::stateful
