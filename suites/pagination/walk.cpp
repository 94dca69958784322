#include "suites/pagination/walk.hpp"

#include <boost/json.hpp>

#include <algorithm>

namespace conform::suites::pagination {

using harness::probe;
using harness::results_sink;
using harness::scenario_context;

std::optional<std::int64_t> as_integer(const boost::json::value* v) {
  if (!v) return std::nullopt;
  if (v->is_int64()) return v->as_int64();
  if (v->is_uint64() && v->as_uint64() <= static_cast<std::uint64_t>(INT64_MAX)) {
    return static_cast<std::int64_t>(v->as_uint64());
  }
  return std::nullopt;
}

namespace {

/// The identity of an item: its `item_id` value, or nullopt when it has none.
std::optional<std::string> identity_of(const boost::json::value& item, const std::string& ptr) {
  if (ptr.empty()) return boost::json::serialize(item);
  boost::system::error_code ec;
  const auto* v = item.find_pointer(ptr, ec);
  if (ec || !v || v->is_null()) return std::nullopt;
  return boost::json::serialize(*v);
}

/// The items of page `p`: nullptr unless it is a 2xx with an items array;
/// with a finding when the answer breaks the rules, with `w.unjudged` when
/// there is no answer to judge.
const boost::json::array* items_of(const scenario_context& ctx, const probe& p,
                                   const openapi::pagination& paging, walk& w,
                                   const std::string& steps) {
  if (auto why = p.unjudgeable(ctx.spec())) {
    w.unjudged =
        "page " + std::to_string(w.probes.size()) + " of the walk (" + steps + "): " + *why;
    return nullptr;
  }
  if (!p.succeeded()) {
    w.findings.push_back(
        {"a page of the walk was not answered 2xx", "a 2xx page", p.summary(), steps, {&p}});
    return nullptr;
  }
  const auto* items = p.at(paging.items);
  if (!items || !items->is_array()) {
    w.findings.push_back({"the answer has no items array",
                          "an array at " + paging.items,
                          describe(items),
                          steps,
                          {&p}});
    return nullptr;
  }
  return &items->as_array();
}

/// `t.base` with `extra` query parameters (paging parameters never come from the generator).
generators::generated_request with_query(const list_target& t, const query_list& extra) {
  auto g = t.base;
  g.query.insert(g.query.end(), extra.begin(), extra.end());
  return g;
}

}  // namespace

bool walk::add(const boost::json::value& item, const std::string& id_ptr) {
  ++items;
  auto id = identity_of(item, id_ptr);
  if (!id) return false;
  ids.push_back(*id);
  return !seen_ids.insert(*id).second;
}

std::vector<std::string> item_ids(const boost::json::value* items, const std::string& id_ptr) {
  std::vector<std::string> out;
  if (!items || !items->is_array()) return out;
  for (const auto& item : items->as_array()) {
    out.push_back(identity_of(item, id_ptr).value_or("(no id)"));
  }
  return out;
}

std::string describe(const boost::json::value* v) {
  if (!v) return "absent";
  std::string text = boost::json::serialize(*v);
  if (text.size() > 80) text = text.substr(0, 77) + "...";
  return text;
}

std::string query_value(const boost::json::value& v) {
  if (v.is_string()) return std::string(v.as_string());
  return boost::json::serialize(v);
}

probe send(scenario_context& ctx, const list_target& t, const query_list& extra) {
  return ctx.send(ctx.build(*t.op, t.auth, with_query(t, extra)));
}

std::vector<list_target> targets_for(scenario_context& ctx, results_sink& results,
                                     const openapi::operation& op,
                                     const std::vector<std::string_view>& checks) {
  std::vector<list_target> out;
  const auto& paging = *op.paging;
  for (auto& choice : ctx.credentials().auth_models(op)) {
    const std::string label = choice.model.label();
    if (choice.not_run_why) {
      for (auto check : checks) results.not_run(&op, label, check, *choice.not_run_why);
      continue;
    }
    auto g = ctx.valid_request(op, choice, "pagination");
    if (!g) {
      const std::string& why = g.error();
      for (auto check : checks) {
        results.not_run(&op, label, check, "no valid request to page through: " + why);
      }
      continue;
    }
    std::set<std::string> dropped(paging.filter_params.begin(), paging.filter_params.end());
    for (const auto* name :
         {&paging.page_param, &paging.size_param, &paging.cursor_param, &paging.sort_param}) {
      if (!name->empty()) dropped.insert(*name);
    }
    dropped.insert(paging.ignored_params.begin(), paging.ignored_params.end());
    std::erase_if(g->query, [&](const auto& kv) { return dropped.count(kv.first) > 0; });
    out.push_back({&op, std::move(choice), std::move(*g), label});
  }
  return out;
}

std::int64_t small_size(const openapi::pagination& paging, std::int64_t count) {
  const std::int64_t lo = std::max<std::int64_t>(1, paging.min_size);
  const std::int64_t hi = std::max(lo, paging.max_size > 0 ? paging.max_size : 100);
  std::int64_t size = std::clamp<std::int64_t>((count + 3) / 4, lo, hi);
  if (size >= hi) size = std::max(lo, hi / 2);
  return size;
}

std::int64_t largest_size(const openapi::pagination& paging) {
  return paging.max_size > 0 ? paging.max_size : std::max<std::int64_t>(1, paging.default_size);
}

walk walk_pages(scenario_context& ctx, const list_target& t, std::int64_t size) {
  const auto& paging = t.paging();
  walk w;
  w.size = size;
  const std::string steps =
      "walked every page with " + paging.size_param + "=" + std::to_string(size);
  bool reported_duplicate = false, reported_short = false, reported_meta = false;
  std::int64_t last = 1;
  for (std::int64_t page = 1; page <= last; ++page) {
    if (page > max_walk_pages) {
      w.capped = true;
      return w;
    }
    const probe& p = w.probes.emplace_back(send(
        ctx, t,
        {{paging.page_param, std::to_string(page)}, {paging.size_param, std::to_string(size)}}));
    const auto* items = items_of(ctx, p, paging, w, steps);
    if (!items) return w;
    const auto count = as_integer(p.at(paging.count));
    const auto pages = as_integer(p.at(paging.pages));
    const auto at_page =
        paging.page.empty() ? std::optional<std::int64_t>(page) : as_integer(p.at(paging.page));
    if (!count || !pages || !at_page || *count < 0 || *pages < 0) {
      w.findings.push_back(
          {"the page counters are missing or not integers",
           "integers at " + paging.count + ", " + paging.pages + " and " + paging.page,
           paging.count + "=" + describe(p.at(paging.count)) + ", " + paging.pages + "=" +
               describe(p.at(paging.pages)) + ", " + paging.page + "=" +
               describe(p.at(paging.page)),
           steps,
           {&p}});
      return w;
    }
    if (page == 1) {
      w.count = count;
      w.pages = pages;
      last = std::max<std::int64_t>(1, *pages);
      // Not (count + size - 1) / size: a count near INT64_MAX would overflow.
      const std::int64_t want = *count / size + (*count % size != 0 ? 1 : 0);
      if (*pages != want) {
        w.findings.push_back({"the page count is not ceil(item count / page size)",
                              paging.pages + " = ceil(" + std::to_string(*count) + " / " +
                                  std::to_string(size) + ") = " + std::to_string(want),
                              std::to_string(*pages),
                              steps,
                              {&p}});
      }
    } else if (!reported_meta && (*count != *w.count || *pages != *w.pages)) {
      reported_meta = true;
      w.findings.push_back({"the page counters change during the walk",
                            paging.count + "=" + std::to_string(*w.count) + " and " + paging.pages +
                                "=" + std::to_string(*w.pages) + " on every page",
                            paging.count + "=" + std::to_string(*count) + " and " + paging.pages +
                                "=" + std::to_string(*pages) + " on page " + std::to_string(page),
                            steps,
                            {&w.probes.front(), &p}});
    }
    if (*at_page != page) {
      w.findings.push_back({"the page number is not the page asked for",
                            paging.page + "=" + std::to_string(page),
                            std::to_string(*at_page),
                            steps,
                            {&p}});
    }
    const auto n = static_cast<std::int64_t>(items->size());
    if (n > size || (page < last && n != size && !reported_short)) {
      reported_short = reported_short || n < size;
      w.findings.push_back({n > size ? "a page holds more items than the page size"
                                     : "a page before the last is not full",
                            std::to_string(size) + " items on page " + std::to_string(page) +
                                " of " + std::to_string(last),
                            std::to_string(n) + " items",
                            steps,
                            {&p}});
    }
    for (const auto& item : *items) {
      if (w.add(item, paging.item_id) && !reported_duplicate) {
        reported_duplicate = true;
        w.findings.push_back({"an item appears twice in the walk",
                              "every item exactly once (x-pagination)",
                              "item " + w.ids.back() + " again on page " + std::to_string(page),
                              steps,
                              {&p}});
      }
    }
  }
  w.complete = true;
  if (w.items != *w.count) {
    w.findings.push_back({"the items walked do not add up to the item count",
                          std::to_string(*w.count) + " items (" + paging.count + ")",
                          std::to_string(w.items) + " items on pages 1.." + std::to_string(last),
                          steps,
                          {&w.probes.front(), &w.probes.back()}});
  }
  return w;
}

std::string difference(const walk& a, const walk& b) {
  std::size_t only_a = 0, only_b = 0;
  std::string example;
  for (const auto& id : a.seen_ids) {
    if (!b.seen_ids.count(id)) {
      if (example.empty()) example = id;
      ++only_a;
    }
  }
  for (const auto& id : b.seen_ids) {
    if (!a.seen_ids.count(id)) {
      if (example.empty()) example = id;
      ++only_b;
    }
  }
  return std::to_string(only_a) + " items only with size " + std::to_string(a.size) + ", " +
         std::to_string(only_b) + " only with size " + std::to_string(b.size) +
         (example.empty() ? std::string() : " (e.g. " + example + ")");
}

std::optional<std::string> next_cursor(const probe& p, const openapi::pagination& paging) {
  const auto* v = p.at(paging.next_cursor);
  if (!v || !v->is_string() || v->as_string().empty()) return std::nullopt;
  return std::string(v->as_string());
}

walk walk_cursor(scenario_context& ctx, const list_target& t, std::int64_t size,
                 const query_list& fixed) {
  const auto& paging = t.paging();
  walk w;
  w.size = size;
  const std::string steps = "followed " + paging.cursor_param + " from the first page to the " +
                            "last with " + paging.size_param + "=" + std::to_string(size);
  std::set<std::string> cursors;
  std::optional<std::string> cursor;
  bool reported_duplicate = false, reported_size = false;
  for (std::int64_t page = 1;; ++page) {
    if (page > max_walk_pages) {
      w.capped = true;
      return w;
    }
    query_list q = fixed;
    q.emplace_back(paging.size_param, std::to_string(size));
    if (cursor) q.emplace_back(paging.cursor_param, *cursor);
    const probe& p = w.probes.emplace_back(send(ctx, t, q));
    const auto* items = items_of(ctx, p, paging, w, steps);
    if (!items) return w;
    const auto n = static_cast<std::int64_t>(items->size());
    if (n > size && !reported_size) {
      reported_size = true;
      w.findings.push_back({"a page holds more items than the page size",
                            "at most " + std::to_string(size) + " items",
                            std::to_string(n) + " items on page " + std::to_string(page),
                            steps,
                            {&p}});
    }
    for (const auto& item : *items) {
      if (w.add(item, paging.item_id) && !reported_duplicate) {
        reported_duplicate = true;
        std::vector<const probe*> evidence;
        if (w.probes.size() > 1) evidence.push_back(&w.probes[w.probes.size() - 2]);
        evidence.push_back(&p);
        w.findings.push_back(
            {"an item appears twice in the walk", "every item exactly once (x-pagination)",
             "item " + w.ids.back() + " again on page " + std::to_string(page), steps, evidence});
      }
    }
    cursor = next_cursor(p, paging);
    if (!cursor) break;
    if (!cursors.insert(*cursor).second) {
      w.findings.push_back({"a next cursor repeats an earlier one, so the walk loops",
                            "a new cursor on every page, null on the last",
                            "the cursor of page " + std::to_string(page) + " was seen before",
                            steps,
                            {&p}});
      return w;
    }
  }
  w.complete = true;
  return w;
}

}  // namespace conform::suites::pagination
