#include "harness/stateful/graph.hpp"

#include <algorithm>
#include <cctype>
#include <deque>
#include <set>

#include "harness/auth.hpp"
#include "harness/stateful/json.hpp"

namespace conform::harness::stateful {
namespace {

using openapi::operation;
using openapi::param_location;

bool is_success_key(int status) {
  return status == 2 || (status >= 200 && status < 300);
}

/// The 2xx JSON answers of `op`, in status order.
std::vector<const openapi::response*> success_answers(const operation& op) {
  std::vector<const openapi::response*> out;
  for (const auto& r : op.responses) {
    if (!is_success_key(r.status)) continue;
    for (const auto& m : r.content) {
      if (m.schema && m.name.find("json") != std::string::npos) {
        out.push_back(&r);
        break;
      }
    }
  }
  return out;
}

const schema::schema* json_schema_of(const openapi::response& r) {
  for (const auto& m : r.content) {
    if (m.schema && m.name.find("json") != std::string::npos) return m.schema;
  }
  return nullptr;
}

/// "contact_id", "contactId", "contactID" -> "contactid"; "id" -> "id".
std::string normal(std::string_view name) {
  std::string out;
  for (const char c : name) {
    if (c == '_' || c == '-') continue;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

/// True for a name that names an id: "id", "<x>_id", "<x>Id", "<x>ID".
bool id_like(std::string_view name) {
  const std::string n = normal(name);
  return n.size() >= 2 && n.compare(n.size() - 2, 2, "id") == 0;
}

/// The resource a `<x>_id` name names: "contact" for contact_id, "silence" for silenceID.
std::string resource_of_name(std::string_view name) {
  std::string n(name);
  for (const std::string_view suffix : {"_id", "-id", "Id", "ID", "_ID"}) {
    if (n.size() > suffix.size() &&
        n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0) {
      return singular(n.substr(0, n.size() - suffix.size()));
    }
  }
  return {};
}

/// Static path segments ("/orders/{id}/ship" -> orders, ship).
std::vector<std::string> static_segments(const std::string& path) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '/') {
      ++i;
      continue;
    }
    const std::size_t j = std::min(path.find('/', i), path.size());
    out.push_back(path.substr(i, j - i));
    i = j;
  }
  return out;
}

/// The collection a path parameter's id belongs to: the path up to the
/// static segment before "{name}" ("/orders" for "/orders/{id}/ship"), or ""
/// when it is not such a segment.
std::string collection_of(const std::string& path, const std::string& name) {
  const std::string marker = "{" + name + "}";
  const auto at = path.find(marker);
  if (at == std::string::npos || at < 2 || path[at - 1] != '/') return {};
  const std::string before = path.substr(0, at - 1);
  const auto last = before.rfind('/');
  if (last == std::string::npos || before.find('{', last) != std::string::npos) return {};
  return before;
}

/// The resource path "/orders/{id}" of a parameter: the collection and the parameter.
std::string resource_path_of(const std::string& path, const std::string& name) {
  const std::string collection = collection_of(path, name);
  return collection.empty() ? std::string() : collection + "/{" + name + "}";
}

std::string last_segment(const std::string& path) {
  auto s = static_segments(path);
  return s.empty() ? std::string() : s.back();
}

/// The body members of `op`'s JSON-like request body whose names name an
/// id, as top-level pointers ("/agent_id"), with the x-fixture they carry.
std::vector<std::string> body_id_members(const operation& op) {
  std::vector<std::string> out;
  if (!op.body) return out;
  for (const auto& m : op.body->content) {
    if (!m.schema) continue;
    std::vector<const schema::schema*> pending{m.schema};
    std::set<const schema::schema*> seen;
    while (!pending.empty()) {
      const auto* s = pending.back();
      pending.pop_back();
      if (!s || !seen.insert(s).second) continue;
      const auto& r = s->resolved();
      for (const auto& [name, child] : r.properties) {
        if (!child) continue;
        const bool integer_or_string = child->resolved().types.any() ||
                                       child->resolved().types.has(schema::json_type::integer) ||
                                       child->resolved().types.has(schema::json_type::string);
        const std::string pointer = "/" + name;
        if (id_like(name) && integer_or_string &&
            std::find(out.begin(), out.end(), pointer) == out.end()) {
          out.push_back(pointer);
        }
      }
      for (const auto* b : r.all_of) pending.push_back(b);
    }
    break;  // the media type the generator picks first is JSON when there is one
  }
  return out;
}

struct producer_value {
  source src;
};

/// How `producer`'s 2xx answers give a value for an id named `name` of the
/// resource `resource` ("" when only the name can match): a property of that
/// name (normalised), else the record's `id` when the producer is the
/// resource's collection or the resource itself.
std::optional<source> produces(const operation& producer, const std::string& name,
                               const std::string& resource, const std::string& collection,
                               const std::string& resource_path) {
  for (const auto* r : success_answers(producer)) {
    const schema::schema* s = json_schema_of(*r);
    if (!s) continue;
    // A property of the same name (outside arrays), or within a list's items.
    if (normal(name) != "id") {
      if (auto p = stateful::find_property(
              *s, [&](std::string_view n) { return normal(n) == normal(name); })) {
        source out;
        out.where = source::from::response_body;
        out.key = *p;
        return out;
      }
    }
    const std::string plast = last_segment(producer.path);
    const bool same_collection =
        (!collection.empty() && producer.path == collection) ||
        (!resource.empty() && producer.path.find('{') == std::string::npos &&
         singular(plast) == resource);
    const bool same_resource = !resource_path.empty() && producer.path == resource_path;
    if (!same_collection && !same_resource) continue;
    // A list of the collection: each item's id.
    if (producer.method == http::verb::get && same_collection) {
      if (auto shape = list_of(producer)) {
        source out;
        out.where = source::from::response_body;
        out.each_item = true;
        out.items = shape->items;
        out.key = shape->item_id;
        return out;
      }
    }
    // A create of the collection, or a read or move of the resource: its record's id.
    const std::string id = record_id_pointer(producer);
    if (!id.empty()) {
      source out;
      out.where = source::from::response_body;
      out.key = id;
      return out;
    }
  }
  return std::nullopt;
}

}  // namespace

