#include "harness/stateful/learn.hpp"

#include <algorithm>

#include "harness/stateful/json.hpp"

namespace conform::harness::stateful {
namespace {

profile::tenant* mutable_tenant(profile::target& work, const profile::tenant* t) {
  if (!t) return nullptr;
  for (auto& mine : work.tenants) {
    if (mine.id == t->id) return &mine;
  }
  return nullptr;
}

profile::credential* mutable_credential(profile::target& work, const profile::credential* c) {
  for (auto& mine : work.credentials) {
    if (&mine == c) return &mine;
  }
  return nullptr;
}

/// The x-fixture members of a JSON request body: (fixture name, value text).
void body_fixtures(const schema::schema& s, const boost::json::value& v,
                   std::vector<std::pair<std::string, std::string>>& out, int depth = 0) {
  if (depth > 8) return;
  const schema::schema& r = s.resolved();
  const auto& fixture = s.fixture ? s.fixture : r.fixture;
  if (fixture) {
    if (auto text = stateful::text_of(v)) out.emplace_back(*fixture, *text);
    return;
  }
  if (const auto* obj = v.if_object()) {
    std::vector<const schema::schema*> shapes{&r};
    for (const auto* b : r.all_of) shapes.push_back(&b->resolved());
    for (const auto* shape : shapes) {
      for (const auto& [name, child] : shape->properties) {
        if (const auto* member = obj->if_contains(name); member && child) {
          body_fixtures(*child, *member, out, depth + 1);
        }
      }
    }
  } else if (const auto* arr = v.if_array(); arr && r.items) {
    for (const auto& item : *arr) body_fixtures(*r.items, item, out, depth + 1);
  }
}

const schema::schema* json_body_schema(const openapi::operation& op) {
  if (!op.body) return nullptr;
  for (const auto& m : op.body->content) {
    if (m.schema && m.name.find("json") != std::string::npos) return m.schema;
  }
  return nullptr;
}

const schema::schema* success_schema(const openapi::operation& op, unsigned status) {
  const auto* r = op.documented_response(static_cast<int>(status));
  if (!r) return nullptr;
  for (const auto& m : r->content) {
    if (m.schema && m.name.find("json") != std::string::npos) return m.schema;
  }
  return nullptr;
}

/// The tenant ids `st` was let through with: the tenant-context parameter
/// (path or body) and the body members naming the acting tenant.
std::vector<std::string> tenant_ids_sent(const openapi::api_spec& spec, const step& st) {
  std::vector<std::string> out;
  const auto& op = *st.plan.op;
  using source = openapi::tenant_context::source;
  if (op.tenant.from == source::path) {
    if (auto v = st.path_value(op.tenant.name)) out.push_back(*v);
  }
  if (st.request_json) {
    if (op.tenant.from == source::body) {
      if (const auto* v = stateful::at(*st.request_json, "/" + op.tenant.name)) {
        if (auto t = stateful::text_of(*v)) out.push_back(*t);
      }
    }
    if (const auto* s = json_body_schema(op); s && !spec.rules.tenant_id_fixture.empty()) {
      std::vector<std::pair<std::string, std::string>> found;
      body_fixtures(*s, *st.request_json, found);
      for (const auto& [name, value] : found) {
        if (name == spec.rules.tenant_id_fixture) out.push_back(value);
      }
    }
  }
  return out;
}

}  // namespace

bool creates(const openapi::operation& op) {
  if (op.method != http::verb::post) return false;
  if (op.path.empty() || op.path.back() == '}') return false;
  return !record_id_pointer(op).empty();
}

std::string created_id(const step& st) {
  if (!st.succeeded() || !creates(*st.plan.op) || !st.exchange->json) return {};
  const auto* v = stateful::at(*st.exchange->json, record_id_pointer(*st.plan.op));
  return v ? stateful::text_of(*v).value_or("") : std::string();
}

void learn(session& s, const actor& a, const step& st) {
  const auto& op = *st.plan.op;
  const unsigned status = st.exchange->status();
  const bool ok = st.succeeded();
  const std::string tenant_id = st.auth.tenant ? st.auth.tenant->id : std::string();
  if (a.credential) {
    auto& answered = s.answers[{a.credential->name, op.operation_id}];
    if (answered < 200 || answered >= 300) answered = status;
  }
  if (!ok) return;

  // Resources a write moved, and states seen.
  for (const auto& p : op.parameters) {
    if (p.in != openapi::param_location::path) continue;
    if (auto v = st.path_value(p.name); v && stateful::is_write(op))
      s.moved[{tenant_id, *v}] = s.order;
  }
  for (const auto& [name, m] : s.spec.state_machines) {
    const bool reads = op.operation_id == m.read_operation_id;
    const bool moves = op.transition && op.transition->machine == name;
    if ((!reads && !moves) || !st.exchange->json) continue;
    const auto& body = *st.exchange->json;
    if (reads && op.method == http::verb::get) {
      if (auto shape = list_of(op)) {
        const auto* items = stateful::at(body, shape->items);
        if (items && items->is_array()) {
          for (const auto& item : items->get_array()) {
            const auto* id = stateful::at(item, shape->item_id);
            const auto* state = stateful::at(item, "/" + m.field);
            if (id && state && state->is_string()) {
              s.observed[{tenant_id, name, stateful::text_of(*id).value_or("")}] = {
                  std::string(state->get_string()), s.order};
            }
          }
        }
        continue;
      }
    }
    // One record: its id is the moved or read parameter's, its state the field's.
    std::string param = moves ? op.transition->parameter : std::string();
    for (const auto& p : op.parameters) {
      if (param.empty() && p.resource && p.resource->name == m.resource) param = p.name;
    }
    const auto id = param.empty() ? std::nullopt : st.path_value(param);
    const schema::schema* schema = success_schema(op, status);
    if (!id || !schema) continue;
    const auto pointer =
        stateful::find_property(*schema, [&m = m](std::string_view n) { return n == m.field; });
    const auto* state = pointer ? stateful::at(body, *pointer) : nullptr;
    if (state && state->is_string()) {
      s.observed[{tenant_id, name, *id}] = {std::string(state->get_string()), s.order};
    }
  }

  // What the credential proved (an operation without one proves nothing of it).
  if (profile::credential* c = a.credential ? mutable_credential(s.work, a.credential) : nullptr) {
    // Scopes: a 2xx proves the operation's scopes granted, when none are stated.
    if (!c->scopes && st.auth.model.scheme) {
      for (const auto& scope :
           op.scopes_for(*st.auth.model.scheme).value_or(std::vector<std::string>{})) {
        if (std::find(c->proven_scopes.begin(), c->proven_scopes.end(), scope) ==
            c->proven_scopes.end()) {
          c->proven_scopes.push_back(scope);
        }
      }
    }
    // Tenants: an id the credential was let through as its tenant.
    for (const auto& id : tenant_ids_sent(s.spec, st)) {
      if (id.empty()) continue;
      const bool known = std::any_of(c->tenants.begin(), c->tenants.end(),
                                     [&id](const profile::tenant* t) { return t && t->id == id; });
      // Steps hold pointers to the tenants: the list grows only within its room.
      if (known || s.work.tenants.size() >= s.work.tenants.capacity()) continue;
      profile::tenant fresh;
      fresh.name = "tenant-" + id;
      fresh.id = id;
      const profile::tenant& added = s.work.add_tenant(std::move(fresh));
      c->tenants.push_back(&added);
      s.notes.push_back(c->name + ": reaches tenant " + id + " (" + op.operation_id + " answered " +
                        std::to_string(status) + " for it)");
    }
  }
  // Fixtures: ids a 2xx answer was given, in the tenant it acted for.
  profile::tenant* t = mutable_tenant(s.work, st.auth.tenant);
  // An operation of no tenant: what it was given is the target's own.
  if (!t && op.tenant.from == openapi::tenant_context::source::none) t = &s.work.shared;
  if (!t) return;
  auto keep = [t](const std::string& name, const std::string& value) {
    if (name.empty() || value.empty() || t->fixtures.count(name)) return;
    t->fixtures[name] = value;
  };
  for (const auto& p : op.parameters) {
    if (p.in != openapi::param_location::path) continue;
    if (op.tenant.from == openapi::tenant_context::source::path && p.name == op.tenant.name) {
      continue;
    }
    // A fixture that must be in some state: stateful/prepare.cpp makes one.
    if (p.resource && p.resource->fixture_state) continue;
    if (auto v = st.path_value(p.name)) keep(fixture_name_for(op, p), *v);
  }
  if (st.request_json) {
    if (const auto* schema = json_body_schema(op)) {
      std::vector<std::pair<std::string, std::string>> found;
      body_fixtures(*schema, *st.request_json, found);
      for (const auto& [name, value] : found) {
        if (name != s.spec.rules.tenant_id_fixture) keep(name, value);
      }
    }
  }
}

}  // namespace conform::harness::stateful
