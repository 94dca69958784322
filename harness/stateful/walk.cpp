#include "harness/stateful/walk.hpp"

#include <boost/json.hpp>
#include <rapidcheck.h>

#include <algorithm>
#include <deque>

#include "core/text.hpp"
#include "harness/build.hpp"
#include "harness/stateful/json.hpp"
#include "harness/stateful/learn.hpp"

namespace conform::harness::stateful {
namespace {

constexpr std::size_t walk_npos = static_cast<std::size_t>(-1);

bool walk_refused_as_invalid(const openapi::api_spec& spec, const probe& p) {
  const unsigned status = p.status();
  if (status == 400 || status == 415) return true;
  if (status != 422) return false;
  const std::string code = p.error_code();
  const auto& codes = spec.rules.validation_codes;
  return code.empty() || std::find(codes.begin(), codes.end(), code) != codes.end();
}

/// True when the answer `status` is one the link's response key documents.
bool link_covers(int key, unsigned status) {
  if (key == 0) return status >= 200 && status < 300;  // default: taken for any 2xx
  if (key >= 1 && key <= 5) return static_cast<int>(status / 100) == key;
  return static_cast<int>(status) == key;
}

/// The path parameters of `op` a step would send that name a resource
/// (not the tenant of a tenant-from-path operation).
std::vector<const openapi::parameter*> resource_params(const openapi::operation& op) {
  std::vector<const openapi::parameter*> out;
  for (const auto& p : op.parameters) {
    if (p.in != openapi::param_location::path) continue;
    if (op.tenant.from == openapi::tenant_context::source::path && p.name == op.tenant.name) {
      continue;
    }
    out.push_back(&p);
  }
  return out;
}

/// True when `op` needs an id its tenant's fixtures do not name: it goes
/// after the others (with the description's example, until an answer feeds it).
bool needs_fed_id(const openapi::operation& op, const auth_choice& auth) {
  for (const auto* p : resource_params(op)) {
    const bool fixture = auth.tenant && auth.tenant->fixtures.count(fixture_name_for(op, *p)) > 0;
    if (!fixture) return true;
  }
  return false;
}

/// Creates first (chains on fresh data), then reads, then the rest; the
/// operations that wait for an id last.
int root_rank(const openapi::operation& op, bool fed) {
  if (fed) return 3;
  if (op.method == http::verb::post) return 0;
  if (op.method == http::verb::get) return 1;
  return 2;
}

/// True when `op` changes the state of the resource its path parameter
/// `param` names: a DELETE, or a move of a state machine (x-transition).
bool moves_resource(const openapi::operation& op, const std::string& param) {
  return op.method == http::verb::delete_ || (op.transition && op.transition->parameter == param);
}

/// Why `plan` must not be sent as `a`, or "": a write never moves a
/// fixture of the profile (a later check needs it where it is), never
/// changes one through its body (a create only names it), and in a
/// discovery changes nothing the walk did not create.
std::string refusal(session& s, const actor& a, const step_plan& plan) {
  const auto& op = *plan.op;
  if (!stateful::is_write(op)) return {};
  const bool create = creates(op);
  const auto& mine = s.created[a.label];
  for (const auto& b : plan.bindings) {
    const auto text = stateful::text_of(b.value).value_or("");
    if (b.where.body && create) continue;
    const bool fixture = s.protected_ids.count(text) > 0;
    if (fixture && (b.where.body || moves_resource(op, b.where.name))) {
      return "every id it gave that the run tried is a fixture of " +
             std::string(s.original.noun()) + " (" + text + "), which the run leaves where it is";
    }
    if (s.only_created && !mine.count(text)) {
      return "a discovery changes only what it created";
    }
  }
  if (!plan.bindings.empty()) return {};
  // A root: its ids are the tenant's fixtures or the description's examples.
  const auto auth = auth_of(s, a, op);
  for (const auto* p : resource_params(op)) {
    if (s.only_created) return "a discovery changes only what it created";
    std::string id;
    if (auth && auth->tenant) {
      auto it = auth->tenant->fixtures.find(fixture_name_for(op, *p));
      if (it != auth->tenant->fixtures.end()) id = it->second;
    }
    if (id.empty() && !p->examples.empty())
      id = stateful::text_of(p->examples.front()).value_or("");
    if (s.protected_ids.count(id) && moves_resource(op, p->name)) {
      return "its id " + id + " is a fixture of " + std::string(s.original.noun()) +
             ", which the run leaves where it is";
    }
  }
  return {};
}

std::string values_key(std::size_t edge, const std::vector<binding>& bindings) {
  std::string key = std::to_string(edge);
  for (const auto& b : bindings) key += "\x1f" + boost::json::serialize(b.value);
  return key;
}

}  // namespace

std::optional<std::string> step::path_value(const std::string& name) const {
  if (!exchange || !plan.op) return std::nullopt;
  return stateful::path_value(plan.op->path, exchange->request.target, name);
}

std::optional<auth_choice> auth_of(session& s, const actor& a, const openapi::operation& op) {
  if (!s.ctx.credentials().asks_credential(op)) {
    if (a.credential) return std::nullopt;
    auto models = s.ctx.credentials().auth_models(op);
    if (models.empty()) return std::nullopt;
    return models.front();
  }
  if (!a.credential) return std::nullopt;
  const profile::credential& c = *a.credential;
  const openapi::security_scheme* scheme = nullptr;
  for (const auto* sc : op.accepted_schemes()) {
    if (c.fits(*sc)) scheme = sc;
  }
  if (!scheme || scheme->kind == openapi::security_scheme::type::http_digest) return std::nullopt;
  // Known not to be let through: not tried (the random phase says so).
  const auto needed = op.scopes_for(*scheme).value_or(std::vector<std::string>{});
  if (c.scopes && !std::all_of(needed.begin(), needed.end(), [&](const std::string& n) {
        return std::find(c.scopes->begin(), c.scopes->end(), n) != c.scopes->end();
      })) {
    return std::nullopt;
  }
  if (op.access == openapi::access_kind::write && !c.role.empty() &&
      std::find(scheme->read_only_roles.begin(), scheme->read_only_roles.end(), c.role) !=
          scheme->read_only_roles.end()) {
    return std::nullopt;
  }
  auth_choice choice = s.ctx.credentials().auth_for(op, c);
  choice.model.scheme = scheme;
  choice.model.name = scheme->label();
  if (!credential_selector::sufficient(op, *scheme, c)) {
    choice.model.unverified = c.name + ": its rights here are not stated";
  }
  for (const auto& f : fixtures_needed(s.spec, op)) {
    if (!choice.tenant || choice.tenant->fixtures.count(f) == 0) choice.model.made_up.push_back(f);
  }
  return choice;
}

core::outcome<step> send_step(session& s, const actor& a, const step_plan& plan,
                              std::uint32_t attempts, const char* salt) {
  const auto auth = auth_of(s, a, *plan.op);
  if (!auth) return core::fail(a.label + " cannot call " + plan.op->operation_id);
  harness::pinned_values pinned;
  for (const auto& b : plan.bindings) {
    if (b.where.body) {
      pinned.body.emplace_back(b.where.name, b.value);
    } else if (auto text = stateful::text_of(b.value)) {
      pinned.params.emplace_back(b.where.in, b.where.name, *text);
    }
  }
  step out;
  out.plan = plan;
  out.auth = *auth;
  std::string why;  // why the last attempt made no request
  for (std::uint32_t attempt = 0; attempt < std::max(1u, attempts); ++attempt) {
    pinned.examples = attempt == 0;
    // The first attempt of a step sends what the description names and no
    // optional parameter it need not (a random filter or cursor may be refused).
    pinned.optional_param_percent = plan.bare || attempt == 0 ? 0 : -1;
    auto made = harness::make_generator(s.spec, *plan.op, *auth, request_kind::valid, &pinned);
    if (!made.gen) {
      why = made.why.empty() ? "no valid request could be made" : made.why;
      break;
    }
    const std::uint64_t seed = core::fnv1a(
        std::string(salt) + "/" + std::to_string(attempt) + "/" + std::to_string(s.order),
        core::fnv1a(plan.op->operation_id, s.ctx.seed() ^ 0x57a7e1ull));
    generators::generated_request g;
    try {
      g = (*made.gen)(rc::Random(seed), 10).value();
    } catch (const std::exception& ex) {
      why = std::string("the generator gave up: ") + ex.what();
      continue;
    }
    auto req = s.ctx.build(*plan.op, *auth, g);
    if (auto refused = s.ctx.refusal(plan.op, req)) {
      why = std::move(*refused);
      break;
    }
    auto p = std::make_shared<probe>(s.ctx.send(req));
    ++s.requests;
    ++s.order;
    if (s.reach) s.reach->record(*plan.op, auth->model, p->status(), p->error_code(), s.judged);
    out.exchange = std::move(p);
    out.order = s.order;
    out.request_json.reset();
    if (!g.body.empty() && g.content_type.find("json") != std::string::npos) {
      boost::system::error_code ec;
      auto v = boost::json::parse(g.body, ec);
      if (!ec) out.request_json = std::move(v);
    }
    if (out.exchange->succeeded() || !walk_refused_as_invalid(s.spec, *out.exchange)) break;
  }
  if (!out.exchange) return core::fail(std::move(why));
  learn(s, a, out);
  return out;
}

std::vector<std::size_t> chain_of(const std::vector<step>& log, std::size_t index) {
  std::vector<std::size_t> out;
  std::vector<std::size_t> pending{index};
  while (!pending.empty()) {
    const std::size_t i = pending.back();
    pending.pop_back();
    if (i >= log.size() || std::find(out.begin(), out.end(), i) != out.end()) continue;
    out.push_back(i);
    for (const auto& b : log[i].plan.bindings) {
      if (b.from_step >= 0) pending.push_back(static_cast<std::size_t>(b.from_step));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

/// The plans of `chain` (indices into `log`), their sources renumbered
/// within the chain.
std::vector<step_plan> plans_of(const std::vector<step>& log,
                                const std::vector<std::size_t>& chain) {
  std::vector<step_plan> out;
  for (const std::size_t i : chain) {
    step_plan p = log[i].plan;
    for (auto& b : p.bindings) {
      if (b.from_step < 0) continue;
      auto at = std::find(chain.begin(), chain.end(), static_cast<std::size_t>(b.from_step));
      b.from_step = at == chain.end() ? -1 : static_cast<int>(at - chain.begin());
    }
    out.push_back(std::move(p));
  }
  return out;
}

/// Sends `plans` from the start, each value read from the new answers;
/// nullopt when a step's value is no longer there.
std::optional<std::vector<step>> replay(session& s, const actor& a,
                                        const std::vector<step_plan>& plans) {
  std::vector<step> out;
  for (const auto& plan : plans) {
    step_plan p = plan;
    for (auto& b : p.bindings) {
      if (b.from_step < 0) continue;
      const step& from = out[static_cast<std::size_t>(b.from_step)];
      if (!from.succeeded()) return std::nullopt;
      const auto& response = from.exchange->result.value();
      auto values =
          evaluate(b.src, from.exchange->request, from.request_json ? &*from.request_json : nullptr,
                   response, from.exchange->json ? &*from.exchange->json : nullptr, *from.plan.op);
      if (values.empty()) return std::nullopt;
      b.value = values.front();
    }
    auto sent = send_step(s, a, p, 3, "replay");
    if (!sent) return std::nullopt;
    out.push_back(std::move(*sent));
  }
  return out;
}

std::vector<step> walk(session& s, const actor& a,
                       const std::vector<std::unique_ptr<observer>>& checks) {
  std::vector<step> log;
  std::deque<step_plan> queue;
  {
    std::vector<std::pair<int, step_plan>> roots;
    for (const auto* op : s.ctx.operations()) {
      const auto auth = auth_of(s, a, *op);
      if (!auth) continue;
      step_plan p;
      p.op = op;
      roots.emplace_back(root_rank(*op, needs_fed_id(*op, *auth)), p);
    }
    std::stable_sort(roots.begin(), roots.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    for (auto& [rank, p] : roots) queue.push_back(std::move(p));
  }
  std::set<std::string> seen;
  std::map<const openapi::operation*, unsigned> per_op;
  std::map<std::size_t, unsigned> per_edge;
  constexpr unsigned max_per_op = 8, max_per_edge = 6;
  // Deletes wait until nothing else is left, so that what a step reads or
  // moves was not removed under it.
  std::deque<step_plan> last;
  while ((!queue.empty() || !last.empty()) && log.size() < s.max_steps) {
    if (queue.empty()) {
      queue.push_back(std::move(last.front()));
      last.pop_front();
    }
    step_plan plan = std::move(queue.front());
    queue.pop_front();
    if (plan.op->method == http::verb::delete_ && !plan.deferred) {
      plan.deferred = true;
      last.push_back(std::move(plan));
      continue;
    }
    const bool from_link = plan.edge != walk_npos && !s.g.edges[plan.edge].inferred();
    const std::size_t link = from_link ? s.g.edges[plan.edge].link : walk_npos;
    // Enough of one operation, unless a link of the description not yet followed leads to it.
    if (per_op[plan.op] >= max_per_op && (link == walk_npos || s.followed[link] > 0)) continue;
    // A write never moves a profile's fixture; a discovery writes only on what it created.
    if (const std::string refused = refusal(s, a, plan); !refused.empty()) {
      if (link != walk_npos && s.followed[link] == 0) s.not_followed[link] = refused;
      s.withheld[plan.op->operation_id] = refused;
      continue;
    }
    auto sent = send_step(s, a, plan);
    if (!sent) {
      if (link != walk_npos && s.followed[link] == 0) s.not_followed[link] = sent.error();
      continue;
    }
    ++per_op[plan.op];
    if (link != walk_npos) ++s.followed[link];
    log.push_back(std::move(*sent));
    const std::size_t index = log.size() - 1;
    if (const std::string id = created_id(log[index]); !id.empty()) {
      s.created[a.label].emplace(id, static_cast<int>(index));
    }
    for (const auto& check : checks) check->after(s, a, log, index);
    const step& done = log[index];
    if (!done.succeeded()) continue;
    s.succeeded.insert(plan.op->operation_id);
    const auto& response = done.exchange->result.value();
    const boost::json::value* body = done.exchange->json ? &*done.exchange->json : nullptr;
    const boost::json::value* request_body = done.request_json ? &*done.request_json : nullptr;
    for (const std::size_t e : s.g.out_of(*plan.op)) {
      const edge& ed = s.g.edges[e];
      if (!ed.inferred() && !link_covers(ed.status, response.status)) continue;
      if (ed.inferred() && (response.status < 200 || response.status >= 300)) continue;
      // One plan per value of a list (the first few), the other values their first.
      std::vector<std::vector<boost::json::value>> values;
      bool missing = false;
      for (const auto& [sl, src] : ed.values) {
        auto v = evaluate(src, done.exchange->request, request_body, response, body, *plan.op);
        if (v.empty()) missing = true;
        values.push_back(std::move(v));
      }
      if (missing) {
        if (!ed.inferred() && s.followed[ed.link] == 0) {
          s.not_followed[ed.link] = "the answers it was on held no value where it points";
        }
        continue;
      }
      // A list feeds its first three items; a write fed by an inferred edge
      // its first only (it acts on what the run found, not what it made).
      const std::size_t most = ed.inferred() && stateful::is_write(*ed.consumer) ? 1 : 3;
      std::size_t fan = 1;
      for (const auto& v : values) fan = std::max(fan, std::min<std::size_t>(v.size(), most));
      for (std::size_t k = 0; k < fan; ++k) {
        step_plan next;
        next.op = ed.consumer;
        next.edge = e;
        for (std::size_t i = 0; i < ed.values.size(); ++i) {
          binding b;
          b.where = ed.values[i].first;
          b.value = values[i][std::min(k, values[i].size() - 1)];
          b.from_step = static_cast<int>(index);
          b.src = ed.values[i].second;
          if (b.src.each_item) {
            // The item's own position, so that a replay reads the same item.
            b.src.each_item = false;
            b.src.key =
                b.src.items + "/" + std::to_string(std::min(k, values[i].size() - 1)) + b.src.key;
          }
          next.bindings.push_back(std::move(b));
        }
        if (!seen.insert(values_key(e, next.bindings)).second) continue;
        if (per_edge[e]++ >= max_per_edge) break;
        queue.push_back(std::move(next));
      }
    }
  }
  return log;
}

}  // namespace conform::harness::stateful
