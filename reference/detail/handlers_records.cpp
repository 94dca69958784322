// Follow-ups (D5.2), contact memory (D5.7, C7), knowledge base sources (D5.3).
#include <algorithm>
#include <array>
#include <cctype>
#include <mutex>

#include "core/text.hpp"
#include "reference/detail/handlers.hpp"
#include "reference/detail/util.hpp"

namespace conform::reference::detail {
namespace json = boost::json;

namespace {

follow_up* find_follow_up(request_ctx& ctx) {
  tenant* t = ctx.state.data.find_tenant(ctx.tenant_id);
  if (t == nullptr) return nullptr;
  auto it = t->follow_ups.find(parse_id(ctx.params.at(0)));
  return it == t->follow_ups.end() ? nullptr : &it->second;
}

/// True for an absolute URI: a scheme, ':', then no whitespace.
bool looks_like_uri(std::string_view s) {
  auto colon = s.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 >= s.size()) return false;
  if (std::isalpha(static_cast<unsigned char>(s[0])) == 0) return false;
  for (std::size_t i = 0; i < colon; ++i) {
    char c = s[i];
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '+' && c != '-' && c != '.')
      return false;
  }
  for (char c : s) {
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) return false;
  }
  return true;
}

reply follow_up_not_found() {
  return error(404, "FOLLOW_UP_NOT_FOUND", "no such follow-up");
}

/// Adds "field: message" to a per-field errors object.
void add_error(json::object& errors, std::string_view field, std::string_view message) {
  auto* existing = errors.if_contains(field);
  if (existing != nullptr)
    existing->as_array().emplace_back(message);
  else
    errors[field] = json::array{json::string(message)};
}

/// Reads an optional string field (null = absent); records a type error.
std::optional<std::string> opt_string_field(const json::object& b, std::string_view field,
                                            json::object& errors) {
  // Absent is "not given"; null is not a string (the schemas admit no null).
  const auto* v = b.if_contains(field);
  if (v == nullptr) return std::nullopt;
  if (!v->is_string()) {
    add_error(errors, field, "must be a string");
    return std::nullopt;
  }
  return std::string(v->as_string());
}

}  // namespace

reply cancel_follow_up(request_ctx& ctx) {
  std::unique_lock lock(ctx.state.data.mutex);
  follow_up* f = find_follow_up(ctx);
  if (f == nullptr) return follow_up_not_found();
  std::string reason = "cancelled_by_user";
  if (ctx.req.has_param("reason")) {
    std::string r = ctx.req.get_param_value("reason");
    // C19: an empty reason is refused; its length is bounded only by what
    // the server reads of a request (a URI too long is refused by the transport).
    if (r.empty() && !ctx.state.fault_on(fault::lenient_assumptions))
      return validation_error("reason", "must not be empty");
    reason = r;
  }
  if (f->status != "scheduled" && f->status != "pending") {
    return error(422, "INVALID_STATE_TRANSITION",
                 "a " + f->status + " follow-up cannot be cancelled",
                 json::object{{"status", f->status}, {"operation", "cancel"}});
  }
  f->status = "cancelled";
  f->cancellation_reason = reason;
  return ok(to_json(*f));
}

reply get_follow_up_events(request_ctx& ctx) {
  std::shared_lock lock(ctx.state.data.mutex);
  follow_up* f = find_follow_up(ctx);
  if (f == nullptr) return follow_up_not_found();
  return ok(to_json(*f));
}

