#include "suites/pagination/pagination.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/text.hpp"
#include "suites/pagination/walk.hpp"

// The suite's body lives beside its helpers (walk.hpp) in pagination, so
// that it names them without a using-directive, which a unity batch would
// spread to its neighbours.
namespace conform::suites::pagination {
namespace {

using harness::probe;
using harness::results_sink;
using harness::scenario_context;
using harness::scenario_failure;

constexpr std::string_view page_walk_check = "pagination_page_walk";
constexpr std::string_view page_bounds_check = "pagination_page_bounds";
constexpr std::string_view cursor_walk_check = "pagination_cursor_walk";
constexpr std::string_view cursor_integrity_check = "pagination_cursor_integrity";

void report(results_sink& results, scenario_context& ctx, const list_target& t,
            std::string_view check, const finding& f) {
  results.fail(*t.op, t.label, check,
               scenario_failure{f.expected, f.seen, f.cause, f.steps, f.evidence}, ctx);
}

/// What one cell saw: findings, the parts that could not be judged and why,
/// and whether anything was judged at all.
struct outcome {
  std::vector<finding> findings;
  std::vector<std::string> not_run;
  bool judged = false;
};

/// Reports every finding of a cell first, then why a part of it could not
/// be judged; the cell passes only when something was judged, nothing was
/// found and nothing was left unjudged.
void conclude(results_sink& results, scenario_context& ctx, const list_target& t,
              std::string_view check, const outcome& o) {
  for (const auto& f : o.findings) report(results, ctx, t, check, f);
  if (!o.not_run.empty()) {
    results.not_run(t.op, t.label, check, core::join(o.not_run, "; "));
    return;
  }
  if (o.findings.empty() && o.judged) results.pass(*t.op, t.label, check);
}

/// True, with the reason in `o`, when walk `w` ended before the list's end
/// for a reason that says nothing about the list: the page cap, or a page
/// that could not be judged. Its findings are kept either way.
bool stopped(const walk& w, outcome& o) {
  if (w.capped) {
    o.not_run.push_back("the walk with page size " + std::to_string(w.size) + " passed " +
                        std::to_string(max_walk_pages) +
                        " pages and was stopped there; a smaller list (fewer fixtures) can be "
                        "walked to its end");
    return true;
  }
  if (w.unjudged) {
    o.not_run.push_back("the walk stopped at " + *w.unjudged);
    return true;
  }
  return false;
}

void add_findings(outcome& o, const walk& w) {
  o.findings.insert(o.findings.end(), w.findings.begin(), w.findings.end());
}

void run_page_walk(scenario_context& ctx, results_sink& results, const list_target& t) {
  const auto& paging = t.paging();
  outcome o;
  walk large = walk_pages(ctx, t, largest_size(paging));
  add_findings(o, large);
  if (stopped(large, o)) return conclude(results, ctx, t, page_walk_check, o);
  o.judged = true;
  walk small;
  if (large.count) {
    small = walk_pages(ctx, t, small_size(paging, *large.count));
    add_findings(o, small);
    stopped(small, o);
  }
  if (large.complete && small.complete && large.seen_ids != small.seen_ids) {
    o.findings.push_back({"two page sizes yield different items",
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
    if (auto why = p.unjudgeable(ctx.spec())) {
      o.not_run.push_back(steps + ", past the last: " + *why);
    } else if (!p.succeeded()) {
      o.findings.push_back({"a page past the last is not answered 2xx",
                            "2xx with empty items (x-pagination)",
                            p.summary(),
                            steps,
                            {&p}});
    } else if (!items || !items->is_array() || !items->as_array().empty()) {
      o.findings.push_back({"a page past the last is not empty",
                            "an empty array at " + paging.items,
                            describe(items),
                            steps,
                            {&p}});
    }
  }
  conclude(results, ctx, t, page_walk_check, o);
}

/// The 422 codes `op` documents, which a validation refusal must carry.
const std::vector<std::string>* validation_codes(const openapi::operation& op) {
  const auto* r = op.find_response(422);
  return r ? &r->error_codes : nullptr;
}

void run_page_bounds(scenario_context& ctx, results_sink& results, const list_target& t) {
  const auto& paging = t.paging();
  if (paging.max_size <= 0 || paging.size_param.empty()) {
    results.not_run(t.op, t.label, page_bounds_check,
                    "x-pagination declares no max_size or size_param to test the bounds with");
    return;
  }
  std::deque<probe> probes;
  outcome o;
  const auto* codes = validation_codes(*t.op);
  auto ask = [&](std::int64_t size) -> const probe& {
    return probes.emplace_back(send(ctx, t, {{paging.size_param, std::to_string(size)}}));
  };
  for (const std::int64_t size : {paging.min_size - 1, paging.max_size + 1}) {
    const probe& p = ask(size);
    const std::string steps = "asked for " + paging.size_param + "=" + std::to_string(size) +
                              ", outside " + std::to_string(paging.min_size) + ".." +
                              std::to_string(paging.max_size);
    if (auto why = p.unjudgeable(ctx.spec())) {
      o.not_run.push_back(steps + ": " + *why);
      continue;
    }
    o.judged = true;
    if (p.status() >= 500) {
      o.findings.push_back({"an out-of-range page size is not refused with 4xx",
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
        o.findings.push_back({"an out-of-range page size is not refused as documented",
                              want + " (x-pagination)",
                              p.summary(),
                              steps,
                              {&p}});
      }
    } else if (p.status() < 400) {
      o.findings.push_back({"an out-of-range page size is not refused with 4xx",
                            "a 4xx validation refusal (x-pagination)",
                            p.summary(),
                            steps,
                            {&p}});
    }
  }
  for (const std::int64_t size : {paging.min_size, paging.max_size}) {
    const probe& p = ask(size);
    const std::string steps = "asked for " + paging.size_param + "=" + std::to_string(size) +
                              ", a bound of " + std::to_string(paging.min_size) + ".." +
                              std::to_string(paging.max_size);
    if (auto why = p.unjudgeable(ctx.spec())) {
      o.not_run.push_back(steps + ": " + *why);
      continue;
    }
    o.judged = true;
    if (!p.succeeded()) {
      o.findings.push_back({"a page size within the bounds is refused",
                            "2xx (x-pagination)",
                            p.summary(),
                            steps,
                            {&p}});
    }
  }
  conclude(results, ctx, t, page_bounds_check, o);
}

void run_cursor_walk(scenario_context& ctx, results_sink& results, const list_target& t) {
  const auto& paging = t.paging();
  outcome o;
  walk large = walk_cursor(ctx, t, largest_size(paging));
  add_findings(o, large);
  if (stopped(large, o)) return conclude(results, ctx, t, cursor_walk_check, o);
  o.judged = true;
  walk small;
  if (large.complete) {
    small = walk_cursor(ctx, t, small_size(paging, large.items));
    add_findings(o, small);
    if (!stopped(small, o) && small.complete && large.seen_ids != small.seen_ids) {
      o.findings.push_back({"two page sizes yield different items",
                            "the same items with either size (no gap, x-pagination)",
                            difference(large, small),
                            "walked the list with two page sizes and compared the items",
                            {&large.probes.front(), &small.probes.back()}});
    }
  }
  conclude(results, ctx, t, cursor_walk_check, o);
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
    const openapi::operation& op) {
  const auto& paging = *op.paging;
  std::vector<std::string> names;
  if (!paging.sort_param.empty()) names.push_back(paging.sort_param);
  names.insert(names.end(), paging.filter_params.begin(), paging.filter_params.end());
  for (const auto& name : names) {
    const auto* p = op.find_parameter(name, openapi::param_location::query);
    if (!p || !p->schema) continue;
    const auto& s = p->schema->resolved();
    if (s.enum_values.size() < 2) continue;
    std::vector<std::string> values;
    for (const auto& v : s.enum_values) values.push_back(query_value(v));
    return std::make_pair(name, values);
  }
  return std::nullopt;
}

/// A sufficient auth model of `t.op` that acts for another tenant than
/// `t`'s: the same credential first, then any other.
std::optional<harness::auth_choice> other_tenant(scenario_context& ctx, const list_target& t) {
  if (!t.auth.tenant) return std::nullopt;
  auto sufficient_here = [&](const profile::credential& c) {
    const auto schemes = t.op->accepted_schemes();
    return std::any_of(schemes.begin(), schemes.end(), [&](const auto* scheme) {
      return c.fits(*scheme) && harness::credential_selector::sufficient(*t.op, *scheme, c);
    });
  };
  // A credential of one tenant (x-tenants: one) acts for its own tenant
  // only, whatever a header names.
  auto one_tenant = [&](const profile::credential& c) {
    const auto schemes = t.op->accepted_schemes();
    return std::any_of(schemes.begin(), schemes.end(), [&](const auto* scheme) {
      return c.fits(*scheme) && scheme->tenants == openapi::security_scheme::tenant_reach::one;
    });
  };
  auto try_credential = [&](const profile::credential& c) -> std::optional<harness::auth_choice> {
    if (!sufficient_here(c)) return std::nullopt;
    for (const auto* tenant : c.tenants) {
      if (!tenant || tenant->id == t.auth.tenant->id) continue;
      if (tenant != c.tenants.front() && one_tenant(c)) continue;
      return ctx.credentials().auth_for(*t.op, c, tenant);
    }
    return std::nullopt;
  };
  if (t.auth.credential) {
    if (auto same = try_credential(*t.auth.credential)) return same;
  }
  for (const auto& c : ctx.target().credentials) {
    if (auto other = try_credential(c)) return other;
  }
  return std::nullopt;
}

/// What the probes of one cell's cursor integrity share: the list, the
/// page size they ask for, the answer a cursor it must refuse gets (the
/// description's), the probes kept as evidence, and what they found.
struct cursor_probes {
  scenario_context& ctx;
  const list_target& t;
  std::string size_text;
  std::string want;
  std::deque<probe> probes;
  outcome o;

  const probe& send_query(const query_list& q) { return probes.emplace_back(send(ctx, t, q)); }
};

/// Judges `p`, a cursor sent where the list must refuse it (`sent` says
/// which, for "not run"): a finding `cause` when it was accepted.
void expect_cursor_refused(cursor_probes& c, const probe& p, const std::string& sent,
                           std::string cause, std::string steps, const probe* origin) {
  const auto& paging = c.t.paging();
  if (auto why = p.unjudgeable(c.ctx.spec())) {
    c.o.not_run.push_back(sent + ": " + *why);
    return;
  }
  c.o.judged = true;
  const bool refused =
      p.status() == static_cast<unsigned>(paging.invalid_cursor_status) &&
      (paging.invalid_cursor_code.empty() || p.error_code() == paging.invalid_cursor_code);
  if (!refused) {
    c.o.findings.push_back({std::move(cause), c.want, p.summary(), std::move(steps), {origin, &p}});
  }
}

/// A next cursor with one character changed.
void probe_tampered_cursor(cursor_probes& c, const probe& first, const std::string& cursor) {
  const auto& paging = c.t.paging();
  const probe& p = c.send_query(
      {{paging.size_param, c.size_text}, {paging.cursor_param, tamper(cursor, c.ctx.seed())}});
  expect_cursor_refused(c, p, "the tampered cursor", "a tampered cursor is accepted",
                        "changed one character of a next cursor and sent it", &first);
}

/// The same cursor sent for another tenant.
void probe_cursor_for_other_tenant(cursor_probes& c, const probe& first,
                                   const std::string& cursor) {
  const auto& paging = c.t.paging();
  auto other = other_tenant(c.ctx, c.t);
  if (!other) {
    c.o.not_run.push_back(
        c.t.auth.tenant
            ? "no credential of " + std::string(c.ctx.target().noun()) +
                  " sufficient for this list acts for a tenant other "
                  "than " +
                  c.t.auth.tenant->name +
                  ", so no cursor was sent for another tenant: add a second tenant with such "
                  "a credential to " +
                  std::string(c.ctx.target().noun())
            : "the auth model acts for no tenant, so no cursor was sent for another tenant");
    return;
  }
  auto g = c.t.base;
  g.query.emplace_back(paging.size_param, c.size_text);
  g.query.emplace_back(paging.cursor_param, cursor);
  const probe& p = c.probes.emplace_back(c.ctx.send(c.ctx.build(*c.t.op, *other, g)));
  expect_cursor_refused(c, p, "the cursor sent for another tenant",
                        "a cursor is accepted for another tenant",
                        "took a next cursor and sent it for tenant " + other->model.tenant_id +
                            " with " + other->model.label(),
                        &first);
}

/// A cursor reused with another filter or sort value.
void probe_rebound_cursor(cursor_probes& c) {
  const auto& paging = c.t.paging();
  auto param = rebinding_param(*c.t.op);
  if (!param) {
    c.o.not_run.push_back(
        "no filter or sort parameter lists two values in its schema, so no cursor was reused "
        "with other filters");
    return;
  }
  const auto& [name, values] = *param;
  std::optional<std::string> bound, unjudged;
  std::size_t from = 0;
  const std::size_t start = static_cast<std::size_t>(c.ctx.seed() % values.size());
  const probe* origin = nullptr;
  for (std::size_t i = 0; i < values.size() && i < 4 && !bound; ++i) {
    from = (start + i) % values.size();
    const probe& p = c.send_query({{paging.size_param, c.size_text}, {name, values[from]}});
    if (auto why = p.unjudgeable(c.ctx.spec())) unjudged = why;
    if (p.succeeded()) bound = next_cursor(p, paging);
    origin = &p;
  }
  if (!bound) {
    c.o.not_run.push_back("no value of " + name + " gives a first page with a next cursor" +
                          (unjudged ? " (" + *unjudged + ")" : std::string()) +
                          ", so no cursor could be reused with another value");
    return;
  }
  const std::string& other = values[(from + 1) % values.size()];
  const probe& p = c.send_query(
      {{paging.size_param, c.size_text}, {name, other}, {paging.cursor_param, *bound}});
  expect_cursor_refused(c, p, "the cursor reused with " + name + "=" + other,
                        "a cursor reused with another filter or sort value is accepted",
                        "took a next cursor of " + name + "=" + values[from] +
                            " and sent it with " + name + "=" + other,
                        origin);
}

/// Parameters the route ignores leave the items as they are. Items are
/// compared by identity: a record in progress may change its fields between
/// the two reads.
void probe_ignored_params(cursor_probes& c) {
  const auto& paging = c.t.paging();
  if (paging.ignored_params.empty()) return;
  std::string names;
  for (const auto& n : paging.ignored_params) names += (names.empty() ? "" : ", ") + n;
  const probe& plain = c.send_query({{paging.size_param, c.size_text}});
  query_list q = {{paging.size_param, c.size_text}};
  for (const auto& name : paging.ignored_params) q.emplace_back(name, "2");
  const probe& with = c.send_query(q);
  const auto* a = plain.at(paging.items);
  const auto* b = with.at(paging.items);
  auto unjudged = plain.unjudgeable(c.ctx.spec());
  if (!unjudged) unjudged = with.unjudgeable(c.ctx.spec());
  if (unjudged) {
    c.o.not_run.push_back("the first page without and with " + names + ": " + *unjudged);
    return;
  }
  if (!plain.succeeded() || !a || !a->is_array()) {
    c.o.not_run.push_back("the first page without " + names +
                          " did not answer 2xx with an items array (" + plain.summary() +
                          "), so there was nothing to compare");
    return;
  }
  c.o.judged = true;
  const auto ids_without = item_ids(a, paging.item_id);
  const auto ids_with = item_ids(b, paging.item_id);
  if (!with.succeeded() || !b || !b->is_array() || ids_without != ids_with) {
    std::string seen = with.summary();
    if (with.succeeded()) {
      seen = "items " + core::join(ids_with) + " instead of " + core::join(ids_without);
      seen = core::excerpt(seen, 200);
    }
    c.o.findings.push_back({"an ignored parameter changes the answer",
                            "the same items with or without " + names + " (x-pagination)",
                            seen,
                            "sent the first page without and with " + names,
                            {&plain, &with}});
  }
}

void run_cursor_integrity(scenario_context& ctx, results_sink& results, const list_target& t) {
  const auto& paging = t.paging();
  if (paging.invalid_cursor_status == 0) {
    results.not_run(t.op, t.label, cursor_integrity_check,
                    "x-pagination declares no invalid_cursor answer to expect");
    return;
  }
  cursor_probes c{
      ctx,
      t,
      std::to_string(std::max<std::int64_t>(1, paging.min_size)),
      std::to_string(paging.invalid_cursor_status) +
          (paging.invalid_cursor_code.empty() ? std::string() : " " + paging.invalid_cursor_code) +
          " (x-pagination)",
      {},
      {}};

  // The first page, whose next cursor the probes reuse.
  const probe& first = c.send_query({{paging.size_param, c.size_text}});
  const auto first_unjudged = first.unjudgeable(ctx.spec());
  const auto cursor = first.succeeded() ? next_cursor(first, paging) : std::nullopt;
  if (first_unjudged) {
    c.o.not_run.push_back("the first page with " + paging.size_param + "=" + c.size_text +
                          ", whose cursor the probes reuse: " + *first_unjudged);
  } else if (!cursor) {
    c.o.not_run.push_back("the first page with " + paging.size_param + "=" + c.size_text +
                          " has no next cursor (" + first.summary() +
                          "); the credential's tenant needs at least two items");
  } else {
    probe_tampered_cursor(c, first, *cursor);
  }
  if (cursor) probe_cursor_for_other_tenant(c, first, *cursor);
  probe_rebound_cursor(c);
  probe_ignored_params(c);
  conclude(results, ctx, t, cursor_integrity_check, c.o);
}

void run_pagination(scenario_context& ctx, results_sink& results,
                    const harness::check_enabled& enabled) {
  for (const auto* op : ctx.operations()) {
    if (!op->paging) continue;
    const bool page_style = op->paging->kind == openapi::pagination::style::page;
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
}  // namespace conform::suites::pagination

namespace conform::suites {

void register_pagination_scenarios(harness::check_catalogue& catalogue) {
  harness::scenario s;
  s.name = "pagination";
  s.checks = {
      {std::string(pagination::page_walk_check),
       "walks pages 1..pages with a small and with the largest page size, then one past the "
       "last: count, pages and page agree with the walk, every page but the last is full, no "
       "item twice, both sizes yield the same items, past the last is 2xx and empty",
       "x-pagination (page style)"},
      {std::string(pagination::page_bounds_check),
       "asks for page sizes just outside and at the bounds: outside is 422 with a documented "
       "code, the bounds themselves are 2xx",
       "x-pagination (page style)"},
      {std::string(pagination::cursor_walk_check),
       "follows next cursors to the end with a small and with the largest page size: pages "
       "within the size, no cursor twice, no item twice, both sizes yield the same items",
       "x-pagination (cursor style)"},
      {std::string(pagination::cursor_integrity_check),
       "sends a tampered cursor, a cursor for another tenant and a cursor reused with another "
       "filter or sort value: the invalid-cursor answer; parameters the route ignores leave the "
       "items unchanged",
       "x-pagination (cursor style)"},
  };
  s.run = pagination::run_pagination;
  catalogue.add(std::move(s));
}

}  // namespace conform::suites
