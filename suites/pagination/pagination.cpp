#include "suites/pagination/pagination.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace conform::suites {
namespace {

using runner::probe;
using runner::scenario_context;
using runner::scenario_failure;
using runner::scenario_results;

constexpr std::string_view page_walk_check = "pagination_page_walk";
constexpr std::string_view page_bounds_check = "pagination_page_bounds";
constexpr std::string_view cursor_walk_check = "pagination_cursor_walk";
constexpr std::string_view cursor_integrity_check = "pagination_cursor_integrity";

/// A walk stops here even when the list says there is more, so that a server
/// that never ends a list cannot hold the run.
constexpr std::int64_t max_walk_pages = 120;

using query_list = std::vector<std::pair<std::string, std::string>>;

/// Something a scenario saw that the description does not allow.
struct finding {
  std::string cause, expected, seen, steps;
  std::vector<const probe*> evidence;
};

/// The request every probe of one (operation, auth model) starts from: a
/// valid request without the paging, filter and sort parameters, so that a
/// walk sees the whole list.
struct list_target {
  const spec::operation* op = nullptr;
  runner::auth_choice auth;
  generators::generated_request base;
  std::string label;

  const spec::pagination& paging() const { return *op->paging; }
};

std::optional<std::int64_t> as_integer(const boost::json::value* v) {
  if (!v) return std::nullopt;
  if (v->is_int64()) return v->as_int64();
  if (v->is_uint64() && v->as_uint64() <= static_cast<std::uint64_t>(INT64_MAX)) {
    return static_cast<std::int64_t>(v->as_uint64());
  }
  return std::nullopt;
}

std::string describe(const boost::json::value* v) {
  if (!v) return "absent";
  std::string text = boost::json::serialize(*v);
  if (text.size() > 80) text = text.substr(0, 77) + "...";
  return text;
}

/// The identity of an item: its `item_id` value, or nullopt when it has none.
std::optional<std::string> identity_of(const boost::json::value& item, const std::string& ptr) {
  if (ptr.empty()) return boost::json::serialize(item);
  boost::system::error_code ec;
  const auto* v = item.find_pointer(ptr, ec);
  if (ec || !v || v->is_null()) return std::nullopt;
  return boost::json::serialize(*v);
}

std::string query_value(const boost::json::value& v) {
  if (v.is_string()) return std::string(v.as_string());
  return boost::json::serialize(v);
}

void report(scenario_results& results, scenario_context& ctx, const list_target& t,
            std::string_view check, const finding& f) {
  results.fail(*t.op, t.label, check,
               scenario_failure{f.expected, f.seen, f.cause, f.steps, f.evidence}, ctx);
}

/// Reports every finding of a cell, or its pass when there is none.
void conclude(scenario_results& results, scenario_context& ctx, const list_target& t,
              std::string_view check, const std::vector<finding>& findings) {
  if (findings.empty()) {
    results.pass(*t.op, t.label, check);
    return;
  }
  for (const auto& f : findings) report(results, ctx, t, check, f);
}

/// `t.base` with `extra` query parameters (paging parameters never come from the generator).
generators::generated_request with_query(const list_target& t, const query_list& extra) {
  auto g = t.base;
  g.query.insert(g.query.end(), extra.begin(), extra.end());
  return g;
}

probe send(scenario_context& ctx, const list_target& t, const query_list& extra) {
  return ctx.send(ctx.build(*t.op, t.auth, with_query(t, extra)));
}

bool is_2xx(const probe& p) {
  return p.status() >= 200 && p.status() < 300;
}

/// The list targets of `op`: one per auth model with a sufficient credential;
/// the others are recorded as not run for `checks`.
std::vector<list_target> targets_for(scenario_context& ctx, scenario_results& results,
                                     const spec::operation& op,
                                     const std::vector<std::string_view>& checks) {
  std::vector<list_target> out;
  const auto& paging = *op.paging;
  for (auto& choice : runner::auth_models_for(ctx.spec(), op, ctx.target())) {
    const std::string label = choice.model.label();
    if (choice.not_run_why) {
      for (auto check : checks) results.not_run(&op, label, check, *choice.not_run_why);
      continue;
    }
    std::string why;
    auto g = ctx.valid_request(op, choice, "pagination", &why);
    if (!g) {
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

/// A page size that splits `count` items into a few pages within the bounds.
std::int64_t small_size(const spec::pagination& paging, std::int64_t count) {
  const std::int64_t lo = std::max<std::int64_t>(1, paging.min_size);
  const std::int64_t hi = paging.max_size > 0 ? paging.max_size : std::max<std::int64_t>(lo, 100);
  std::int64_t size = std::clamp<std::int64_t>((count + 3) / 4, lo, hi);
  if (size >= hi) size = std::max(lo, hi / 2);
  return size;
}

std::int64_t largest_size(const spec::pagination& paging) {
  return paging.max_size > 0 ? paging.max_size : std::max<std::int64_t>(1, paging.default_size);
}

/// One traversal of a list and what it saw.
struct walk {
  std::int64_t size = 0;
  std::deque<probe> probes;  // a deque: findings point into it
  std::vector<std::string> ids;
  std::set<std::string> seen_ids;
  std::int64_t items = 0;
  std::optional<std::int64_t> count, pages;
  bool complete = false;  // ran to the list's end without an answer that stopped it
  bool capped = false;    // stopped at max_walk_pages
  std::vector<finding> findings;

  /// Counts `item`; true when its identity was already seen.
  bool add(const boost::json::value& item, const std::string& id_ptr) {
    ++items;
    auto id = identity_of(item, id_ptr);
    if (!id) return false;
    ids.push_back(*id);
    return !seen_ids.insert(*id).second;
  }
};

/// Checks that `p` is a 2xx whose items are an array; a finding otherwise.
const boost::json::array* items_of(const probe& p, const spec::pagination& paging, walk& w,
                                   const std::string& steps) {
  if (!is_2xx(p)) {
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
    const auto* items = items_of(p, paging, w, steps);
    if (!items) return w;
    const auto count = as_integer(p.at(paging.count));
    const auto pages = as_integer(p.at(paging.pages));
    const auto at_page =
        paging.page.empty() ? std::optional<std::int64_t>(page) : as_integer(p.at(paging.page));
    if (!count || !pages || !at_page || *count < 0 || *pages < 0) {
      w.findings.push_back(
          {"the page counters are not integers",
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
      const std::int64_t want = (*count + size - 1) / size;
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
                              "every item exactly once (D3.1)",
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

/// The ids one walk saw and the other did not, for a message.
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

void run_page_walk(scenario_context& ctx, scenario_results& results, const list_target& t) {
  const auto& paging = t.paging();
  walk large = walk_pages(ctx, t, largest_size(paging));
  if (large.capped) {
    results.not_run(t.op, t.label, page_walk_check,
                    "the list has more than " + std::to_string(max_walk_pages) + " pages of " +
                        std::to_string(large.size) +
                        "; a smaller list (fewer fixtures) can be "
                        "walked");
    return;
  }
  std::vector<finding> findings = large.findings;
  walk small;
  if (large.count) {
    small = walk_pages(ctx, t, small_size(paging, *large.count));
    findings.insert(findings.end(), small.findings.begin(), small.findings.end());
  }
  if (large.complete && small.complete && !small.capped && large.seen_ids != small.seen_ids) {
    findings.push_back({"two page sizes yield different items",
                        "the same items with either size",
                        difference(large, small),
                        "walked the list with two page sizes and compared the items",
                        {&large.probes.front(), &small.probes.front()}});
  }
  // A page past the last: the walk with several pages says where that is.
  const walk& probe_walk = small.complete ? small : large;
  std::deque<probe> past;
  if (probe_walk.complete && probe_walk.pages) {
    const std::int64_t after = std::max<std::int64_t>(1, *probe_walk.pages) + 1;
    const probe& p =
        past.emplace_back(send(ctx, t,
                               {{paging.page_param, std::to_string(after)},
                                {paging.size_param, std::to_string(probe_walk.size)}}));
    const std::string steps =
        "asked for page " + std::to_string(after) + " of " + std::to_string(*probe_walk.pages);
    const auto* items = p.at(paging.items);
    if (!is_2xx(p)) {
      findings.push_back({"a page past the last is not answered 2xx",
                          "2xx with empty items (D3.1)",
                          p.summary(),
                          steps,
                          {&p}});
    } else if (!items || !items->is_array() || !items->as_array().empty()) {
      findings.push_back({"a page past the last is not empty",
                          "an empty array at " + paging.items,
                          describe(items),
                          steps,
                          {&p}});
    }
  }
  conclude(results, ctx, t, page_walk_check, findings);
}

/// The 422 codes `op` documents, which a validation refusal must carry.
const std::vector<std::string>* validation_codes(const spec::operation& op) {
  const auto* r = op.find_response(422);
  return r ? &r->error_codes : nullptr;
}

void run_page_bounds(scenario_context& ctx, scenario_results& results, const list_target& t) {
  const auto& paging = t.paging();
  if (paging.max_size <= 0 || paging.size_param.empty()) {
    results.not_run(t.op, t.label, page_bounds_check,
                    "x-pagination declares no max_size or size_param to test the bounds with");
    return;
  }
  std::deque<probe> probes;
  std::vector<finding> findings;
  const auto* codes = validation_codes(*t.op);
  auto ask = [&](std::int64_t size) -> const probe& {
    return probes.emplace_back(send(ctx, t, {{paging.size_param, std::to_string(size)}}));
  };
  for (const std::int64_t size : {paging.min_size - 1, paging.max_size + 1}) {
    const probe& p = ask(size);
    const std::string steps = "asked for " + paging.size_param + "=" + std::to_string(size) +
                              ", outside " + std::to_string(paging.min_size) + ".." +
                              std::to_string(paging.max_size);
    if (!p.answered() || p.status() >= 500) {
      findings.push_back({"an out-of-range page size is not refused with 4xx",
                          "a 4xx validation refusal",
                          p.summary(),
                          steps,
                          {&p}});
      continue;
    }
    if (codes) {
      const auto code = p.error_code();
      const bool documented = std::find(codes->begin(), codes->end(), code) != codes->end();
      if (p.status() != 422 || (!codes->empty() && !documented)) {
        std::string want = "422";
        if (!codes->empty()) {
          want += " with one of";
          for (const auto& c : *codes) want += " " + c;
        }
        findings.push_back({"an out-of-range page size is not refused as documented",
                            want + " (D3.1)",
                            p.summary(),
                            steps,
                            {&p}});
      }
    } else if (p.status() < 400) {
      findings.push_back({"an out-of-range page size is not refused with 4xx",
                          "a 4xx validation refusal (D3.1)",
                          p.summary(),
                          steps,
                          {&p}});
    }
  }
  for (const std::int64_t size : {paging.min_size, paging.max_size}) {
    const probe& p = ask(size);
    if (!is_2xx(p)) {
      findings.push_back({"a page size within the bounds is refused",
                          "2xx (D3.1)",
                          p.summary(),
                          "asked for " + paging.size_param + "=" + std::to_string(size) +
                              ", a bound of " + std::to_string(paging.min_size) + ".." +
                              std::to_string(paging.max_size),
                          {&p}});
    }
  }
  conclude(results, ctx, t, page_bounds_check, findings);
}

/// The next cursor of a cursor page: a non-empty string, else nullopt (the last page).
std::optional<std::string> next_cursor(const probe& p, const spec::pagination& paging) {
  const auto* v = p.at(paging.next_cursor);
  if (!v || !v->is_string() || v->as_string().empty()) return std::nullopt;
  return std::string(v->as_string());
}

walk walk_cursor(scenario_context& ctx, const list_target& t, std::int64_t size,
                 const query_list& fixed = {}) {
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
    const auto* items = items_of(p, paging, w, steps);
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
        w.findings.push_back({"an item appears twice in the walk", "every item exactly once (D3.2)",
                              "item " + w.ids.back() + " again on page " + std::to_string(page),
                              steps, evidence});
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

void run_cursor_walk(scenario_context& ctx, scenario_results& results, const list_target& t) {
  const auto& paging = t.paging();
  walk large = walk_cursor(ctx, t, largest_size(paging));
  if (large.capped) {
    results.not_run(t.op, t.label, cursor_walk_check,
                    "the list has more than " + std::to_string(max_walk_pages) + " pages of " +
                        std::to_string(large.size) + "; a smaller list can be walked");
    return;
  }
  std::vector<finding> findings = large.findings;
  if (large.complete) {
    walk small = walk_cursor(ctx, t, small_size(paging, large.items));
    if (small.capped) {
      results.not_run(
          t.op, t.label, cursor_walk_check,
          "the walk with a small page size passed " + std::to_string(max_walk_pages) + " pages");
      return;
    }
    findings.insert(findings.end(), small.findings.begin(), small.findings.end());
    if (small.complete && large.seen_ids != small.seen_ids) {
      findings.push_back({"two page sizes yield different items",
                          "the same items with either size (no gap, D3.2)",
                          difference(large, small),
                          "walked the list with two page sizes and compared the items",
                          {&large.probes.front(), &small.probes.back()}});
    }
    conclude(results, ctx, t, cursor_walk_check, findings);
    return;
  }
  conclude(results, ctx, t, cursor_walk_check, findings);
}

/// `cursor` with one character changed where every bit of it counts (the
/// first half, so a base64 tail's unused bits cannot hide the change), and
/// never to the same letter in another case.
std::string tamper(std::string cursor, std::uint64_t seed) {
  if (cursor.empty()) return "x";
  const std::size_t at =
      static_cast<std::size_t>(seed % std::max<std::size_t>(1, cursor.size() / 2));
  char& c = cursor[at];
  const bool upper = c >= 'A' && c <= 'Z';
  if (c >= '0' && c <= '9') {
    c = c == '0' ? '1' : '0';
  } else {
    const char lower = static_cast<char>(upper ? c - 'A' + 'a' : c);
    const char pick = lower == 'x' ? 'y' : 'x';
    c = upper ? static_cast<char>(pick - 'a' + 'A') : pick;
  }
  return cursor;
}

/// A query parameter of `op` whose schema lists at least two values, to
/// reuse a cursor with: the sort parameter first, then the filters.
std::optional<std::pair<std::string, std::vector<std::string>>> rebinding_param(
    const spec::operation& op) {
  const auto& paging = *op.paging;
  std::vector<std::string> names;
  if (!paging.sort_param.empty()) names.push_back(paging.sort_param);
  names.insert(names.end(), paging.filter_params.begin(), paging.filter_params.end());
  for (const auto& name : names) {
    const auto* p = op.find_parameter(name, spec::param_location::query);
    if (!p || !p->schema) continue;
    const auto& s = p->schema->resolved();
    if (s.enum_values.size() < 2) continue;
    std::vector<std::string> values;
    for (const auto& v : s.enum_values) values.push_back(query_value(v));
    return std::make_pair(name, values);
  }
  return std::nullopt;
}

void run_cursor_integrity(scenario_context& ctx, scenario_results& results, const list_target& t) {
  const auto& paging = t.paging();
  if (paging.invalid_cursor_status == 0) {
    results.not_run(t.op, t.label, cursor_integrity_check,
                    "x-pagination declares no invalid_cursor answer to expect");
    return;
  }
  const std::string want =
      std::to_string(paging.invalid_cursor_status) +
      (paging.invalid_cursor_code.empty() ? std::string() : " " + paging.invalid_cursor_code) +
      " (D3.2)";
  auto refused = [&](const probe& p) {
    return p.status() == static_cast<unsigned>(paging.invalid_cursor_status) &&
           (paging.invalid_cursor_code.empty() || p.error_code() == paging.invalid_cursor_code);
  };
  const std::int64_t size = std::max<std::int64_t>(1, paging.min_size);
  const std::string size_text = std::to_string(size);
  std::deque<probe> probes;
  std::vector<finding> findings;
  bool judged = false;

  // A tampered cursor.
  const probe& first = probes.emplace_back(send(ctx, t, {{paging.size_param, size_text}}));
  const auto cursor = is_2xx(first) ? next_cursor(first, paging) : std::nullopt;
  if (!cursor) {
    results.not_run(t.op, t.label, cursor_integrity_check,
                    "the first page with " + paging.size_param + "=" + size_text +
                        " has no next cursor (" + first.summary() +
                        "); the credential's tenant needs at least two items");
  } else {
    const probe& p = probes.emplace_back(
        send(ctx, t,
             {{paging.size_param, size_text}, {paging.cursor_param, tamper(*cursor, ctx.seed())}}));
    judged = true;
    if (!refused(p)) {
      findings.push_back({"a tampered cursor is accepted",
                          want,
                          p.summary(),
                          "changed one character of a next cursor and sent it",
                          {&first, &p}});
    }
  }

  // A cursor reused with another filter or sort value.
  if (auto param = rebinding_param(*t.op)) {
    const auto& [name, values] = *param;
    std::optional<std::string> bound;
    std::size_t from = 0;
    const std::size_t start = static_cast<std::size_t>(ctx.seed() % values.size());
    const probe* origin = nullptr;
    for (std::size_t i = 0; i < values.size() && i < 4 && !bound; ++i) {
      from = (start + i) % values.size();
      const probe& p =
          probes.emplace_back(send(ctx, t, {{paging.size_param, size_text}, {name, values[from]}}));
      if (is_2xx(p)) bound = next_cursor(p, paging);
      origin = &p;
    }
    if (!bound) {
      results.not_run(t.op, t.label, cursor_integrity_check,
                      "no value of " + name +
                          " gives a first page with a next cursor, so no "
                          "cursor could be reused with another value");
    } else {
      const std::string& other = values[(from + 1) % values.size()];
      const probe& p = probes.emplace_back(send(
          ctx, t, {{paging.size_param, size_text}, {name, other}, {paging.cursor_param, *bound}}));
      judged = true;
      if (!refused(p)) {
        findings.push_back({"a cursor reused with another filter or sort value is accepted",
                            want,
                            p.summary(),
                            "took a next cursor of " + name + "=" + values[from] +
                                " and sent it with " + name + "=" + other,
                            {origin, &p}});
      }
    }
  } else {
    results.not_run(t.op, t.label, cursor_integrity_check,
                    "no filter or sort parameter lists two values in its schema, so no cursor was "
                    "reused with other filters");
  }

  // Parameters the route ignores leave the items as they are.
  if (!paging.ignored_params.empty()) {
    const probe& plain = probes.emplace_back(send(ctx, t, {{paging.size_param, size_text}}));
    query_list q = {{paging.size_param, size_text}};
    for (const auto& name : paging.ignored_params) q.emplace_back(name, "2");
    const probe& with = probes.emplace_back(send(ctx, t, q));
    const auto* a = plain.at(paging.items);
    const auto* b = with.at(paging.items);
    if (is_2xx(plain) && a) {
      judged = true;
      if (!is_2xx(with) || !b || *a != *b) {
        std::string names;
        for (const auto& n : paging.ignored_params) names += (names.empty() ? "" : ", ") + n;
        findings.push_back({"an ignored parameter changes the answer",
                            "the same items with or without " + names + " (D3.2)",
                            is_2xx(with) ? "other items" : with.summary(),
                            "sent the first page without and with " + names,
                            {&plain, &with}});
      }
    }
  }
  if (judged || !findings.empty()) conclude(results, ctx, t, cursor_integrity_check, findings);
}

void run_pagination(scenario_context& ctx, scenario_results& results,
                    const std::function<bool(std::string_view)>& enabled) {
  for (const auto* op : ctx.operations()) {
    if (!op->paging) continue;
    const bool page_style = op->paging->kind == spec::pagination::style::page;
    std::vector<std::string_view> checks;
    if (page_style) {
      if (enabled(page_walk_check)) checks.push_back(page_walk_check);
      if (enabled(page_bounds_check)) checks.push_back(page_bounds_check);
    } else {
      if (enabled(cursor_walk_check)) checks.push_back(cursor_walk_check);
      if (enabled(cursor_integrity_check)) checks.push_back(cursor_integrity_check);
    }
    if (checks.empty()) continue;
    for (const auto& t : targets_for(ctx, results, *op, checks)) {
      for (auto check : checks) {
        if (check == page_walk_check) run_page_walk(ctx, results, t);
        if (check == page_bounds_check) run_page_bounds(ctx, results, t);
        if (check == cursor_walk_check) run_cursor_walk(ctx, results, t);
        if (check == cursor_integrity_check) run_cursor_integrity(ctx, results, t);
      }
    }
  }
}

}  // namespace

void register_pagination_scenarios(runner::scenario_registry& registry) {
  runner::scenario s;
  s.name = "pagination";
  s.checks = {
      {std::string(page_walk_check),
       "walks pages 1..pages with a small and with the largest page size, then one past the "
       "last: count, pages and page agree with the walk, every page but the last is full, no "
       "item twice, both sizes yield the same items, past the last is 2xx and empty",
       "D3.1"},
      {std::string(page_bounds_check),
       "asks for page sizes just outside and at the bounds: outside is 422 with a documented "
       "code, the bounds themselves are 2xx",
       "D3.1"},
      {std::string(cursor_walk_check),
       "follows next cursors to the end with a small and with the largest page size: pages "
       "within the size, no cursor twice, no item twice, both sizes yield the same items",
       "D3.2"},
      {std::string(cursor_integrity_check),
       "sends a tampered cursor and a cursor reused with another filter or sort value: the "
       "invalid-cursor answer; parameters the route ignores leave the items unchanged",
       "D3.2"},
  };
  s.run = run_pagination;
  registry.add(std::move(s));
}

}  // namespace conform::suites
