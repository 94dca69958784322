#include "suites/states/machine_access.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <utility>
#include <vector>

#include "core/text.hpp"
#include "schema/validator.hpp"

namespace conform::suites::states {
namespace {

/// Pages of a list walked to find one resource: enough for thousands of
/// items at the largest page size, and a bound on a server whose pages never end.
constexpr int max_pages = 50;

/// The members of `s` that together describe one JSON value: itself and its
/// allOf parts, references followed.
std::vector<const schema::schema*> facets(const schema::schema& s) {
  std::vector<const schema::schema*> out, pending{&s.resolved()};
  while (!pending.empty() && out.size() < 32) {
    const schema::schema* next = pending.back();
    pending.pop_back();
    if (!next || std::find(out.begin(), out.end(), next) != out.end()) continue;
    out.push_back(next);
    for (const auto* part : next->all_of) {
      if (part) pending.push_back(&part->resolved());
    }
  }
  return out;
}

/// The shallowest object in `root` that has property `field`, as a JSON
/// pointer ("" for the root itself). Arrays are not entered: a read of one
/// resource answers one record.
std::optional<std::string> find_record(const schema::schema& root, const std::string& field) {
  std::vector<std::pair<const schema::schema*, std::string>> level{{&root, ""}};
  for (int depth = 0; depth < 6 && !level.empty(); ++depth) {
    std::vector<std::pair<const schema::schema*, std::string>> next;
    for (const auto& [s, pointer] : level) {
      const auto parts = facets(*s);
      for (const auto* part : parts) {
        if (part->property(field)) return pointer;
      }
      for (const auto* part : parts) {
        for (const auto& [name, child] : part->properties) {
          if (child) next.emplace_back(child, pointer + "/" + core::escape_pointer_token(name));
        }
      }
    }
    level = std::move(next);
  }
  return std::nullopt;
}

/// The schema of the first 2xx JSON answer `op` documents, or nullptr.
const schema::schema* success_schema(const openapi::operation& op) {
  for (const auto& r : op.responses) {
    if (r.status < 200 || r.status >= 300) continue;
    for (const auto& m : r.content) {
      if (m.schema && m.name.find("json") != std::string::npos) return m.schema;
    }
  }
  return nullptr;
}

/// `v` as an id string: a string as is, an integer in decimal.
std::optional<std::string> id_text(const boost::json::value& v) {
  if (v.is_string()) return std::string(v.as_string());
  if (v.is_int64()) return std::to_string(v.as_int64());
  if (v.is_uint64()) return std::to_string(v.as_uint64());
  return std::nullopt;
}

const boost::json::value* at_pointer(const boost::json::value& v, const std::string& pointer) {
  if (pointer.empty()) return &v;
  boost::system::error_code ec;
  const auto* out = v.find_pointer(pointer, ec);
  return ec ? nullptr : out;
}

void set_query(generators::generated_request& g, const std::string& name, std::string value) {
  std::erase_if(g.query, [&](const auto& q) { return q.first == name; });
  g.query.emplace_back(name, std::move(value));
}

}  // namespace

const openapi::parameter* resource_parameter(const openapi::operation& op,
                                             const openapi::state_machine& machine) {
  if (op.transition && op.transition->machine == machine.name) {
    return op.find_parameter(op.transition->parameter, openapi::param_location::path);
  }
  for (const auto& p : op.parameters) {
    if (p.in == openapi::param_location::path && p.resource &&
        p.resource->name == machine.resource) {
      return &p;
    }
  }
  return nullptr;
}

machine_access::machine_access(harness::scenario_context& ctx,
                               const openapi::state_machine& machine, const profile::tenant& tenant,
                               const profile::credential& credential,
                               const openapi::operation& read_op)
    : ctx_(ctx), machine_(machine), tenant_(tenant), credential_(credential), read_op_(read_op) {
  if (!read_op.paging) {
    if (const auto* s = success_schema(read_op)) record_pointer_ = find_record(*s, machine.field);
  }
}

harness::auth_choice machine_access::auth(const openapi::operation& op) const {
  return ctx_.credentials().auth_for(op, credential_, &tenant_);
}

core::outcome<http::request> machine_access::request_on(const openapi::operation& op,
                                                        const std::string& id,
                                                        std::string_view salt) {
  const openapi::parameter* param = resource_parameter(op, machine_);
  if (!param || !param->resource) {
    return core::fail("operation " + op.operation_id + " has no path parameter with x-resource '" +
                      machine_.resource + "' (x-transition names it)");
  }
  // The generator takes path ids from the tenant's fixtures: a copy of the
  // tenant whose fixture for this parameter is the resource under test.
  profile::tenant with_resource = tenant_;
  with_resource.fixtures[param->resource->fixture] = id;
  harness::auth_choice choice = auth(op);
  choice.tenant = &with_resource;
  auto g = ctx_.valid_request(op, choice, salt);
  if (!g) return core::fail(std::move(g).error());
  const auto used = std::make_pair(param->name, id);
  if (std::find(g->fixtures_used.begin(), g->fixtures_used.end(), used) == g->fixtures_used.end()) {
    return core::fail("the request generated for " + op.operation_id +
                      " does not carry the resource id");
  }
  return ctx_.build(op, auth(op), *g);
}

const harness::probe& machine_access::send(const http::request& req) {
  probes_.push_back(ctx_.send(req));
  return probes_.back();
}

state_read machine_access::read(const std::string& id) {
  ++reads_;
  return read_op_.paging ? read_from_list(id) : read_one(id);
}

std::optional<std::string> machine_access::state_of(const boost::json::value& record) const {
  if (!record.is_object()) return std::nullopt;
  const auto* v = record.as_object().if_contains(machine_.field);
  if (!v || !v->is_string()) return std::nullopt;
  return std::string(v->as_string());
}

state_read machine_access::read_from_list(const std::string& id) {
  state_read out;
  const openapi::pagination& paging = *read_op_.paging;
  const std::string& op_id = read_op_.operation_id;
  if (paging.items.empty() || paging.item_id.empty()) {
    out.why = "the x-pagination of " + op_id + " does not say where items and their ids are";
    return out;
  }
  auto g = ctx_.valid_request(read_op_, auth(read_op_), "states/read/" + std::to_string(reads_));
  if (!g) {
    const std::string& why = g.error();
    out.why = "no request for " + op_id + " could be generated: " + why;
    return out;
  }
  // Only what the route requires: an optional filter would hide the item.
  std::erase_if(g->query, [&](const auto& q) {
    const auto* p = read_op_.find_parameter(q.first, openapi::param_location::query);
    return !p || !p->required;
  });
  if (!paging.size_param.empty() && paging.max_size > 0) {
    set_query(*g, paging.size_param, std::to_string(paging.max_size));
  }
  const bool by_page = paging.kind == openapi::pagination::style::page;
  for (int page = 1; page <= max_pages; ++page) {
    if (by_page && !paging.page_param.empty()) {
      set_query(*g, paging.page_param, std::to_string(page));
    }
    const harness::probe& p = send(ctx_.build(read_op_, auth(read_op_), *g));
    out.evidence = &p;
    if (!p.succeeded()) {
      out.why = op_id + " answered " + p.summary();
      return out;
    }
    const auto* items = p.at(paging.items);
    if (!items || !items->is_array()) {
      out.why = op_id + " answered no array at " + paging.items;
      return out;
    }
    for (const auto& item : items->as_array()) {
      const auto* item_id = at_pointer(item, paging.item_id);
      if (!item_id || id_text(*item_id) != id) continue;
      out.state = state_of(item);
      if (!out.state) out.why = "the item has no string '" + machine_.field + "'";
      return out;
    }
    if (items->as_array().empty()) break;
    if (by_page) {
      if (paging.page_param.empty()) break;
      if (!paging.pages.empty()) {
        const auto* pages = p.at(paging.pages);
        if (pages && pages->is_number() && pages->to_number<double>() <= page) break;
      }
    } else {
      const auto* next = paging.next_cursor.empty() ? nullptr : p.at(paging.next_cursor);
      if (!next || !next->is_string() || next->as_string().empty() || paging.cursor_param.empty()) {
        break;
      }
      set_query(*g, paging.cursor_param, std::string(next->as_string()));
    }
  }
  out.why = "no item with id " + id + " in " + op_id + " (walked at most " +
            std::to_string(max_pages) + " pages)";
  return out;
}

state_read machine_access::read_one(const std::string& id) {
  state_read out;
  const std::string& op_id = read_op_.operation_id;
  if (!record_pointer_) {
    out.why =
        "no 2xx JSON answer of " + op_id + " documents an object with '" + machine_.field + "'";
    return out;
  }
  auto req = request_on(read_op_, id, "states/read/" + std::to_string(reads_));
  if (!req) {
    out.why = req.error();
    return out;
  }
  const harness::probe& p = send(*req);
  out.evidence = &p;
  if (!p.succeeded()) {
    out.why = op_id + " answered " + p.summary();
    return out;
  }
  const auto* record = p.at(*record_pointer_);
  out.state = record ? state_of(*record) : std::nullopt;
  if (!out.state) {
    out.why = op_id + " answered no string '" + machine_.field + "' at '" + *record_pointer_ + "'";
  }
  return out;
}

}  // namespace conform::suites::states
