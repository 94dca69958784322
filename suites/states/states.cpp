#include "suites/states/states.hpp"

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/text.hpp"
#include "suites/states/machine_access.hpp"

namespace conform::suites {
namespace {

using core::join;

using harness::probe;
using harness::results_sink;
using harness::scenario_context;
using harness::scenario_failure;
using states::machine_access;
using states::state_read;

constexpr std::string_view transitions_check = "state_transitions";
constexpr std::string_view preconditions_check = "state_preconditions";

/// Moves one walk may take: every transition of a machine once, with room
/// to spare, and a bound on a machine whose description loops.
constexpr int max_moves = 64;

std::string expected_refusal(int status, const std::vector<std::string>& codes) {
  return std::to_string(status) + " " + core::join(codes, " or ");
}

/// The operations that move `m`, in spec order: those its transitions and
/// preconditions name and those whose x-transition names it.
std::vector<const openapi::operation*> moving_operations(const openapi::api_spec& spec,
                                                         const openapi::state_machine& m) {
  std::vector<const openapi::operation*> out;
  for (const auto& op : spec.operations) {
    bool moves = op.transition && op.transition->machine == m.name;
    for (const auto& t : m.transitions) moves = moves || t.operation_id == op.operation_id;
    for (const auto& p : m.preconditions) moves = moves || p.operation_id == op.operation_id;
    if (moves) out.push_back(&op);
  }
  return out;
}

/// One machine under test: its tenant, credential and resources, and what
/// the walk has covered so far.
class machine_test {
 public:
  machine_test(scenario_context& ctx, results_sink& results, const openapi::state_machine& m,
               std::vector<const openapi::operation*> ops, const profile::tenant& tenant,
               const profile::credential& credential, const openapi::operation& read_op)
      : ctx_(ctx),
        results_(results),
        m_(m),
        ops_(std::move(ops)),
        access_(ctx, m, tenant, credential, read_op),
        read_op_(read_op) {}

  void transitions();
  void preconditions();

 private:
  std::string label(const openapi::operation& op) const { return access_.auth(op).model.label(); }
  bool allowed(const std::string& from, const openapi::operation& op) const {
    return std::any_of(m_.transitions.begin(), m_.transitions.end(), [&](const auto& t) {
      return t.from == from && t.operation_id == op.operation_id;
    });
  }
  /// The covered operations that are no move from `state`.
  std::vector<const openapi::operation*> refused_from(const std::string& state) const {
    std::vector<const openapi::operation*> out;
    for (const auto* op : ops_) {
      if (!allowed(state, *op) && has_transition(*op)) out.push_back(op);
    }
    return out;
  }
  bool has_transition(const openapi::operation& op) const {
    return std::any_of(m_.transitions.begin(), m_.transitions.end(),
                       [&](const auto& t) { return t.operation_id == op.operation_id; });
  }
  bool covers(const std::string& operation_id) const {
    return std::any_of(ops_.begin(), ops_.end(),
                       [&](const auto* op) { return op->operation_id == operation_id; });
  }
  /// The id of the fixture of `state` in the tenant, or why there is none.
  core::outcome<std::string> fixture_id(const std::string& state) const;
  /// Reads the fixture of `state` and checks it is there, or says why not.
  core::outcome<std::string> usable_fixture(const std::string& state, state_read& read);
  void not_run_all(const std::vector<const openapi::operation*>& ops, std::string_view check,
                   const std::string& why);
  /// False (and a not-run of the cell) when `p` (a move, or the read after
  /// one) says nothing about the contract: nothing sent, no response, or
  /// rate limited past the client's retries.
  bool judgeable(const probe* p, const openapi::operation& op, std::string_view check);
  /// The precondition of `op` whose refusal `move` is (the refused status
  /// with that precondition's error_code), or nullptr.
  const openapi::state_machine::precondition* unmet_precondition(const openapi::operation& op,
                                                                 const probe& move) const;