reply update_contact_memory(request_ctx& ctx) {
  std::unique_lock lock(ctx.state.data.mutex);
  tenant* t = ctx.state.data.find_tenant(ctx.tenant_id);
  const id_t contact_id = parse_id(ctx.params.at(0));
  if (t == nullptr || t->contacts.count(contact_id) == 0) {
    return error(404, "CONTACT_NOT_FOUND", "no such contact");
  }
  json::object errors;
  auto memory = opt_string_field(ctx.body, "memory", errors);
  auto summary = opt_string_field(ctx.body, "summary", errors);
  auto agent = opt_string_field(ctx.body, "agent_id", errors);
  auto contact_field = opt_string_field(ctx.body, "contact_id", errors);
  if (!agent && !errors.contains("agent_id")) add_error(errors, "agent_id", "is required");
  if (agent && !is_digits(*agent))
    add_error(errors, "agent_id", "must be a string of decimal digits");
  if (contact_field && *contact_field != ctx.params.at(0) &&
      !ctx.state.fault_on(fault::path_mismatch_accepted)) {
    add_error(errors, "contact_id", "must equal the contact id of the path");
  }
  if (!errors.empty()) {
    return error(422, "VALIDATION_ERROR", "the memory update is invalid", nullptr,
                 std::move(errors));
  }
  const id_t agent_id = parse_id(*agent);
  if (t->agents.count(agent_id) == 0)
    return validation_error("agent_id", "is not an agent of this tenant");
  contact_memory* m = nullptr;
  for (auto& [id, mem] : t->memories) {
    if (mem.contact_id == contact_id && mem.agent_id == agent_id) m = &mem;
  }
  if (m == nullptr) {
    contact_memory fresh;
    fresh.id = ctx.state.data.new_id();
    fresh.contact_id = contact_id;
    fresh.agent_id = agent_id;
    m = &t->memories.emplace(fresh.id, fresh).first->second;
  }
  if (memory) m->interaction_log = *memory;
  if (summary) m->summary = *summary;
  m->updated_at = now_seconds();
  return ok(to_json(*m));
}

namespace {

/// The fields of a knowledge base source update, each as given (or absent).
struct source_update {
  std::optional<std::string> source_type, title, uri, raw, file, files;
  std::optional<std::vector<std::string>> urls;
  std::optional<bool> discover;
  std::optional<std::int64_t> refresh;
};

// C18: unknown fields are refused and a body names at least one field.
void check_source_field_names(const json::object& b, bool lenient, json::object& errors) {
  static constexpr std::array<std::string_view, 11> known = {"selected_urls",
                                                             "source_type",
                                                             "title",
                                                             "source_uri",
                                                             "raw_text_input",
                                                             "discover_pages",
                                                             "refresh_interval_hours",
                                                             "knowledge_base_id",
                                                             "knowledge_basis_id",
                                                             "files",
                                                             "file"};
  for (const auto& [k, v] : b) {
    // Section 4.1: the wrapper is never one of the fields, lenient or not.
    if (k == "knowledge_base_source") {
      add_error(errors, k, "wraps the fields; it is not one of them");
    } else if (std::find(known.begin(), known.end(), std::string_view(k)) == known.end() &&
               !lenient) {
      add_error(errors, k, "is not a knowledge base source field");
    }
  }
  if (b.empty() && !lenient) add_error(errors, "body", "must name at least one field");
}

/// selected_urls: an array of absolute URIs.
std::optional<std::vector<std::string>> read_selected_urls(const json::object& b, bool lenient,
                                                           json::object& errors) {
  const auto* v = b.if_contains("selected_urls");
  if (v == nullptr) return std::nullopt;
  if (!v->is_array()) {
    add_error(errors, "selected_urls", "must be an array of strings");
    return std::nullopt;
  }
  std::vector<std::string> urls;
  for (const auto& e : v->as_array()) {
    if (!e.is_string()) {
      add_error(errors, "selected_urls", "must be an array of strings");
      break;
    }
    if (!looks_like_uri(e.as_string()) && !lenient) {
      add_error(errors, "selected_urls", "must be an array of absolute URIs");
      break;
    }
    urls.emplace_back(e.as_string());
  }
  return urls;
}

/// refresh_interval_hours: an integer from 1 to 720.
std::optional<std::int64_t> read_refresh_interval(const json::object& b, json::object& errors) {
  const auto* v = b.if_contains("refresh_interval_hours");
  if (v == nullptr) return std::nullopt;
  std::optional<std::int64_t> n;
  if (v->is_int64())
    n = v->as_int64();
  else if (v->is_uint64() && v->as_uint64() < 1000000)
    n = static_cast<std::int64_t>(v->as_uint64());
  if (!n || *n < 1 || *n > 720) {
    add_error(errors, "refresh_interval_hours", "must be an integer from 1 to 720");
    return std::nullopt;
  }
  return n;
}

/// Reads the update's fields from body `b`, each error into `errors`.
source_update read_source_update(request_ctx& ctx, const json::object& b, json::object& errors) {
  const bool lenient = ctx.state.fault_on(fault::lenient_assumptions);
  check_source_field_names(b, lenient, errors);
  source_update u;
  u.source_type = opt_string_field(b, "source_type", errors);
  static constexpr std::array<std::string_view, 4> types = {"url", "file", "text", "sitemap"};
  if (u.source_type && std::find(types.begin(), types.end(), *u.source_type) == types.end()) {
    add_error(errors, "source_type", "must be one of url, file, text, sitemap");
  }
  // C19: a title is not empty, URIs are absolute; no length is bounded
  // but the body's (413 over x-limits).
  u.title = opt_string_field(b, "title", errors);
  if (u.title && u.title->empty() && !lenient) add_error(errors, "title", "must not be empty");
  u.uri = opt_string_field(b, "source_uri", errors);
  if (u.uri && !looks_like_uri(*u.uri) && !lenient) {
    add_error(errors, "source_uri", "must be an absolute URI");
  }
  u.raw = opt_string_field(b, "raw_text_input", errors);
  u.file = opt_string_field(b, "file", errors);
  u.files = opt_string_field(b, "files", errors);
  for (const char* name : {"knowledge_base_id", "knowledge_basis_id"}) {
    auto named = opt_string_field(b, name, errors);
    if (named && !is_digits(*named)) {
      add_error(errors, name, "must be a string of decimal digits");
    } else if (named && *named != ctx.params.at(0) &&
               !ctx.state.fault_on(fault::path_mismatch_accepted)) {
      add_error(errors, name, "must equal the knowledge base id of the path");
    }
  }
  u.urls = read_selected_urls(b, lenient, errors);
  if (const auto* v = b.if_contains("discover_pages"); v != nullptr) {
    if (!v->is_bool())
      add_error(errors, "discover_pages", "must be a boolean");
    else
      u.discover = v->as_bool();
  }
  u.refresh = read_refresh_interval(b, errors);
  return u;
}

/// Applies a valid update to `src`; a change of its content sends it back
/// to ingestion.
void apply_source_update(knowledge_base_source& src, const source_update& u) {
  bool content_changed = false;
  if (u.source_type && *u.source_type != src.source_type) {
    src.source_type = *u.source_type;
    content_changed = true;
  }
  if (u.uri && u.uri != src.source_uri) {
    src.source_uri = *u.uri;
    content_changed = true;
  }
  if (u.raw && u.raw != src.raw_text_input) {
    src.raw_text_input = *u.raw;
    content_changed = true;
  }
  const auto& upload = u.file ? u.file : u.files;
  if (upload && upload != src.source_file_name) {
    src.source_file_name = *upload;
    content_changed = true;
  }
  if (u.urls && *u.urls != src.selected_urls) {
    src.selected_urls = *u.urls;
    content_changed = true;
  }
  if (u.discover) src.discover_pages = *u.discover;
  if (u.refresh) src.refresh_interval_hours = *u.refresh;
  if (u.title) src.title = *u.title;
  if (content_changed) {
    src.status = "pending";
    src.ingest_stage = "queued";
  }
}

}  // namespace

