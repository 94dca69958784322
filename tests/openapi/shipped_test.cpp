// The shipped description (specs/voice-api.yaml with specs/permissions.yaml)
// against the product decisions: per operation its schemes, scopes per
// scheme, pagination, idempotency, JWT-only, tenant context (D2.2, D2.4,
// D2.6, D3, D4.1, D5.1, D6.1 of shared/decisions.md; C2, C4 of
// docs/api-choices.md). Operations are found by method and path, which the
// API description fixes; the operationIds are ours.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "openapi/loader.hpp"

namespace conform::openapi {
namespace {

enum class paging { none, page, cursor };
enum class idem { none, optional, required };
enum class tenant { none, header, path, body };

/// One row of the decisions. Scopes: "-" = the key type is not accepted,
/// "" = accepted with no scope, else the one scope it needs.
struct expected_op {
  const char* method;
  const char* path;
  const char* jwt;
  const char* tenant_key;
  const char* partner_key;
  paging list;
  idem key;
  tenant from;
  bool jwt_only = false;
};

// clang-format off
const expected_op decisions[] = {
  // D2.8 and C10: no credentials.
  {"GET", "/health", "-", "-", "-", paging::none, idem::none, tenant::none},
  {"GET", "/ready", "-", "-", "-", paging::none, idem::none, tenant::none},
  {"GET", "/telephony/{provider}/answer", "-", "-", "-", paging::none, idem::none, tenant::none},
  // D2.4 table; D4.1 (optional on every POST but the credit moves); C4.
  {"DELETE", "/follow-ups/{id}", "", "follow_ups:write", "-", paging::none, idem::none, tenant::header},
  {"GET", "/follow-ups/{id}/events", "", "follow_ups:read", "-", paging::none, idem::none, tenant::header},
  {"PATCH", "/contacts/{contact_id}/memory", "", "contacts:write", "-", paging::none, idem::none, tenant::header},
  {"POST", "/contacts/import", "", "contacts:write", "contacts:write", paging::none, idem::optional, tenant::header},
  {"POST", "/voice_sessions/{id}/run_analysis", "", "voice_sessions:write", "-", paging::none, idem::optional, tenant::header},
  {"GET", "/voice_sessions", "", "voice_sessions:read", "voice_sessions:read", paging::cursor, idem::none, tenant::header},
  {"GET", "/voice_sessions/{id}", "", "voice_sessions:read", "voice_sessions:read", paging::none, idem::none, tenant::header},
  {"PATCH", "/knowledge-bases/{knowledge_basis_id}/sources/{id}", "", "knowledge_bases:write", "-", paging::none, idem::none, tenant::header},
  {"GET", "/billing/tenants/{tenant_id}/rate-change-history", "", "billing:tenant:read", "billing:partner:read", paging::none, idem::none, tenant::path},
  {"GET", "/billing/invoices/{id}", "", "billing:tenant:read", "billing:partner:read", paging::none, idem::none, tenant::header},
  {"GET", "/bulk_call_campaigns", "", "bulk_call_campaigns:read", "bulk_call_campaigns:read", paging::page, idem::none, tenant::header},
  {"GET", "/bulk_call_campaigns/capacity_preview", "", "bulk_call_campaigns:read", "bulk_call_campaigns:read", paging::none, idem::none, tenant::header},
  {"POST", "/bulk_call_campaigns", "", "bulk_call_campaigns:write", "bulk_call_campaigns:write", paging::none, idem::optional, tenant::header},
  {"POST", "/bulk_call_campaigns/{id}/launch", "", "bulk_call_campaigns:write", "bulk_call_campaigns:write", paging::none, idem::optional, tenant::header},
  {"POST", "/bulk_call_campaigns/{id}/pause", "", "bulk_call_campaigns:write", "bulk_call_campaigns:write", paging::none, idem::optional, tenant::header},
  // C2: partner key only; C4: the partner itself, or the tenant in the body.
  {"GET", "/partner/tenants", "-", "-", "tenants:read", paging::page, idem::none, tenant::none},
  {"POST", "/billing/allocate-credits", "-", "-", "billing:partner:allocate", paging::none, idem::required, tenant::body},
  {"POST", "/billing/deallocate-credits", "-", "-", "billing:partner:allocate", paging::none, idem::required, tenant::body},
  // D2.2: JWT-only.
  {"GET", "/agents", "", "-", "-", paging::page, idem::none, tenant::header, true},
};
// clang-format on

std::ostream& operator<<(std::ostream& os, const expected_op& e) {
  return os << e.method << " " << e.path;
}

class shipped_spec : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    load_options opts;
    opts.require_permissions = true;
    result_ = new load_result(load(std::string(CONFORM_SPEC_DIR) + "/voice-api.yaml", opts));
  }
  static void TearDownTestSuite() {
    delete result_;
    result_ = nullptr;
  }
  static const api_spec& spec() { return *result_->spec; }
  static const operation* find(const expected_op& e) {
    for (const auto& op : spec().operations) {
      if (http::method_name(op.method) == e.method && op.path == e.path) return &op;
    }
    return nullptr;
  }
  void SetUp() override {
    std::string msgs;
    for (const auto& d : result_->diagnostics) msgs += to_string(d) + "\n";
    ASSERT_TRUE(result_->ok()) << msgs;
    ASSERT_TRUE(result_->diagnostics.empty()) << msgs;
  }
  static load_result* result_;
};