core::outcome<source> parse_expression(const std::string& text) {
  source s;
  if (text.empty() || text.front() != '$') {
    s.where = source::from::constant;
    s.key = text;
    return s;
  }
  auto after = [&text](std::string_view prefix) -> std::optional<std::string> {
    if (text.rfind(prefix, 0) != 0) return std::nullopt;
    return text.substr(prefix.size());
  };
  if (text == "$statusCode") {
    s.where = source::from::status_code;
    return s;
  }
  if (auto rest = after("$response.body")) {
    s.where = source::from::response_body;
    if (rest->empty() || (*rest)[0] == '#') {
      s.key = rest->empty() ? "" : rest->substr(1);
      return s;
    }
  } else if (auto h = after("$response.header.")) {
    s.where = source::from::response_header;
    s.key = *h;
    return s;
  } else if (auto rb = after("$request.body")) {
    s.where = source::from::request_body;
    if (rb->empty() || (*rb)[0] == '#') {
      s.key = rb->empty() ? "" : rb->substr(1);
      return s;
    }
  } else if (auto p = after("$request.path.")) {
    s.where = source::from::request_path;
    s.key = *p;
    return s;
  } else if (auto q = after("$request.query.")) {
    s.where = source::from::request_query;
    s.key = *q;
    return s;
  } else if (auto rh = after("$request.header.")) {
    s.where = source::from::request_header;
    s.key = *rh;
    return s;
  }
  return core::fail("the expression '" + text +
                    "' is not one Conform evaluates ($response.body#/..., "
                    "$response.header.X, $request.path|query|header.X, $request.body#/..., "
                    "$statusCode)");
}

std::vector<std::size_t> graph::out_of(const openapi::operation& op) const {
  std::vector<std::size_t> out;
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t i = 0; i < edges.size(); ++i) {
      if (edges[i].producer == &op && edges[i].inferred() == (pass == 1)) out.push_back(i);
    }
  }
  return out;
}