reply update_knowledge_base_source(request_ctx& ctx) {
  std::unique_lock lock(ctx.state.data.mutex);
  tenant* t = ctx.state.data.find_tenant(ctx.tenant_id);
  const id_t kb_id = parse_id(ctx.params.at(0));
  if (t == nullptr || t->knowledge_bases.count(kb_id) == 0) {
    return error(404, "KNOWLEDGE_BASE_NOT_FOUND", "no such knowledge base");
  }
  auto it = t->sources.find(parse_id(ctx.params.at(1)));
  if (it == t->sources.end() || it->second.knowledge_base_id != kb_id) {
    return error(404, "KNOWLEDGE_BASE_SOURCE_NOT_FOUND", "no such knowledge base source");
  }
  const json::object* body = &ctx.body;
  if (const auto* wrapped = ctx.body.if_contains("knowledge_base_source")) {
    if (!wrapped->is_object()) {
      return validation_error("knowledge_base_source", "must be an object");
    }
    if (ctx.body.size() != 1 && !ctx.state.fault_on(fault::lenient_assumptions)) {
      return validation_error("knowledge_base_source",
                              "must be the only property when the fields are wrapped");
    }
    body = &wrapped->as_object();
  }
  json::object errors;
  const source_update update = read_source_update(ctx, *body, errors);
  if (!errors.empty()) {
    return error(422, "VALIDATION_ERROR", "the source update is invalid", nullptr,
                 std::move(errors));
  }
  apply_source_update(it->second, update);
  return ok(to_json(it->second, t->id));
}

}  // namespace conform::reference::detail