load_result* shipped_spec::result_ = nullptr;

TEST_F(shipped_spec, loads_with_no_diagnostic_and_has_the_22_operations) {
  EXPECT_EQ(spec().operations.size(), 22u);
  for (const auto& e : decisions) EXPECT_NE(find(e), nullptr) << e;
  EXPECT_EQ(std::size(decisions), 22u);
  ASSERT_TRUE(spec().permissions.has_value());
  EXPECT_EQ(spec().permissions->operations.size(), 22u);
}

TEST_F(shipped_spec, schemes_and_scopes_per_operation) {
  for (const auto& e : decisions) {
    SCOPED_TRACE(::testing::PrintToString(e));
    const operation* op = find(e);
    ASSERT_NE(op, nullptr);
    EXPECT_FALSE(op->operation_id.empty());
    const bool is_public = std::string(e.jwt) == "-" && std::string(e.tenant_key) == "-" &&
                           std::string(e.partner_key) == "-";
    EXPECT_EQ(op->needs_credentials(), !is_public);
    EXPECT_TRUE(op->security_declared);
    const std::pair<const char*, const char*> kinds[] = {
        {"jwt", e.jwt}, {"tenant_key", e.tenant_key}, {"partner_key", e.partner_key}};
    const auto accepted = op->accepted_schemes();
    for (const auto& [kind, want] : kinds) {
      SCOPED_TRACE(kind);
      const security_scheme* s = spec().find_scheme_named_by(kind);
      ASSERT_NE(s, nullptr);
      const bool takes = std::find(accepted.begin(), accepted.end(), s) != accepted.end();
      if (std::string(want) == "-") {
        EXPECT_FALSE(takes);
        continue;
      }
      ASSERT_TRUE(takes);
      const auto scopes = op->scopes_for(*s);
      ASSERT_TRUE(scopes.has_value());
      if (*want == '\0') {
        EXPECT_TRUE(scopes->empty());
      } else {
        EXPECT_EQ(*scopes, std::vector<std::string>{want});
      }
    }
    // The matrix row says the same (the loader checks it; this pins the row).
    const auto* row = spec().permissions->find_operation(op->operation_id);
    ASSERT_NE(row, nullptr);
    EXPECT_EQ(row->family, op->family);
  }
}

TEST_F(shipped_spec, jwt_only_is_get_agents_alone) {
  for (const auto& e : decisions) {
    SCOPED_TRACE(::testing::PrintToString(e));
    const operation* op = find(e);
    ASSERT_NE(op, nullptr);
    EXPECT_EQ(op->jwt_only, e.jwt_only);
    if (e.jwt_only) {
      EXPECT_EQ(op->jwt_only_status, 401);
      EXPECT_EQ(op->jwt_only_code, "JWT_REQUIRED");
    }
  }
}