std::string record_id_pointer(const openapi::operation& op) {
  // `id`, else the `<resource>_id` (`silenceID`) of the path's resource.
  std::string resource;
  for (const auto& seg : static_segments(op.path)) {
    if (seg.find('{') == std::string::npos) resource = singular(seg);
  }
  for (const auto* r : success_answers(op)) {
    if (const schema::schema* s = json_schema_of(*r)) {
      if (auto p = stateful::find_property(*s, [](std::string_view n) { return n == "id"; })) {
        return *p;
      }
      if (resource.empty()) continue;
      if (auto p = stateful::find_property(
              *s, [&resource](std::string_view n) { return resource_of_name(n) == resource; })) {
        return *p;
      }
    }
  }
  return {};
}

std::optional<list_shape> list_of(const openapi::operation& op) {
  if (op.paging && !op.paging->items.empty()) {
    return list_shape{op.paging->items, op.paging->item_id.empty() ? "/id" : op.paging->item_id};
  }
  for (const auto* r : success_answers(op)) {
    if (const schema::schema* s = json_schema_of(*r)) {
      if (auto items = stateful::find_id_array(*s)) return list_shape{*items, "/id"};
    }
  }
  return std::nullopt;
}

namespace {

/// The (consumer, slot) pairs a link feeds: those get no inferred edge.
using linked_slots = std::vector<std::pair<const operation*, slot>>;

/// The parameter of `to` a link's parameter key names: "path.id" names the
/// location; a bare name is the first parameter of that name.
const openapi::parameter* linked_parameter(const operation& to, const std::string& key) {
  std::string pname = key;
  std::optional<param_location> in;
  for (const auto& [prefix, loc] :
       {std::pair<std::string_view, param_location>{"path.", param_location::path},
        {"query.", param_location::query},
        {"header.", param_location::header},
        {"cookie.", param_location::cookie}}) {
    if (key.rfind(prefix, 0) == 0) {
      pname = key.substr(prefix.size());
      in = loc;
    }
  }
  for (const auto& q : to.parameters) {
    if (q.name == pname && (!in || q.in == *in)) return &q;
  }
  return nullptr;
}

/// The values link `l` of `e.producer`'s answer sets on `e.consumer`, added
/// to `e` (and the slots it feeds to `linked`, as they are read), or why it
/// sets none.
core::status link_values(const openapi::link& l, edge& e, linked_slots& linked) {
  const operation& to = *e.consumer;
  for (const auto& [name, expression] : l.parameters) {
    const openapi::parameter* p = linked_parameter(to, name);
    if (!p) {
      return core::fail("it sets parameter '" + name + "', which " + to.operation_id +
                        " does not have");
    }
    auto src = parse_expression(expression);
    if (!src) return core::fail(std::move(src).error());
    slot sl;
    sl.in = p->in;
    sl.name = p->name;
    e.values.emplace_back(sl, *src);
    linked.emplace_back(&to, sl);
  }
  if (!l.request_body.empty()) {
    auto src = parse_expression(l.request_body);
    if (!src) return core::fail(std::move(src).error());
    slot sl;
    sl.body = true;
    sl.name = "";
    e.values.emplace_back(sl, *src);
  }
  return {};
}

/// Every response link of the description as a row of `g.links`, and as an
/// edge of `g` when the run covers both ends and Conform can follow it.
void add_link_edges(graph& g, const openapi::api_spec& spec,
                    const std::vector<const openapi::operation*>& operations,
                    linked_slots& linked) {
  auto covered = [&operations](const operation* op) {
    return std::find(operations.begin(), operations.end(), op) != operations.end();
  };
  for (const auto& op : spec.operations) {
    for (const auto& r : op.responses) {
      for (const auto& l : r.links) {
        link_use use;
        use.from_operation = op.operation_id;
        use.status = openapi::status_key(r.status);
        use.name = l.name;
        use.to_operation = l.operation_id;
        const std::size_t index = g.links.size();
        g.links.push_back(use);
        const operation* to =
            l.operation_id.empty() ? nullptr : spec.find_operation(l.operation_id);
        if (!to) {
          g.links[index].why = "it names no operation of the description";
          continue;
        }
        edge e;
        e.producer = &op;
        e.consumer = to;
        e.link = index;
        e.status = r.status;
        e.label = "link " + l.name;
        if (auto set = link_values(l, e, linked); !set) {
          g.links[index].why = std::move(set).error();
          continue;
        }
        if (!covered(&op) || !covered(to)) {
          g.links[index].why = "the run does not cover " +
                               (!covered(&op) ? op.operation_id : to->operation_id) +
                               " (--include/--exclude)";
          continue;
        }
        g.edges.push_back(std::move(e));
      }
    }
  }
}

/// Inferred edges for the id parameters and body members no link feeds.
void add_inferred_edges(graph& g, const std::vector<const openapi::operation*>& operations,
                        const linked_slots& linked) {
  auto is_linked = [&linked](const operation* op, const slot& s) {
    return std::any_of(linked.begin(), linked.end(),
                       [&](const auto& l) { return l.first == op && l.second == s; });
  };
  for (const auto* consumer : operations) {
    std::vector<std::pair<slot, std::string>> wanted;  // slot, its name
    for (const auto& p : consumer->parameters) {
      if (p.in != param_location::path) continue;
      if (!id_like(p.name) && !p.resource) continue;
      wanted.push_back({slot{false, p.in, p.name}, p.name});
    }
    for (const auto& pointer : body_id_members(*consumer)) {
      wanted.push_back({slot{true, param_location::path, pointer}, pointer.substr(1)});
    }
    for (const auto& [sl, name] : wanted) {
      if (is_linked(consumer, sl)) continue;
      const std::string collection = sl.body ? std::string() : collection_of(consumer->path, name);
      const std::string resource_path =
          sl.body ? std::string() : resource_path_of(consumer->path, name);
      std::string resource = resource_of_name(name);
      if (resource.empty() && !collection.empty()) resource = singular(last_segment(collection));
      for (const auto* producer : operations) {
        if (producer == consumer) continue;
        auto src = produces(*producer, name, resource, collection, resource_path);
        if (!src) continue;
        edge e;
        e.producer = producer;
        e.consumer = consumer;
        e.values.emplace_back(sl, *src);
        e.label = "inferred: " + std::string(src->each_item ? "each item's " : "") +
                  (src->key.empty() ? "/" : src->key) + " -> " +
                  (sl.body ? "body " + sl.name : "path " + sl.name);
        g.edges.push_back(std::move(e));
      }
    }
  }
}

}  // namespace

