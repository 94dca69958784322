// The deterministic seed data set (docs/reference-server.md lists it).
#include <array>
#include <cstdio>

#include "reference/detail/store.hpp"
#include "reference/detail/util.hpp"

namespace conform::reference::detail {
namespace {

constexpr std::int64_t base_time = 1790812800;  // 2026-10-01T00:00:00Z

struct counters {
  id_t agent = 11, phone = 21, prompt = 61, kb = 801, contact = 3001, campaign = 4001,
       follow_up = 5001, session = 7001, source = 8101, invoice = 9001, memory = 12001,
       rate = 40001;
};

std::string make_uuid(std::uint64_t seed, id_t id) {
  std::uint64_t a = mix64(seed ^ (id * 0x100000001b3ULL));
  std::uint64_t b = mix64(a);
  std::array<char, 40> buf{};
  std::snprintf(
      buf.data(), buf.size(), "%08llx-%04llx-4%03llx-a%03llx-%012llx",
      static_cast<unsigned long long>(a >> 32), static_cast<unsigned long long>((a >> 16) & 0xFFFF),
      static_cast<unsigned long long>(a & 0xFFF), static_cast<unsigned long long>(b >> 52),
      static_cast<unsigned long long>(b & 0xFFFFFFFFFFFFULL));
  return buf.data();
}

std::string phone_for(id_t tenant_id, id_t n) {
  std::array<char, 24> buf{};
  std::snprintf(buf.data(), buf.size(), "+1415%03llu%04llu",
                static_cast<unsigned long long>(tenant_id % 1000),
                static_cast<unsigned long long>(n % 10000));
  return buf.data();
}

std::string padded(const char* prefix, std::size_t n) {
  std::array<char, 64> buf{};
  std::snprintf(buf.data(), buf.size(), "%s %04zu", prefix, n);
  return buf.data();
}

constexpr std::array<const char*, 8> first_names = {"Asha", "Ben",  "Chen", "Dara",
                                                    "Elif", "Femi", "Gita", "Hugo"};
constexpr std::array<const char*, 8> last_names = {"Rao",    "Okafor",  "Li",     "Novak",
                                                   "Yilmaz", "Adeyemi", "Sharma", "Martin"};

/// What seeding one tenant's records shares: the tenant, the id counters
/// of the whole store, the tenant's base time, and its fixtures.
struct tenant_seeding {
  tenant& t;
  counters& n;
  std::int64_t t0;
  fixture_map& fx;
};

/// Agents, phone numbers, contacts and analysis prompts.
void seed_directory(tenant_seeding& ts) {
  tenant& t = ts.t;
  counters& n = ts.n;
  const std::int64_t t0 = ts.t0;
  fixture_map& fx = ts.fx;
  // agents
  static constexpr std::array<const char*, 3> langs = {"en-US", "hi-IN", "es-ES"};
  for (std::size_t i = 0; i < 32; ++i) {
    agent a{n.agent++, padded("Agent", i + 1), i % 7 == 6 ? "inactive" : "active",
            langs[i % langs.size()], t0 + static_cast<std::int64_t>(i) * 60};
    t.agents.emplace(a.id, a);
  }
  const id_t first_agent = t.agents.begin()->first;
  fx["agent_id"] = std::to_string(first_agent);
  fx["tenant_id"] = std::to_string(t.id);
  // phone numbers
  for (std::size_t i = 0; i < 6; ++i) {
    phone_number p{n.phone++, phone_for(t.id, 100 + i), t0 + static_cast<std::int64_t>(i)};
    t.phone_numbers.emplace(p.id, p);
  }
  const id_t first_phone = t.phone_numbers.begin()->first;
  fx["phone_number_id"] = std::to_string(first_phone);
  // contacts
  for (std::size_t i = 0; i < 40; ++i) {
    contact c;
    c.id = n.contact++;
    c.phone_e164 = phone_for(t.id, 2000 + i);
    c.first_name = first_names[i % first_names.size()];
    c.last_name = last_names[(i / 3) % last_names.size()];
    c.email = "contact" + std::to_string(c.id) + "@example.com";
    c.created_at = t0 + static_cast<std::int64_t>(i) * 120;
    t.contacts.emplace(c.id, c);
  }
  const contact& first_contact = t.contacts.begin()->second;
  fx["contact_id"] = std::to_string(first_contact.id);
  // prompts
  for (std::size_t i = 0; i < 4; ++i) {
    call_analysis_prompt p{n.prompt++, padded("Analysis prompt", i + 1)};
    t.prompts.emplace(p.id, p);
  }
  fx["call_analysis_prompt_id"] = std::to_string(t.prompts.begin()->first);
}

/// Campaigns: the named states first, then 60 per scale unit.
void seed_campaigns(tenant_seeding& ts, std::uint64_t seed, int scale) {
  tenant& t = ts.t;
  counters& n = ts.n;
  const std::int64_t t0 = ts.t0;
  fixture_map& fx = ts.fx;
  const id_t first_agent = t.agents.begin()->first;
  const id_t first_phone = t.phone_numbers.begin()->first;
  auto make_campaign = [&](const std::string& name, const char* status, bool contacts, bool phones,
                           std::size_t i) {
    campaign c;
    c.id = n.campaign++;
    c.name = name;
    c.status = status;
    c.timezone = i % 2 == 0 ? "America/New_York" : "Asia/Kolkata";
    c.agent_id = first_agent + i % 30;
    if (phones) c.phone_number_ids = {first_phone, first_phone + 1};
    c.contact_count = contacts ? 5 + static_cast<std::int64_t>(i % 7) : 0;
    c.created_at = t0 + 3600 + static_cast<std::int64_t>(i) * 3600;
    c.updated_at = c.created_at + 1800;
    t.campaigns.emplace(c.id, c);
    return c.id;
  };
  fx["bulk_call_campaign_id"] =
      std::to_string(make_campaign("Launchable draft", "draft", true, true, 0));
  fx["campaign_draft_id"] =
      std::to_string(make_campaign("Second launchable draft", "draft", true, true, 1));
  fx["campaign_no_contacts_id"] =
      std::to_string(make_campaign("Draft without contacts", "draft", false, true, 2));
  fx["campaign_no_phone_numbers_id"] =
      std::to_string(make_campaign("Draft without phone numbers", "draft", true, false, 3));
  fx["campaign_running_id"] =
      std::to_string(make_campaign("Running campaign", "running", true, true, 4));
  fx["campaign_paused_id"] =
      std::to_string(make_campaign("Paused campaign", "paused", true, true, 5));
  fx["campaign_completed_id"] =
      std::to_string(make_campaign("Completed campaign", "completed", true, true, 6));
  fx["campaign_cancelled_id"] =
      std::to_string(make_campaign("Cancelled campaign", "cancelled", true, true, 7));
  static constexpr std::array<const char*, 5> campaign_states = {"draft", "running", "paused",
                                                                 "completed", "cancelled"};
  const std::size_t campaign_total = 60 * static_cast<std::size_t>(scale);
  for (std::size_t i = 0; i < campaign_total; ++i) {
    std::uint64_t r = mix64(seed ^ (t.id << 20) ^ i);
    make_campaign(padded("Campaign", i + 1), campaign_states[r % campaign_states.size()], true,
                  true, i + 8);
  }
}

/// Voice sessions, 85 per scale unit, over the tenant's contacts and campaigns.
void seed_voice_sessions(tenant_seeding& ts, std::uint64_t seed, int scale) {
  tenant& t = ts.t;
  counters& n = ts.n;
  const std::int64_t t0 = ts.t0;
  fixture_map& fx = ts.fx;
  const id_t first_agent = t.agents.begin()->first;
  static constexpr std::array<const char*, 8> session_states = {
      "completed", "completed", "failed", "no_answer", "busy", "in_progress", "queued", "ringing"};
  std::vector<id_t> campaign_ids;
  for (const auto& [id, c] : t.campaigns) campaign_ids.push_back(id);
  const std::size_t session_total = 85 * static_cast<std::size_t>(scale);
  for (std::size_t i = 0; i < session_total; ++i) {
    voice_session v;
    v.id = n.session++;
    v.uuid = make_uuid(seed, v.id);
    std::uint64_t r = mix64(seed ^ (t.id << 24) ^ (i * 7919));
    v.status =
        i == 0 ? "completed" : (i == 1 ? "in_progress" : session_states[r % session_states.size()]);
    v.direction = r % 5 == 0 ? "inbound" : "outbound";
    v.agent_id = first_agent + (r >> 8) % 32;
    const auto& c =
        std::next(t.contacts.begin(), static_cast<long>((r >> 16) % t.contacts.size()))->second;
    v.contact_id = c.id;
    v.bulk_call_campaign_id =
        v.direction == "inbound" ? 0 : campaign_ids[(r >> 24) % campaign_ids.size()];
    v.from_number = v.direction == "inbound" ? c.phone_e164 : phone_for(t.id, 100);
    v.to_number = v.direction == "inbound" ? phone_for(t.id, 100) : c.phone_e164;
    v.created_at = t0 + 7200 + static_cast<std::int64_t>(i) * 600;
    v.started_at = v.created_at + 5;
    bool ended = v.status != "queued" && v.status != "ringing" && v.status != "in_progress";
    v.duration_seconds =
        v.status == "completed" ? 30 + static_cast<std::int64_t>((r >> 32) % 400) : 0;
    if (ended) v.ended_at = v.started_at + v.duration_seconds + 2;
    // updated_at is not monotonic in id, so sorting by it differs from id order
    v.updated_at = v.created_at + 60 + static_cast<std::int64_t>((r >> 40) % 5000);
    t.voice_sessions.emplace(v.id, v);
  }
  fx["voice_session_id"] = std::to_string(t.voice_sessions.begin()->first);
  fx["voice_session_running_id"] = std::to_string(std::next(t.voice_sessions.begin())->first);
  for (const auto& [id, v] : t.voice_sessions) {
    if (v.status == "queued") {
      fx["voice_session_queued_id"] = std::to_string(id);
      break;
    }
  }
}

/// Follow-ups: 4 in every status, the first scheduled.
void seed_follow_ups(tenant_seeding& ts) {
  tenant& t = ts.t;
  counters& n = ts.n;
  const std::int64_t t0 = ts.t0;
  fixture_map& fx = ts.fx;
  static constexpr std::array<const char*, 7> fu_states = {
      "scheduled", "pending", "in_progress", "completed", "cancelled", "expired", "failed"};
  static constexpr std::array<const char*, 3> fu_types = {"callback", "retry_call", "reminder"};
  static constexpr std::array<const char*, 4> fu_sources = {"agent", "rule", "manual", "api"};
  static constexpr std::array<const char*, 3> reasons = {"customer_requested_callback", "no_answer",
                                                         "busy"};
  for (std::size_t i = 0; i < 28; ++i) {
    follow_up f;
    f.id = n.follow_up++;
    f.status = fu_states[i % fu_states.size()];
    f.follow_up_type = fu_types[i % fu_types.size()];
    f.source = fu_sources[i % fu_sources.size()];
    f.reason_code = reasons[i % reasons.size()];
    f.priority = static_cast<std::int64_t>(i % 5);
    f.scheduled_at = t0 + 30 * 86400 + static_cast<std::int64_t>(i) * 3600;
    f.expires_at = f.scheduled_at + 7 * 86400;
    bool done = f.status == "completed" || f.status == "failed" || f.status == "in_progress";
    if (done) f.executed_at = f.scheduled_at + 60;
    f.attempt_count = done ? 1 : 0;
    if (f.status == "cancelled") f.cancellation_reason = "cancelled_by_user";
    if (i % 2 == 0) f.notes = "Call back after 5pm";
    const auto& c = std::next(t.contacts.begin(), static_cast<long>(i % t.contacts.size()))->second;
    f.contact_id = c.id;
    f.contact_name = *c.first_name + " " + *c.last_name;
    f.contact_phone = c.phone_e164;
    const auto& a = std::next(t.agents.begin(), static_cast<long>(i % t.agents.size()))->second;
    f.agent_id = a.id;
    f.agent_name = a.name;
    if (i % 3 != 2) {
      const auto& cp = t.campaigns.begin()->second;
      f.bulk_call_campaign_id = cp.id;
      f.bulk_call_campaign_name = cp.name;
      const auto& v = t.voice_sessions.begin()->second;
      f.voice_session_id = v.id;
      f.voice_session_uuid = v.uuid;
    }
    f.window_adherence = i % 4 != 3;
    t.follow_ups.emplace(f.id, f);
    std::string key = std::string("follow_up_") + f.status + "_id";
    if (f.status == std::string_view("scheduled") && fx.count("follow_up_id") == 0) {
      // The generic fixture that every operation's requests use (and cancel)
      // is one scheduled follow-up; the state fixture is another, so that a
      // run's state checks still find theirs scheduled.
      fx["follow_up_id"] = std::to_string(f.id);
    } else if (fx.find(key) == fx.end()) {
      fx[key] = std::to_string(f.id);
    }
  }
}

/// Contact memories, then knowledge bases and their sources.
void seed_memories_and_knowledge(tenant_seeding& ts) {
  tenant& t = ts.t;
  counters& n = ts.n;
  const std::int64_t t0 = ts.t0;
  fixture_map& fx = ts.fx;
  const id_t first_agent = t.agents.begin()->first;
  // contact memories
  for (std::size_t i = 0; i < 3; ++i) {
    contact_memory m;
    m.id = n.memory++;
    m.contact_id = std::next(t.contacts.begin(), static_cast<long>(i))->first;
    m.agent_id = first_agent;
    m.summary = "Interested in the premium plan";
    m.interaction_log = "Asked for pricing; promised a callback";
    m.last_updated_from_call_at = t0 + 86400;
    m.last_voice_session_id = t.voice_sessions.begin()->first;
    m.updated_at = t0 + 86400;
    m.runs_count = 1;
    t.memories.emplace(m.id, m);
  }
  // knowledge bases and sources
  static constexpr std::array<const char*, 4> src_types = {"url", "file", "text", "sitemap"};
  static constexpr std::array<const char*, 4> src_status = {"ready", "processing", "pending",
                                                            "failed"};
  static constexpr std::array<const char*, 4> src_stage = {"completed", "embedding", "queued",
                                                           "failed"};
  for (std::size_t k = 0; k < 3; ++k) {
    knowledge_base kb{n.kb++, padded("Knowledge base", k + 1)};
    t.knowledge_bases.emplace(kb.id, kb);
    for (std::size_t j = 0; j < 4; ++j) {
      knowledge_base_source src;
      src.id = n.source++;
      src.knowledge_base_id = kb.id;
      src.source_type = src_types[j];
      src.status = src_status[(j + k) % src_status.size()];
      src.ingest_stage = src_stage[(j + k) % src_stage.size()];
      src.title = padded("Source", j + 1);
      if (src.source_type == "url" || src.source_type == "sitemap") {
        src.source_uri = "https://example.com/docs/" + std::to_string(src.id);
      } else if (src.source_type == "file") {
        src.source_file_name = "handbook-" + std::to_string(src.id) + ".pdf";
        src.source_mime_type = "application/pdf";
        src.source_byte_size = 204800;
      } else {
        src.raw_text_input = "Opening hours are 9 to 5.";
      }
      t.sources.emplace(src.id, src);
    }
  }
  fx["knowledge_base_id"] = std::to_string(t.knowledge_bases.begin()->first);
  fx["knowledge_base_source_id"] = std::to_string(t.sources.begin()->first);
  fx["knowledge_base_other_id"] = std::to_string(std::next(t.knowledge_bases.begin())->first);
}

/// Invoices and the rate history.
void seed_billing(tenant_seeding& ts) {
  tenant& t = ts.t;
  counters& n = ts.n;
  fixture_map& fx = ts.fx;
  // invoices
  static constexpr std::array<const char*, 5> inv_status = {"paid", "open", "draft", "void",
                                                            "paid"};
  for (std::size_t i = 0; i < 5; ++i) {
    invoice inv;
    inv.id = n.invoice++;
    inv.number = "INV-" + std::to_string(t.id) + "-" + std::to_string(1000 + i);
    inv.status = inv_status[i];
    inv.currency = "USD";
    inv.period_start = base_time - static_cast<std::int64_t>(5 - i) * 30 * 86400;
    inv.period_end = inv.period_start + 30 * 86400;
    inv.issued_at = inv.period_end + 3600;
    inv.due_at = inv.issued_at + 14 * 86400;
    inv.line_items = {{"Outbound minutes", 1200 + static_cast<std::int64_t>(i) * 10, 2},
                      {"Phone number rental", 6, 150}};
    if (inv.status == "paid")
      inv.amount_paid_cents = 1200 * 2 + static_cast<std::int64_t>(i) * 20 + 900;
    t.invoices.emplace(inv.id, inv);
  }
  fx["invoice_id"] = std::to_string(t.invoices.begin()->first);
  // rate history
  std::int64_t rate = 150;
  for (std::size_t i = 0; i < 4; ++i) {
    rate_change rc{n.rate++,
                   base_time - static_cast<std::int64_t>(4 - i) * 45 * 86400,
                   rate,
                   rate + 25,
                   i % 2 == 0 ? "partner:1" : "system",
                   "volume tier change"};
    rate += 25;
    t.rate_history.push_back(rc);
  }
  t.current_rate = rate;
}

void seed_full_tenant(tenant& t, counters& n, std::uint64_t seed, int scale, fixture_map& fx) {
  tenant_seeding ts{t, n, base_time + static_cast<std::int64_t>(t.id % 100) * 86400, fx};
  seed_directory(ts);
  seed_campaigns(ts, seed, scale);
  seed_voice_sessions(ts, seed, scale);
  seed_follow_ups(ts);
  seed_memories_and_knowledge(ts);
  seed_billing(ts);
}

}  // namespace

void seed_store(store& s, std::uint64_t seed, int scale, const std::string& environment) {
  s.partners.emplace(1, partner{1, "Acme Voice Partners", 100000000});
  s.partners.emplace(2, partner{2, "Other Partner Ltd", 5000000});
  counters n;
  auto add_tenant = [&](id_t id, id_t partner_id, const std::string& name,
                        std::int64_t balance) -> tenant& {
    tenant t;
    t.id = id;
    t.partner_id = partner_id;
    t.name = name;
    t.status = "active";
    t.environment = environment;
    t.created_at = base_time + static_cast<std::int64_t>(id % 100) * 3600;
    t.balance_cents = balance;
    t.max_concurrent_calls = 10;
    t.current_rate = 150;
    return s.tenants.emplace(id, std::move(t)).first->second;
  };
  const std::array<std::pair<id_t, const char*>, 3> full = {
      std::pair<id_t, const char*>{101, "t1"}, {102, "t2"}, {103, "t3"}};
  for (const auto& [id, key] : full) {
    tenant& t =
        add_tenant(id, id == 103 ? 2 : 1, std::string("Tenant ") + key, id == 101 ? 25000 : 10000);
    seed_full_tenant(t, n, seed, scale, s.fixtures[key]);
  }
  for (id_t id = 104; id < 132; ++id) {
    add_tenant(id, 1, "Small tenant " + std::to_string(id), 1000);
  }
  for (id_t id = 132; id < 134; ++id) {
    add_tenant(id, 2, "Small tenant " + std::to_string(id), 1000);
  }
}

}  // namespace conform::reference::detail