TEST_F(shipped_spec, pagination_as_d3_says) {
  for (const auto& e : decisions) {
    SCOPED_TRACE(::testing::PrintToString(e));
    const operation* op = find(e);
    ASSERT_NE(op, nullptr);
    if (e.list == paging::none) {
      EXPECT_FALSE(op->paging.has_value());
      continue;
    }
    ASSERT_TRUE(op->paging.has_value());
    const pagination& p = *op->paging;
    EXPECT_EQ(p.default_size, 25);
    EXPECT_EQ(p.min_size, 1);
    EXPECT_EQ(p.max_size, 100);
    EXPECT_EQ(p.items, "/data/items");
    if (e.list == paging::page) {
      EXPECT_EQ(p.kind, pagination::style::page);
      EXPECT_EQ(p.page_param, "page");
      EXPECT_EQ(p.size_param, "per_page");
      EXPECT_EQ(p.count, "/meta/count");
      EXPECT_EQ(p.pages, "/meta/pages");
      EXPECT_EQ(p.page, "/meta/page");
    } else {
      EXPECT_EQ(p.kind, pagination::style::cursor);
      EXPECT_EQ(p.cursor_param, "cursor");
      EXPECT_EQ(p.size_param, "page_size");
      EXPECT_EQ(p.next_cursor, "/data/next_cursor");
      EXPECT_EQ(p.invalid_cursor_status, 422);
      EXPECT_EQ(p.invalid_cursor_code, "INVALID_CURSOR");
      for (const char* ignored : {"page", "per_page"}) {
        EXPECT_NE(std::find(p.ignored_params.begin(), p.ignored_params.end(), ignored),
                  p.ignored_params.end())
            << ignored;
      }
    }
  }
  // D3.3: filters and sort.
  const operation* campaigns = find(decisions[13]);
  ASSERT_NE(campaigns, nullptr);
  EXPECT_EQ(campaigns->paging->filter_params, std::vector<std::string>{"status"});
  EXPECT_EQ(campaigns->paging->sort_param, "sort");
  const operation* sessions = find(decisions[8]);
  ASSERT_NE(sessions, nullptr);
  auto f = sessions->paging->filter_params;
  std::sort(f.begin(), f.end());
  EXPECT_EQ(f, (std::vector<std::string>{"status", "updated_since"}));
  EXPECT_EQ(sessions->paging->sort_param, "sort");
}

TEST_F(shipped_spec, idempotency_as_d4_says) {
  for (const auto& e : decisions) {
    SCOPED_TRACE(::testing::PrintToString(e));
    const operation* op = find(e);
    ASSERT_NE(op, nullptr);
    if (e.key == idem::none) {
      EXPECT_FALSE(op->idempotent.has_value());
      continue;
    }
    ASSERT_TRUE(op->idempotent.has_value());
    const idempotency& i = *op->idempotent;
    EXPECT_EQ(i.header, "Idempotency-Key");
    EXPECT_EQ(i.required, e.key == idem::required);
    EXPECT_EQ(i.max_key_length, 255u);
    EXPECT_EQ(i.replayed_header, "Idempotent-Replayed");
    EXPECT_EQ(i.reused_status, 422);
    EXPECT_EQ(i.reused_code, "IDEMPOTENCY_KEY_REUSED");
    EXPECT_EQ(i.conflict_status, 409);
    EXPECT_EQ(i.conflict_code, "IDEMPOTENCY_CONFLICT");
    if (e.key == idem::required) {
      EXPECT_EQ(i.missing_status, 422);
      EXPECT_EQ(i.missing_code, "IDEMPOTENCY_KEY_REQUIRED");
    }
  }
}

TEST_F(shipped_spec, tenant_context_as_d2_6_and_c4_say) {
  for (const auto& e : decisions) {
    SCOPED_TRACE(::testing::PrintToString(e));
    const operation* op = find(e);
    ASSERT_NE(op, nullptr);
    switch (e.from) {
      case tenant::none:
        EXPECT_EQ(op->tenant.from, tenant_context::source::none);
        break;
      case tenant::header:
        EXPECT_EQ(op->tenant.from, tenant_context::source::header);
        EXPECT_EQ(op->tenant.name, "X-Tenant-Id");
        EXPECT_EQ(op->tenant.missing_status, 422);
        EXPECT_EQ(op->tenant.missing_code, "TENANT_CONTEXT_REQUIRED");
        break;
      case tenant::path:
        EXPECT_EQ(op->tenant.from, tenant_context::source::path);
        EXPECT_EQ(op->tenant.name, "tenant_id");
        EXPECT_EQ(op->tenant.header_name, "X-Tenant-Id");
        break;
      case tenant::body:
        EXPECT_EQ(op->tenant.from, tenant_context::source::body);
        EXPECT_EQ(op->tenant.name, "tenant_id");
        break;
    }
  }
}

