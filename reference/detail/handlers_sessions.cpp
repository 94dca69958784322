// Voice sessions (cursor list, detail, run analysis D5.5) and agents (page list).
#include <algorithm>
#include <array>
#include <mutex>

#include "reference/detail/handlers.hpp"
#include "reference/detail/pagination.hpp"
#include "reference/detail/util.hpp"

namespace conform::reference::detail {
namespace json = boost::json;

namespace {

constexpr std::array<std::string_view, 8> session_states = {
    "queued", "ringing", "in_progress", "completed", "failed", "no_answer", "busy", "cancelled"};

reply session_not_found(const server_state& st) {
  if (st.fault_on(fault::wrong_error_code)) return error(404, "NOT_FOUND", "no such voice session");
  return error(404, "SESSION_NOT_FOUND", "no such voice session");
}

/// The session named by the path in the caller's tenant. Caller holds the lock.
const voice_session* find_session(const request_ctx& ctx) {
  const tenant* t = ctx.state.data.find_tenant(ctx.tenant_id);
  if (t == nullptr) return nullptr;
  auto it = t->voice_sessions.find(parse_id(ctx.params.at(0)));
  return it == t->voice_sessions.end() ? nullptr : &it->second;
}

}  // namespace

reply list_voice_sessions(request_ctx& ctx) {
  auto& st = ctx.state;
  std::int64_t page_size = 25;
  if (auto r = int_param(ctx.req, "page_size", 25, 1, 100, page_size)) return *r;
  std::string status;
  if (ctx.req.has_param("status")) {
    status = ctx.req.get_param_value("status");
    if (std::find(session_states.begin(), session_states.end(), status) == session_states.end()) {
      return validation_error("status", "must be a voice session status");
    }
  }
  std::optional<std::int64_t> since;
  if (ctx.req.has_param("updated_since")) {
    since = parse_time(ctx.req.get_param_value("updated_since"));
    if (!since) return validation_error("updated_since", "must be an RFC 3339 date-time");
  }
  std::string sort = ctx.req.has_param("sort") ? ctx.req.get_param_value("sort") : "-updated_at";
  if (sort != "updated_at" && sort != "-updated_at") {
    return validation_error("sort", "must be one of updated_at, -updated_at");
  }
  const bool desc = sort == "-updated_at";
  const std::string binding = "status=" + status +
                              "&updated_since=" + (since ? std::to_string(*since) : std::string()) +
                              "&sort=" + sort;
  std::optional<cursor_position> after;
  if (ctx.req.has_param("cursor")) {
    after = decode_cursor(st.cursor_key, ctx.req.get_param_value("cursor"), ctx.tenant_id, binding,
                          st.fault_on(fault::cursor_unbound));
    if (!after) {
      return error(422, "INVALID_CURSOR",
                   "the cursor is not valid for this tenant, filter and sort");
    }
  }
  auto before = [desc](const voice_session* a, const voice_session* b) {
    if (a->updated_at != b->updated_at) {
      return desc ? a->updated_at > b->updated_at : a->updated_at < b->updated_at;
    }
    return desc ? a->id > b->id : a->id < b->id;
  };
  json::array items;
  json::value next = nullptr;
  {
    std::shared_lock lock(st.data.mutex);
    std::vector<const voice_session*> rows;
    if (const tenant* t = st.data.find_tenant(ctx.tenant_id)) {
      for (const auto& [id, v] : t->voice_sessions) {
        if (!status.empty() && v.status != status) continue;
        if (since && v.updated_at < *since) continue;
        rows.push_back(&v);
      }
    }
    std::sort(rows.begin(), rows.end(), before);
    std::size_t start = 0;
    if (after) {
      voice_session probe;
      probe.updated_at = after->key;
      probe.id = after->id;
      // first row strictly after the cursor's position (or at it, under cursor_duplicate)
      if (st.fault_on(fault::cursor_duplicate)) {
        start = static_cast<std::size_t>(
            std::lower_bound(rows.begin(), rows.end(), &probe, before) - rows.begin());
      } else {
        start = static_cast<std::size_t>(
            std::upper_bound(rows.begin(), rows.end(), &probe, before) - rows.begin());
      }
    }
    std::size_t end = std::min(rows.size(), start + static_cast<std::size_t>(page_size));
    for (std::size_t i = start; i < end; ++i) items.push_back(to_json(*rows[i]));
    if (end < rows.size() && end > start) {
      next = json::string(encode_cursor(st.cursor_key, ctx.tenant_id, binding,
                                        {rows[end - 1]->updated_at, rows[end - 1]->id}));
    }
    if (st.fault_on(fault::foreign_list_leak) && !after) {
      for (const auto& [tid, other] : st.data.tenants) {
        if (tid != ctx.tenant_id && !other.voice_sessions.empty()) {
          items.push_back(to_json(other.voice_sessions.begin()->second));
          break;
        }
      }
    }
  }
  return ok(json::object{{"items", std::move(items)}, {"next_cursor", std::move(next)}});
}

reply get_voice_session(request_ctx& ctx) {
  std::shared_lock lock(ctx.state.data.mutex);
  const voice_session* v = find_session(ctx);
  if (v == nullptr) return session_not_found(ctx.state);
  return ok(to_json(*v));
}

reply run_analysis(request_ctx& ctx) {
  std::shared_lock lock(ctx.state.data.mutex);
  const voice_session* v = find_session(ctx);
  if (v == nullptr) return session_not_found(ctx.state);
  const tenant* t = ctx.state.data.find_tenant(ctx.tenant_id);
  const auto* p = ctx.body.if_contains("call_analysis_prompt_id");
  id_t prompt_id = 0;
  if (p == nullptr && ctx.state.fault_on(fault::lenient_assumptions) && t != nullptr &&
      !t->prompts.empty()) {
    prompt_id = t->prompts.begin()->first;  // C8 dropped: the tenant's first prompt
  } else if (p == nullptr || p->is_null()) {
    return validation_error("call_analysis_prompt_id", "is required");  // C8
  } else if (!p->is_string() || !is_digits(p->as_string())) {
    return validation_error("call_analysis_prompt_id", "must be a string of decimal digits");
  } else {
    prompt_id = parse_id(p->as_string());
  }
  if (t == nullptr || t->prompts.count(prompt_id) == 0) {
    return error(404, "CALL_ANALYSIS_PROMPT_NOT_FOUND", "no such call analysis prompt");
  }
  if (v->status != "completed") {
    return error(422, "SESSION_NOT_COMPLETED", "analysis needs a completed voice session",
                 json::object{{"status", v->status}});
  }
  return ok(json::object{{"analysis_run_id", std::to_string(ctx.state.data.new_id())},
                         {"status", "queued"},
                         {"voice_session_id", std::to_string(v->id)},
                         {"call_analysis_prompt_id", std::to_string(prompt_id)},
                         {"created_at", format_time(now_seconds())}});
}

reply list_agents(request_ctx& ctx) {
  std::int64_t page = 1, per_page = 25;
  if (auto r = int_param(ctx.req, "page", 1, 1, INT64_MAX, page)) return *r;
  if (auto r = int_param(ctx.req, "per_page", 25, 1, 100, per_page)) return *r;
  json::array items;
  std::size_t count = 0;
  {
    std::shared_lock lock(ctx.state.data.mutex);
    if (const tenant* t = ctx.state.data.find_tenant(ctx.tenant_id)) {
      count = t->agents.size();
      auto [first, last] = page_window(ctx.state, count, page, per_page);
      auto it = t->agents.begin();
      std::advance(it, static_cast<long>(first));
      for (std::size_t i = first; i < last; ++i, ++it) items.push_back(to_json(it->second));
    }
  }
  return page_answer(ctx.state, std::move(items), count, page, per_page);
}

}  // namespace conform::reference::detail
