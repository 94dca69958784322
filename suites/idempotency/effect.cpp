#include "core/text.hpp"
#include "schema/validator.hpp"
#include "suites/idempotency/effect.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <utility>
#include <vector>

namespace conform::suites::idempotency {
namespace {

/// The JSON pointer of member `name`.
std::string pointer_to(std::string_view name) {
  return "/" + core::escape_pointer_token(name);
}

/// A list is read at most this many pages deep, so that a list that never
/// ends cannot hold the run.
constexpr int max_read_pages = 50;

/// The text a value is matched by: ids are written as numbers in requests
/// and may come back as digit strings in answers, so both read the same here.
std::optional<std::string> match_text(const boost::json::value& v) {
  if (v.is_string()) return std::string(v.as_string());
  if (v.is_int64()) return std::to_string(v.as_int64());
  if (v.is_uint64()) return std::to_string(v.as_uint64());
  if (v.is_null()) return std::nullopt;
  return boost::json::serialize(v);
}

std::optional<std::string> match_at(const boost::json::value& item, const std::string& ptr) {
  boost::system::error_code ec;
  const auto* v = item.find_pointer(ptr, ec);
  if (ec || !v) return std::nullopt;
  return match_text(*v);
}

bool sees(const profile::credential& c, const profile::tenant* tenant) {
  if (!tenant) return true;
  return std::any_of(c.tenants.begin(), c.tenants.end(),
                     [&](const profile::tenant* t) { return t && t->id == tenant->id; });
}

/// A sufficient auth model for `list` with credential `c`, or nullopt.
std::optional<harness::auth_choice> auth_with(harness::scenario_context& ctx,
                                              const openapi::operation& list,
                                              const profile::credential& c,
                                              const profile::tenant* tenant) {
  if (!sees(c, tenant)) return std::nullopt;
  for (const auto* scheme : list.accepted_schemes()) {
    if (c.fits(*scheme) && harness::credential_selector::sufficient(list, *scheme, c)) {
      return ctx.credentials().auth_for(list, c, tenant);
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<micros> parse_amount(const boost::json::value& v) {
  constexpr micros scale = 1'000'000;
  if (v.is_int64()) {
    const auto n = v.as_int64();
    if (n > std::numeric_limits<micros>::max() / scale ||
        n < std::numeric_limits<micros>::min() / scale) {
      return std::nullopt;
    }
    return n * scale;
  }
  if (v.is_uint64()) {
    if (v.as_uint64() > static_cast<std::uint64_t>(std::numeric_limits<micros>::max() / scale)) {
      return std::nullopt;
    }
    return static_cast<micros>(v.as_uint64()) * scale;
  }
  if (v.is_double()) {
    const double d = v.as_double() * scale;
    if (!std::isfinite(d) || std::fabs(d) > 9e18) return std::nullopt;
    return static_cast<micros>(std::llround(d));
  }
  if (!v.is_string()) return std::nullopt;
  std::string_view s = v.as_string();
  const bool negative = !s.empty() && s.front() == '-';
  if (negative) s.remove_prefix(1);
  const auto dot = s.find('.');
  const std::string_view whole = s.substr(0, dot);
  const std::string_view fraction = dot == std::string_view::npos ? "" : s.substr(dot + 1);
  if (whole.empty() || whole.size() > 12 || fraction.size() > 6 ||
      (dot != std::string_view::npos && fraction.empty())) {
    return std::nullopt;
  }
  micros out = 0;
  for (char c : whole) {
    if (c < '0' || c > '9') return std::nullopt;
    out = out * 10 + (c - '0');
  }
  micros part = 0;
  for (std::size_t i = 0; i < 6; ++i) {
    const char c = i < fraction.size() ? fraction[i] : '0';
    if (c < '0' || c > '9') return std::nullopt;
    part = part * 10 + (c - '0');
  }
  out = out * scale + part;
  return negative ? -out : out;
}

std::string format_change(micros change) {
  if (change == 0) return "0";
  const bool negative = change < 0;
  const std::uint64_t magnitude =
      negative ? static_cast<std::uint64_t>(-(change + 1)) + 1 : static_cast<std::uint64_t>(change);
  std::string fraction = std::to_string(1'000'000 + magnitude % 1'000'000).substr(1);
  while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
  return std::string(negative ? "-" : "+") + std::to_string(magnitude / 1'000'000) +
         (fraction.empty() ? "" : "." + fraction);
}

core::outcome<std::unique_ptr<effect_reader>> effect_reader::make(harness::scenario_context& ctx,
                                                                  const openapi::operation& op,
                                                                  const harness::auth_choice& auth,
                                                                  std::string_view body) {
  const auto& effect = op.idempotent->effect;
  if (effect.operation_id.empty()) return nullptr;
  auto fail = [](std::string text) { return core::fail(std::move(text)); };
  const openapi::operation* list = ctx.covered(effect.operation_id);
  if (!list) {
    return fail("the effect is read through " + effect.operation_id +
                ", which this run does not cover (--include/--exclude)");
  }
  if (!list->paging) {
    return fail(effect.operation_id + " declares no x-pagination, so its items cannot be found");
  }
  boost::system::error_code ec;
  const auto parsed = boost::json::parse(body, ec);
  const auto* property = !ec && parsed.is_object()
                             ? parsed.as_object().if_contains(effect.match_body_property)
                             : nullptr;
  const auto match = property ? match_text(*property) : std::nullopt;
  if (!match) {
    return fail("the request body has no " + effect.match_body_property +
                " to find the effect's item by");
  }
  // The tenant whose item is read: the one the body names, else the request's.
  const profile::tenant* tenant = auth.tenant;
  for (const auto& t : ctx.target().tenants) {
    if (t.id == *match) tenant = &t;
  }
  std::optional<harness::auth_choice> reader_auth;
  if (auth.credential) reader_auth = auth_with(ctx, *list, *auth.credential, tenant);
  for (const auto& c : ctx.target().credentials) {
    if (reader_auth) break;
    reader_auth = auth_with(ctx, *list, c, tenant);
  }
  if (!reader_auth) {
    return fail("no credential of " + std::string(ctx.target().noun()) + " is sufficient for " +
                effect.operation_id + " and sees the request's tenant; add one to read the effect");
  }
  auto g = ctx.valid_request(*list, *reader_auth, "idempotency-effect");
  if (!g) return fail("no valid request for " + effect.operation_id + ": " + g.error());
  const auto& paging = *list->paging;
  std::set<std::string> dropped(paging.filter_params.begin(), paging.filter_params.end());
  for (const auto* name :
       {&paging.page_param, &paging.size_param, &paging.cursor_param, &paging.sort_param}) {
    if (!name->empty()) dropped.insert(*name);
  }
  std::erase_if(g->query, [&](const auto& kv) { return dropped.count(kv.first) > 0; });

  std::unique_ptr<effect_reader> r(new effect_reader());
  r->list_ = list;
  r->auth_ = std::move(*reader_auth);
  r->base_ = std::move(*g);
  r->match_pointer_ = pointer_to(effect.match_field);
  r->match_value_ = *match;
  r->field_pointer_ = pointer_to(effect.field);
  r->what_ = effect.field + " of the item with " + effect.match_field + " " + *match + " in " +
             effect.operation_id;
  return r;
}

reading effect_reader::read(harness::scenario_context& ctx) {
  const auto& paging = *list_->paging;
  const bool cursor_style = paging.kind == openapi::pagination::style::cursor;
  const std::int64_t size = paging.max_size > 0 ? paging.max_size : paging.default_size;
  std::optional<std::string> cursor;
  std::set<std::string> cursors;
  reading out;
  for (int page = 1; page <= max_read_pages; ++page) {
    auto g = base_;
    if (size > 0 && !paging.size_param.empty()) {
      g.query.emplace_back(paging.size_param, std::to_string(size));
    }
    if (!cursor_style && !paging.page_param.empty()) {
      g.query.emplace_back(paging.page_param, std::to_string(page));
    }
    if (cursor_style && cursor) g.query.emplace_back(paging.cursor_param, *cursor);
    const harness::probe& p = probes_.emplace_back(ctx.send(ctx.build(*list_, auth_, g)));
    out.where = &p;
    if (p.status() < 200 || p.status() >= 300) {
      out.why = list_->operation_id + " answered " + p.summary();
      return out;
    }
    const auto* items = p.at(paging.items);
    if (!items || !items->is_array()) {
      out.why = list_->operation_id + " answered no items array";
      return out;
    }
    for (const auto& item : items->as_array()) {
      if (match_at(item, match_pointer_) != match_value_) continue;
      boost::system::error_code ec;
      const auto* field = item.find_pointer(field_pointer_, ec);
      if (ec || !field) {
        out.why = "the item has no " + field_pointer_;
        return out;
      }
      out.value = parse_amount(*field);
      if (!out.value) out.why = what_ + " is not a number: " + boost::json::serialize(*field);
      return out;
    }
    if (cursor_style) {
      const auto* next = p.at(paging.next_cursor);
      if (!next || !next->is_string() || next->as_string().empty()) break;
      cursor = std::string(next->as_string());
      if (!cursors.insert(*cursor).second) break;
    } else {
      const auto* pages = p.at(paging.pages);
      if (!pages || !pages->is_int64() || pages->as_int64() <= page) break;
      if (items->as_array().empty()) break;
    }
  }
  out.why = "no item with " + match_pointer_.substr(1) + " " + match_value_ + " in " +
            list_->operation_id;
  return out;
}

}  // namespace conform::suites::idempotency
