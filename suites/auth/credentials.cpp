// The credential checks of the auth scenario: missing, unknown, malformed,
// expired, other-environment and tampered credentials, and JWT-only routes.
#include <algorithm>
#include <map>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "core/base64.hpp"
#include "suites/auth/checks.hpp"
#include "suites/auth/jwt.hpp"
#include "suites/auth/support.hpp"

namespace conform::suites::auth {
namespace {

using harness::auth_choice;
using harness::probe;
using harness::results_sink;
using harness::scenario_context;
using harness::scenario_failure;
using profile::credential;

std::vector<const openapi::operation*> authenticated(const scenario_context& ctx) {
  std::vector<const openapi::operation*> out;
  for (const auto* op : ctx.operations()) {
    if (op->needs_credentials()) out.push_back(op);
  }
  return out;
}

/// The refusal of a missing or bad credential (401 where x-auth-refusals
/// says so, else 401 or 403) with a documented code, never the JWT-only one
/// (that answers a valid credential of the wrong kind).
expected_refusal unauthorized(const openapi::api_spec& spec, const openapi::operation& op) {
  std::vector<std::string> excluded;
  if (op.jwt_only && !op.jwt_only_code.empty()) excluded.push_back(op.jwt_only_code);
  return auth_refusal(spec, op, refusal_kind::unauthenticated, excluded);
}

/// `target` without the query parameter `name`.
std::string without_query_param(const std::string& target, const std::string& name) {
  const auto q = target.find('?');
  if (q == std::string::npos) return target;
  std::string out = target.substr(0, q), sep = "?";
  std::size_t at = q + 1;
  while (at <= target.size()) {
    auto end = target.find('&', at);
    if (end == std::string::npos) end = target.size();
    const std::string pair = target.substr(at, end - at);
    const std::string key = pair.substr(0, pair.find('='));
    if (!pair.empty() && key != core::percent_encode(name)) {
      out += sep + pair;
      sep = "&";
    }
    at = end + 1;
  }
  return out;
}

/// Puts `token` on `req` as `scheme` carries it, in place of any credential.
void put_credential(http::request& req, const openapi::api_spec& spec,
                    const openapi::security_scheme* scheme, std::string token) {
  using type = openapi::security_scheme::type;
  for (const auto& s : spec.schemes) {
    if (s->kind == type::api_key_query) {
      req.target = without_query_param(req.target, s->param);
    } else if (!s->header.empty()) {
      req.remove_header(s->header);
    }
  }
  if (!scheme) return;
  switch (scheme->kind) {
    case type::http_bearer:
      req.set_header(scheme->header, "Bearer " + token);
      return;
    case type::http_basic:
    case type::http_digest:
      req.set_header(scheme->header, "Basic " + token);
      return;
    case type::api_key_header:
      req.set_header(scheme->header, std::move(token));
      return;
    case type::api_key_query:
      req.target += (req.target.find('?') == std::string::npos ? "?" : "&") +
                    core::percent_encode(scheme->param) + "=" + core::percent_encode(token);
      return;
    case type::api_key_cookie:
      req.set_header(scheme->header, scheme->param + "=" + token);
      return;
    case type::mutual_tls:
      return;  // a certificate travels in the handshake: put_credential never forges one
  }
}

/// A sufficient auth model of `op` (fixtures from its tenant), else one with
/// the profile's first tenant and no credential.
auth_choice base_choice(const scenario_context& ctx, const openapi::operation& op) {
  auto sufficient = ctx.credentials().sufficient_models(op);
  if (!sufficient.empty()) return sufficient.front();
  auth_choice bare;
  bare.model.name = "none";
  if (!ctx.target().tenants.empty()) bare.tenant = &ctx.target().tenants.front();
  return bare;
}

/// Whether a request of an operation reaches a resource that exists: the
/// same request with a sufficient credential, sent once per operation,
/// answered 2xx. A server may answer 404 for an unknown resource before it
/// looks at credentials (RFC 9110 section 15.5.5 lets it hide what exists),
/// so a 404 to a request that should be refused is judged only when the
/// resource is known to exist; a path parameter Conform made up proves
/// nothing (issue 37: 99 of 102 such failures on a real server were false).
/// Only safe methods are sent as a control: a write with a credential would
/// act.
class reach_control {
 public:
  /// nullopt when a sufficient credential's request of `op` answered 2xx;
  /// else why the resource is not known to exist.
  std::optional<std::string> why_not(scenario_context& ctx, const openapi::operation& op) {
    auto [it, added] = why_not_.try_emplace(&op);
    if (!added) return it->second;
    const bool safe = op.method == http::verb::get || op.method == http::verb::head ||
                      op.method == http::verb::options;
    if (!safe) {
      it->second =
          "no request with a credential was sent to tell an unknown resource from a "
          "refusal (" +
          op.method_name() + " would act)";
      return it->second;
    }
    const auth_choice base = base_choice(ctx, op);
    if (base.model.name == "none") {
      it->second = "no credential of " + std::string(ctx.target().noun()) +
                   " may call it, so no request is known to reach a resource";
      return it->second;
    }
    auto made = make_safe_request(ctx, op, base, "auth-reach-control");
    if (!made.request) {
      it->second = "no valid request with a credential could be made: " + made.why;
      return it->second;
    }
    const probe control = ctx.send(ctx.build(op, made.auth, *made.request));
    if (control.answered() && control.status() >= 200 && control.status() < 300) {
      it->second = std::nullopt;
    } else {
      it->second = "the same request with a sufficient credential answered " +
                   (control.answered() ? std::to_string(control.status()) : "nothing") +
                   ", so the resource is not known to exist (its path parameters were made "
                   "up, not learned from a 2xx answer)";
    }
    return it->second;
  }

