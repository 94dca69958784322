// Campaigns: page list, create, launch, pause (D5.1, C5, C6), capacity preview.
#include <algorithm>
#include <mutex>
#include <set>

#include "core/text.hpp"
#include "reference/detail/handlers.hpp"
#include "reference/detail/pagination.hpp"
#include "reference/detail/util.hpp"

namespace conform::reference::detail {
namespace json = boost::json;

namespace {

constexpr std::array<std::string_view, 5> campaign_states = {"draft", "running", "paused",
                                                             "completed", "cancelled"};

reply campaign_not_found() {
  return error(404, "CAMPAIGN_NOT_FOUND", "no such bulk call campaign");
}

/// The campaign named by the path in the caller's tenant (any tenant under
/// fault tenant_leak); nullptr when there is none. Caller holds the lock.
campaign* find_campaign(request_ctx& ctx) {
  id_t id = parse_id(ctx.params.at(0));
  tenant* t = ctx.state.data.find_tenant(ctx.tenant_id);
  if (t != nullptr) {
    auto it = t->campaigns.find(id);
    if (it != t->campaigns.end()) return &it->second;
  }
  if (ctx.state.fault_on(fault::tenant_leak)) {
    for (auto& [tid, other] : ctx.state.data.tenants) {
      auto it = other.campaigns.find(id);
      if (it != other.campaigns.end()) return &it->second;
    }
  }
  return nullptr;
}

std::optional<std::int64_t> as_integer(const json::value& v) {
  if (v.is_int64()) return v.as_int64();
  if (v.is_uint64() && v.as_uint64() <= static_cast<std::uint64_t>(INT64_MAX)) {
    return static_cast<std::int64_t>(v.as_uint64());
  }
  return std::nullopt;
}

}  // namespace

reply list_campaigns(request_ctx& ctx) {
  std::int64_t page = 1, per_page = 25;
  if (auto r = int_param(ctx.req, "page", 1, 1, INT64_MAX, page)) return *r;
  if (auto r = int_param(ctx.req, "per_page", 25, 1, 100, per_page)) return *r;
  std::string status;
  if (ctx.req.has_param("status")) {
    status = ctx.req.get_param_value("status");
    if (std::find(campaign_states.begin(), campaign_states.end(), status) ==
        campaign_states.end()) {
      return validation_error("status",
                              "must be one of draft, running, paused, completed, cancelled");
    }
  }
  std::string sort = ctx.req.has_param("sort") ? ctx.req.get_param_value("sort") : "created_at";
  if (sort != "created_at" && sort != "-created_at" && sort != "name" && sort != "-name") {
    return validation_error("sort", "must be one of created_at, -created_at, name, -name");
  }
  std::vector<const campaign*> rows;
  json::array items;
  std::size_t count = 0;
  {
    std::shared_lock lock(ctx.state.data.mutex);
    const tenant* t = ctx.state.data.find_tenant(ctx.tenant_id);
    if (t != nullptr) {
      for (const auto& [id, c] : t->campaigns) {
        if (status.empty() || c.status == status) rows.push_back(&c);
      }
    }
    const bool by_name = sort == "name" || sort == "-name";
    const bool desc = sort.front() == '-';
    std::sort(rows.begin(), rows.end(), [&](const campaign* a, const campaign* b) {
      if (by_name && a->name != b->name) return desc ? a->name > b->name : a->name < b->name;
      if (!by_name && a->created_at != b->created_at) {
        return desc ? a->created_at > b->created_at : a->created_at < b->created_at;
      }
      return desc ? a->id > b->id : a->id < b->id;
    });
    count = rows.size();
    auto [first, last] = page_window(ctx.state, count, page, per_page);
    for (std::size_t i = first; i < last; ++i) items.push_back(to_json(*rows[i]));
  }
  return page_answer(ctx.state, std::move(items), count, page, per_page);
}

reply create_campaign(request_ctx& ctx) {
  json::object errors;
  auto add = [&](std::string_view field, std::string_view message) {
    errors[field] = json::array{json::string(message)};
  };
  const auto& b = ctx.body;
  std::string name, timezone;
  std::int64_t agent_id = 0;
  std::vector<std::int64_t> phone_ids;
  const auto* v = b.if_contains("name");
  if (v == nullptr)
    add("name", "is required");
  else if (!v->is_string())
    add("name", "must be a string");
  else {
    name = std::string(v->as_string());
    if (name.empty() || core::code_points(name) > 200) add("name", "must be 1 to 200 characters");
  }
  const bool lenient = ctx.state.fault_on(fault::lenient_assumptions);
  v = b.if_contains("agent_id");
  const bool agent_missing = v == nullptr;
  if (agent_missing) {
    if (!lenient) add("agent_id", "is required");  // C5; lenient: the tenant's first agent, below
  } else if (auto n = as_integer(*v); !n) {
    add("agent_id", "must be an integer");
  } else {
    agent_id = *n;
  }
  v = b.if_contains("timezone");
  if (v == nullptr)
    add("timezone", "is required");
  else if (!v->is_string())
    add("timezone", "must be a string");
  else {
    timezone = std::string(v->as_string());
    if (!is_iana_time_zone(timezone)) add("timezone", "must be an IANA time zone name");
  }
  v = b.if_contains("campaign_phone_number_ids");
  if (v != nullptr) {  // null is no array: refused like any other wrong type
    if (!v->is_array()) {
      add("campaign_phone_number_ids", "must be an array of integers");
    } else {
      std::set<std::int64_t> seen;
      for (const auto& e : v->as_array()) {
        auto n = as_integer(e);
        if (!n) {
          add("campaign_phone_number_ids", "must be an array of integers");
          break;
        }
        if (!seen.insert(*n).second) {
          if (lenient) continue;  // C5 dropped: a repeated id counts once
          add("campaign_phone_number_ids", "must not repeat an id");
          break;
        }
        phone_ids.push_back(*n);
      }
    }
  }
  if (!errors.empty()) {
    return error(422, "VALIDATION_ERROR", "the campaign is invalid", nullptr, std::move(errors));
  }
  std::unique_lock lock(ctx.state.data.mutex);
  tenant* t = ctx.state.data.find_tenant(ctx.tenant_id);
  if (t == nullptr) return error(404, "TENANT_NOT_FOUND", "no such tenant");
  if (agent_missing && lenient && !t->agents.empty()) {
    agent_id = static_cast<std::int64_t>(t->agents.begin()->first);
  }
  if (agent_id <= 0 || t->agents.count(static_cast<id_t>(agent_id)) == 0) {
    return validation_error("agent_id", "is not an agent of this tenant");
  }
  for (auto p : phone_ids) {
    if (p <= 0 || t->phone_numbers.count(static_cast<id_t>(p)) == 0) {
      return validation_error(
          "campaign_phone_number_ids",
          "contains " + std::to_string(p) + ", not a phone number of this tenant");
    }
  }
  campaign c;
  c.id = ctx.state.data.new_id();
  c.name = name;
  c.status = "draft";
  c.timezone = timezone;
  c.agent_id = static_cast<id_t>(agent_id);
  for (auto p : phone_ids) c.phone_number_ids.push_back(static_cast<id_t>(p));
  c.created_at = c.updated_at = now_seconds();
  json::object out = to_json(c);
  t->campaigns.emplace(c.id, std::move(c));
  return ok(std::move(out), nullptr, 201);
}

reply launch_campaign(request_ctx& ctx) {
  std::unique_lock lock(ctx.state.data.mutex);
  campaign* c = find_campaign(ctx);
  if (c == nullptr) return campaign_not_found();
  if (c->status != "draft" && c->status != "paused") {
    return error(422, "INVALID_STATE_TRANSITION", "a " + c->status + " campaign cannot be launched",
                 json::object{{"status", c->status}, {"operation", "launch"}});
  }
  if (c->contact_count == 0) {
    return error(422, "CAMPAIGN_HAS_NO_CONTACTS", "the campaign has no contacts");
  }
  if (c->phone_number_ids.empty()) {
    return error(422, "CAMPAIGN_HAS_NO_PHONE_NUMBERS", "the campaign has no phone numbers");
  }
  c->status = "running";
  c->updated_at = now_seconds();
  return ok(to_json(*c));
}

reply pause_campaign(request_ctx& ctx) {
  std::unique_lock lock(ctx.state.data.mutex);
  campaign* c = find_campaign(ctx);
  if (c == nullptr) return campaign_not_found();
  if (c->status != "running") {
    if (ctx.state.fault_on(fault::invalid_transition_allowed) &&
        (c->status == "paused" || c->status == "draft")) {
      return ok(to_json(*c));
    }
    return error(422, "INVALID_STATE_TRANSITION", "a " + c->status + " campaign cannot be paused",
                 json::object{{"status", c->status}, {"operation", "pause"}});
  }
  c->status = "paused";
  c->updated_at = now_seconds();
  return ok(to_json(*c));
}

reply capacity_preview(request_ctx& ctx) {
  std::shared_lock lock(ctx.state.data.mutex);
  const tenant* t = ctx.state.data.find_tenant(ctx.tenant_id);
  if (t == nullptr) return error(404, "TENANT_NOT_FOUND", "no such tenant");
  std::int64_t active = 0, running = 0;
  for (const auto& [id, v] : t->voice_sessions) {
    if (v.status == "in_progress" || v.status == "ringing") ++active;
  }
  for (const auto& [id, c] : t->campaigns) {
    if (c.status == "running") ++running;
  }
  std::int64_t max_calls = std::min<std::int64_t>(
      t->max_concurrent_calls, static_cast<std::int64_t>(t->phone_numbers.size()) * 5);
  std::int64_t available = std::max<std::int64_t>(0, max_calls - active);
  return ok(json::object{{"tenant_id", std::to_string(t->id)},
                         {"phone_number_count", t->phone_numbers.size()},
                         {"max_concurrent_calls", max_calls},
                         {"active_calls", active},
                         {"available_concurrent_calls", available},
                         {"running_campaign_count", running},
                         {"estimated_calls_per_hour", available * 12}});
}

}  // namespace conform::reference::detail
