#include "harness/stateful/checks.hpp"

#include <algorithm>
#include <functional>

#include "core/text.hpp"
#include "harness/stateful/json.hpp"
#include "harness/stateful/learn.hpp"

namespace conform::harness::stateful {
namespace {

/// What a check made of a chain: held, failed (and how), or nothing to say.
struct chain_verdict {
  enum class kind { pass, fail, none } what = kind::none;
  std::string expected, seen, cause;
  std::string why;  // none: why no chain_verdict
};

using probes = std::vector<std::shared_ptr<probe>>;
/// Judges a chain sent again (`steps`), sending what else it needs (`extra`).
using finisher = std::function<chain_verdict(session&, const actor&, std::vector<step>&, probes&)>;

const openapi::operation* find_op(const session& s, http::verb method, const std::string& path) {
  for (const auto* op : s.ctx.operations()) {
    if (op->method == method && op->path == path) return op;
  }
  return nullptr;
}

/// The collection path and the id parameter of `path` when it is
/// "<collection>/{id}", else nullopt.
std::optional<std::pair<std::string, std::string>> item_path(const std::string& path) {
  if (path.empty() || path.back() != '}') return std::nullopt;
  const auto open = path.rfind("/{");
  if (open == std::string::npos || open == 0) return std::nullopt;
  return std::make_pair(path.substr(0, open), path.substr(open + 2, path.size() - open - 3));
}

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

bool judgeable(const session& s, const probe& p) {
  return !p.unjudgeable(s.spec);
}

/// Looks for `id` in the list `list` answers `a`, walking its pages as
/// x-pagination says (40 pages at most).
chain_verdict find_listed(session& s, const actor& a, const openapi::operation& list,
                          const std::string& id, probes& extra) {
  chain_verdict v;
  const auto shape = list_of(list);
  if (!shape) {
    v.why = list.operation_id + "'s answer holds no list of items with ids";
    return v;
  }
  const auto& paging = list.paging;
  std::string cursor;
  std::uint64_t seen_items = 0;
  for (int page = 1; page <= 40; ++page) {
    step_plan plan;
    plan.op = &list;
    plan.bare = true;
    auto pin = [&plan](const std::string& name, const std::string& value) {
      if (name.empty()) return;
      binding b;
      b.where = slot{false, openapi::param_location::query, name};
      b.value = boost::json::value(value);
      plan.bindings.push_back(std::move(b));
    };
    if (paging) {
      if (paging->max_size > 0) pin(paging->size_param, std::to_string(paging->max_size));
      if (paging->kind == openapi::pagination::style::page)
        pin(paging->page_param, std::to_string(page));
      if (paging->kind == openapi::pagination::style::cursor && page > 1)
        pin(paging->cursor_param, cursor);
    }
    auto sent = send_step(s, a, plan, 1, "listed");
    if (!sent) {
      v.why = "the list could not be read: " + sent.error();
      return v;
    }
    extra.push_back(sent->exchange);
    const probe& p = *sent->exchange;
    if (!judgeable(s, p) || !p.succeeded() || !p.json) {
      v.why = "the list answered " + p.summary();
      return v;
    }
    const auto* items = stateful::at(*p.json, shape->items);
    if (!items || !items->is_array()) {
      v.why = "the list's answer has no items at " + shape->items;
      return v;
    }
    for (const auto& item : items->get_array()) {
      ++seen_items;
      const auto* item_id = stateful::at(item, shape->item_id);
      if (item_id && stateful::text_of(*item_id) == id) {
        v.what = chain_verdict::kind::pass;
        return v;
      }
    }
    bool more = false;
    if (paging && paging->kind == openapi::pagination::style::page) {
      const auto* pages = paging->pages.empty() ? nullptr : stateful::at(*p.json, paging->pages);
      more = pages && pages->is_int64() ? page < pages->get_int64() : !items->get_array().empty();
    } else if (paging) {
      const auto* next = stateful::at(*p.json, paging->next_cursor);
      more = next && next->is_string() && !next->get_string().empty();
      if (more) cursor = std::string(next->get_string());
    } else {
      // Without x-pagination the answer is the whole list only when the
      // operation takes no query parameter that could bound it.
      const bool bounded = std::any_of(
          list.parameters.begin(), list.parameters.end(),
          [](const openapi::parameter& q) { return q.in == openapi::param_location::query; });
      if (bounded) {
        v.why = "not on the first page, and " + list.operation_id +
                " declares no x-pagination to walk the rest";
        return v;
      }
    }
    if (!more) {
      v.what = chain_verdict::kind::fail;
      v.expected = "the id a 2xx create returned (" + id + ") among the items of " +
                   list.operation_id + " for the same credential";
      v.seen = "not among the " + std::to_string(seen_items) + " items of " + std::to_string(page) +
               " page(s)";
      v.cause = "created resource not listed";
      return v;
    }
  }
  v.why = "the list has more than 40 pages";
  return v;
}

/// The read of a deleted (or cancelled) resource: 404/410, or a final state.
chain_verdict gone_verdict(session& s, const openapi::operation& del, const probe& read,
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
    const auto* r = read_op.documented_response(static_cast<int>(status));
    const schema::schema* sch = nullptr;
    for (const auto& m2 : r ? r->content : std::vector<openapi::media_type>{}) {
      if (m2.schema && m2.name.find("json") != std::string::npos) sch = m2.schema;
    }
    const auto pointer =
        sch ? stateful::find_property(*sch, [&m = m](std::string_view n) { return n == m.field; })
            : std::nullopt;
    const auto* state = pointer ? stateful::at(*read.json, *pointer) : nullptr;
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
      if (auto p = stateful::find_property(
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

}  // namespace

const std::vector<check_info>& check_infos() {
  static const std::vector<check_info> infos = {
      {created_readable,
       "a resource a 2xx POST to a collection returned is readable by the same credential "
       "(GET <collection>/{id} does not answer 404)",
       "RFC 9110 section 9.3.3 (POST creates); OpenAPI links"},
      {created_listed,
       "a resource a 2xx POST to a collection returned appears in the collection's list for the "
       "same credential (every page walked)",
       "RFC 9110 section 9.3.3; x-pagination"},
      {deleted_gone,
       "after a 2xx DELETE, a read of the resource answers 404 or 410, or shows a final state",
       "RFC 9110 section 9.3.5 (DELETE removes); x-state-machines terminal"},
  };
  return infos;
}

scenario checks_scenario() {
  scenario s;
  s.name = "stateful";
  s.checks = check_infos();
  s.run = [](scenario_context&, results_sink&, const check_enabled&) {};
  s.stateful = true;
  return s;
}

namespace {

/// Reports `v` of a chain, shrinking it first: each step but `anchor`
/// (whose id the check is about) and the last is left out in turn, and the
/// rest sent again; a shorter chain that fails the same way replaces it.
void report_chain(session& s, const actor& a, results_sink& results, const std::string& check,
                  const openapi::operation& cell_op, std::vector<step_plan> plans,
                  std::size_t anchor, std::vector<step> steps, probes extra, chain_verdict v,
                  const finisher& finish, unsigned budget) {
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
      chain_verdict w = finish(s, a, *again, more);
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

}  // namespace

void chain_checks::after(session& s, const actor& a, std::vector<step>& log, std::size_t index) {
  const step& st = log[index];
  if (!st.exchange || !judgeable(s, *st.exchange)) return;
  const auto& op = *st.plan.op;
  if (op.method == http::verb::get && enabled_(created_readable)) judge_read(s, a, log, index);
  if (st.succeeded() && creates(op) && enabled_(created_listed)) judge_listed(s, a, log, index);
  if (st.succeeded() && op.method == http::verb::delete_) {
    if (auto item = item_path(op.path)) {
      if (auto id = st.path_value(item->second)) s.deleted[a.label].insert(*id);
    }
    if (enabled_(deleted_gone)) judge_deleted(s, a, log, index);
  }
}

void chain_checks::judge_read(session& s, const actor& a, std::vector<step>& log,
                              std::size_t index) {
  const step& st = log[index];
  const auto item = item_path(st.plan.op->path);
  if (!item) return;
  const auto id = st.path_value(item->second);
  if (!id || s.deleted[a.label].count(*id)) return;
  auto created = s.created[a.label].find(*id);
  if (created == s.created[a.label].end()) return;
  const step& create = log[static_cast<std::size_t>(created->second)];
  // Only a create of the same collection (`/silences` for `/silence/{id}`) made what this reads.
  auto last = [](const std::string& path) {
    return singular(path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1));
  };
  const std::string& made = create.plan.op->path;
  if (made != item->first &&
      (made.substr(0, made.rfind('/')) != item->first.substr(0, item->first.rfind('/')) ||
       last(made) != last(item->first))) {
    return;
  }
  const unsigned status = st.exchange->status();
  if (st.succeeded()) {
    results_.pass(*create.plan.op, a.label, created_readable);
    return;
  }
  if (status != 404 && status != 410) return;
  chain_verdict v;
  v.what = chain_verdict::kind::fail;
  v.expected = "a read of the id " + create.plan.op->operation_id +
               " returned (2xx) answers 2xx for the credential that created it";
  v.seen = st.plan.op->method_path() + " answered " + st.exchange->summary();
  v.cause = "created resource answered " + std::to_string(status);
  const auto chain = chain_of(log, index);
  const std::size_t anchor = static_cast<std::size_t>(
      std::find(chain.begin(), chain.end(), static_cast<std::size_t>(created->second)) -
      chain.begin());
  std::vector<step> steps;
  for (auto i : chain) steps.push_back(log[i]);
  finisher finish = [](session& s2, const actor&, std::vector<step>& again, probes&) {
    chain_verdict w;
    const probe& last = *again.back().exchange;
    if (!judgeable(s2, last)) return w;
    if (last.status() == 404 || last.status() == 410) {
      w.what = chain_verdict::kind::fail;
      w.cause = "created resource answered " + std::to_string(last.status());
      w.expected = "a read of the created id answers 2xx";
      w.seen = again.back().plan.op->method_path() + " answered " + last.summary();
    }
    return w;
  };
  report_chain(s, a, results_, created_readable, *create.plan.op, plans_of(log, chain),
               anchor < chain.size() ? anchor : 0, std::move(steps), {}, std::move(v), finish,
               max_shrinks_);
}

void chain_checks::judge_listed(session& s, const actor& a, std::vector<step>& log,
                                std::size_t index) {
  const step& st = log[index];
  const auto* list = find_op(s, http::verb::get, st.plan.op->path);
  if (!list || !auth_of(s, a, *list)) return;
  const std::string id = created_id(st);
  if (id.empty()) return;
  probes extra;
  chain_verdict v = find_listed(s, a, *list, id, extra);
  if (v.what == chain_verdict::kind::pass) {
    results_.pass(*st.plan.op, a.label, created_listed);
    return;
  }
  if (v.what == chain_verdict::kind::none) {
    results_.not_run(st.plan.op, a.label, created_listed, v.why);
    return;
  }
  const auto chain = chain_of(log, index);
  std::vector<step> steps;
  for (auto i : chain) steps.push_back(log[i]);
  finisher finish = [list](session& s2, const actor& a2, std::vector<step>& again, probes& more) {
    const std::string fresh = created_id(again.back());
    if (fresh.empty()) return chain_verdict{};
    return find_listed(s2, a2, *list, fresh, more);
  };
  report_chain(s, a, results_, created_listed, *st.plan.op, plans_of(log, chain), chain.size() - 1,
               std::move(steps), std::move(extra), std::move(v), finish, max_shrinks_);
}

void chain_checks::judge_deleted(session& s, const actor& a, std::vector<step>& log,
                                 std::size_t index) {
  const step& st = log[index];
  const auto& del = *st.plan.op;
  // The read: GET of the same path, else the state machine's read by id.
  const openapi::operation* read = find_op(s, http::verb::get, del.path);
  std::string param;
  if (read) {
    if (auto item = item_path(del.path)) param = item->second;
  } else {
    for (const auto& [name, m] : s.spec.state_machines) {
      const bool ours = del.transition && del.transition->machine == name;
      if (!ours) continue;
      const auto* r = s.ctx.covered(m.read_operation_id);
      if (!r || r->method != http::verb::get || list_of(*r)) continue;
      for (const auto& p : r->parameters) {
        if (p.in == openapi::param_location::path && p.resource && p.resource->name == m.resource) {
          read = r;
          param = p.name;
        }
      }
    }
  }
  const std::string moved = del.transition ? del.transition->parameter : param;
  const auto id = st.path_value(moved.empty() ? param : moved);
  if (!read || param.empty() || !id || !auth_of(s, a, *read)) {
    results_.not_run(&del, a.label, deleted_gone,
                     "no operation reads one resource of " + del.path + " by its id");
    return;
  }
  // The read names the same resource as the delete: the id, and every other
  // path parameter (`/workspaces/{ws}/connections/{id}`: the workspace too)
  // with the value the delete was sent with.
  auto read_it = [read, param](session& s2, const actor& a2, const step& deleted,
                               const std::string& which, probes& more) -> std::shared_ptr<probe> {
    step_plan plan;
    plan.op = read;
    binding b;
    b.where = slot{false, openapi::param_location::path, param};
    b.value = boost::json::value(which);
    plan.bindings.push_back(std::move(b));
    for (const auto& p : read->parameters) {
      if (p.in != openapi::param_location::path || p.name == param) continue;
      const auto same = deleted.path_value(p.name);
      if (!same) continue;
      binding other;
      other.where = slot{false, openapi::param_location::path, p.name};
      other.value = boost::json::value(*same);
      plan.bindings.push_back(std::move(other));
    }
    auto sent = send_step(s2, a2, plan, 1, "gone");
    if (!sent) return nullptr;
    more.push_back(sent->exchange);
    return sent->exchange;
  };
  probes extra;
  auto probe_read = read_it(s, a, st, *id, extra);
  if (!probe_read) return;
  chain_verdict v = gone_verdict(s, del, *probe_read, *read, *id);
  if (v.what == chain_verdict::kind::pass) {
    results_.pass(del, a.label, deleted_gone);
    return;
  }
  if (v.what == chain_verdict::kind::none) {
    results_.not_run(&del, a.label, deleted_gone, v.why);
    return;
  }
  const auto chain = chain_of(log, index);
  std::vector<step> steps;
  for (auto i : chain) steps.push_back(log[i]);
  const std::string which = moved.empty() ? param : moved;
  finisher finish = [read_it, read, which, &del](session& s2, const actor& a2,
                                                 std::vector<step>& again, probes& more) {
    if (!again.back().succeeded()) return chain_verdict{};
    const auto fresh = again.back().path_value(which);
    if (!fresh) return chain_verdict{};
    auto p = read_it(s2, a2, again.back(), *fresh, more);
    return p ? gone_verdict(s2, del, *p, *read, *fresh) : chain_verdict{};
  };
  report_chain(s, a, results_, deleted_gone, del, plans_of(log, chain), chain.size() - 1,
               std::move(steps), std::move(extra), std::move(v), finish, max_shrinks_);
}

}  // namespace conform::harness::stateful
