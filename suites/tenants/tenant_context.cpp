// The tenant context checks: the tenant header never widens rights, callers
// of several tenants must name one, and another tenant's ids are unknown ids.
#include <algorithm>
#include <cctype>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "generators/wire.hpp"
#include "schema/validator.hpp"
#include "suites/auth/support.hpp"
#include "suites/tenants/checks.hpp"

namespace conform::suites::tenants {
namespace {

namespace as = auth;
using harness::auth_choice;
using harness::probe;
using harness::results_sink;
using harness::scenario_context;
using harness::scenario_failure;
using profile::credential;
using profile::tenant;

/// An id no tenant holds, shaped like `like` and accepted by the schema of
/// path parameter `p`: a server that checks an id's format first answers a
/// malformed one 422, not the 404 of an id it does not hold, so an id the
/// schema refuses shows nothing about tenants. Tried first with every
/// letter and digit changed, then with the digits alone (`p17` -> `p93`
/// for `^p[0-9]+$`); nullopt when no try fits the schema.
std::optional<std::string> unknown_id_for(const openapi::parameter& p, const std::string& like,
                                          std::uint64_t seed, const std::string& salt) {
  constexpr int tries = 16;
  for (int k = 0; k < tries; ++k) {
    std::string id = as::unknown_id(like, seed, k == 0 ? salt : salt + ":" + std::to_string(k));
    if (k % 2 == 1 && id.size() == like.size()) {
      // Digits alone: the letters of `like` kept where it had letters.
      for (std::size_t i = 0; i < id.size(); ++i) {
        if (std::isdigit(static_cast<unsigned char>(like[i])) == 0) id[i] = like[i];
      }
    }
    if (id == like) continue;
    if (p.schema == nullptr ||
        schema::is_valid(*p.schema, generators::from_wire(*p.schema, {id}))) {
      return id;
    }
  }
  return std::nullopt;
}

bool reaches(const profile::credential& c, const profile::tenant& t) {
  return std::any_of(c.tenants.begin(), c.tenants.end(),
                     [&](const profile::tenant* mine) { return mine && mine->id == t.id; });
}

/// The sufficient auth models of `op`; the others become not-run cells of `check`.
std::vector<auth_choice> sufficient_or_not_run(const scenario_context& ctx, results_sink& results,
                                               const openapi::operation& op,
                                               std::string_view check) {
  std::vector<auth_choice> out;
  for (auto& choice : ctx.credentials().auth_models(op)) {
    if (choice.not_run_why) {
      results.not_run(&op, choice.model.label(), check, *choice.not_run_why);
    } else if (choice.credential) {
      out.push_back(std::move(choice));
    }
  }
  return out;
}

void report(scenario_context& ctx, results_sink& results, const openapi::operation& op,
            const std::string& label, std::string_view check, std::string expected, const probe& p,
            std::string cause, std::string steps, std::vector<const probe*> evidence) {
  scenario_failure f;
  f.expected = std::move(expected);
  f.seen = p.summary();
  f.cause = std::move(cause);
  f.steps = std::move(steps);
  f.evidence = std::move(evidence);
  results.fail(op, label, check, f, ctx);
}

}  // namespace

void run_header_enforcement(scenario_context& ctx, results_sink& results) {
  const auto& tenants = ctx.target().tenants;
  for (const auto* op : ctx.operations()) {
    const std::string header = as::tenant_header(*op);
    if (header.empty() || !op->needs_credentials()) continue;
    const auto want = as::refusal(*op, 403);
    for (const auto& choice : sufficient_or_not_run(ctx, results, *op, header_enforcement_check)) {
      const profile::credential& c = *choice.credential;
      const std::string label = choice.model.label();
      auto made = as::make_safe_request(ctx, *op, choice, "tenant-header");
      if (!made.request) {
        results.not_run(op, label, header_enforcement_check, "no valid request: " + made.why);
        continue;
      }
      const http::request base = ctx.build(*op, made.auth, *made.request);
      const profile::tenant* other = nullptr;
      for (const auto& t : tenants) {
        if (!reaches(c, t)) {
          other = &t;
          break;
        }
      }
      // An id of no tenant: shaped like the profile's tenant ids, held by none.
      std::string nobody = as::unknown_id(tenants.empty() ? "" : tenants.front().id, ctx.seed(),
                                          op->operation_id + ":no-tenant");
      struct named {
        std::string what;
        std::string id;
      };
      std::vector<named> probes;
      if (other) {
        probes.push_back(
            {"the tenant header naming a tenant the credential cannot reach", other->id});
      } else {
        results.not_run(op, label, header_enforcement_check,
                        "every tenant of " + std::string(ctx.target().noun()) +
                            " is reachable by " + c.name +
                            ": add a tenant it cannot reach to test that the header never widens "
                            "its rights");
      }
      probes.push_back({"the tenant header naming no tenant", nobody});
      for (const auto& n : probes) {
        http::request req = base;
        req.set_header(header, n.id);
        const probe p = ctx.send(req);
        if (auto why = p.unjudgeable(ctx.spec())) {
          results.not_run(op, label, header_enforcement_check, n.what + ": " + *why);
          continue;
        }
        if (want.matches(p)) {
          results.pass(*op, label, header_enforcement_check);
          continue;
        }
        report(ctx, results, *op, label, header_enforcement_check,
               want.text() + " for " + n.what +
                   ", never 2xx: the header never widens rights (x-tenant-context)",
               p, n.what + ": answered " + as::outcome_class(p),
               "sent a valid request with " + c.name + " and " + n.what, {&p});
      }
    }
  }
}

void run_context_required(scenario_context& ctx, results_sink& results) {
  for (const auto* op : ctx.operations()) {
    if (op->tenant.from != openapi::tenant_context::source::header || !op->needs_credentials()) {
      continue;
    }
    // The schemes whose credentials must name a tenant (x-tenants): those
    // that name one on every call first, then those whose claims list several.
    using reach = openapi::security_scheme::tenant_reach;
    std::vector<const openapi::security_scheme*> naming;
    for (const reach r : {reach::named, reach::claimed}) {
      for (const auto* scheme : op->accepted_schemes()) {
        if (scheme->tenants == r) naming.push_back(scheme);
      }
    }
    for (const auto* scheme : naming) {
      const bool claimed = scheme->tenants == reach::claimed;
      const std::string kind_name = scheme->kind_name();
      const profile::credential* caller = nullptr;
      for (const auto& c : ctx.target().credentials) {
        if (!c.fits(*scheme) || !harness::credential_selector::usable(c) ||
            !harness::credential_selector::sufficient(*op, *scheme, c))
          continue;
        // A credential of one membership may leave the header out (x-tenant-context).
        if (claimed && c.tenants.size() < 2) continue;
        caller = &c;
        break;
      }
      if (!caller) {
        results.not_run(op, kind_name, context_required_check,
                        std::string(ctx.target().noun()) + " has no usable, sufficient " +
                            kind_name + (claimed ? " with several tenants" : "") +
                            " for this operation: add one");
        continue;
      }
      const auth_choice choice = ctx.credentials().auth_for(*op, *caller);
      const std::string label = choice.model.label();
      if (op->tenant.missing_status == 0) {
        results.not_run(
            op, label, context_required_check,
            "x-tenant-context declares no answer for a missing tenant (its missing status "
            "and code)");
        continue;
      }
      const as::expected_refusal want{op->tenant.missing_status,
                                      op->tenant.missing_code.empty()
                                          ? std::vector<std::string>{}
                                          : std::vector<std::string>{op->tenant.missing_code}};
      auto made = as::make_safe_request(ctx, *op, choice, "tenant-missing");
      if (!made.request) {
        results.not_run(op, label, context_required_check, "no valid request: " + made.why);
        continue;
      }
      http::request req = ctx.build(*op, made.auth, *made.request);
      req.remove_header(op->tenant.name);
      const probe p = ctx.send(req);
      if (auto why = p.unjudgeable(ctx.spec())) {
        results.not_run(op, label, context_required_check, *why);
      } else if (want.matches(p)) {
        results.pass(*op, label, context_required_check);
      } else {
        report(ctx, results, *op, label, context_required_check,
               want.text() + " for a " + kind_name +
                   " that must name its tenant and did not (x-tenant-context)",
               p, "tenant header left out: answered " + as::outcome_class(p),
               "sent a valid request with " + caller->name + " without the tenant header", {&p});
      }
    }
  }
}

void run_foreign_resource(scenario_context& ctx, results_sink& results) {
  for (const auto* op : ctx.operations()) {
    std::vector<const openapi::parameter*> ids;
    for (const auto& p : op->parameters) {
      if (p.in == openapi::param_location::path && p.resource) ids.push_back(&p);
    }
    if (ids.empty() || !op->needs_credentials()) continue;
    for (const auto& choice : sufficient_or_not_run(ctx, results, *op, foreign_resource_check)) {
      const profile::credential& c = *choice.credential;
      const std::string label = choice.model.label();
      if (!choice.tenant) {
        results.not_run(op, label, foreign_resource_check,
                        "the credential " + c.name + " has no tenant");
        continue;
      }
      for (const auto* param : ids) {
        const auto& ref = *param->resource;
        const auto mine = choice.tenant->fixtures.find(ref.fixture);
        if (mine == choice.tenant->fixtures.end()) {
          results.not_run(op, label, foreign_resource_check,
                          "tenant " + choice.tenant->name + " has no fixture " + ref.fixture);
          continue;
        }
        const profile::tenant* other = nullptr;
        for (const auto& t : ctx.target().tenants) {
          auto theirs = t.fixtures.find(ref.fixture);
          if (!reaches(c, t) && theirs != t.fixtures.end() && theirs->second != mine->second) {
            other = &t;
            break;
          }
        }
        if (!other) {
          results.not_run(op, label, foreign_resource_check,
                          "no tenant of " + std::string(ctx.target().noun()) +
                              " outside the reach of " + c.name + " has its own fixture " +
                              ref.fixture + ": add one");
          continue;
        }
        // The same request twice, only the id differing: another tenant's, then nobody's.
        auto with_id = [&](const std::string& id, std::string_view salt) -> std::optional<probe> {
          auto copy = std::make_shared<profile::tenant>(*choice.tenant);
          copy->fixtures[ref.fixture] = id;
          auth_choice swapped = choice;
          swapped.tenant = copy.get();
          auto g = ctx.valid_request(*op, swapped, salt);
          if (!g) {
            const std::string& why = g.error();
            results.not_run(op, label, foreign_resource_check, "no valid request: " + why);
            return std::nullopt;
          }
          return ctx.send(ctx.build(*op, swapped, *g));
        };
        const std::string salt = "tenant-foreign:" + param->name;
        const auto foreign = with_id(other->fixtures.at(ref.fixture), salt);
        if (!foreign) continue;
        const auto unknown_value =
            unknown_id_for(*param, mine->second, ctx.seed(), op->operation_id + ":" + param->name);
        if (!unknown_value) {
          results.not_run(op, label, foreign_resource_check,
                          "no id shaped like " + ref.fixture + " was found that the schema of " +
                              param->name +
                              " accepts, so an unknown id cannot be named to compare with");
          continue;
        }
        const auto unknown = with_id(*unknown_value, salt);
        if (!unknown) continue;
        if (auto why = foreign->unjudgeable(ctx.spec()) ? foreign->unjudgeable(ctx.spec())
                                                        : unknown->unjudgeable(ctx.spec())) {
          results.not_run(op, label, foreign_resource_check, *why);
          continue;
        }
        const as::expected_refusal want{404, ref.not_found_code.empty()
                                                 ? std::vector<std::string>{}
                                                 : std::vector<std::string>{ref.not_found_code}};
        const std::string what = "another tenant's " + ref.name + " id";
        const std::string steps = "sent a valid request with " + c.name + " naming in " +
                                  param->name + " " + what + ", then an unknown id";
        const std::string expected =
            want.text() + " for " + what + ", exactly as for an unknown id (x-resource)";
        if (!want.matches(*foreign)) {
          report(ctx, results, *op, label, foreign_resource_check, expected, *foreign,
                 what + ": answered " + as::outcome_class(*foreign), steps, {&*foreign});
        } else if (unknown->status() != foreign->status() ||
                   unknown->error_code() != foreign->error_code()) {
          report(ctx, results, *op, label, foreign_resource_check, expected, *unknown,
                 "an unknown " + ref.name + " id answered unlike " + what + ": " +
                     as::outcome_class(*unknown),
                 steps, {&*foreign, &*unknown});
        } else {
          results.pass(*op, label, foreign_resource_check);
        }
      }
    }
  }
}

}  // namespace conform::suites::tenants
