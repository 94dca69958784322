// Tenant isolation of lists: every paginated operation with tenant context,
// walked as each tenant of the profile; no item may show in two tenants' lists.
#include <boost/json.hpp>

#include <algorithm>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "suites/auth/support.hpp"
#include "suites/pagination/walk.hpp"
#include "suites/tenants/checks.hpp"

namespace conform::suites::tenants {
namespace {

namespace as = auth;
using harness::auth_choice;
using harness::probe;
using harness::results_sink;
using harness::scenario_context;
using harness::scenario_failure;
using profile::tenant;

/// A real server may page forever (a cursor that never ends): walks stop here.
constexpr int max_pages = 40;

struct walker {
  const profile::tenant* tenant = nullptr;
  auth_choice auth;
  std::string label;
};

/// The first usable, sufficient credential that can act for each tenant.
std::vector<walker> walkers_for(const scenario_context& ctx, const openapi::operation& op) {
  std::vector<walker> out;
  for (const auto& t : ctx.target().tenants) {
    for (const auto& c : ctx.target().credentials) {
      const auto* scheme = as::accepted_scheme(op, c.kind);
      if (!scheme || !harness::credential_selector::sufficient(op, *scheme, c)) continue;
      const bool mine = std::any_of(c.tenants.begin(), c.tenants.end(),
                                    [&](const profile::tenant* x) { return x && x->id == t.id; });
      if (!mine) continue;
      walker w;
      w.tenant = &t;
      w.auth = ctx.credentials().auth_for(op, c, &t);
      w.label = w.auth.model.label();
      out.push_back(std::move(w));
      break;
    }
  }
  return out;
}

/// The identity of an item as text (its JSON), or "" when it has none.
std::string identity(const boost::json::value& item, const std::string& pointer) {
  boost::system::error_code ec;
  const auto* v = item.find_pointer(pointer, ec);
  if (ec || !v || v->is_null()) return {};
  return boost::json::serialize(*v);
}

struct seen_item {
  std::size_t walker = 0;
  const probe* page = nullptr;
};

/// Per walker: whether it walked at least one page, found a leak, and why
/// its walk ended before the list's end (empty: it reached the end).
struct list_walk_state {
  bool walked = false, leaked = false;
  std::string truncated;
};

/// One list walked as each tenant: the pages kept as evidence, and which
/// walker saw each item first.
struct list_isolation_walk {
  scenario_context& ctx;
  results_sink& results;
  const openapi::operation& op;
  const std::vector<walker>& walkers;
  std::deque<probe> pages;  // stable addresses for evidence
  std::map<std::string, seen_item> owner;
  std::vector<list_walk_state> state;
};

/// Records the items of page `p` as walker `w`'s; an item another walker
/// saw first is a leak, reported.
void record_list_items(list_isolation_walk& iw, std::size_t w, const probe& p,
                       const boost::json::array& items) {
  const auto& paging = *iw.op.paging;
  const auto& walk = iw.walkers[w];
  for (const auto& item : items) {
    const std::string id = identity(item, paging.item_id);
    if (id.empty()) continue;
    auto [it, fresh] = iw.owner.emplace(id, seen_item{w, &p});
    if (fresh || it->second.walker == w) continue;
    iw.state[w].leaked = true;
    const auto& first = iw.walkers[it->second.walker];
    scenario_failure f;
    f.expected = "no item of tenant " + first.tenant->name + "'s list in tenant " +
                 walk.tenant->name + "'s (x-tenant-context)";
    f.seen = "item " + id + " in both lists";
    f.cause = "an item of another tenant's list appears in this tenant's list";
    f.steps = "walked the list as " + first.label + ", then as " + walk.label;
    f.evidence = {it->second.page, &p};
    iw.results.fail(iw.op, walk.label, list_isolation_check, f, iw.ctx);
  }
}

/// Where the walk goes after page `p` with `items`: true at the list's end;
/// else `next` (a cursor) or `page_number` moves on.
bool list_walk_ended(const openapi::pagination& paging, const probe& p,
                     const boost::json::array& items, std::string& next,
                     std::int64_t& page_number) {
  if (items.empty()) return true;
  if (paging.kind == openapi::pagination::style::cursor) {
    const auto* nc = p.at(paging.next_cursor);
    if (!nc || !nc->is_string() || nc->as_string().empty()) return true;
    next = std::string(nc->as_string());
    return false;
  }
  if (!paging.pages.empty()) {
    // Without a page count the walk goes on until an empty page.
    const auto total = pagination::as_integer(p.at(paging.pages));
    if (!total || page_number >= *total) return true;
  }
  ++page_number;
  return false;
}

/// Walks the list as walker `w`, page by page up to the cap, recording its
/// items.
void walk_tenant_list(list_isolation_walk& iw, std::size_t w) {
  const auto& op = iw.op;
  const auto& paging = *op.paging;
  const auto& walk = iw.walkers[w];
  auto& st = iw.state[w];
  auto g = iw.ctx.valid_request(op, walk.auth, "tenant-list");
  if (!g) {
    const std::string& why = g.error();
    iw.results.not_run(&op, walk.label, list_isolation_check, "no valid request: " + why);
    return;
  }
  // Only what the walk needs: no optional filter narrows the list.
  std::erase_if(g->query, [&](const auto& q) {
    const auto* p = op.find_parameter(q.first, openapi::param_location::query);
    return !p || !p->required;
  });
  const std::int64_t size = paging.max_size > 0 ? paging.max_size : paging.default_size;
  if (!paging.size_param.empty() && size > 0) {
    g->query.emplace_back(paging.size_param, std::to_string(size));
  }
  const bool cursor = paging.kind == openapi::pagination::style::cursor;
  std::string next;
  std::int64_t page_number = 1;
  bool ended = false;
  for (int n = 0; n < max_pages && !ended; ++n) {
    auto page_req = *g;
    if (cursor && !next.empty()) page_req.query.emplace_back(paging.cursor_param, next);
    if (!cursor && !paging.page_param.empty()) {
      page_req.query.emplace_back(paging.page_param, std::to_string(page_number));
    }
    const probe& p = iw.pages.emplace_back(iw.ctx.send(iw.ctx.build(op, walk.auth, page_req)));
    const auto* items = p.at(paging.items);
    if (auto unjudged = p.unjudgeable(iw.ctx.spec())) {
      if (st.walked) {
        st.truncated = "page " + std::to_string(n + 1) + ": " + *unjudged;
      } else {
        iw.results.not_run(&op, walk.label, list_isolation_check, "the first page: " + *unjudged);
      }
      return;
    }
    if (!p.succeeded() || !items || !items->is_array()) {
      if (st.walked) {
        st.truncated = "page " + std::to_string(n + 1) +
                       " did not answer 2xx with an items array (" + p.summary() + ")";
      } else {
        iw.results.not_run(
            &op, walk.label, list_isolation_check,
            "the first page did not answer 2xx with an items array (" + p.summary() + ")");
      }
      return;
    }
    st.walked = true;
    record_list_items(iw, w, p, items->as_array());
    ended = list_walk_ended(paging, p, items->as_array(), next, page_number);
  }
  if (st.walked && !ended && st.truncated.empty()) {
    st.truncated = "the walk stopped at the cap of " + std::to_string(max_pages) +
                   " pages before the list's end";
  }
}

/// A walk is compared only with the others: with fewer than two walks
/// nothing was compared, whatever one walk saw. A walk without a leak
/// passes when it reached the list's end.
void conclude_list_isolation(const list_isolation_walk& iw) {
  const auto walked = static_cast<std::size_t>(std::count_if(
      iw.state.begin(), iw.state.end(), [](const list_walk_state& s) { return s.walked; }));
  for (std::size_t w = 0; w < iw.walkers.size(); ++w) {
    const auto& st = iw.state[w];
    const auto& label = iw.walkers[w].label;
    if (!st.walked || st.leaked) continue;
    if (walked < 2) {
      iw.results.not_run(&iw.op, label, list_isolation_check,
                         "only this tenant's list could be walked, so there was no other "
                         "tenant's list to compare it with");
    } else if (!st.truncated.empty()) {
      iw.results.not_run(
          &iw.op, label, list_isolation_check,
          "the walk was cut short (" + st.truncated + "), so the items past it were not compared");
    } else {
      iw.results.pass(iw.op, label, list_isolation_check);
    }
  }
}

}  // namespace

void run_list_isolation(scenario_context& ctx, results_sink& results) {
  for (const auto* op : ctx.operations()) {
    if (!op->paging || op->tenant.from == openapi::tenant_context::source::none ||
        !op->needs_credentials()) {
      continue;
    }
    const auto& paging = *op->paging;
    const auto walkers = walkers_for(ctx, *op);
    if (walkers.size() < 2) {
      results.not_run(op, "", list_isolation_check,
                      "needs two tenants of " + std::string(ctx.target().noun()) +
                          ", each with a usable credential sufficient "
                          "for this list (found " +
                          std::to_string(walkers.size()) + ")");
      continue;
    }
    if (paging.items.empty() || paging.item_id.empty()) {
      results.not_run(op, "", list_isolation_check,
                      "x-pagination declares no items or item_id pointer to tell items apart");
      continue;
    }
    list_isolation_walk iw{ctx, results, *op, walkers, {}, {}, {}};
    iw.state.resize(walkers.size());
    for (std::size_t w = 0; w < walkers.size(); ++w) walk_tenant_list(iw, w);
    conclude_list_isolation(iw);
  }
}

}  // namespace conform::suites::tenants
