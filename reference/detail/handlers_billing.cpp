// Billing and partner: rate-change history, invoices, partner tenants, and
// the credit moves of D4.3 (wallet effects under the store's write lock).
#include <algorithm>
#include <cmath>
#include <mutex>

#include "reference/detail/handlers.hpp"
#include "reference/detail/pagination.hpp"
#include "reference/detail/util.hpp"

namespace conform::reference::detail {
namespace json = boost::json;

namespace {

/// True when the caller may reach tenant `t` (memberships, key tenant, partner).
bool reachable(const request_ctx& ctx, const tenant& t) {
  switch (ctx.who.kind) {
    case scheme::jwt:
      return std::find(ctx.who.jwt_tenants.begin(), ctx.who.jwt_tenants.end(), t.id) !=
             ctx.who.jwt_tenants.end();
    case scheme::tenant_key:
      return ctx.who.key_tenant == t.id;
    case scheme::partner_key:
      return t.partner_id == ctx.who.partner_id;
  }
  return false;
}

reply move_credits(request_ctx& ctx, bool allocate) {
  json::object errors;
  std::int64_t tenant_id = 0, cents = 0;
  const auto* v = ctx.body.if_contains("tenant_id");
  if (v == nullptr || v->is_null()) {
    errors["tenant_id"] = json::array{"is required"};
  } else if (v->is_int64() && v->as_int64() > 0) {
    tenant_id = v->as_int64();
  } else if (v->is_uint64() && v->as_uint64() <= static_cast<std::uint64_t>(INT64_MAX)) {
    tenant_id = static_cast<std::int64_t>(v->as_uint64());
  } else {
    errors["tenant_id"] = json::array{"must be a positive integer tenant id"};
  }
  v = ctx.body.if_contains("amount_major");
  const char* amount_rule =
      "must be a number greater than 0, at most 10000000, with at most 2 decimals";
  if (v == nullptr || v->is_null()) {
    errors["amount_major"] = json::array{"is required"};
  } else if (v->is_int64() || v->is_uint64()) {
    double d =
        v->is_int64() ? static_cast<double>(v->as_int64()) : static_cast<double>(v->as_uint64());
    if (d <= 0 || d > 10000000)
      errors["amount_major"] = json::array{amount_rule};
    else
      cents = static_cast<std::int64_t>(d) * 100;
  } else if (v->is_double()) {
    double d = v->as_double();
    double scaled = d * 100.0;
    double rounded = std::round(scaled);
    if (!std::isfinite(d) || d <= 0 || d > 10000000 || std::fabs(scaled - rounded) > 1e-6 ||
        rounded < 1) {
      // An absolute tolerance in cents: a relative one let 5053.355 through
      // as 5053.36 (found by conform run's negative_data_rejection).
      errors["amount_major"] = json::array{amount_rule};
    } else {
      cents = static_cast<std::int64_t>(rounded);
    }
  } else {
    errors["amount_major"] = json::array{amount_rule};
  }
  if (!errors.empty()) {
    return error(422, "VALIDATION_ERROR", "the credit move is invalid", nullptr, std::move(errors));
  }
  if (ctx.req.has_header("X-Tenant-Id") &&
      parse_id(ctx.req.get_header_value("X-Tenant-Id")) != static_cast<id_t>(tenant_id)) {
    return error(403, "FORBIDDEN", "X-Tenant-Id disagrees with the body's tenant_id");
  }
  std::unique_lock lock(ctx.state.data.mutex);
  tenant* t = ctx.state.data.find_tenant(static_cast<id_t>(tenant_id));
  if (t == nullptr || t->partner_id != ctx.who.partner_id) {
    return error(404, "TENANT_NOT_FOUND", "no such tenant under this partner");
  }
  partner& p = ctx.state.data.partners.at(ctx.who.partner_id);
  std::int64_t& from = allocate ? p.balance_cents : t->balance_cents;
  std::int64_t& to = allocate ? t->balance_cents : p.balance_cents;
  if (from < cents) {
    return error(422, "INSUFFICIENT_FUNDS",
                 allocate ? "the partner wallet holds less than the amount"
                          : "the tenant wallet holds less than the amount",
                 json::object{{"available_major", format_cents(from)}});
  }
  from -= cents;
  to += cents;
  return ok(json::object{{"allocation_id", std::to_string(ctx.state.data.new_id())},
                         {"direction", allocate ? "allocate" : "deallocate"},
                         {"tenant_id", std::to_string(t->id)},
                         {"amount_major", format_cents(cents)},
                         {"tenant_balance_major", format_cents(t->balance_cents)},
                         {"partner_balance_major", format_cents(p.balance_cents)},
                         {"created_at", format_time(now_seconds())}});
}

}  // namespace

reply rate_change_history(request_ctx& ctx) {
  std::shared_lock lock(ctx.state.data.mutex);
  const tenant* t = ctx.state.data.find_tenant(ctx.tenant_id);
  if (t == nullptr || !reachable(ctx, *t)) {
    return error(403, "FORBIDDEN", "the path names a tenant this credential cannot reach");
  }
  json::array items;
  for (const auto& rc : t->rate_history) {
    items.push_back(json::object{{"id", std::to_string(rc.id)},
                                 {"effective_at", format_time(rc.effective_at)},
                                 {"previous_rate_per_minute_usd", format_milli4(rc.previous_rate)},
                                 {"rate_per_minute_usd", format_milli4(rc.rate)},
                                 {"changed_by", rc.changed_by},
                                 {"reason", rc.reason}});
  }
  return ok(json::object{{"tenant_id", std::to_string(t->id)},
                         {"currency", "USD"},
                         {"current_rate_per_minute_usd", format_milli4(t->current_rate)},
                         {"items", std::move(items)}});
}

reply get_invoice(request_ctx& ctx) {
  std::shared_lock lock(ctx.state.data.mutex);
  const tenant* t = ctx.state.data.find_tenant(ctx.tenant_id);
  if (t != nullptr) {
    auto it = t->invoices.find(parse_id(ctx.params.at(0)));
    if (it != t->invoices.end()) return ok(to_json(it->second));
  }
  return error(404, "INVOICE_NOT_FOUND", "no such invoice");
}

reply list_partner_tenants(request_ctx& ctx) {
  std::int64_t page = 1, per_page = 25;
  if (auto r = int_param(ctx.req, "page", 1, 1, INT64_MAX, page)) return *r;
  if (auto r = int_param(ctx.req, "per_page", 25, 1, 100, per_page)) return *r;
  json::array items;
  std::size_t count = 0;
  {
    std::shared_lock lock(ctx.state.data.mutex);
    std::vector<const tenant*> rows;
    for (const auto& [id, t] : ctx.state.data.tenants) {
      if (t.partner_id == ctx.who.partner_id) rows.push_back(&t);
    }
    count = rows.size();
    auto [first, last] = page_window(ctx.state, count, page, per_page);
    for (std::size_t i = first; i < last; ++i) items.push_back(tenant_summary(*rows[i]));
  }
  return page_answer(ctx.state, std::move(items), count, page, per_page);
}

reply allocate_credits(request_ctx& ctx) {
  return move_credits(ctx, true);
}

reply deallocate_credits(request_ctx& ctx) {
  return move_credits(ctx, false);
}

}  // namespace conform::reference::detail