  /// Sends every refused move from `state` to resource `id`; false once
  /// the resource's state is no longer known to be `state`.
  bool refused_moves(const std::string& state, const std::string& id, const std::string& fixture,
                     state_read& before);
  /// Takes `t` on resource `id`; false when it did not lead to `t.to`.
  bool allowed_move(const openapi::state_machine::transition& t, const std::string& id,
                    const std::string& fixture, state_read& before);

  scenario_context& ctx_;
  results_sink& results_;
  const openapi::state_machine& m_;
  std::vector<const openapi::operation*> ops_;
  machine_access access_;
  const openapi::operation& read_op_;
  std::set<std::string> tested_;                              // states whose refusals ran
  std::set<std::pair<std::string, std::string>> moved_;       // (from, operation) taken
  std::vector<std::pair<std::string, std::string>> skipped_;  // (state, why)
  /// The moves that brought the resource under test from its fixture state
  /// to where it is: a failure's reproduction replays them first.
  std::vector<const probe*> path_;
  std::string path_text_;  // the operations of `path_`, comma-separated

  /// What led to the state a failure was seen in: the path, the read before.
  std::vector<const probe*> evidence(const state_read& before,
                                     std::initializer_list<const probe*> rest) const {
    std::vector<const probe*> out = path_;
    out.push_back(before.evidence);
    out.insert(out.end(), rest.begin(), rest.end());
    return out;
  }
  std::string origin(const std::string& fixture, const std::string& state) const {
    if (path_.empty()) return "read the state of fixture " + fixture + " (" + state + ")";
    return "moved fixture " + fixture + " to " + state + " (" + path_text_ + ") and read it";
  }
};

core::outcome<std::string> machine_test::fixture_id(const std::string& state) const {
  auto named = m_.fixtures.find(state);
  if (named == m_.fixtures.end()) {
    return core::fail("state machine " + m_.name + " declares no fixture for state " + state +
                      " (x-state-machines." + m_.name + ".fixtures)");
  }
  auto it = access_.tenant().fixtures.find(named->second);
  if (it == access_.tenant().fixtures.end()) {
    return core::fail("tenant " + access_.tenant().name + " of " +
                      std::string(ctx_.target().noun()) + " has no fixture " + named->second +
                      " (a " + m_.resource + " in state " + state + ")");
  }
  return it->second;
}

core::outcome<std::string> machine_test::usable_fixture(const std::string& state,
                                                        state_read& read) {
  auto id = fixture_id(state);
  if (!id) return id;
  const std::string& fixture = m_.fixtures.at(state);
  read = access_.read(*id);
  if (!read.state) {
    return core::fail("the state of fixture " + fixture + " could not be read through " +
                      read_op_.operation_id + ": " + read.why);
  }
  if (*read.state != state) {
    return core::fail("fixture " + fixture + " is in state " + *read.state + ", not " + state +
                      ": an earlier run against this target may have moved it");
  }
  return id;
}

void machine_test::not_run_all(const std::vector<const openapi::operation*>& ops,
                               std::string_view check, const std::string& why) {
  for (const auto* op : ops) results_.not_run(op, label(*op), check, why);
}

bool machine_test::judgeable(const probe* p, const openapi::operation& op, std::string_view check) {
  std::optional<std::string> why;
  if (!p) {
    why = "no request could be made";
  } else {
    why = p->unjudgeable(ctx_.spec());
  }
  if (!why) return true;
  results_.not_run(&op, label(op), check,
                   "a request of this test got nothing to judge (" + *why +
                       "): the resource's state is no longer known, so its tests stopped");
  return false;
}

const openapi::state_machine::precondition* machine_test::unmet_precondition(
    const openapi::operation& op, const probe& move) const {
  if (m_.refused_status == 0 || move.status() != static_cast<unsigned>(m_.refused_status)) {
    return nullptr;
  }
  for (const auto& p : m_.preconditions) {
    if (p.operation_id == op.operation_id && p.error_code == move.error_code()) return &p;
  }
  return nullptr;
}

bool machine_test::refused_moves(const std::string& state, const std::string& id,
                                 const std::string& fixture, state_read& before) {
  tested_.insert(state);
  const auto refused = refused_from(state);
  if (refused.empty()) return true;
  if (m_.refused_status == 0) {
    not_run_all(refused, transitions_check,
                "state machine " + m_.name + " declares no refused status and code (refused)");
    return true;
  }
  for (const auto* op : refused) {
    // A move a state does not allow may also fail a precondition of the
    // operation; the decisions set no order between the two refusals.
    std::vector<std::string> codes{m_.refused_code};
    for (const auto& p : m_.preconditions) {
      if (p.operation_id == op->operation_id) codes.push_back(p.error_code);
    }
    auto req = access_.request_on(*op, id, "states/refused/" + state);
    if (!req) {
      results_.not_run(op, label(*op), transitions_check, req.error());
      continue;
    }
    const probe& move = access_.send(*req);
    if (!judgeable(&move, *op, transitions_check)) return false;
    state_read after = access_.read(id);
    const std::string steps =
        origin(fixture, state) + ", sent " + op->operation_id + " on it, read the state again";
    const bool code_ok = move.status() == static_cast<unsigned>(m_.refused_status) &&
                         std::find(codes.begin(), codes.end(), move.error_code()) != codes.end();
    bool held = true;
    if (!code_ok) {
      held = false;
      scenario_failure f;
      f.expected = op->operation_id + " is no move from " + state + ": " +
                   expected_refusal(m_.refused_status, codes) + ", state unchanged";
      f.seen = move.summary();
      f.cause = move.status() == static_cast<unsigned>(m_.refused_status)
                    ? "no move from " + state + ": refused with another error_code"
                    : "no move from " + state + ", but not refused";
      f.steps = steps;
      f.evidence = evidence(before, {&move});
      results_.fail(*op, label(*op), transitions_check, f, ctx_);
    }
    if (!after.state && !judgeable(after.evidence, *op, transitions_check)) return false;
    if (after.state != state) {
      held = false;
      scenario_failure f;
      f.expected = "the state stays " + state + " after a refused " + op->operation_id;
      f.seen = after.state ? "state " + *after.state : "state unreadable: " + after.why;
      f.cause = after.state ? "no move from " + state + ", yet the state changed"
                            : "no move from " + state + ", then the state could not be read";
      f.steps = steps;
      f.evidence = evidence(before, {&move, after.evidence});
      results_.fail(*op, label(*op), transitions_check, f, ctx_);
    }
    if (held) results_.pass(*op, label(*op), transitions_check);
    before = after;
    if (after.state != state) return false;
  }
  return true;
}

bool machine_test::allowed_move(const openapi::state_machine::transition& t, const std::string& id,
                                const std::string& fixture, state_read& before) {
  const openapi::operation* op = nullptr;
  for (const auto* candidate : ops_) {
    if (candidate->operation_id == t.operation_id) op = candidate;
  }
  if (!op) return false;
  moved_.emplace(t.from, t.operation_id);
  auto req = access_.request_on(*op, id, "states/move/" + t.from);
  if (!req) {
    results_.not_run(op, label(*op), transitions_check, req.error());
    return false;
  }
  const probe& move = access_.send(*req);
  if (!judgeable(&move, *op, transitions_check)) return false;
  const std::string steps =
      origin(fixture, t.from) + ", sent " + op->operation_id + " on it, read the state again";
  const std::string expected = "a 2xx answer, then state " + t.to;
  if (const auto* pre = unmet_precondition(*op, move)) {
    // The resource lacks what the move needs (its x-transition precondition): a correct refusal
    // that says nothing about the transition, so the move is untested.
    results_.not_run(op, label(*op), transitions_check,
                     "fixture " + fixture + " (" + t.from + ") does not meet precondition " +
                         pre->error_code + " of " + op->operation_id +
                         (pre->description.empty() ? "" : " (" + pre->description + ")") +
                         ", so the move to " + t.to + " was refused (" + move.summary() +
                         "): give " + std::string(ctx_.target().noun()) + " one that does");
    return false;
  }
  if (!move.succeeded()) {
    scenario_failure f;
    f.expected = expected;
    f.seen = move.summary();
    f.cause = "the move from " + t.from + " to " + t.to + " was not accepted";
    f.steps = steps;
    f.evidence = evidence(before, {&move});
    results_.fail(*op, label(*op), transitions_check, f, ctx_);
    return false;
  }
  state_read after = access_.read(id);
  if (!after.state && !judgeable(after.evidence, *op, transitions_check)) return false;
  if (after.state != t.to) {
    scenario_failure f;
    f.expected = expected;
    f.seen = move.summary() + ", then " +
             (after.state ? "state " + *after.state : "state unreadable: " + after.why);
    f.cause = "the move from " + t.from + " did not lead to " + t.to;
    f.steps = steps;
    f.evidence = evidence(before, {&move, after.evidence});
    results_.fail(*op, label(*op), transitions_check, f, ctx_);
    return false;
  }
  results_.pass(*op, label(*op), transitions_check);
  path_.push_back(&move);
  path_text_ += (path_text_.empty() ? "" : ", ") + op->operation_id;
  before = after;
  return true;
}

void machine_test::transitions() {
  // The walk moves the fixture of the initial state through every
  // transition it can reach, once each. The other fixtures only receive the
  // moves their state refuses: they stay where they are for whoever else
  // uses them (another suite, the next run).
  std::vector<std::string> order{m_.initial};
  for (const auto& s : m_.states) {
    if (s != m_.initial) order.push_back(s);
  }
  for (const auto& start : order) {
    if (tested_.count(start) != 0) continue;
    const bool walk = start == m_.initial;
    std::vector<const openapi::operation*> would_test = refused_from(start);
    if (walk) {
      for (const auto& t : m_.transitions) {
        if (t.from == start && covers(t.operation_id)) {
          for (const auto* op : ops_) {
            if (op->operation_id == t.operation_id) would_test.push_back(op);
          }
        }
      }
    }
    if (would_test.empty()) continue;
    state_read read;
    auto id = usable_fixture(start, read);
    if (!id) {
      skipped_.emplace_back(start, id.error());
      continue;
    }
    const std::string& fixture = m_.fixtures.at(start);
    std::string state = start;
    path_.clear();
    path_text_.clear();
    int step = 0;
    for (; step < max_moves; ++step) {
      if (tested_.count(state) == 0 && !refused_moves(state, *id, fixture, read)) break;
      if (!walk) break;
      const openapi::state_machine::transition* next = nullptr;
      for (const auto& t : m_.transitions) {
        if (t.from == state && covers(t.operation_id) &&
            moved_.count({t.from, t.operation_id}) == 0) {
          next = &t;
          break;
        }
      }
      if (!next || !allowed_move(*next, *id, fixture, read)) break;
      state = next->to;
    }
    if (walk && step == max_moves) {
      // The bound ended the walk: the moves it did not take are untested.
      for (const auto& t : m_.transitions) {
        if (moved_.count({t.from, t.operation_id}) != 0) continue;
        for (const auto* op : ops_) {
          if (op->operation_id != t.operation_id) continue;
          results_.not_run(op, label(*op), transitions_check,
                           "the walk of fixture " + fixture + " stopped after " +
                               std::to_string(max_moves) + " moves, before the move from " +
                               t.from + " to " + t.to);
        }
      }
    }
  }
  // States no walk reached and no fixture could stand in for: their
  // refusals are untested, and the user is told why.
  for (const auto& [state, why] : skipped_) {
    if (tested_.count(state) != 0) continue;
    std::vector<const openapi::operation*> untested = refused_from(state);
    for (const auto& t : m_.transitions) {
      if (state != m_.initial || t.from != state || moved_.count({t.from, t.operation_id}) != 0) {
        continue;
      }
      for (const auto* op : ops_) {
        if (op->operation_id == t.operation_id) untested.push_back(op);
      }
    }
    not_run_all(untested, transitions_check, why);
  }
}

void machine_test::preconditions() {
  for (const auto& pre : m_.preconditions) {
    const openapi::operation* op = nullptr;
    for (const auto* candidate : ops_) {
      if (candidate->operation_id == pre.operation_id) op = candidate;
    }
    if (!op) continue;
    const std::string who = "precondition " + pre.error_code + " of " + op->operation_id;
    if (m_.refused_status == 0) {
      results_.not_run(op, label(*op), preconditions_check,
                       "state machine " + m_.name + " declares no refused status (refused)");
      continue;
    }
    if (pre.fixture.empty()) {
      results_.not_run(op, label(*op), preconditions_check,
                       who + " declares no fixture (x-state-machines." + m_.name +
                           ".preconditions: fixture, a resource on which it fails)");
      continue;
    }
    auto fixture = access_.tenant().fixtures.find(pre.fixture);
    if (fixture == access_.tenant().fixtures.end()) {
      results_.not_run(op, label(*op), preconditions_check,
                       "tenant " + access_.tenant().name + " of " +
                           std::string(ctx_.target().noun()) + " has no fixture " + pre.fixture +
                           " (a " + m_.resource + " on which " + who + " fails)");
      continue;
    }
    const std::string& id = fixture->second;
    state_read before = access_.read(id);
    if (!before.state) {
      results_.not_run(op, label(*op), preconditions_check,
                       "the state of fixture " + pre.fixture + " could not be read through " +
                           read_op_.operation_id + ": " + before.why);
      continue;
    }
    const std::string state = *before.state;
    if (!allowed(state, *op)) {
      results_.not_run(op, label(*op), preconditions_check,
                       "fixture " + pre.fixture + " is in state " + state + ", from which " +
                           op->operation_id + " is no move: " + who +
                           " cannot be told from a refused move");
      continue;
    }
    auto req = access_.request_on(*op, id, "states/precondition/" + pre.error_code);
    if (!req) {
      results_.not_run(op, label(*op), preconditions_check, req.error());
      continue;
    }
    const probe& move = access_.send(*req);
    if (!judgeable(&move, *op, preconditions_check)) continue;
    const state_read after = access_.read(id);
    const std::string steps = "read the state of fixture " + pre.fixture + " (" + state +
                              "), sent " + op->operation_id + " on it, read the state again";
    bool held = true;
    if (move.status() != static_cast<unsigned>(m_.refused_status) ||
        move.error_code() != pre.error_code) {
      held = false;
      scenario_failure f;
      f.expected = std::to_string(m_.refused_status) + " " + pre.error_code + " (" +
                   (pre.description.empty() ? who : pre.description) + "), state unchanged";
      f.seen = move.summary();
      f.cause = move.succeeded() ? who + " not enforced" : who + ": another refusal";
      f.steps = steps;
      f.evidence = {before.evidence, &move};
      results_.fail(*op, label(*op), preconditions_check, f, ctx_);
    }
    if (!after.state && !judgeable(after.evidence, *op, preconditions_check)) continue;
    if (after.state != state) {
      held = false;
      scenario_failure f;
      f.expected = "the state stays " + state + " when " + who + " fails";
      f.seen = after.state ? "state " + *after.state : "state unreadable: " + after.why;
      f.cause = who + ": the state changed";
      f.steps = steps;
      f.evidence = {before.evidence, &move, after.evidence};
      results_.fail(*op, label(*op), preconditions_check, f, ctx_);
    }
    if (held) results_.pass(*op, label(*op), preconditions_check);
  }
}

/// The first tenant (profile order) with a fixture of `m` and the first
/// credential acting for it that is sufficient for every operation in `ops`.
std::pair<const profile::tenant*, const profile::credential*> pick_actor(
    const scenario_context& ctx, const openapi::state_machine& m,
    const std::vector<const openapi::operation*>& ops) {
  for (const auto& tenant : ctx.target().tenants) {
    bool has_fixture = false;
    for (const auto& [state, fixture] : m.fixtures) {
      has_fixture = has_fixture || tenant.fixtures.count(fixture) != 0;
    }
    for (const auto& p : m.preconditions) {
      has_fixture = has_fixture || (!p.fixture.empty() && tenant.fixtures.count(p.fixture) != 0);
    }
    if (!has_fixture) continue;
    for (const auto& c : ctx.target().credentials) {
      const bool acts_for = std::any_of(c.tenants.begin(), c.tenants.end(),
                                        [&](const auto* t) { return t && t->id == tenant.id; });
      if (!acts_for) continue;
      const bool enough = std::all_of(ops.begin(), ops.end(), [&](const auto* op) {
        const auto choice = ctx.credentials().auth_for(*op, c, &tenant);
        return choice.model.scheme &&
               harness::credential_selector::sufficient(*op, *choice.model.scheme, c);
      });
      if (enough) return {&tenant, &c};
    }
  }
  return {nullptr, nullptr};
}

void run_machine(scenario_context& ctx, results_sink& results, const openapi::state_machine& m,
                 bool transitions, bool preconditions) {
  std::vector<const openapi::operation*> ops;
  for (const auto* op : moving_operations(ctx.spec(), m)) {
    if (ctx.covers(*op)) ops.push_back(op);
  }
  if (ops.empty()) return;
  // Cells exist only for what a check applies to: preconditions for the
  // operations that have one.
  std::vector<const openapi::operation*> with_preconditions;
  for (const auto* op : ops) {
    if (std::any_of(m.preconditions.begin(), m.preconditions.end(),
                    [&](const auto& p) { return p.operation_id == op->operation_id; })) {
      with_preconditions.push_back(op);
    }
  }
  auto not_run = [&](const std::string& why) {
    if (transitions) {
      for (const auto* op : ops) results.not_run(op, "", transitions_check, why);
    }
    if (preconditions) {
      for (const auto* op : with_preconditions) results.not_run(op, "", preconditions_check, why);
    }
  };
  const openapi::operation* read_op =
      m.read_operation_id.empty() ? nullptr : ctx.spec().find_operation(m.read_operation_id);
  if (!read_op) {
    not_run("state machine " + m.name +
            " declares no read_operation (x-state-machines): the state a move leaves cannot be "
            "read");
    return;
  }
  if (m.fixtures.empty() && std::all_of(m.preconditions.begin(), m.preconditions.end(),
                                        [](const auto& p) { return p.fixture.empty(); })) {
    not_run("state machine " + m.name + " declares no fixtures (x-state-machines." + m.name +
            ".fixtures: a profile fixture per state)");
    return;
  }
  std::vector<const openapi::operation*> needed = ops;
  needed.push_back(read_op);
  auto [tenant, credential] = pick_actor(ctx, m, needed);
  if (!tenant) {
    std::vector<std::string> names;
    for (const auto* op : needed) names.push_back(op->operation_id);
    not_run("no tenant of " + std::string(ctx.target().noun()) +
            " has a fixture of state machine " + m.name +
            " and a credential acting for it that is sufficient for " + core::join(names) +
            " (usable, with their scopes and a role that may write)");
    return;
  }
  machine_test test(ctx, results, m, ops, *tenant, *credential, *read_op);
  if (transitions) test.transitions();
  if (preconditions && !with_preconditions.empty()) test.preconditions();
}

}  // namespace

void register_states_scenarios(harness::check_catalogue& catalogue) {
  harness::scenario s;
  s.name = "states";
  s.checks = {
      {std::string(transitions_check),
       "walks the initial state's fixture through every transition it reaches (x-state-machines) "
       "and sends every move a state does not allow to the resource in that state (the walked "
       "one, else that state's fixture); expects the refused status and code (or a precondition "
       "code of the operation) with the state unchanged, and for an allowed move 2xx and then "
       "the `to` state (states read through read_operation)",
       "x-state-machines; x-transition"},
      {std::string(preconditions_check),
       "sends each precondition's operation to its fixture (a resource on which it fails); "
       "expects the refused status with the precondition's error_code, state unchanged",
       "x-state-machines preconditions"},
  };
  s.run = [](scenario_context& ctx, results_sink& results, const harness::check_enabled& enabled) {
    const bool transitions = enabled(transitions_check);
    const bool preconditions = enabled(preconditions_check);
    if (!transitions && !preconditions) return;
    for (const auto& [name, m] : ctx.spec().state_machines) {
      run_machine(ctx, results, m, transitions, preconditions);
    }
  };
  catalogue.add(std::move(s));
}

}  // namespace conform::suites
