// stateful_deleted_gone: after a 2xx DELETE, the resource is read again,
// with every path parameter the delete was sent with.

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/text.hpp"
#include "harness/stateful/graph.hpp"
#include "harness/stateful/json.hpp"
#include "harness/stateful/shrink.hpp"
#include "suites/stateful/checks.hpp"

namespace conform::suites::stateful {
namespace {

using harness::stateful::actor;
using harness::stateful::binding;
using harness::stateful::chain_verdict;
using harness::stateful::failing_chain;
using harness::stateful::probes;
using harness::stateful::session;
using harness::stateful::slot;
using harness::stateful::step;
using harness::stateful::step_plan;

/// The JSON schema of `op`'s answer with `status`, or nullptr.
const schema::schema* json_answer(const openapi::operation& op, unsigned status) {
  const auto* r = op.documented_response(static_cast<int>(status));
  const schema::schema* sch = nullptr;
  for (const auto& m : r ? r->content : std::vector<openapi::media_type>{}) {
    if (m.schema && m.name.find("json") != std::string::npos) sch = m.schema;
  }
  return sch;
}

/// The read of a deleted (or cancelled) resource: 404/410, or a final state.
chain_verdict gone_verdict(session& s, const openapi::operation& del, const harness::probe& read,
                           const openapi::operation& read_op, const std::string& id) {
  chain_verdict v;
  if (!judgeable(s, read)) {
    v.why = *read.unjudgeable(s.spec);
    return v;
  }
  const unsigned status = read.status();
  if (status == 404 || status == 410) {
    v.what = chain_verdict::kind::pass;
    return v;
  }
  if (!read.succeeded()) {
    v.why = "the read answered " + read.summary();
    return v;
  }
  // A resource whose states the description declares may stay, in a final one.
  for (const auto& [name, m] : s.spec.state_machines) {
    bool ours = del.transition && del.transition->machine == name;
    for (const auto& p : del.parameters)
      ours = ours || (p.resource && p.resource->name == m.resource);
    if (!ours || !read.json) continue;
    const schema::schema* sch = json_answer(read_op, status);
    const auto pointer = sch ? harness::stateful::find_property(
                                   *sch, [&m = m](std::string_view n) { return n == m.field; })
                             : std::nullopt;
    const auto* state = pointer ? harness::stateful::at(*read.json, *pointer) : nullptr;
    if (!state || !state->is_string()) {
      v.why = "the read shows no " + m.field + " to judge";
      return v;
    }
    const std::string st(state->get_string());
    if (std::find(m.terminal.begin(), m.terminal.end(), st) != m.terminal.end()) {
      v.what = chain_verdict::kind::pass;
      return v;
    }
    v.what = chain_verdict::kind::fail;
    v.expected = "after a 2xx " + del.method_path() + ", " + id + " is gone or in a final state (" +
                 core::join(m.terminal) + ")";
    v.seen = read_op.operation_id + " answered " + std::to_string(status) + " with " + m.field +
             " " + st;
    v.cause = "deleted resource not in a final state";
    return v;
  }
  // Without declared states, a record that carries a status may be a soft delete.
  if (const auto* r = read_op.documented_response(static_cast<int>(status))) {
    for (const auto& m : r->content) {
      if (!m.schema) continue;
      if (auto p = harness::stateful::find_property(
              *m.schema, [](std::string_view n) { return n == "status" || n == "state"; })) {
        v.why = "still readable, and its record carries " + *p +
                ", so it may be in a final state the description does not name "
                "(x-state-machines)";
        return v;
      }
    }
  }
  v.what = chain_verdict::kind::fail;
  v.expected = "after a 2xx " + del.method_path() + ", a read of " + id + " answers 404 or 410";
  v.seen = read_op.method_path() + " answered " + read.summary();
  v.cause = "deleted resource still readable";
  return v;
}

/// How a deleted resource is read back: the operation, and its parameter
/// that takes the id.
struct read_back {
  const openapi::operation* op = nullptr;
  std::string param;
};

/// The read of what `del` deletes: the GET of the same path, else the read
/// by id of the state machine `del` moves.
read_back read_of(const session& s, const openapi::operation& del) {
  read_back out;
  out.op = find_op(s, http::verb::get, del.path);
  if (out.op) {
    if (auto item = item_path(del.path)) out.param = item->second;
    return out;
  }
  for (const auto& [name, m] : s.spec.state_machines) {
    const bool ours = del.transition && del.transition->machine == name;
    if (!ours) continue;
    const auto* r = s.ctx.covered(m.read_operation_id);
    if (!r || r->method != http::verb::get || harness::stateful::list_of(*r)) continue;
    for (const auto& p : r->parameters) {
      if (p.in == openapi::param_location::path && p.resource && p.resource->name == m.resource) {
        out.op = r;
        out.param = p.name;
      }
    }
  }
  return out;
}

/// Reads `which` back as `read` says, naming the same resource as
/// `deleted`: the id, and every other path parameter
/// (`/workspaces/{ws}/connections/{id}`: the workspace too) with the value
/// the delete was sent with. nullptr when it could not be sent.
std::shared_ptr<harness::probe> send_read_back(session& s, const actor& a, const read_back& read,
                                               const step& deleted, const std::string& which,
                                               probes& more) {
  step_plan plan;
  plan.op = read.op;
  binding b;
  b.where = slot{false, openapi::param_location::path, read.param};
  b.value = boost::json::value(which);
  plan.bindings.push_back(std::move(b));
  for (const auto& p : read.op->parameters) {
    if (p.in != openapi::param_location::path || p.name == read.param) continue;
    const auto same = deleted.path_value(p.name);
    if (!same) continue;
    binding other;
    other.where = slot{false, openapi::param_location::path, p.name};
    other.value = boost::json::value(*same);
    plan.bindings.push_back(std::move(other));
  }
  auto sent = harness::stateful::send_step(s, a, plan, 1, "gone");
  if (!sent) return nullptr;
  more.push_back(sent->exchange);
  return sent->exchange;
}

}  // namespace

void chain_checks::judge_deleted(session& s, const actor& a, std::vector<step>& log,
                                 std::size_t index) {
  const step& st = log[index];
  const auto& del = *st.plan.op;
  const read_back read = read_of(s, del);
  const std::string moved = del.transition ? del.transition->parameter : read.param;
  const std::string which = moved.empty() ? read.param : moved;
  const auto id = st.path_value(which);
  if (!read.op || read.param.empty() || !id || !harness::stateful::auth_of(s, a, *read.op)) {
    results_.not_run(&del, a.label, deleted_gone_check,
                     "no operation reads one resource of " + del.path + " by its id");
    return;
  }
  failing_chain failing;
  auto probe_read = send_read_back(s, a, read, st, *id, failing.extra);
  if (!probe_read) return;
  failing.verdict = gone_verdict(s, del, *probe_read, *read.op, *id);
  if (failing.verdict.what == chain_verdict::kind::pass) {
    results_.pass(del, a.label, deleted_gone_check);
    return;
  }
  if (failing.verdict.what == chain_verdict::kind::none) {
    results_.not_run(&del, a.label, deleted_gone_check, failing.verdict.why);
    return;
  }
  const auto chain = harness::stateful::chain_of(log, index);
  failing.anchor = chain.size() - 1;
  failing.steps = steps_of(log, chain);
  failing.plans = harness::stateful::plans_of(log, chain);
  auto judge = [read, which, &del](session& s2, const actor& a2, std::vector<step>& again,
                                   probes& more) {
    if (!again.back().succeeded()) return chain_verdict{};
    const auto fresh = again.back().path_value(which);
    if (!fresh) return chain_verdict{};
    auto p = send_read_back(s2, a2, read, again.back(), *fresh, more);
    return p ? gone_verdict(s2, del, *p, *read.op, *fresh) : chain_verdict{};
  };
  harness::stateful::report_chain(s, a, results_, deleted_gone_check, del, std::move(failing),
                                  judge, max_shrinks_);
}

}  // namespace conform::suites::stateful
