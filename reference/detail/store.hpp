#pragma once
// The reference server's data: partners, tenants and every tenant's records,
// behind one shared mutex (readers share, writers exclude). Records carry the
// fields of the description (2.3-2.5) and of D1.8; to_json renders them.

#include <boost/json.hpp>

#include <atomic>
#include <cstdint>
#include <map>
#include <optional>
#include <shared_mutex>
#include <string>
#include <vector>

namespace conform::reference::detail {

using id_t = std::uint64_t;
using opt_string = std::optional<std::string>;
using opt_time = std::optional<std::int64_t>;

struct agent {
  id_t id = 0;
  std::string name, status, language;
  std::int64_t created_at = 0;
};

struct phone_number {
  id_t id = 0;
  std::string e164;
  std::int64_t created_at = 0;
};

struct contact {
  id_t id = 0;
  std::string phone_e164;
  opt_string first_name, last_name, email;
  id_t bulk_call_campaign_id = 0;  // 0 = none
  std::int64_t created_at = 0;
};

struct campaign {
  id_t id = 0;
  std::string name, status, timezone;
  id_t agent_id = 0;
  std::vector<id_t> phone_number_ids;
  std::int64_t contact_count = 0;
  std::int64_t created_at = 0, updated_at = 0;
};

struct voice_session {
  id_t id = 0;
  std::string uuid, status, direction, from_number, to_number;
  id_t agent_id = 0, contact_id = 0, bulk_call_campaign_id = 0;
  std::int64_t duration_seconds = 0;
  std::int64_t started_at = 0;
  opt_time ended_at;
  std::int64_t created_at = 0, updated_at = 0;
};

struct follow_up {
  id_t id = 0;
  std::string status, follow_up_type, source, reason_code;
  std::int64_t priority = 0, attempt_count = 0, max_attempts = 3;
  std::int64_t scheduled_at = 0, expires_at = 0;
  opt_time executed_at;
  bool window_adherence = true;
  opt_string notes, cancellation_reason;
  id_t contact_id = 0, agent_id = 0, bulk_call_campaign_id = 0, voice_session_id = 0;
  std::string contact_name, contact_phone, agent_name, bulk_call_campaign_name, voice_session_uuid;
};

struct contact_memory {
  id_t id = 0, contact_id = 0, agent_id = 0;
  opt_string summary, open_items, interaction_log;
  opt_time last_updated_from_call_at;
  id_t last_voice_session_id = 0;
  std::int64_t updated_at = 0;
  std::int64_t runs_count = 0;
};

struct knowledge_base {
  id_t id = 0;
  std::string name;
};

struct knowledge_base_source {
  id_t id = 0, knowledge_base_id = 0;
  std::string source_type, status, ingest_stage;
  opt_string title, source_uri, source_file_name, source_mime_type, raw_text_input;
  std::optional<std::int64_t> source_byte_size;
  std::vector<std::string> selected_urls;
  bool discover_pages = false;
  std::int64_t refresh_interval_hours = 24;
};

struct invoice_line {
  std::string description;
  std::int64_t quantity = 0, unit_price_cents = 0;
};

struct invoice {
  id_t id = 0;
  std::string number, status, currency;
  std::int64_t amount_paid_cents = 0;
  std::int64_t period_start = 0, period_end = 0, issued_at = 0, due_at = 0;
  std::vector<invoice_line> line_items;
};

struct rate_change {
  id_t id = 0;
  std::int64_t effective_at = 0;
  std::int64_t previous_rate = 0, rate = 0;  // 1/10000 USD per minute
  std::string changed_by, reason;
};

struct call_analysis_prompt {
  id_t id = 0;
  std::string name;
};

/// One tenant and everything it owns.
struct tenant {
  id_t id = 0, partner_id = 0;
  std::string name, status, environment;
  std::int64_t created_at = 0;
  std::int64_t balance_cents = 0;
  std::int64_t max_concurrent_calls = 10;
  std::int64_t current_rate = 0;  // 1/10000 USD per minute
  std::map<id_t, agent> agents;
  std::map<id_t, phone_number> phone_numbers;
  std::map<id_t, contact> contacts;
  std::map<id_t, campaign> campaigns;
  std::map<id_t, voice_session> voice_sessions;
  std::map<id_t, follow_up> follow_ups;
  std::map<id_t, contact_memory> memories;
  std::map<id_t, knowledge_base> knowledge_bases;
  std::map<id_t, knowledge_base_source> sources;
  std::map<id_t, invoice> invoices;
  std::vector<rate_change> rate_history;
  std::map<id_t, call_analysis_prompt> prompts;
};

struct partner {
  id_t id = 0;
  std::string name;
  std::int64_t balance_cents = 0;
};

/// Fixture ids of one profile tenant ("t1"): name -> id.
using fixture_map = std::map<std::string, std::string>;

/// All server data. Lock `mutex` shared to read, exclusive to write.
struct store {
  mutable std::shared_mutex mutex;
  std::map<id_t, partner> partners;
  std::map<id_t, tenant> tenants;
  std::map<std::string, fixture_map> fixtures;  // "t1" -> fixtures
  std::atomic<id_t> next_id{1000000};

  /// A fresh id, unique across every record kind created after the seed.
  id_t new_id() { return next_id.fetch_add(1); }
  /// The tenant or nullptr.
  tenant* find_tenant(id_t id);
  const tenant* find_tenant(id_t id) const;
};

/// Seeds partners 1 and 2, tenants 101, 102 (partner 1, full data), 103
/// (partner 2, full data) and small tenants, multiplying campaigns and
/// sessions by `scale`; deterministic in `seed`.
void seed_store(store& s, std::uint64_t seed, int scale, const std::string& environment);

boost::json::object to_json(const agent& a);
boost::json::object to_json(const campaign& c);
boost::json::object to_json(const voice_session& v);
boost::json::object to_json(const follow_up& f);
boost::json::object to_json(const contact_memory& m);
boost::json::object to_json(const knowledge_base_source& s, id_t tenant_id);
boost::json::object to_json(const invoice& i);
/// The partner's view of a tenant (D1.8 "tenant (partner list)").
boost::json::object tenant_summary(const tenant& t);

}  // namespace conform::reference::detail