 private:
  std::map<const openapi::operation*, std::optional<std::string>> why_not_;
};

/// Passes the cell when `p` is `want`, else reports it; an unanswered probe
/// makes the cell not run (a refusal cannot be judged without an answer),
/// and so does a 404 when `reach` cannot show that the resource exists.
void judge(scenario_context& ctx, results_sink& results, const openapi::operation& op,
           const std::string& label, std::string_view check, const expected_refusal& want,
           const std::string& what, const std::string& rule, const probe& shown, const probe& p,
           const std::string& steps, reach_control& reach) {
  // --no-auth: the probe went out, and the checks that judge any answer
  // judged it (a 500 is still a fault), but no refusal is expected.
  if (!ctx.target().enforces_security) {
    results.not_run(&op, label, check,
                    what +
                        ": --no-auth: the target is said not to enforce the description's "
                        "security, so no refusal is expected (the answer was judged alone)");
    return;
  }
  if (auto why = p.unjudgeable(ctx.spec())) {
    results.not_run(&op, label, check, what + ": " + *why);
    return;
  }
  if (want.matches(p)) {
    results.pass(op, label, check);
    return;
  }
  if (p.status() == 404) {
    if (auto why = reach.why_not(ctx, op)) {
      results.not_run(&op, label, check, what + ": answered 404, and " + *why);
      return;
    }
  }
  scenario_failure f;
  f.expected = want.text() + " for " + what + " (" + rule + ")";
  f.seen = p.summary();
  f.cause = what + ": answered " + outcome_class(p);
  f.steps = steps;
  f.evidence = {&shown};
  results.fail(op, label, check, f, ctx);
}

/// The first usable JWT of the profile in compact form, preferring one
/// sufficient for `op` (so that only the tampering can explain a refusal).
const profile::credential* usable_jwt(const scenario_context& ctx, const openapi::operation* op,
                                      const openapi::security_scheme* scheme) {
  const profile::credential* fallback = nullptr;
  for (const auto& c : ctx.target().credentials) {
    if (!c.is_jwt(ctx.spec()) || !harness::credential_selector::usable(c)) continue;
    if (!jwt::compact_token::parse(c.value.reveal())) continue;
    if (!op || !scheme || harness::credential_selector::sufficient(*op, *scheme, c)) return &c;
    if (!fallback) fallback = &c;
  }
  return fallback;
}

/// The claim to change under the old signature, and its new value: the
/// role claim (x-roles) set to a role the token does not hold (read from the
/// token itself, whatever the profile says), preferring one that may write;
/// else ("", ""): payload_changed alters a claim of the token's own.
std::pair<std::string, std::string> forged_claim(const openapi::security_scheme& scheme,
                                                 const profile::credential& c,
                                                 const jwt::compact_token& token) {
  if (scheme.role_claim.empty()) return {};
  const std::string held = jwt::string_claim(token, scheme.role_claim).value_or(c.role);
  std::string value;
  for (const auto& role : scheme.roles) {
    if (role == held) continue;
    const bool read_only = std::find(scheme.read_only_roles.begin(), scheme.read_only_roles.end(),
                                     role) != scheme.read_only_roles.end();
    if (value.empty() || !read_only) value = role;
    if (!read_only) break;
  }
  if (value.empty()) return {};
  return {scheme.role_claim, value};
}

/// Why `forged` is not a forgery of `token` in the way it claims, or nullopt.
std::optional<std::string> not_forged(const jwt::compact_token& token,
                                      const jwt::compact_token& forged, bool keeps_signature) {
  if (forged.text() == token.text()) {
    return "the forged token would equal the real one (" +
           std::string(token.signature.empty() ? "it has no signature" : "nothing changed") +
           "), so a refusal or an acceptance shows nothing";
  }
  if (keeps_signature && !jwt::payload_differs(token, forged)) {
    return "no claim of the token could be changed, so the payload under the old signature "
           "would be the signed one";
  }
  return std::nullopt;
}

}  // namespace

void run_unauthenticated(scenario_context& ctx, results_sink& results) {
  reach_control reach;
  const auto& spec = ctx.spec();
  for (const auto* op : authenticated(ctx)) {
    const auth_choice base = base_choice(ctx, *op);
    auto made = make_safe_request(ctx, *op, base, "auth-unauthenticated");
    if (!made.request) {
      results.not_run(op, "none", unauthenticated_check, "no valid request: " + made.why);
      continue;
    }
    const auto want = unauthorized(ctx.spec(), *op);
    const http::request template_req = ctx.build(*op, made.auth, *made.request);

    http::request bare = template_req;
    put_credential(bare, spec, nullptr, "");
    bare.client_identity.clear();
    const probe none = ctx.send(bare);
    judge(ctx, results, *op, "none", unauthenticated_check, want, "no credential",
          "OpenAPI security", none, none, "sent a valid request without any credential", reach);

    for (const auto* scheme : op->accepted_schemes()) {
      const std::string label = scheme->label();
      const std::string salt = op->operation_id + ":" + scheme->name;
      std::string unknown, malformed, form = "a JWT signed with another key";
      if (scheme->kind == openapi::security_scheme::type::http_digest) {
        results.not_run(op, scheme->label(), unauthenticated_check,
                        "http digest needs a challenge round trip, which Conform does not do");
        continue;
      }
      if (scheme->kind == openapi::security_scheme::type::mutual_tls) {
        results.not_run(op, scheme->label(), unauthenticated_check,
                        "a client certificate travels in the TLS handshake; Conform presents "
                        "no unknown or malformed one");
        continue;
      }
      if (scheme->is_jwt()) {
        const auto* real = usable_jwt(ctx, nullptr, nullptr);
        auto token = real ? jwt::compact_token::parse(real->value.reveal()) : std::nullopt;
        if (!token) {
          token = jwt::compact_token{
              core::base64url_encode(R"({"alg":"HS256","typ":"JWT"})"),
              core::base64url_encode(R"({"sub":"conform","exp":4102444800})"), ""};
        }
        unknown = jwt::wrong_signature(*token, seeded_hex(ctx.seed(), salt, 64)).text();
        malformed = seeded_hex(ctx.seed(), salt + ":malformed", 40);
      } else if (scheme->kind == openapi::security_scheme::type::http_bearer) {
        // An opaque bearer token: the description does not say it is a JWT.
        unknown = seeded_hex(ctx.seed(), salt, 40);
        form = "an unknown bearer token";
        malformed = "conform malformed " + seeded_hex(ctx.seed(), salt + ":malformed", 8);
      } else if (scheme->kind == openapi::security_scheme::type::http_basic) {
        unknown = harness::basic_token("conform-" + seeded_hex(ctx.seed(), salt, 8) + ":" +
                                       seeded_hex(ctx.seed(), salt + ":password", 16));
        form = "an unknown user and password";
        malformed = "conform malformed " + seeded_hex(ctx.seed(), salt + ":malformed", 8);
      } else {
        auto prefix = scheme->key_prefixes.find(std::string(profile::to_string(ctx.target().env)));
        const std::string p = prefix == scheme->key_prefixes.end() ? "" : prefix->second;
        unknown = p + seeded_hex(ctx.seed(), salt, 32);
        form = p.empty() ? "an unknown key (no prefix declared for this environment)"
                         : "an unknown key with this environment's prefix";
        // No prefix of any environment and a character no key holds.
        malformed = "conform malformed " + seeded_hex(ctx.seed(), salt + ":malformed", 8);
      }
      http::request unknown_req = template_req;
      put_credential(unknown_req, spec, scheme, unknown);
      const probe u = ctx.send(unknown_req);
      judge(ctx, results, *op, label, unauthenticated_check, want, "unknown credential",
            "OpenAPI security", u, u, "sent a valid request with " + form, reach);

      http::request malformed_req = template_req;
      put_credential(malformed_req, spec, scheme, malformed);
      const probe m = ctx.send(malformed_req);
      judge(ctx, results, *op, label, unauthenticated_check, want, "malformed credential",
            "OpenAPI security", m, m,
            "sent a valid request with a credential not of the scheme's form", reach);
    }
  }
}

void run_credential_rejected(scenario_context& ctx, results_sink& results) {
  reach_control reach;
  std::vector<const profile::credential*> rejected;
  for (const auto& c : ctx.target().credentials) {
    if (c.expired || c.other_environment) rejected.push_back(&c);
  }
  if (rejected.empty()) {
    results.not_run(
        nullptr, "", credential_rejected_check,
        std::string(ctx.target().noun()) +
            " has no credential marked expired and none of the other "
            "environment: add one (expired: true, or a key of the other environment) to "
            "test that such credentials are refused");
    return;
  }
  for (const auto* op : authenticated(ctx)) {
    for (const auto* c : rejected) {
      if (!accepted_scheme(*op, *c)) continue;
      const auth_choice choice = ctx.credentials().auth_for(*op, *c);
      const std::string label = choice.model.label();
      auto made = make_safe_request(ctx, *op, choice, "auth-rejected");
      if (!made.request) {
        results.not_run(op, label, credential_rejected_check, "no valid request: " + made.why);
        continue;
      }
      const probe p = ctx.send(ctx.build(*op, made.auth, *made.request));
      const std::string what =
          c->expired ? "an expired credential" : "a credential of the other environment";
      judge(ctx, results, *op, label, credential_rejected_check, unauthorized(ctx.spec(), *op),
            what, c->expired ? "RFC 7519 section 4.1.4 (exp)" : "x-key-prefixes", p, p,
            "sent a valid request with " + what, reach);
    }
  }
}

void run_jwt_tampering(scenario_context& ctx, results_sink& results) {
  reach_control reach;
  const auto& schemes = ctx.spec().schemes;
  const auto jwt =
      std::find_if(schemes.begin(), schemes.end(), [](const auto& s) { return s->is_jwt(); });
  if (jwt == schemes.end()) {
    results.not_run(nullptr, "", jwt_tampering_check,
                    "the description declares no JWT (an http bearer with bearerFormat: JWT); "
                    "a bearer token is not taken for one");
    return;
  }
  if (!usable_jwt(ctx, nullptr, nullptr)) {
    results.not_run(nullptr, (*jwt)->label(), jwt_tampering_check,
                    std::string(ctx.target().noun()) +
                        " has no usable JWT (compact form, not expired, of this "
                        "environment, not rate-limited) to tamper with: add one");
    return;
  }
  for (const auto* op : authenticated(ctx)) {
    const auto* scheme = accepted_jwt_scheme(*op);
    if (!scheme) continue;
    const profile::credential* c = usable_jwt(ctx, op, scheme);
    const auth_choice choice = ctx.credentials().auth_for(*op, *c);
    const std::string label = choice.model.label();
    auto made = make_safe_request(ctx, *op, choice, "auth-tampering");
    if (!made.request) {
      results.not_run(op, label, jwt_tampering_check, "no valid request: " + made.why);
      continue;
    }
    const http::request real = ctx.build(*op, made.auth, *made.request);
    const probe baseline = ctx.send(real);
    if (!baseline.answered() || baseline.status() == 401) {
      results.not_run(op, label, jwt_tampering_check,
                      "the untampered token of " + c->name + " is refused too (" +
                          baseline.summary() + "), so a refusal of a tampered one shows nothing");
      continue;
    }
    const auto token = *jwt::compact_token::parse(c->value.reveal());
    const auto [claim, value] = forged_claim(*scheme, *c, token);
    struct variant {
      std::string what;
      jwt::compact_token forged;
      bool keeps_signature;
    };
    const std::vector<variant> variants = {
        {"a JWT whose signature was replaced",
         jwt::wrong_signature(token, seeded_hex(ctx.seed(), op->operation_id + ":sig", 64)), false},
        {"a JWT whose signature was stripped", jwt::signature_stripped(token), false},
        {"a JWT with alg none and no signature", jwt::alg_none(token), false},
        {claim.empty() ? "a JWT whose claims were changed under the old signature"
                       : "a JWT whose " + claim + " claim was changed under the old signature",
         jwt::payload_changed(token, claim, value), true},
    };
    for (const auto& v : variants) {
      // A forgery that is the token itself (an unsigned token has nothing
      // to strip; a claim "changed" to the value it holds) proves nothing.
      if (auto why = not_forged(token, v.forged, v.keeps_signature)) {
        results.not_run(op, label, jwt_tampering_check, v.what + ": " + *why);
        continue;
      }
      http::request req = real;
      put_credential(req, ctx.spec(), scheme, v.forged.text());
      const probe p = ctx.send(req);
      probe shown = p;
      if (v.keeps_signature) {
        put_credential(shown.request, ctx.spec(), scheme,
                       jwt::shown_without_signature(v.forged, c->value.env_name()));
      }
      judge(ctx, results, *op, label, jwt_tampering_check, unauthorized(ctx.spec(), *op), v.what,
            "RFC 7515 (JWS signatures)", shown, p,
            "sent a valid request with " + v.what + " (from " + c->name + ")", reach);
    }
  }
}

void run_jwt_only(scenario_context& ctx, results_sink& results) {
  reach_control reach;
  for (const auto* op : ctx.operations()) {
    if (!op->jwt_only) continue;
    if (op->jwt_only_status == 0) {
      results.not_run(op, "", jwt_only_check,
                      "x-jwt-only declares no status for what other credentials get");
      continue;
    }
    const expected_refusal want{op->jwt_only_status,
                                op->jwt_only_code.empty()
                                    ? std::vector<std::string>{}
                                    : std::vector<std::string>{op->jwt_only_code}};
    bool any = false;
    for (const auto& c : ctx.target().credentials) {
      if (c.is_jwt(ctx.spec()) || !harness::credential_selector::usable(c)) continue;
      const auth_choice choice = ctx.credentials().auth_for(*op, c);
      if (!choice.model.scheme) continue;
      any = true;
      const std::string label = choice.model.label();
      auto made = make_safe_request(ctx, *op, choice, "auth-jwt-only");
      if (!made.request) {
        results.not_run(op, label, jwt_only_check, "no valid request: " + made.why);
        continue;
      }
      const probe p = ctx.send(ctx.build(*op, made.auth, *made.request));
      judge(ctx, results, *op, label, jwt_only_check, want,
            "a " + choice.model.name + " on a JWT-only operation", "x-jwt-only", p, p,
            "sent a valid request with " + c.name, reach);
    }
    if (!any) {
      results.not_run(
          op, "", jwt_only_check,
          std::string(ctx.target().noun()) +
              " has no usable non-JWT credential (not expired, of this "
              "environment, not rate-limited) whose kind the description has a scheme for");
    }
  }
}

}  // namespace conform::suites::auth
