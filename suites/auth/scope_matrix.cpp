// The scope matrix: every covered operation against every usable credential
// of the profile, the expected outcome read from the description alone.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "suites/auth/checks.hpp"
#include "suites/auth/support.hpp"
#include "suites/idempotency/requests.hpp"

namespace conform::suites::auth {
namespace {

using harness::probe;
using harness::results_sink;
using harness::scenario_context;
using harness::scenario_failure;
using profile::credential;

/// What the description says `c` gets on `op`: a refusal and why, that it is
/// let through, or that the profile does not say enough to tell.
struct expectation {
  std::optional<expected_refusal> refused;  // nullopt: neither 401 nor 403
  std::string reason;                       // why; stable (no ids)
  std::string rule;
  std::optional<std::string> cannot_tell;  // the cell cannot run: why
};

expectation expect(const openapi::api_spec& spec, const openapi::operation& op,
                   const profile::credential& c, const profile::target& target) {
  expectation e;
  const auto* scheme = accepted_scheme(op, c);
  const std::string& kind = c.kind;
  if (!scheme) {
    if (op.jwt_only && !c.is_jwt(spec) && op.jwt_only_status != 0) {
      e.refused = expected_refusal{op.jwt_only_status, {}};
      if (!op.jwt_only_code.empty()) e.refused->codes.push_back(op.jwt_only_code);
      e.reason = "a " + kind + " on a JWT-only operation";
      e.rule = "x-jwt-only";
      return e;
    }
    e.refused = auth_refusal(spec, op, refusal_kind::forbidden);
    e.reason = "a " + kind + ", a credential type the operation does not accept";
    e.rule = "OpenAPI security";
    return e;
  }
  const auto needed = op.scopes_for(*scheme).value_or(std::vector<std::string>{});
  if (!needed.empty()) {
    if (!c.scopes) {
      e.cannot_tell = std::string(target.noun()) + " does not state the scopes of " + c.name +
                      " (the operation needs " + join(needed) + "): add its scopes";
      return e;
    }
    std::vector<std::string> missing;
    for (const auto& s : needed) {
      if (std::find(c.scopes->begin(), c.scopes->end(), s) == c.scopes->end()) {
        missing.push_back(s);
      }
    }
    if (!missing.empty()) {
      e.refused = auth_refusal(spec, op, refusal_kind::forbidden);
      e.reason = c.scopes->empty() ? "a credential without scopes (needs " + join(needed) + ")"
                                   : "scope " + join(missing) + " missing";
      e.rule = "OpenAPI security scopes";
      return e;
    }
  }
  if (op.access == openapi::access_kind::write && !scheme->read_only_roles.empty()) {
    if (c.role.empty()) {
      e.cannot_tell = std::string(target.noun()) + " does not state the role of " + c.name +
                      " and the operation writes: add its role";
      return e;
    }
    const auto& ro = scheme->read_only_roles;
    if (std::find(ro.begin(), ro.end(), c.role) != ro.end()) {
      e.refused = auth_refusal(spec, op, refusal_kind::forbidden);
      e.reason = "the read-only role " + c.role + " on a write operation";
      e.rule = "x-roles";
      return e;
    }
  }
  if (op.tenant.from != openapi::tenant_context::source::none && c.tenants.empty()) {
    e.cannot_tell = std::string(target.noun()) + " names no tenant for " + c.name +
                    ", and the operation acts for a tenant: add its tenants";
    return e;
  }
  e.reason = "a sufficient credential";
  e.rule = "OpenAPI security scopes; x-roles";
  return e;
}

void judge(scenario_context& ctx, results_sink& results, const openapi::operation& op,
           const std::string& label, const expectation& e, const probe& p,
           const std::string& steps) {
  // A 429 may come before the scope check (docs/checks.md): it says nothing either way.
  if (auto why = p.unjudgeable(ctx.spec())) {
    results.not_run(&op, label, scope_matrix_check, *why);
    return;
  }
  const bool held = e.refused ? e.refused->matches(p) : p.status() != 401 && p.status() != 403;
  if (held) {
    results.pass(op, label, scope_matrix_check);
    return;
  }
  scenario_failure f;
  f.expected = (e.refused ? e.refused->text() : std::string("neither 401 nor 403")) + " for " +
               e.reason + " (" + e.rule + ")";
  f.seen = p.summary();
  f.cause = e.reason + ": answered " + outcome_class(p);
  f.steps = steps;
  f.evidence = {&p};
  results.fail(op, label, scope_matrix_check, f, ctx);
}

}  // namespace

void run_scope_matrix(scenario_context& ctx, results_sink& results) {
  bool any_credential = false;
  for (const auto& c : ctx.target().credentials)
    any_credential = any_credential || harness::credential_selector::usable(c);
  if (!any_credential) {
    results.not_run(nullptr, "", scope_matrix_check,
                    std::string(ctx.target().noun()) +
                        " has no usable credential (not expired, of this environment, not "
                        "rate-limited)");
    return;
  }
  for (const auto* op : ctx.operations()) {
    if (!op->needs_credentials()) continue;
    for (const auto& c : ctx.target().credentials) {
      // Expired and other-environment credentials are auth_credential_rejected's;
      // rate-limited ones belong to the rate-limit checks.
      if (!harness::credential_selector::usable(c)) continue;
      const auto choice = ctx.credentials().auth_for(*op, c);
      const std::string label = choice.model.label();
      if (!choice.model.scheme) {
        results.not_run(op, label, scope_matrix_check,
                        "the description has no security scheme for " + c.kind + " credentials");
        continue;
      }
      const expectation e = expect(ctx.spec(), *op, c, ctx.target());
      if (e.cannot_tell) {
        results.not_run(op, label, scope_matrix_check, *e.cannot_tell);
        continue;
      }
      auto made = make_safe_request(ctx, *op, choice, "auth-matrix");
      if (!made.request) {
        results.not_run(op, label, scope_matrix_check, "no valid request: " + made.why);
        continue;
      }
      // A sufficient credential's request is processed: where x-idempotency
      // declares an effect it moves something real, so it moves little.
      if (op->idempotent && !op->idempotent->effect.operation_id.empty()) {
        made.request = idempotency::with_small_numbers(*op, std::move(*made.request), 0);
      }
      const probe p = ctx.send(ctx.build(*op, made.auth, *made.request));
      judge(ctx, results, *op, label, e, p, "sent a valid request with " + c.name);
    }
  }
}

}  // namespace conform::suites::auth
