// stateful_created_readable and stateful_created_listed: what a 2xx create
// returned, read back by its id and found in its collection's list.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "harness/auth.hpp"
#include "harness/stateful/graph.hpp"
#include "harness/stateful/json.hpp"
#include "harness/stateful/learn.hpp"
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

/// The plan of page `page` of `list` (the cursor `cursor` past the first),
/// as big as x-pagination lets a page be.
step_plan page_plan(const openapi::operation& list, int page, const std::string& cursor) {
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
  if (const auto& paging = list.paging) {
    if (paging->max_size > 0) pin(paging->size_param, std::to_string(paging->max_size));
    if (paging->kind == openapi::pagination::style::page)
      pin(paging->page_param, std::to_string(page));
    if (paging->kind == openapi::pagination::style::cursor && page > 1)
      pin(paging->cursor_param, cursor);
  }
  return plan;
}

/// Looks for `id` in the list `list` answers `a`, walking its pages as
/// x-pagination says (40 pages at most).
chain_verdict find_listed(session& s, const actor& a, const openapi::operation& list,
                          const std::string& id, probes& extra) {
  chain_verdict v;
  const auto shape = harness::stateful::list_of(list);
  if (!shape) {
    v.why = list.operation_id + "'s answer holds no list of items with ids";
    return v;
  }
  const auto& paging = list.paging;
  std::string cursor;
  std::uint64_t seen_items = 0;
  for (int page = 1; page <= 40; ++page) {
    auto sent = harness::stateful::send_step(s, a, page_plan(list, page, cursor), 1, "listed");
    if (!sent) {
      v.why = "the list could not be read: " + sent.error();
      return v;
    }
    extra.push_back(sent->exchange);
    const harness::probe& p = *sent->exchange;
    if (!judgeable(s, p) || !p.succeeded() || !p.json) {
      v.why = "the list answered " + p.summary();
      return v;
    }
    const auto* items = harness::stateful::at(*p.json, shape->items);
    if (!items || !items->is_array()) {
      v.why = "the list's answer has no items at " + shape->items;
      return v;
    }
    for (const auto& item : items->get_array()) {
      ++seen_items;
      const auto* item_id = harness::stateful::at(item, shape->item_id);
      if (item_id && harness::stateful::text_of(*item_id) == id) {
        v.what = chain_verdict::kind::pass;
        return v;
      }
    }
    bool more = false;
    if (paging && paging->kind == openapi::pagination::style::page) {
      const auto* pages =
          paging->pages.empty() ? nullptr : harness::stateful::at(*p.json, paging->pages);
      more = pages && pages->is_int64() ? page < pages->get_int64() : !items->get_array().empty();
    } else if (paging) {
      const auto* next = harness::stateful::at(*p.json, paging->next_cursor);
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

/// True when a create of `made` made what a read of `<collection>/{id}`
/// reads: the same collection, or one beside it of the same name
/// (`/silences` for `/silence/{id}`).
bool same_collection(const std::string& made, const std::string& collection) {
  auto last = [](const std::string& path) {
    return harness::singular(
        path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1));
  };
  return made == collection ||
         (made.substr(0, made.rfind('/')) == collection.substr(0, collection.rfind('/')) &&
          last(made) == last(collection));
}

}  // namespace

void chain_checks::judge_read(session& s, const actor& a, std::vector<step>& log,
                              std::size_t index) {
  const step& st = log[index];
  const auto item = item_path(st.plan.op->path);
  if (!item) return;
  const auto id = st.path_value(item->second);
  if (!id || deleted_[a.label].count(*id)) return;
  auto created = s.created[a.label].find(*id);
  if (created == s.created[a.label].end()) return;
  const step& create = log[static_cast<std::size_t>(created->second)];
  if (!same_collection(create.plan.op->path, item->first)) return;
  const unsigned status = st.exchange->status();
  if (st.succeeded()) {
    results_.pass(*create.plan.op, a.label, created_readable_check);
    return;
  }
  if (status != 404 && status != 410) return;
  failing_chain failing;
  failing.verdict.what = chain_verdict::kind::fail;
  failing.verdict.expected = "a read of the id " + create.plan.op->operation_id +
                             " returned (2xx) answers 2xx for the credential that created it";
  failing.verdict.seen = st.plan.op->method_path() + " answered " + st.exchange->summary();
  failing.verdict.cause = "created resource answered " + std::to_string(status);
  const auto chain = harness::stateful::chain_of(log, index);
  const std::size_t anchor = static_cast<std::size_t>(
      std::find(chain.begin(), chain.end(), static_cast<std::size_t>(created->second)) -
      chain.begin());
  failing.anchor = anchor < chain.size() ? anchor : 0;
  failing.steps = steps_of(log, chain);
  failing.plans = harness::stateful::plans_of(log, chain);
  auto judge = [](session& s2, const actor&, std::vector<step>& again, probes&) {
    chain_verdict w;
    const harness::probe& last = *again.back().exchange;
    if (!judgeable(s2, last)) return w;
    if (last.status() == 404 || last.status() == 410) {
      w.what = chain_verdict::kind::fail;
      w.cause = "created resource answered " + std::to_string(last.status());
      w.expected = "a read of the created id answers 2xx";
      w.seen = again.back().plan.op->method_path() + " answered " + last.summary();
    }
    return w;
  };
  harness::stateful::report_chain(s, a, results_, created_readable_check, *create.plan.op,
                                  std::move(failing), judge, max_shrinks_);
}

void chain_checks::judge_listed(session& s, const actor& a, std::vector<step>& log,
                                std::size_t index) {
  const step& st = log[index];
  const auto* list = find_op(s, http::verb::get, st.plan.op->path);
  if (!list || !harness::stateful::auth_of(s, a, *list)) return;
  const std::string id = harness::stateful::created_id(st);
  if (id.empty()) return;
  failing_chain failing;
  failing.verdict = find_listed(s, a, *list, id, failing.extra);
  if (failing.verdict.what == chain_verdict::kind::pass) {
    results_.pass(*st.plan.op, a.label, created_listed_check);
    return;
  }
  if (failing.verdict.what == chain_verdict::kind::none) {
    results_.not_run(st.plan.op, a.label, created_listed_check, failing.verdict.why);
    return;
  }
  const auto chain = harness::stateful::chain_of(log, index);
  failing.anchor = chain.size() - 1;
  failing.steps = steps_of(log, chain);
  failing.plans = harness::stateful::plans_of(log, chain);
  auto judge = [list](session& s2, const actor& a2, std::vector<step>& again, probes& more) {
    const std::string fresh = harness::stateful::created_id(again.back());
    if (fresh.empty()) return chain_verdict{};
    return find_listed(s2, a2, *list, fresh, more);
  };
  harness::stateful::report_chain(s, a, results_, created_listed_check, *st.plan.op,
                                  std::move(failing), judge, max_shrinks_);
}

}  // namespace conform::suites::stateful
