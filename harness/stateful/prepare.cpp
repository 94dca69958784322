#include "harness/stateful/prepare.hpp"

#include <algorithm>
#include <functional>
#include <optional>
#include <string>

#include "core/text.hpp"
#include "harness/stateful/learn.hpp"

namespace conform::harness::stateful {
namespace {

/// True when `op` changes the state of the resource its parameter `param`
/// names: a DELETE, or a move of a state machine (x-transition).
bool moves(const openapi::operation& op, const std::string& param) {
  return op.method == http::verb::delete_ || (op.transition && op.transition->parameter == param);
}

/// True when a chain (indices into `log`) makes something: a create in it.
bool creates_in(const std::vector<step>& log, const std::vector<std::size_t>& chain) {
  return std::any_of(chain.begin(), chain.end(),
                     [&log](std::size_t i) { return creates(*log[i].plan.op); });
}

/// The value the binding of `param` in the last step of `plans` takes when
/// the chain is sent again up to (and without) that step; or, `include`d,
/// the value the last step was sent with.
std::optional<std::string> fresh(session& s, const actor& a, const std::vector<step>& log,
                                 std::size_t index, const std::string& param, bool include) {
  const auto chain = chain_of(log, index);
  if (!creates_in(log, chain)) return std::nullopt;
  auto plans = plans_of(log, chain);
  const step_plan last = plans.back();
  if (!include) plans.pop_back();
  auto again = replay(s, a, plans);
  if (!again || again->empty()) return std::nullopt;
  if (include) {
    if (!again->back().succeeded()) return std::nullopt;
    return again->back().path_value(param);
  }
  for (const auto& b : last.bindings) {
    if (b.where.body || b.where.name != param || b.from_step < 0) continue;
    const step& from = (*again)[static_cast<std::size_t>(b.from_step)];
    if (!from.succeeded()) return std::nullopt;
    auto values =
        evaluate(b.src, from.exchange->request, from.request_json ? &*from.request_json : nullptr,
                 from.exchange->result.value(),
                 from.exchange->json ? &*from.exchange->json : nullptr, *from.plan.op);
    if (values.empty() || !values.front().is_string()) {
      if (!values.empty() && values.front().is_int64()) {
        return std::to_string(values.front().get_int64());
      }
      return std::nullopt;
    }
    return std::string(values.front().get_string());
  }
  return std::nullopt;
}

/// The id of a create step sent again on its own chain.
std::optional<std::string> fresh_create(session& s, const actor& a, const std::vector<step>& log,
                                        std::size_t index) {
  auto again = replay(s, a, plans_of(log, chain_of(log, index)));
  if (!again || again->empty()) return std::nullopt;
  const std::string id = created_id(again->back());
  return id.empty() ? std::nullopt : std::optional<std::string>(id);
}

/// One actor's search of its walk for the fixtures its home tenant lacks:
/// what it keeps, and how each was found (made fresh by sending a chain
/// again, or read and not moved since).
class fixture_search {
 public:
  fixture_search(session& s, const actor& a, const std::vector<step>& log, profile::tenant& t)
      : s_(s), a_(a), log_(log), t_(t) {}

  /// A state machine's states, and the resources its preconditions fail on.
  void machine(const std::string& name, const openapi::state_machine& m) {
    for (const auto& [state, fixture] : m.fixtures) {
      if (has(fixture)) continue;
      if (state == m.initial) {
        initial_state(name, m, fixture);
      } else {
        moved_into(m, state, fixture);
      }
    }
    for (const auto& p : m.preconditions) {
      if (p.fixture.empty() || has(p.fixture)) continue;
      auto failed = find(
          [&](const step& st) {
            return st.plan.op->operation_id == p.operation_id && st.exchange &&
                   st.exchange->error_code() == p.error_code;
          },
          true);
      if (failed && log_[*failed].plan.op->transition) {
        keep(p.fixture,
             fresh(s_, a_, log_, *failed, log_[*failed].plan.op->transition->parameter, false));
      }
    }
  }

  /// The fixture of `op`'s parameter `p`, an x-resource that must be in a
  /// state (`fixture_state`): an id `op` answered 2xx for and nothing moved
  /// since, else the chain that led `op` to a 2xx, sent again up to it.
  void resource(const openapi::operation& op, const openapi::parameter& p) {
    const bool moving = moves(op, p.name);
    if (!moving) {
      keep(p.resource->fixture, unmoved_id(op, p), false);
      if (has(p.resource->fixture)) return;
    }
    // One that created what it acted on, when the operation moves it (a walk
    // free to write may first have moved a resource the target had).
    auto on_op = [&op](const step& st) { return st.succeeded() && st.plan.op == &op; };
    std::optional<std::size_t> done;
    if (moving) {
      // A create before it in its chain (an action such as POST .../launch
      // counts as a create itself, and sending it again alone makes nothing).
      done = find([&](const step& st) {
        if (!on_op(st)) return false;
        auto chain = chain_of(log_, static_cast<std::size_t>(&st - log_.data()));
        chain.pop_back();
        return creates_in(log_, chain);
      });
    }
    if (!done) done = find(on_op);
    if (!done) return;
    keep(p.resource->fixture, fresh(s_, a_, log_, *done, p.name, false));
  }

  /// True when the tenant has fixture `name`, found or stated.
  bool has(const std::string& name) const { return t_.fixtures.count(name) > 0; }

