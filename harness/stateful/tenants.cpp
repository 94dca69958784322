#include "harness/stateful/tenants.hpp"

#include <algorithm>

#include "core/text.hpp"

namespace conform::harness::stateful {
namespace {

/// A read `a` answered 2xx that takes the tenant from a header or the path
/// and needs no id but the tenant's: the probe.
const openapi::operation* probe_operation(session& s, const actor& a) {
  using source = openapi::tenant_context::source;
  for (const auto* op : s.ctx.operations()) {
    if (op->method != http::verb::get) continue;
    if (op->tenant.from != source::header && op->tenant.from != source::path) continue;
    if (!s.answers.count({a.credential->name, op->operation_id})) continue;
    const unsigned answered = s.answers.at({a.credential->name, op->operation_id});
    if (answered < 200 || answered >= 300) continue;
    const bool other_ids =
        std::any_of(op->parameters.begin(), op->parameters.end(), [&](const auto& p) {
          return p.in == openapi::param_location::path &&
                 !(op->tenant.from == source::path && p.name == op->tenant.name);
        });
    if (!other_ids) return op;
  }
  return nullptr;
}

}  // namespace

void probe_tenants(session& s, const std::vector<actor>& actors) {
  for (const auto& a : actors) {
    if (!a.credential) continue;
    profile::credential* c = nullptr;
    for (auto& mine : s.work.credentials) {
      if (&mine == a.credential) c = &mine;
    }
    if (!c || c->tenants.empty()) continue;
    const auto* op = probe_operation(s, a);
    std::vector<std::string> unknown;
    for (std::size_t i = 0; i < s.work.tenants.size(); ++i) {
      const profile::tenant& t = s.work.tenants[i];
      const bool reaches = std::any_of(c->tenants.begin(), c->tenants.end(),
                                       [&t](const profile::tenant* x) { return x == &t; });
      if (reaches) continue;
      if (!op) {
        unknown.push_back(t.id);
        continue;
      }
      auth_choice auth = s.ctx.credentials().auth_for(*op, *c, &t);
      auto made = s.ctx.valid_request(*op, auth, "tenant-probe/" + t.id);
      if (!made) {
        unknown.push_back(t.id);
        continue;
      }
      http::request req = s.ctx.build(*op, auth, *made);
      // Named even where the credential's kind may leave it out (a tenant key).
      if (op->tenant.from == openapi::tenant_context::source::header) {
        req.set_header(op->tenant.name, t.id);
      }
      const probe p = s.ctx.send(req);
      ++s.requests;
      if (p.succeeded()) {
        c->tenants.push_back(&t);
        s.notes.push_back(c->name + ": reaches tenant " + t.id + " (" + op->operation_id +
                          " answered " + std::to_string(p.status()) + " for it)");
      } else if (p.status() != 403) {
        unknown.push_back(t.id + " (" + p.summary() + ")");
      }
    }
    if (!unknown.empty()) {
      s.notes.push_back(c->name + ": whether it reaches tenant(s) " + core::join(unknown) +
                        " is not known");
    }
  }
}

}  // namespace conform::harness::stateful