graph build_graph(const openapi::api_spec& spec,
                  const std::vector<const openapi::operation*>& operations) {
  graph g;
  linked_slots linked;
  add_link_edges(g, spec, operations, linked);
  add_inferred_edges(g, operations, linked);
  return g;
}

std::vector<boost::json::value> evaluate(const source& s, const http::request& request,
                                         const boost::json::value* request_body,
                                         const http::response& response,
                                         const boost::json::value* response_body,
                                         const openapi::operation& producer) {
  std::vector<boost::json::value> out;
  switch (s.where) {
    case source::from::constant:
      out.emplace_back(s.key);
      break;
    case source::from::status_code:
      out.emplace_back(static_cast<std::int64_t>(response.status));
      break;
    case source::from::response_header:
      if (const auto* h = response.find(s.key)) out.emplace_back(*h);
      break;
    case source::from::request_header:
      if (const auto* h = request.find_header(s.key)) out.emplace_back(*h);
      break;
    case source::from::request_query:
      if (auto v = stateful::query_value(request.target, s.key)) out.emplace_back(*v);
      break;
    case source::from::request_path:
      if (auto v = stateful::path_value(producer.path, request.target, s.key)) out.emplace_back(*v);
      break;
    case source::from::request_body:
      if (request_body) {
        if (const auto* v = stateful::at(*request_body, s.key)) out.push_back(*v);
      }
      break;
    case source::from::response_body:
      if (!response_body) break;
      if (s.each_item) {
        const auto* items = stateful::at(*response_body, s.items);
        if (items && items->is_array()) {
          for (const auto& item : items->get_array()) {
            if (const auto* v = stateful::at(item, s.key)) out.push_back(*v);
          }
        }
      } else if (const auto* v = stateful::at(*response_body, s.key)) {
        out.push_back(*v);
      }
      break;
  }
  // A null (an optional id not given) feeds nothing.
  std::erase_if(out, [](const boost::json::value& v) { return v.is_null(); });
  return out;
}

}  // namespace conform::harness::stateful
