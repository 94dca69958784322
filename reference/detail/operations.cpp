#include "reference/detail/operations.hpp"

#include "reference/detail/handlers.hpp"

namespace conform::reference::detail {

namespace {

operation make(std::string_view id, std::string_view method, std::string_view path, handler_fn fn) {
  operation op;
  op.operation_id = id;
  op.method = method;
  op.path = path;
  op.handler = fn;
  op.write = method != "GET";
  return op;
}

// What only a tenant's own credentials reach: no partner key.
void add_tenant_only_operations(std::vector<operation>& t) {
  {
    auto op = make("cancelFollowUp", "DELETE", "/follow-ups/{id}", cancel_follow_up);
    op.partner_key = false;
    op.tenant_scope = "follow_ups:write";
    op.not_found_code = "FOLLOW_UP_NOT_FOUND";
    t.push_back(op);
  }
  {
    auto op = make("getFollowUpEvents", "GET", "/follow-ups/{id}/events", get_follow_up_events);
    op.partner_key = false;
    op.tenant_scope = "follow_ups:read";
    op.not_found_code = "FOLLOW_UP_NOT_FOUND";
    t.push_back(op);
  }
  {
    auto op = make("updateContactMemory", "PATCH", "/contacts/{contact_id}/memory",
                   update_contact_memory);
    op.partner_key = false;
    op.tenant_scope = "contacts:write";
    op.body = body_kind::json;
    op.not_found_code = "CONTACT_NOT_FOUND";
    t.push_back(op);
  }
  {
    auto op =
        make("runVoiceSessionAnalysis", "POST", "/voice_sessions/{id}/run_analysis", run_analysis);
    op.partner_key = false;
    op.tenant_scope = "voice_sessions:write";
    op.body = body_kind::json;
    op.not_found_code = "SESSION_NOT_FOUND";
    t.push_back(op);
  }
  {
    auto op =
        make("updateKnowledgeBaseSource", "PATCH",
             "/knowledge-bases/{knowledge_basis_id}/sources/{id}", update_knowledge_base_source);
    op.partner_key = false;
    op.tenant_scope = "knowledge_bases:write";
    op.body = body_kind::json;
    op.not_found_code = "KNOWLEDGE_BASE_NOT_FOUND";
    t.push_back(op);
  }
}

// Billing: a tenant's history and invoices, a partner's credits.
void add_billing_operations(std::vector<operation>& t) {
  {
    auto op = make("getRateChangeHistory", "GET",
                   "/billing/tenants/{tenant_id}/rate-change-history", rate_change_history);
    op.tenant_scope = "billing:tenant:read";
    op.partner_scope = "billing:partner:read";
    op.tenant_from = tenant_source::path;
    op.not_found_code = "TENANT_NOT_FOUND";
    t.push_back(op);
  }
  {
    auto op = make("getInvoice", "GET", "/billing/invoices/{id}", get_invoice);
    op.tenant_scope = "billing:tenant:read";
    op.partner_scope = "billing:partner:read";
    op.not_found_code = "INVOICE_NOT_FOUND";
    t.push_back(op);
  }
  {
    auto op = make("allocateCredits", "POST", "/billing/allocate-credits", allocate_credits);
    op.jwt = op.tenant_key = false;
    op.partner_scope = "billing:partner:allocate";
    op.tenant_from = tenant_source::body;
    op.body = body_kind::json;
    op.idempotency_required = true;
    t.push_back(op);
  }
  {
    auto op = make("deallocateCredits", "POST", "/billing/deallocate-credits", deallocate_credits);
    op.jwt = op.tenant_key = false;
    op.partner_scope = "billing:partner:allocate";
    op.tenant_from = tenant_source::body;
    op.body = body_kind::json;
    op.idempotency_required = true;
    t.push_back(op);
  }
}

// Bulk call campaigns.
void add_campaign_operations(std::vector<operation>& t) {
  {
    auto op = make("listCampaigns", "GET", "/bulk_call_campaigns", list_campaigns);
    op.tenant_scope = op.partner_scope = "bulk_call_campaigns:read";
    t.push_back(op);
  }
  {
    auto op = make("createCampaign", "POST", "/bulk_call_campaigns", create_campaign);
    op.tenant_scope = op.partner_scope = "bulk_call_campaigns:write";
    op.body = body_kind::json;
    t.push_back(op);
  }
  {
    auto op = make("launchCampaign", "POST", "/bulk_call_campaigns/{id}/launch", launch_campaign);
    op.tenant_scope = op.partner_scope = "bulk_call_campaigns:write";
    op.not_found_code = "CAMPAIGN_NOT_FOUND";
    t.push_back(op);
  }
  {
    auto op = make("pauseCampaign", "POST", "/bulk_call_campaigns/{id}/pause", pause_campaign);
    op.tenant_scope = op.partner_scope = "bulk_call_campaigns:write";
    op.not_found_code = "CAMPAIGN_NOT_FOUND";
    t.push_back(op);
  }
  {
    auto op = make("getCapacityPreview", "GET", "/bulk_call_campaigns/capacity_preview",
                   capacity_preview);
    op.tenant_scope = op.partner_scope = "bulk_call_campaigns:read";
    t.push_back(op);
  }
}

// Agents, voice sessions, contacts, and the partner's tenants.
void add_session_operations(std::vector<operation>& t) {
  {
    auto op = make("listAgents", "GET", "/agents", list_agents);
    op.tenant_key = op.partner_key = false;
    op.jwt_only = true;
    t.push_back(op);
  }
  {
    auto op = make("listVoiceSessions", "GET", "/voice_sessions", list_voice_sessions);
    op.tenant_scope = op.partner_scope = "voice_sessions:read";
    t.push_back(op);
  }
  {
    auto op = make("getVoiceSession", "GET", "/voice_sessions/{id}", get_voice_session);
    op.tenant_scope = op.partner_scope = "voice_sessions:read";
    op.not_found_code = "SESSION_NOT_FOUND";
    t.push_back(op);
  }
  {
    auto op = make("importContacts", "POST", "/contacts/import", import_contacts);
    op.tenant_scope = op.partner_scope = "contacts:write";
    op.body = body_kind::multipart;
    t.push_back(op);
  }
  {
    auto op = make("listPartnerTenants", "GET", "/partner/tenants", list_partner_tenants);
    op.jwt = op.tenant_key = false;
    op.partner_scope = "tenants:read";
    op.tenant_from = tenant_source::none;
    t.push_back(op);
  }
}

// What answers without credentials: the telephony provider's callback, health, readiness.
void add_public_operations(std::vector<operation>& t) {
  {
    auto op = make("answerTelephonyCall", "GET", "/telephony/{provider}/answer", telephony_answer);
    op.authenticated = false;
    op.tenant_from = tenant_source::none;
    op.not_found_code = "PROVIDER_NOT_FOUND";
    t.push_back(op);
  }
  {
    auto op = make("getHealth", "GET", "/health", health);
    op.authenticated = false;
    op.tenant_from = tenant_source::none;
    t.push_back(op);
  }
  {
    auto op = make("getReady", "GET", "/ready", ready);
    op.authenticated = false;
    op.tenant_from = tenant_source::none;
    t.push_back(op);
  }
}

std::vector<operation> build_table() {
  std::vector<operation> t;
  add_tenant_only_operations(t);
  add_billing_operations(t);
  add_campaign_operations(t);
  add_session_operations(t);
  add_public_operations(t);
  return t;
}

std::vector<std::string_view> split(std::string_view path) {
  std::vector<std::string_view> out;
  std::size_t pos = 0;
  while (pos <= path.size()) {
    auto next = path.find('/', pos);
    if (next == std::string_view::npos) next = path.size();
    out.push_back(path.substr(pos, next - pos));
    pos = next + 1;
  }
  return out;
}

bool match_segments(std::string_view pattern, const std::vector<std::string_view>& segs,
                    std::vector<std::string>& params) {
  auto pat = split(pattern.substr(1));
  if (pat.size() != segs.size()) return false;
  std::vector<std::string> found;
  for (std::size_t i = 0; i < pat.size(); ++i) {
    if (!pat[i].empty() && pat[i].front() == '{') {
      if (segs[i].empty()) return false;
      found.emplace_back(segs[i]);
    } else if (pat[i] != segs[i]) {
      return false;
    }
  }
  params = std::move(found);
  return true;
}

}  // namespace

const std::vector<operation>& operations() {
  static const std::vector<operation> table = build_table();
  return table;
}

route_match match_route(std::string_view path, std::string_view method) {
  route_match m;
  constexpr std::string_view prefix = "/api/v1/";
  if (path.substr(0, prefix.size()) != prefix) return m;
  auto segs = split(path.substr(prefix.size()));
  std::string_view effective = method == "HEAD" ? std::string_view("GET") : method;
  // A literal segment wins over a parameter: try exact literals first.
  const operation* literal_match = nullptr;
  std::vector<std::string> literal_params;
  for (const auto& op : operations()) {
    std::vector<std::string> params;
    if (!match_segments(op.path, segs, params)) continue;
    if (!m.path_known || m.allowed.find(op.method) == std::string::npos) {
      if (!m.allowed.empty()) m.allowed += ", ";
      m.allowed += op.method;
    }
    m.path_known = true;
    if (op.method != effective) continue;
    bool has_params = !params.empty();
    if (!has_params) {
      literal_match = &op;
      literal_params = std::move(params);
    } else if (m.op == nullptr) {
      m.op = &op;
      m.params = std::move(params);
    }
  }
  if (literal_match != nullptr) {
    m.op = literal_match;
    m.params = std::move(literal_params);
  }
  return m;
}

}  // namespace conform::reference::detail
