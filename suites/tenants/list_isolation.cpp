// Tenant isolation of lists: every paginated operation with tenant context,
// walked as each tenant of the profile; no item may show in two tenants' lists.
#include <boost/json.hpp>

#include <algorithm>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "suites/auth/support.hpp"
#include "suites/tenants/checks.hpp"

namespace conform::suites::tenant_checks {
namespace {

namespace as = auth_support;
using runner::auth_choice;
using runner::probe;
using runner::scenario_context;
using runner::scenario_failure;
using runner::scenario_results;
using runner::tenant_view;

/// A real server may page forever (a cursor that never ends): walks stop here.
constexpr int max_pages = 40;

struct walker {
  const tenant_view* tenant = nullptr;
  auth_choice auth;
  std::string label;
};

/// The first usable, sufficient credential that can act for each tenant.
std::vector<walker> walkers_for(const scenario_context& ctx, const spec::operation& op) {
  std::vector<walker> out;
  for (const auto& t : ctx.target().tenants) {
    for (const auto& c : ctx.target().credentials) {
      const auto* scheme = as::accepted_scheme(op, c.kind);
      if (!scheme || !runner::is_sufficient(op, *scheme, c)) continue;
      const bool mine = std::any_of(c.tenants.begin(), c.tenants.end(),
                                    [&](const tenant_view* x) { return x && x->id == t.id; });
      if (!mine) continue;
      walker w;
      w.tenant = &t;
      w.auth = ctx.auth_for(op, c, &t);
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

}  // namespace

void run_list_isolation(scenario_context& ctx, scenario_results& results) {
  for (const auto* op : ctx.operations()) {
    if (!op->paging || op->tenant.from == spec::tenant_context::source::none ||
        !op->needs_credentials()) {
      continue;
    }
    const auto& paging = *op->paging;
    const auto walkers = walkers_for(ctx, *op);
    if (walkers.size() < 2) {
      results.not_run(op, "", list_isolation,
                      "needs two tenants of the profile, each with a usable credential sufficient "
                      "for this list (found " +
                          std::to_string(walkers.size()) + ")");
      continue;
    }
    if (paging.items.empty() || paging.item_id.empty()) {
      results.not_run(op, "", list_isolation,
                      "x-pagination declares no items or item_id pointer to tell items apart");
      continue;
    }
    std::deque<probe> pages;  // stable addresses for evidence
    std::map<std::string, seen_item> owner;
    for (std::size_t w = 0; w < walkers.size(); ++w) {
      const auto& walk = walkers[w];
      std::string why;
      auto g = ctx.valid_request(*op, walk.auth, "tenant-list", &why);
      if (!g) {
        results.not_run(op, walk.label, list_isolation, "no valid request: " + why);
        continue;
      }
      // Only what the walk needs: no optional filter narrows the list.
      std::erase_if(g->query, [&](const auto& q) {
        const auto* p = op->find_parameter(q.first, spec::param_location::query);
        return !p || !p->required;
      });
      const std::int64_t size = paging.max_size > 0 ? paging.max_size : paging.default_size;
      if (!paging.size_param.empty() && size > 0) {
        g->query.emplace_back(paging.size_param, std::to_string(size));
      }
      bool cursor = paging.kind == spec::pagination::style::cursor;
      std::string next;
      std::int64_t page_number = 1;
      bool walked = false, leaked = false;
      for (int n = 0; n < max_pages; ++n) {
        auto page_req = *g;
        if (cursor && !next.empty()) page_req.query.emplace_back(paging.cursor_param, next);
        if (!cursor && !paging.page_param.empty()) {
          page_req.query.emplace_back(paging.page_param, std::to_string(page_number));
        }
        pages.push_back(ctx.send(ctx.build(*op, walk.auth, page_req)));
        const probe& p = pages.back();
        const auto* items = p.at(paging.items);
        if (!p.answered() || p.status() < 200 || p.status() >= 300 || !items ||
            !items->is_array()) {
          if (!walked) {
            results.not_run(
                op, walk.label, list_isolation,
                "the first page did not answer 2xx with an items array (" + p.summary() + ")");
          }
          break;
        }
        walked = true;
        for (const auto& item : items->as_array()) {
          const std::string id = identity(item, paging.item_id);
          if (id.empty()) continue;
          auto [it, fresh] = owner.emplace(id, seen_item{w, &p});
          if (fresh || it->second.walker == w) continue;
          leaked = true;
          const auto& first = walkers[it->second.walker];
          scenario_failure f;
          f.expected = "no item of tenant " + first.tenant->name + "'s list in tenant " +
                       walk.tenant->name + "'s (D2.6, D2.7)";
          f.seen = "item " + id + " in both lists";
          f.cause = "an item of another tenant's list appears in this tenant's list";
          f.steps = "walked the list as " + first.label + ", then as " + walk.label;
          f.evidence = {it->second.page, &p};
          results.fail(*op, walk.label, list_isolation, f, ctx);
        }
        if (items->as_array().empty()) break;
        if (cursor) {
          const auto* nc = p.at(paging.next_cursor);
          if (!nc || !nc->is_string() || nc->as_string().empty()) break;
          next = std::string(nc->as_string());
        } else {
          // Without a page count the walk goes on until an empty page.
          if (!paging.pages.empty()) {
            const auto* total = p.at(paging.pages);
            if (!total || !(total->is_int64() || total->is_uint64())) break;
            if (page_number >= total->to_number<std::int64_t>()) break;
          }
          ++page_number;
        }
      }
      if (walked && !leaked) results.pass(*op, walk.label, list_isolation);
    }
  }
}

}  // namespace conform::suites::tenant_checks
