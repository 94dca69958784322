#include "harness/stateful/phase.hpp"

#include <algorithm>
#include <map>
#include <memory>

#include "core/text.hpp"
#include "harness/stateful/prepare.hpp"
#include "harness/stateful/tenants.hpp"
#include "harness/stateful/walk.hpp"

namespace conform::harness::stateful {
namespace {

/// The actors of a run: no credential (when an operation takes none), and
/// per security scheme the credential the run's auth models choose most.
std::vector<actor> actors_of(const openapi::api_spec& spec, scenario_context& ctx,
                             const profile::target& work, bool every_credential) {
  std::vector<actor> out;
  const auto& ops = ctx.operations();
  if (std::any_of(ops.begin(), ops.end(),
                  [&ctx](const auto* op) { return !ctx.credentials().asks_credential(*op); })) {
    out.push_back({nullptr, "none"});
  }
  if (every_credential) {
    for (const auto& c : work.credentials) {
      if (!credential_selector::usable(c)) continue;
      const auto* scheme = c.scheme_in(spec);
      out.push_back({&c, (scheme ? scheme->label() : c.kind) + " (" + c.name + ")"});
    }
    return out;
  }
  std::map<const openapi::security_scheme*, std::map<const profile::credential*, unsigned>> counts;
  for (const auto* op : ops) {
    for (const auto& choice : ctx.credentials().auth_models(*op, true)) {
      if (choice.credential && choice.model.scheme)
        ++counts[choice.model.scheme][choice.credential];
    }
  }
  for (const auto& scheme : spec.schemes) {
    auto it = counts.find(scheme.get());
    if (it == counts.end()) continue;
    const profile::credential* best = nullptr;
    unsigned most = 0;
    for (const auto& c : work.credentials) {
      auto n = it->second.find(&c);
      if (n != it->second.end() && n->second > most) {
        best = &c;
        most = n->second;
      }
    }
    if (!best) continue;
    const bool taken = std::any_of(out.begin(), out.end(),
                                   [best](const actor& a) { return a.credential == best; });
    if (!taken) out.push_back({best, scheme->label() + " (" + best->name + ")"});
  }
  return out;
}

/// Per tenant and state machine, a fixture for each state whose resource was
/// last seen in it and not moved since.
void state_fixtures(session& s) {
  std::map<std::string, std::vector<std::string>> learned;  // tenant id -> fixture names
  for (auto& t : s.work.tenants) {
    for (const auto& [name, m] : s.spec.state_machines) {
      for (const auto& [state, fixture] : m.fixtures) {
        if (t.fixtures.count(fixture)) continue;
        for (const auto& [key, seen] : s.observed) {
          const auto& [tenant_id, machine, id] = key;
          if (tenant_id != t.id || machine != name || seen.first != state) continue;
          auto moved = s.moved.find({tenant_id, id});
          if (moved != s.moved.end() && moved->second > seen.second) continue;
          // One resource per state: a resource given to two states would be moved twice.
          bool used = false;
          for (const auto& [other, f] : m.fixtures) {
            auto it = t.fixtures.find(f);
            used = used || (it != t.fixtures.end() && it->second == id);
          }
          if (used) continue;
          t.fixtures[fixture] = id;
          learned[t.id].push_back(fixture);
          break;
        }
      }
    }
  }
  for (const auto& [tenant, names] : learned) {
    s.notes.push_back("tenant " + tenant + ": " + core::join(names) +
                      " from the states its resources were seen in");
  }
}

}  // namespace

phase_outcome run_phase(const openapi::api_spec& spec, const profile::target& target,
                        const phase_options& options) {
  phase_outcome out;
  out.learned = target.clone();
  profile::target& work = out.learned;
  // Tenants a walk learns are added in place: steps keep pointers to them.
  work.reserve_tenants(work.tenants.size() + 64);
  scenario_context ctx(spec, work, options.seed, options.operations, options.base, options.client,
                       std::max(2u, options.lanes));
  if (options.observe) ctx.observe(options.observe);
  ctx.guard(options.guard);
  session s(spec, ctx, work, target, options.reach);
  s.judged = options.judged;
  s.g = build_graph(spec, options.operations);
  s.followed.assign(s.g.links.size(), 0);
  s.not_followed.assign(s.g.links.size(), "");
  s.only_created = options.only_created;
  for (const auto& t : target.tenants) {
    for (const auto& [name, value] : t.fixtures) s.protected_ids.insert(value);
  }
  std::map<std::string, std::size_t> fixtures_before;
  for (const auto& t : work.tenants) fixtures_before[t.id] = t.fixtures.size();

  std::vector<std::unique_ptr<observer>> checks;
  if (options.results) {
    const chain_judging judging{*options.results, options.enabled, options.max_shrinks};
    for (const auto& make : options.checks) checks.push_back(make(judging));
  }
  const auto actors = actors_of(spec, ctx, work, options.every_credential);
  for (const actor& a : actors) {
    const std::size_t tenants_before = a.credential ? a.credential->tenants.size() : 0;
    auto log = walk(s, a, checks);
    // A credential that found its first tenant walks again, acting for it.
    if (a.credential && tenants_before == 0 && !a.credential->tenants.empty()) {
      log = walk(s, a, checks);
    }
    prepare_fixtures(s, a, log);
  }
  // Every credential against every tenant the run knows: the tenants of a
  // profile must be complete for each credential, or the tenant checks
  // would expect a refusal that a tenant it does reach never gives.
  probe_tenants(s, actors);
  state_fixtures(s);

  out.links = s.g.links;
  for (std::size_t i = 0; i < out.links.size(); ++i) {
    auto& l = out.links[i];
    l.followed = s.followed[i];
    if (l.followed > 0 || !l.why.empty()) continue;
    if (!s.not_followed[i].empty()) {
      l.why = s.not_followed[i];
    } else if (auto w = s.withheld.find(l.from_operation);
               w != s.withheld.end() && !s.succeeded.count(l.from_operation)) {
      l.why = l.from_operation + " was not sent: " + w->second;
    } else if (!s.succeeded.count(l.from_operation)) {
      l.why = l.from_operation + " never answered 2xx in the stateful phase";
    } else {
      l.why = "no 2xx answer of " + l.from_operation + " (" + l.status +
              ") came back to a credential that may call " + l.to_operation;
    }
  }
  for (const auto& t : work.tenants) {
    const auto before = fixtures_before.count(t.id) ? fixtures_before[t.id] : 0;
    if (t.fixtures.size() <= before) continue;
    std::vector<std::string> names;
    for (const auto& [name, value] : t.fixtures) {
      bool old = false;
      for (const auto& o : target.tenants) old = old || (o.id == t.id && o.fixtures.count(name));
      if (!old) names.push_back(name);
    }
    s.notes.push_back("tenant " + t.id + ": ids found for " + core::join(names));
  }
  // Ids of no tenant, with their values: what the later phases send.
  std::vector<std::string> shared;
  for (const auto& [name, value] : work.shared.fixtures) {
    if (!target.shared.fixtures.count(name)) shared.push_back(name + "=" + value);
  }
  if (!shared.empty()) s.notes.push_back("ids found (of no tenant): " + core::join(shared));
  out.notes = std::move(s.notes);
  out.requests = ctx.requests();
  out.retries_429 = ctx.retries_429();
  out.answers = std::move(s.answers);
  return out;
}

}  // namespace conform::harness::stateful
