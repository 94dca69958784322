// The semantic pass over a parsed description: every check here reads the
// typed model (positions kept by the first pass) and reports with file:line:col.

#include <algorithm>
#include <map>

#include "openapi/detail/checks.hpp"

namespace conform::openapi::detail {

namespace {

std::string op_name(const operation& op) {
  if (!op.operation_id.empty()) return "'" + op.operation_id + "'";
  return op.method_path();
}

std::vector<std::string> template_params(const std::string& path) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while ((i = path.find('{', i)) != std::string::npos) {
    const std::size_t j = path.find('}', i);
    if (j == std::string::npos) break;
    out.push_back(path.substr(i + 1, j - i - 1));
    i = j + 1;
  }
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

void check_path_params(doc_reader& r, const operation& op) {
  const auto names = template_params(op.path);
  for (const auto& name : names) {
    if (op.find_parameter(name, param_location::path) == nullptr) {
      r.error(op.pos, "operation " + op_name(op) + ": path parameter '{" + name + "}' of '" +
                          op.path + "' has no definition (in: path)");
    }
  }
  for (const auto& p : op.parameters) {
    if (p.in == param_location::path && !has(names, p.name)) {
      r.error(p.pos, "operation " + op_name(op) + ": path parameter '" + p.name +
                         "' does not appear in the path template '" + op.path + "'");
    }
    if (p.resource && p.in != param_location::path) {
      r.error(p.pos, "operation " + op_name(op) + ": x-resource on parameter '" + p.name +
                         "', which is in " + std::string(to_string(p.in)) + ", not in path");
    }
  }
}

void check_paging(doc_reader& r, const operation& op) {
  if (!op.paging) return;
  const pagination& p = *op.paging;
  std::vector<std::string> needed;
  if (p.kind == pagination::style::page) {
    needed.push_back(p.page_param);
  } else {
    needed.push_back(p.cursor_param);
  }
  needed.push_back(p.size_param);
  needed.insert(needed.end(), p.filter_params.begin(), p.filter_params.end());
  if (!p.sort_param.empty()) needed.push_back(p.sort_param);
  for (const auto& name : needed) {
    if (!name.empty() && op.find_parameter(name, param_location::query) == nullptr) {
      r.error(p.pos, "operation " + op_name(op) + ": x-pagination names query parameter '" + name +
                         "', which the operation does not have");
    }
  }
}

void check_tenant(doc_reader& r, const operation& op) {
  if (op.tenant.from == tenant_context::source::path &&
      op.find_parameter(op.tenant.name, param_location::path) == nullptr) {
    r.error(op.tenant.pos, "operation " + op_name(op) + ": x-tenant-context names path " +
                               "parameter '" + op.tenant.name + "', which the operation " +
                               "does not have");
  }
}

void check_transition(doc_reader& r, const api_spec& spec, const operation& op) {
  if (!op.transition) return;
  const transition_ref& t = *op.transition;
  if (spec.state_machines.count(t.machine) == 0) {
    r.error(t.pos, "operation " + op_name(op) + ": x-transition names unknown state machine '" +
                       t.machine + "'");
  }
  if (op.find_parameter(t.parameter, param_location::path) == nullptr) {
    r.error(t.pos, "operation " + op_name(op) + ": x-transition names path parameter '" +
                       t.parameter + "', which the operation does not have");
  }
}

void check_idempotency(doc_reader& r, const api_spec& spec, const operation& op) {
  if (!op.idempotent) return;
  const auto& e = op.idempotent->effect;
  if (e.operation_id.empty()) return;
  const operation* list = spec.find_operation(e.operation_id);
  if (list == nullptr) {
    r.error(e.pos, "operation " + op_name(op) + ": x-idempotency.effect names unknown " +
                       "operation '" + e.operation_id + "'");
  }
}

void check_same_as(doc_reader& r, const operation& op) {
  if (!op.body) return;
  for (const auto& m : op.body->content) {
    if (m.schema == nullptr) continue;
    for (const auto& b : same_as_bindings(*m.schema)) {
      const auto in = b.same_as.in == "path"    ? param_location::path
                      : b.same_as.in == "query" ? param_location::query
                                                : param_location::header;
      if (op.find_parameter(b.same_as.name, in) == nullptr) {
        r.error(b.node->pos, "operation " + op_name(op) + ": x-same-as on body " + b.pointer +
                                 " names " + b.same_as.in + " parameter '" + b.same_as.name +
                                 "', which the operation does not have");
      }
    }
  }
}

void check_columns_of(doc_reader& r, const operation& op) {
  if (!op.body) return;
  for (const auto& m : op.body->content) {
    if (m.schema == nullptr) continue;
    for (const auto& b : columns_bindings(*m.schema)) {
      if (m.schema->resolved().property(b.columns.part) == nullptr) {
        r.error(b.node->pos, "operation " + op_name(op) + ": x-columns-of on body property '" +
                                 b.property + "' names part '" + b.columns.part +
                                 "', which the body does not have");
      }
    }
  }
}

void check_machine(doc_reader& r, const api_spec& spec, const state_machine& m) {
  const std::string what = "state machine '" + m.name + "'";
  auto state = [&](const std::string& s, const source_pos& at, const std::string& role) {
    if (!has(m.states, s)) {
      r.error(at, what + ": " + role + " '" + s + "' is not one of its states");
    }
  };
  auto op = [&](const std::string& id, const source_pos& at, const std::string& role) {
    if (!id.empty() && spec.find_operation(id) == nullptr) {
      r.error(at, what + ": " + role + " names unknown operation '" + id + "'");
    }
  };
  state(m.initial, m.pos, "initial state");
  for (const auto& t : m.terminal) state(t, m.pos, "terminal state");
  op(m.read_operation_id, m.pos, "read_operation");
  for (const auto& t : m.transitions) {
    state(t.from, t.pos, "transition from");
    state(t.to, t.pos, "transition to");
    op(t.operation_id, t.pos, "a transition");
  }
  for (const auto& p : m.preconditions) op(p.operation_id, p.pos, "a precondition");
}

}  // namespace

void check_spec(doc_reader& r, const api_spec& spec) {
  std::map<std::string, const operation*> ids;
  for (const auto& op : spec.operations) {
    if (op.operation_id.empty()) {
      r.error(op.pos, "operation " + op_name(op) + " lacks an operationId");
    } else if (auto [it, fresh] = ids.emplace(op.operation_id, &op); !fresh) {
      r.error(op.pos, "duplicate operationId '" + op.operation_id + "' (first at " +
                          to_string(it->second->pos) + ")");
    }
    // A part lost to an unresolved $ref was said at the reference: the
    // checks that read parameters would only repeat the loss.
    if (op.unresolved) continue;
    check_path_params(r, op);
    check_paging(r, op);
    check_tenant(r, op);
    check_transition(r, spec, op);
    check_idempotency(r, spec, op);
    check_same_as(r, op);
    check_columns_of(r, op);
  }
  for (const auto& [name, m] : spec.state_machines) check_machine(r, spec, m);
}

}  // namespace conform::openapi::detail
