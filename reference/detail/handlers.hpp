#pragma once
// The per-family handlers. Each runs after the pipeline has authenticated the
// caller, fixed the effective tenant and parsed the body (D6.3 steps 1-11),
// and performs steps 12-15 itself: path resource, body validation, named
// resources, business rules.

#include "reference/detail/context.hpp"

namespace conform::reference::detail {

// Campaigns (handlers_campaigns.cpp)
/// GET /bulk_call_campaigns (page list, status filter, sort).
reply list_campaigns(request_ctx& ctx);
/// POST /bulk_call_campaigns (201).
reply create_campaign(request_ctx& ctx);
/// POST /bulk_call_campaigns/{id}/launch.
reply launch_campaign(request_ctx& ctx);
/// POST /bulk_call_campaigns/{id}/pause.
reply pause_campaign(request_ctx& ctx);
/// GET /bulk_call_campaigns/capacity_preview.
reply capacity_preview(request_ctx& ctx);

// Voice sessions and agents (handlers_sessions.cpp)
/// GET /voice_sessions (cursor list).
reply list_voice_sessions(request_ctx& ctx);
/// GET /voice_sessions/{id}.
reply get_voice_session(request_ctx& ctx);
/// POST /voice_sessions/{id}/run_analysis.
reply run_analysis(request_ctx& ctx);
/// GET /agents (page list, JWT only).
reply list_agents(request_ctx& ctx);

// Follow-ups, contacts, knowledge bases (handlers_records.cpp)
/// DELETE /follow-ups/{id}.
reply cancel_follow_up(request_ctx& ctx);
/// GET /follow-ups/{id}/events.
reply get_follow_up_events(request_ctx& ctx);
/// PATCH /contacts/{contact_id}/memory.
reply update_contact_memory(request_ctx& ctx);
/// PATCH /knowledge-bases/{knowledge_basis_id}/sources/{id}.
reply update_knowledge_base_source(request_ctx& ctx);
/// POST /contacts/import (multipart).
reply import_contacts(request_ctx& ctx);

// Billing and partner (handlers_billing.cpp)
/// GET /billing/tenants/{tenant_id}/rate-change-history.
reply rate_change_history(request_ctx& ctx);
/// GET /billing/invoices/{id}.
reply get_invoice(request_ctx& ctx);
/// GET /partner/tenants (page list).
reply list_partner_tenants(request_ctx& ctx);
/// POST /billing/allocate-credits.
reply allocate_credits(request_ctx& ctx);
/// POST /billing/deallocate-credits.
reply deallocate_credits(request_ctx& ctx);

// Health and webhooks (handlers_misc.cpp)
/// GET /health.
reply health(request_ctx& ctx);
/// GET /ready.
reply ready(request_ctx& ctx);
/// GET /telephony/{provider}/answer.
reply telephony_answer(request_ctx& ctx);

}  // namespace conform::reference::detail
