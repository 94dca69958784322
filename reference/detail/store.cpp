#include "reference/detail/store.hpp"

#include "reference/detail/util.hpp"

namespace conform::reference::detail {
namespace json = boost::json;

namespace {

json::value id_or_null(id_t id) {
  if (id == 0) return nullptr;
  return json::value(std::to_string(id));
}

json::value str_or_null(const opt_string& s) {
  if (!s) return nullptr;
  return json::value(*s);
}

json::value time_or_null(const opt_time& t) {
  if (!t) return nullptr;
  return json::value(format_time(*t));
}

}  // namespace

tenant* store::find_tenant(id_t id) {
  auto it = tenants.find(id);
  return it == tenants.end() ? nullptr : &it->second;
}

const tenant* store::find_tenant(id_t id) const {
  auto it = tenants.find(id);
  return it == tenants.end() ? nullptr : &it->second;
}

json::object to_json(const agent& a) {
  return {{"id", std::to_string(a.id)},
          {"name", a.name},
          {"status", a.status},
          {"language", a.language},
          {"created_at", format_time(a.created_at)}};
}

json::object to_json(const campaign& c) {
  json::array phones;
  for (auto p : c.phone_number_ids) phones.emplace_back(std::to_string(p));
  return {{"id", std::to_string(c.id)},
          {"name", c.name},
          {"status", c.status},
          {"agent_id", std::to_string(c.agent_id)},
          {"timezone", c.timezone},
          {"campaign_phone_number_ids", std::move(phones)},
          {"contact_count", c.contact_count},
          {"created_at", format_time(c.created_at)},
          {"updated_at", format_time(c.updated_at)}};
}

json::object to_json(const voice_session& v) {
  return {{"id", std::to_string(v.id)},
          {"uuid", v.uuid},
          {"status", v.status},
          {"direction", v.direction},
          {"agent_id", std::to_string(v.agent_id)},
          {"contact_id", std::to_string(v.contact_id)},
          {"bulk_call_campaign_id", id_or_null(v.bulk_call_campaign_id)},
          {"from_number", v.from_number},
          {"to_number", v.to_number},
          {"duration_seconds", v.duration_seconds},
          {"started_at", format_time(v.started_at)},
          {"ended_at", time_or_null(v.ended_at)},
          {"created_at", format_time(v.created_at)},
          {"updated_at", format_time(v.updated_at)}};
}

json::object to_json(const follow_up& f) {
  return {{"id", std::to_string(f.id)},
          {"status", f.status},
          {"follow_up_type", f.follow_up_type},
          {"source", f.source},
          {"priority", f.priority},
          {"scheduled_at", format_time(f.scheduled_at)},
          {"executed_at", time_or_null(f.executed_at)},
          {"expires_at", format_time(f.expires_at)},
          {"attempt_count", f.attempt_count},
          {"max_attempts", f.max_attempts},
          {"window_adherence", f.window_adherence},
          {"reason_code", f.reason_code},
          {"notes", str_or_null(f.notes)},
          {"cancellation_reason", str_or_null(f.cancellation_reason)},
          {"contact_id", id_or_null(f.contact_id)},
          {"contact_name", f.contact_name},
          {"contact_phone", f.contact_phone},
          {"contact_sentinel", nullptr},
          {"agent_id", id_or_null(f.agent_id)},
          {"agent_name", f.agent_name},
          {"bulk_call_campaign_id", id_or_null(f.bulk_call_campaign_id)},
          {"bulk_call_campaign_name", f.bulk_call_campaign_id == 0
                                          ? json::value(nullptr)
                                          : json::value(f.bulk_call_campaign_name)},
          {"voice_session_id", id_or_null(f.voice_session_id)},
          {"voice_session_uuid",
           f.voice_session_id == 0 ? json::value(nullptr) : json::value(f.voice_session_uuid)}};
}

json::object to_json(const contact_memory& m) {
  bool has_runs = m.runs_count > 0;
  return {{"id", std::to_string(m.id)},
          {"contact_id", std::to_string(m.contact_id)},
          {"agent_id", std::to_string(m.agent_id)},
          {"summary", str_or_null(m.summary)},
          {"open_items", str_or_null(m.open_items)},
          {"interaction_log", str_or_null(m.interaction_log)},
          {"last_updated_from_call_at", time_or_null(m.last_updated_from_call_at)},
          {"last_voice_session_id", id_or_null(m.last_voice_session_id)},
          {"updated_at", format_time(m.updated_at)},
          {"llm_provider", has_runs ? json::value("openai") : json::value(nullptr)},
          {"llm_model", has_runs ? json::value("gpt-4o-mini") : json::value(nullptr)},
          {"prompt_version", has_runs ? json::value("v3") : json::value(nullptr)},
          {"runs_count", m.runs_count},
          {"last_run_cost_usd", has_runs ? json::value("0.0125") : json::value(nullptr)},
          {"total_cost_usd", json::value(format_milli4(125 * m.runs_count))},
          {"last_run_input_tokens", has_runs ? json::value(1200) : json::value(nullptr)},
          {"last_run_output_tokens", has_runs ? json::value(300) : json::value(nullptr)},
          {"total_input_tokens", 1200 * m.runs_count},
          {"total_output_tokens", 300 * m.runs_count},
          {"last_billed_at", time_or_null(m.last_updated_from_call_at)}};
}

json::object to_json(const knowledge_base_source& s, id_t tenant_id) {
  return {{"id", std::to_string(s.id)},
          {"tenant_id", std::to_string(tenant_id)},
          {"knowledge_base_id", std::to_string(s.knowledge_base_id)},
          {"source_type", s.source_type},
          {"status", s.status},
          {"ingest_stage", s.ingest_stage},
          {"title", str_or_null(s.title)},
          {"source_uri", str_or_null(s.source_uri)},
          {"source_file_name", str_or_null(s.source_file_name)},
          {"source_mime_type", str_or_null(s.source_mime_type)},
          {"source_byte_size",
           s.source_byte_size ? json::value(*s.source_byte_size) : json::value(nullptr)},
          {"fallback_extraction_used", nullptr},
          {"ai_extraction_mode", nullptr},
          {"fallback_extraction_provider", nullptr},
          {"fallback_extraction_model_name", nullptr},
          {"estimated_fallback_charge", nullptr},
          {"fallback_billing_currency", nullptr},
          {"fallback_input_rate_per_million_usd", nullptr},
          {"fallback_input_rate_per_million_inr", nullptr},
          {"fallback_output_rate_per_million_usd", nullptr},
          {"fallback_output_rate_per_million_inr", nullptr},
          {"fallback_input_rate_source", nullptr},
          {"fallback_output_rate_source", nullptr},
          {"actual_fallback_charge", nullptr}};
}

json::object to_json(const invoice& i) {
  json::array lines;
  std::int64_t due = 0;
  for (const auto& l : i.line_items) {
    std::int64_t amount = l.quantity * l.unit_price_cents;
    due += amount;
    lines.push_back(json::object{{"description", l.description},
                                 {"quantity", l.quantity},
                                 {"unit_price", format_cents(l.unit_price_cents)},
                                 {"amount", format_cents(amount)}});
  }
  return {{"id", std::to_string(i.id)},
          {"number", i.number},
          {"status", i.status},
          {"currency", i.currency},
          {"amount_due", format_cents(due)},
          {"amount_paid", format_cents(i.amount_paid_cents)},
          {"period_start", format_time(i.period_start)},
          {"period_end", format_time(i.period_end)},
          {"issued_at", format_time(i.issued_at)},
          {"due_at", format_time(i.due_at)},
          {"line_items", std::move(lines)}};
}

json::object tenant_summary(const tenant& t) {
  return {{"id", std::to_string(t.id)},
          {"name", t.name},
          {"status", t.status},
          {"environment", t.environment},
          {"created_at", format_time(t.created_at)},
          {"balance_major", format_cents(t.balance_cents)}};
}

}  // namespace conform::reference::detail