TEST_F(shipped_spec, access_and_success_status) {
  for (const auto& e : decisions) {
    SCOPED_TRACE(::testing::PrintToString(e));
    const operation* op = find(e);
    ASSERT_NE(op, nullptr);
    EXPECT_EQ(op->access, std::string(e.method) == "GET" ? access_kind::read : access_kind::write);
    // D1.6: creating a campaign answers 201, every other success 200.
    const bool create =
        std::string(e.method) == "POST" && std::string(e.path) == "/bulk_call_campaigns";
    EXPECT_NE(op->find_response(create ? 201 : 200), nullptr);
    EXPECT_EQ(op->find_response(create ? 200 : 201), nullptr);
  }
}

TEST_F(shipped_spec, unknown_ids_answer_the_resource_code) {
  // D2.7: the 404 code of each resource a path names.
  const std::pair<const expected_op*, std::pair<const char*, const char*>> rows[] = {
      {&decisions[3], {"id", "FOLLOW_UP_NOT_FOUND"}},
      {&decisions[4], {"id", "FOLLOW_UP_NOT_FOUND"}},
      {&decisions[5], {"contact_id", "CONTACT_NOT_FOUND"}},
      {&decisions[7], {"id", "SESSION_NOT_FOUND"}},
      {&decisions[9], {"id", "SESSION_NOT_FOUND"}},
      {&decisions[10], {"knowledge_basis_id", "KNOWLEDGE_BASE_NOT_FOUND"}},
      {&decisions[10], {"id", "KNOWLEDGE_BASE_SOURCE_NOT_FOUND"}},
      {&decisions[12], {"id", "INVOICE_NOT_FOUND"}},
      {&decisions[16], {"id", "CAMPAIGN_NOT_FOUND"}},
      {&decisions[17], {"id", "CAMPAIGN_NOT_FOUND"}},
  };
  for (const auto& [e, want] : rows) {
    SCOPED_TRACE(::testing::PrintToString(*e));
    const operation* op = find(*e);
    ASSERT_NE(op, nullptr);
    const parameter* p = op->find_parameter(want.first, param_location::path);
    ASSERT_NE(p, nullptr) << want.first;
    ASSERT_TRUE(p->resource.has_value()) << want.first;
    EXPECT_EQ(p->resource->not_found_code, want.second);
    EXPECT_FALSE(p->resource->fixture.empty());
  }
}

TEST_F(shipped_spec, campaign_states_as_d5_1_says) {
  ASSERT_EQ(spec().state_machines.count("campaign"), 1u);
  const state_machine& m = spec().state_machines.at("campaign");
  auto states = m.states;
  std::sort(states.begin(), states.end());
  EXPECT_EQ(states,
            (std::vector<std::string>{"cancelled", "completed", "draft", "paused", "running"}));
  EXPECT_EQ(m.initial, "draft");
  auto terminal = m.terminal;
  std::sort(terminal.begin(), terminal.end());
  EXPECT_EQ(terminal, (std::vector<std::string>{"cancelled", "completed"}));
  const operation* launch = find(decisions[16]);
  const operation* pause = find(decisions[17]);
  ASSERT_NE(launch, nullptr);
  ASSERT_NE(pause, nullptr);
  std::vector<std::string> moves;
  for (const auto& t : m.transitions) {
    moves.push_back(t.from + " " + t.operation_id + " " + t.to);
  }
  std::sort(moves.begin(), moves.end());
  std::vector<std::string> want{"draft " + launch->operation_id + " running",
                                "paused " + launch->operation_id + " running",
                                "running " + pause->operation_id + " paused"};
  std::sort(want.begin(), want.end());
  EXPECT_EQ(moves, want);
  std::vector<std::string> codes;
  for (const auto& p : m.preconditions) {
    EXPECT_EQ(p.operation_id, launch->operation_id);
    codes.push_back(p.error_code);
  }
  EXPECT_EQ(codes, (std::vector<std::string>{"CAMPAIGN_HAS_NO_CONTACTS",
                                             "CAMPAIGN_HAS_NO_PHONE_NUMBERS"}));
  EXPECT_EQ(m.refused_status, 422);
  EXPECT_EQ(m.refused_code, "INVALID_STATE_TRANSITION");
  for (const operation* op : {launch, pause}) {
    ASSERT_TRUE(op->transition.has_value());
    EXPECT_EQ(op->transition->machine, "campaign");
    EXPECT_EQ(op->transition->parameter, "id");
  }
}