  /// One line per way of finding, for the run header.
  void note() const {
    if (!made_.empty()) {
      s_.notes.push_back("tenant " + t_.id + ": " + core::join(made_) +
                         " made fresh by sending again the chains that led there (as " + a_.label +
                         ")");
    }
    if (!seen_.empty()) {
      s_.notes.push_back("tenant " + t_.id + ": " + core::join(seen_) +
                         " read (2xx) and not moved since, in no final state (as " + a_.label +
                         ")");
    }
  }

 private:
  void keep(const std::string& fixture, std::optional<std::string> v, bool fresh_one = true) {
    if (!v || v->empty() || has(fixture)) return;
    t_.fixtures[fixture] = *v;
    (fresh_one ? made_ : seen_).push_back(fixture);
  }

  /// The first step that matches; with `made_chain`, only one a chain with a create led to.
  std::optional<std::size_t> find(const std::function<bool(const step&)>& match,
                                  bool made_chain = false) const {
    for (std::size_t i = 0; i < log_.size(); ++i) {
      if (match(log_[i]) && (!made_chain || creates_in(log_, chain_of(log_, i)))) return i;
    }
    return std::nullopt;
  }

  /// The fixture of a machine's initial state.
  void initial_state(const std::string& name, const openapi::state_machine& m,
                     const std::string& fixture) {
    auto is_move = [&name](const openapi::operation& op) {
      return op.transition && op.transition->machine == name;
    };
    // The chain that led to a move out of it, without the move: a resource
    // the move is known to take (a campaign with its contacts imported).
    auto moved_out = find(
        [&](const step& st) {
          if (!st.succeeded() || !is_move(*st.plan.op)) return false;
          return std::any_of(m.transitions.begin(), m.transitions.end(), [&](const auto& tr) {
            return tr.from == m.initial && tr.operation_id == st.plan.op->operation_id;
          });
        },
        true);
    if (moved_out) {
      keep(fixture,
           fresh(s_, a_, log_, *moved_out, log_[*moved_out].plan.op->transition->parameter, false));
      if (has(fixture)) return;
    }
    // Else a create whose resource a move of this machine was sent on.
    auto create = find([&](const step& st) {
      if (!st.succeeded() || !creates(*st.plan.op)) return false;
      const std::string id = created_id(st);
      return std::any_of(log_.begin(), log_.end(), [&](const step& later) {
        return is_move(*later.plan.op) &&
               later.path_value(later.plan.op->transition->parameter) == id;
      });
    });
    if (create) keep(fixture, fresh_create(s_, a_, log_, *create));
  }

  /// The fixture of a state other than the initial one: the chain of a
  /// move into it, sent again with the move.
  void moved_into(const openapi::state_machine& m, const std::string& state,
                  const std::string& fixture) {
    for (const auto& tr : m.transitions) {
      if (tr.to != state || has(fixture)) continue;
      auto move = find(
          [&](const step& st) {
            return st.succeeded() && st.plan.op->operation_id == tr.operation_id;
          },
          true);
      if (move) {
        keep(fixture, fresh(s_, a_, log_, *move, log_[*move].plan.op->transition->parameter, true));
      }
    }
  }

  /// An id `op` (which leaves it as it was) answered 2xx for as parameter
  /// `p`, unless a later step moved it (the last such step: the operation
  /// itself may be a write, sent more than once on the same id) or it was
  /// seen in a final state.
  std::optional<std::string> unmoved_id(const openapi::operation& op,
                                        const openapi::parameter& p) const {
    for (std::size_t i = log_.size(); i-- > 0;) {
      const step& st = log_[i];
      if (!st.succeeded() || st.plan.op != &op) continue;
      const auto id = st.path_value(p.name);
      if (!id) continue;
      auto moved = s_.moved.find({t_.id, *id});
      // Where its states are declared, a resource seen in a final one is in
      // none a fixture needs.
      bool final_state = false;
      for (const auto& [name, m] : s_.spec.state_machines) {
        if (m.resource != p.resource->name) continue;
        auto o = s_.observed.find({t_.id, name, *id});
        final_state = final_state ||
                      (o != s_.observed.end() && std::find(m.terminal.begin(), m.terminal.end(),
                                                           o->second.first) != m.terminal.end());
      }
      if (!final_state && (moved == s_.moved.end() || moved->second <= st.order)) return id;
    }
    return std::nullopt;
  }

  session& s_;
  const actor& a_;
  const std::vector<step>& log_;
  profile::tenant& t_;
  std::vector<std::string> made_, seen_;
};

}  // namespace

void prepare_fixtures(session& s, const actor& a, const std::vector<step>& log) {
  if (!a.credential || !a.credential->home()) return;
  profile::tenant* t = nullptr;
  for (auto& mine : s.work.tenants) {
    if (mine.id == a.credential->home()->id) t = &mine;
  }
  if (!t) return;
  fixture_search search(s, a, log, *t);
  for (const auto& [name, m] : s.spec.state_machines) search.machine(name, m);
  // An x-resource whose fixture must be in a state. Writes first: a read
  // answers whatever the state, a write's 2xx shows it was the one needed.
  std::vector<const openapi::operation*> ops = s.ctx.operations();
  std::stable_partition(ops.begin(), ops.end(),
                        [](const openapi::operation* op) { return op->method != http::verb::get; });
  for (const auto* op : ops) {
    for (const auto& p : op->parameters) {
      if (p.resource && p.resource->fixture_state && !search.has(p.resource->fixture)) {
        search.resource(*op, p);
      }
    }
  }
  search.note();
}

}  // namespace conform::harness::stateful
