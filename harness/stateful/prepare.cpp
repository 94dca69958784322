#include "harness/stateful/prepare.hpp"

#include <algorithm>
#include <functional>

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

}  // namespace

void prepare_fixtures(session& s, const actor& a, const std::vector<step>& log) {
  if (!a.credential || !a.credential->home()) return;
  profile::tenant* t = nullptr;
  for (auto& mine : s.work.tenants) {
    if (mine.id == a.credential->home()->id) t = &mine;
  }
  if (!t) return;
  std::vector<std::string> made, seen;
  auto keep = [&](const std::string& fixture, std::optional<std::string> v, bool fresh_one = true) {
    if (!v || v->empty() || t->fixtures.count(fixture)) return;
    t->fixtures[fixture] = *v;
    (fresh_one ? made : seen).push_back(fixture);
  };
  // The first step that matches; with `made`, only one a chain with a create led to.
  auto find = [&](const std::function<bool(const step&)>& match,
                  bool made_chain = false) -> std::optional<std::size_t> {
    for (std::size_t i = 0; i < log.size(); ++i) {
      if (match(log[i]) && (!made_chain || creates_in(log, chain_of(log, i)))) return i;
    }
    return std::nullopt;
  };

  // A state machine's states, and the resources its preconditions fail on.
  for (const auto& machine : s.spec.state_machines) {
    // Named references, not a structured binding: the lambdas below capture
    // them, which clang 14 (the sanitizer build's compiler) cannot do with a binding.
    const std::string& name = machine.first;
    const auto& m = machine.second;
    auto is_move = [&name](const openapi::operation& op) {
      return op.transition && op.transition->machine == name;
    };
    for (const auto& [state, fixture] : m.fixtures) {
      if (t->fixtures.count(fixture)) continue;
      if (state == m.initial) {
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
               fresh(s, a, log, *moved_out, log[*moved_out].plan.op->transition->parameter, false));
          if (t->fixtures.count(fixture)) continue;
        }
        // Else a create whose resource a move of this machine was sent on.
        auto create = find([&](const step& st) {
          if (!st.succeeded() || !creates(*st.plan.op)) return false;
          const std::string id = created_id(st);
          return std::any_of(log.begin(), log.end(), [&](const step& later) {
            return is_move(*later.plan.op) &&
                   later.path_value(later.plan.op->transition->parameter) == id;
          });
        });
        if (create) keep(fixture, fresh_create(s, a, log, *create));
        continue;
      }
      for (const auto& tr : m.transitions) {
        if (tr.to != state || t->fixtures.count(fixture)) continue;
        auto move = find(
            [&](const step& st) {
              return st.succeeded() && st.plan.op->operation_id == tr.operation_id;
            },
            true);
        if (move) {
          keep(fixture, fresh(s, a, log, *move, log[*move].plan.op->transition->parameter, true));
        }
      }
    }
    for (const auto& p : m.preconditions) {
      if (p.fixture.empty() || t->fixtures.count(p.fixture)) continue;
      auto failed = find(
          [&](const step& st) {
            return st.plan.op->operation_id == p.operation_id && st.exchange &&
                   st.exchange->error_code() == p.error_code;
          },
          true);
      if (failed && log[*failed].plan.op->transition) {
        keep(p.fixture,
             fresh(s, a, log, *failed, log[*failed].plan.op->transition->parameter, false));
      }
    }
  }
  // An x-resource whose fixture must be in a state: the chain that led an
  // operation on it to a 2xx, up to that operation. Writes first: a read
  // answers whatever the state, a write's 2xx shows it was the one needed.
  std::vector<const openapi::operation*> ops = s.ctx.operations();
  std::stable_partition(ops.begin(), ops.end(),
                        [](const openapi::operation* op) { return op->method != http::verb::get; });
  for (const auto* op : ops) {
    for (const auto& p : op->parameters) {
      if (!p.resource || !p.resource->fixture_state || t->fixtures.count(p.resource->fixture)) {
        continue;
      }
      const bool moving = moves(*op, p.name);
      auto on_op = [op](const step& st) { return st.succeeded() && st.plan.op == op; };
      if (!moving) {
        // An operation that leaves it as it was: an id it answered 2xx for,
        // unless a later step moved it (the last such step: the operation
        // itself may be a write, sent more than once on the same id).
        for (std::size_t i = log.size(); i-- > 0;) {
          const step& st = log[i];
          if (!on_op(st)) continue;
          const auto id = st.path_value(p.name);
          if (!id) continue;
          auto moved = s.moved.find({t->id, *id});
          // Where its states are declared, a resource seen in a final one is in none a fixture
          // needs.
          bool final_state = false;
          for (const auto& [name, m] : s.spec.state_machines) {
            if (m.resource != p.resource->name) continue;
            auto o = s.observed.find({t->id, name, *id});
            final_state = final_state ||
                          (o != s.observed.end() && std::find(m.terminal.begin(), m.terminal.end(),
                                                              o->second.first) != m.terminal.end());
          }
          if (!final_state && (moved == s.moved.end() || moved->second <= st.order)) {
            keep(p.resource->fixture, *id, false);
            break;
          }
        }
        if (t->fixtures.count(p.resource->fixture)) continue;
      }
      // Else the chain that led the operation to a 2xx, sent again up to it:
      // one that created what it acted on, when the operation moves it (a walk
      // free to write may first have moved a resource the target had).
      std::optional<std::size_t> done;
      if (moving) {
        // A create before it in its chain (an action such as POST .../launch
        // counts as a create itself, and sending it again alone makes nothing).
        done = find([&](const step& st) {
          if (!on_op(st)) return false;
          auto chain = chain_of(log, static_cast<std::size_t>(&st - log.data()));
          chain.pop_back();
          return creates_in(log, chain);
        });
      }
      if (!done) done = find(on_op);
      if (!done) continue;
      keep(p.resource->fixture, fresh(s, a, log, *done, p.name, false));
    }
  }
  if (!made.empty()) {
    s.notes.push_back("tenant " + t->id + ": " + core::join(made) +
                      " made fresh by sending again the chains that led there (as " + a.label +
                      ")");
  }
  if (!seen.empty()) {
    s.notes.push_back("tenant " + t->id + ": " + core::join(seen) +
                      " read (2xx) and not moved since, in no final state (as " + a.label + ")");
  }
}

}  // namespace conform::harness::stateful