TEST_F(shipped_spec, schemes_keys_and_roles_as_d2_says) {
  const security_scheme* jwt = spec().find_scheme_named_by("jwt");
  const security_scheme* tk = spec().find_scheme_named_by("tenant_key");
  const security_scheme* pk = spec().find_scheme_named_by("partner_key");
  ASSERT_NE(jwt, nullptr);
  ASSERT_NE(tk, nullptr);
  ASSERT_NE(pk, nullptr);
  EXPECT_EQ(spec().schemes.size(), 3u);
  // What each does is said by its extensions, not its label.
  EXPECT_TRUE(jwt->is_jwt());  // bearerFormat: JWT
  EXPECT_EQ(jwt->tenants, security_scheme::tenant_reach::claimed);
  EXPECT_EQ(tk->tenants, security_scheme::tenant_reach::one);
  EXPECT_EQ(pk->tenants, security_scheme::tenant_reach::named);
  EXPECT_EQ(tk->credential, credential_kind::api_key);
  EXPECT_EQ(pk->credential, credential_kind::api_key);
  EXPECT_EQ(jwt->kind, security_scheme::type::http_bearer);
  EXPECT_EQ(jwt->header, "Authorization");
  EXPECT_EQ(jwt->role_claim, "role");
  auto roles = jwt->roles;
  std::sort(roles.begin(), roles.end());
  EXPECT_EQ(roles, (std::vector<std::string>{"admin", "member", "viewer"}));
  EXPECT_EQ(jwt->read_only_roles, std::vector<std::string>{"viewer"});
  EXPECT_EQ(tk->header, "X-Api-Key");
  EXPECT_EQ(pk->header, "X-Partner-Api-Key");
  EXPECT_EQ(tk->key_prefixes.at("sandbox"), "tk_test_");
  EXPECT_EQ(tk->key_prefixes.at("production"), "tk_live_");
  EXPECT_EQ(pk->key_prefixes.at("sandbox"), "pk_test_");
  EXPECT_EQ(pk->key_prefixes.at("production"), "pk_live_");
}

TEST_F(shipped_spec, opt_in_scopes_are_never_default_grants) {
  const permission_matrix& m = *spec().permissions;
  for (const char* name : {"billing:partner:allocate", "call_traces:admin_read"}) {
    const auto* s = m.find_scope(name);
    ASSERT_NE(s, nullptr) << name;
    EXPECT_TRUE(s->opt_in) << name;
    EXPECT_FALSE(s->default_grant) << name;
  }
  for (const char* name : {"follow_ups:read", "follow_ups:write", "voice_sessions:write",
                           "knowledge_bases:write", "agents:read", "tenants:read"}) {
    EXPECT_NE(m.find_scope(name), nullptr) << name;  // D2.4
  }
}

TEST_F(shipped_spec, root_rules_as_d1_and_d6_say) {
  const api_rules& r = spec().rules;
  EXPECT_EQ(r.request_id_header, "X-Request-Id");
  EXPECT_EQ(r.request_id_pattern, "^[A-Za-z0-9._-]{1,128}$");
  EXPECT_EQ(r.rate_limited_status, 429);
  EXPECT_EQ(r.rate_limited_code, "RATE_LIMITED");
  EXPECT_EQ(r.retry_after_header, "Retry-After");
  EXPECT_EQ(r.max_body_bytes, 1048576u);
  EXPECT_EQ(r.max_multipart_bytes, 10485760u);
  ASSERT_NE(r.success_envelope, nullptr);
  ASSERT_NE(r.error_envelope, nullptr);
  for (const auto& [status, code] :
       std::vector<std::pair<int, std::string>>{{404, "NOT_FOUND"},
                                                {405, "METHOD_NOT_ALLOWED"},
                                                {413, "PAYLOAD_TOO_LARGE"},
                                                {500, "INTERNAL_ERROR"}}) {
    EXPECT_NE(std::find_if(r.generic_errors.begin(), r.generic_errors.end(),
                           [&status = status, &code = code](const auto& g) {
                             return g.status == status && g.code == code;
                           }),
              r.generic_errors.end())
        << status;
  }
  EXPECT_EQ(r.environments, (std::vector<std::string>{"sandbox", "production"}));
}

}  // namespace
}  // namespace conform::openapi
