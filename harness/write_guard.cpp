#include "harness/write_guard.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <string_view>

#include "core/form.hpp"
#include "core/text.hpp"
#include "harness/stateful/json.hpp"
#include "harness/stateful/graph.hpp"

namespace conform::harness {
namespace {

/// The value of top-level property `name` in a request body of `media`
/// (JSON, a multipart form or an urlencoded one), as text; nullopt when the
/// body does not carry it.
std::optional<std::string> body_property(const std::string& media, const std::string& type,
                                         const std::string& body, const std::string& name) {
  if (media == "multipart/form-data") {
    auto parts = core::parse_multipart(body, core::multipart_boundary(type));
    if (!parts) return std::nullopt;
    for (const auto& p : *parts) {
      if (p.name == name) return p.content;
    }
    return std::nullopt;
  }
  if (media == "application/x-www-form-urlencoded") {
    for (const auto& [k, v] : core::parse_urlencoded(body)) {
      if (k == name) return v;
    }
    return std::nullopt;
  }
  boost::system::error_code ec;
  const auto json = boost::json::parse(body, ec);
  const auto* object = ec ? nullptr : json.if_object();
  const auto* v = object ? object->if_contains(name) : nullptr;
  if (!v) return std::nullopt;
  return stateful::text_of(*v);
}

/// The segments of a path, without its query ("/a/b%20c?x" -> a, "b c").
std::vector<std::string> segments(std::string_view path, bool decode) {
  path = path.substr(0, path.find('?'));
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at <= path.size()) {
    const auto next = path.find('/', at);
    const auto seg = path.substr(at, next == std::string_view::npos ? path.npos : next - at);
    if (!seg.empty()) out.push_back(decode ? core::percent_decode(seg) : std::string(seg));
    if (next == std::string_view::npos) break;
    at = next + 1;
  }
  return out;
}

std::string joined(const std::vector<std::string>& segs, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count && i < segs.size(); ++i) out += "/" + segs[i];
  return out.empty() ? "/" : out;
}

/// The name of the parameter a template segment is ("{id}" -> "id"), or "".
std::string param_name(std::string_view seg) {
  const auto open = seg.find('{');
  const auto close = seg.find('}', open);
  if (open == seg.npos || close == seg.npos) return {};
  return std::string(seg.substr(open + 1, close - open - 1));
}

/// True when path parameter `name` of `op` names a resource: not the
/// tenant the path carries (x-tenant-context), not one of a closed set of
/// kinds (an enum: /telephony/{provider}/answer).
bool names_resource(const openapi::operation& op, const std::string& name) {
  if (op.tenant.from == openapi::tenant_context::source::path && op.tenant.name == name) {
    return false;
  }
  for (const auto& p : op.parameters) {
    if (p.in != openapi::param_location::path || p.name != name) continue;
    return !(p.schema && !p.schema->enum_values.empty());
  }
  return true;
}

/// The indices of `op`'s template segments that name a resource.
std::vector<std::size_t> resource_segments(const openapi::operation& op) {
  std::vector<std::size_t> out;
  const auto tmpl = segments(op.path, false);
  for (std::size_t i = 0; i < tmpl.size(); ++i) {
    const auto name = param_name(tmpl[i]);
    if (!name.empty() && names_resource(op, name)) out.push_back(i);
  }
  return out;
}

bool matches(const openapi::operation& op, const std::vector<std::string>& concrete, int& literal) {
  const auto tmpl = segments(op.path, false);
  if (tmpl.size() != concrete.size()) return false;
  literal = 0;
  for (std::size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i].find('{') != std::string::npos) continue;
    if (tmpl[i] != concrete[i]) return false;
    ++literal;
  }
  return true;
}

/// True when a POST of `op` is documented to create a resource: x-creates, a 201, a
/// `Location` header on a success, or an item path below its own
/// (`POST /things` beside `/things/{id}`). Any other POST is an action whose
/// effect the description does not tell (`POST /kv/deleterange`): it may
/// change what the run did not create.
bool creates(const openapi::api_spec& spec, const openapi::operation& op) {
  if (op.creates) return true;  // x-creates
  for (const auto& r : op.responses) {
    if (r.status == 201) return true;
    const bool success = r.status == 2 || (r.status >= 200 && r.status < 300);
    if (success && std::any_of(r.headers.begin(), r.headers.end(),
                               [](const auto& h) { return core::iequals(h.name, "Location"); })) {
      return true;
    }
  }
  const std::string below = op.path + (op.path.ends_with("/") ? "{" : "/{");
  return std::any_of(spec.operations.begin(), spec.operations.end(),
                     [&below](const openapi::operation& o) { return o.path.starts_with(below); });
}

}  // namespace

std::set<std::string> writable_ids(const profile::target& t) {
  std::set<std::string> out;
  for (const auto& tenant : t.tenants) {
    for (const auto& name : tenant.writable) {
      if (auto it = tenant.fixtures.find(name); it != tenant.fixtures.end()) out.insert(it->second);
    }
  }
  return out;
}

bool writes(const http::request& req) {
  switch (req.method) {
    case http::verb::get:
    case http::verb::head:
    case http::verb::options:
    case http::verb::trace:
      return false;
    case http::verb::unknown:
      return !core::iequals(req.method_text, "QUERY");
    default:
      return true;
  }
}

const openapi::operation* operation_written(const openapi::api_spec& spec,
                                            const http::request& req) {
  const auto concrete = segments(req.target, true);
  const openapi::operation* best = nullptr;
  const openapi::operation* any_method = nullptr;
  int best_literal = -1, any_literal = -1;
  for (const auto& op : spec.operations) {
    int literal = 0;
    if (!matches(op, concrete, literal)) continue;
    if (literal > any_literal) any_literal = literal, any_method = &op;
    if (http::method_name(req) == op.method_name() && literal > best_literal) {
      best_literal = literal;
      best = &op;
    }
  }
  // A method the path does not take (a 405 probe) writes where the path points.
  return best ? best : any_method;
}

write_guard::write_guard(const openapi::api_spec& spec, write_mode mode, std::string base_path,
                         std::set<std::string> writable)
    : spec_(spec), mode_(mode), base_path_(std::move(base_path)), writable_(std::move(writable)) {
  for (const auto& op : spec_.operations) facts_.emplace(&op, facts_for(spec_, op));
}

write_guard::op_facts write_guard::facts_for(const openapi::api_spec& spec,
                                             const openapi::operation& op) {
  op_facts f;
  f.resources = resource_segments(op);
  f.creates = creates(spec, op);
  if (op.body) {
    for (const auto& m : op.body->content) {
      if (!m.schema) continue;
      for (const auto& [name, property] : m.schema->resolved().properties) {
        if (property && (property->writes || property->resolved().writes)) f.body_writes = true;
      }
    }
  }
  f.record_id = stateful::record_id_pointer(op);
  return f;
}

const write_guard::op_facts& write_guard::facts(const openapi::operation& op,
                                                op_facts& scratch) const {
  if (const auto it = facts_.find(&op); it != facts_.end()) return it->second;
  scratch = facts_for(spec_, op);
  return scratch;
}

std::optional<std::string> write_guard::refusal(const openapi::operation* op,
                                                const http::request& req) const {
  if (mode_ == write_mode::destructive || !writes(req)) return std::nullopt;
  if (!op) op = operation_written(spec_, req);
  const std::string method(http::method_name(req));
  if (!op) {
    return "safe mode: " + method + " " + req.target.substr(0, req.target.find('?')) +
           " matches no path of the description, so what it writes to is unknown";
  }
  // The user says it only reads (--read-only), for a method the request
  // was built for: a 405 probe of another method still writes.
  if (read_only_.count(op) > 0 && method == op->method_name()) return std::nullopt;
  op_facts scratch;
  const op_facts& f = facts(*op, scratch);
  // A documented create whose body names nothing it changes (the most
  // common write of a run): what it makes is the run's.
  if (req.method == http::verb::post && f.resources.empty() && f.creates && !f.body_writes) {
    return std::nullopt;
  }
  const auto where = method + " " + op->path;
  if (f.body_writes) {
    if (auto why = body_reference_refusal(*op, req, where)) return why;
  }
  const auto& resources = f.resources;
  if (resources.empty()) {
    if (req.method == http::verb::post && f.creates) return std::nullopt;  // a documented create
    // A DELETE on one named resource matches that one, whatever its query
    // says; on a collection, with or without filters, it may match many.
    const bool filtered =
        req.target.find('?') != std::string::npos && req.target.find('?') + 1 < req.target.size();
    return without_resource(*op, req.method, where, filtered);
  }
  const auto concrete = segments(req.target, true);
  const std::size_t last = resources.back();
  if (last >= concrete.size()) {
    return "safe mode: " + where + " names no resource this run created";
  }
  const std::lock_guard lock(mutex_);
  for (const auto i : resources) {
    if (writable_.count(concrete[i])) return std::nullopt;
    if (created_.count(joined(concrete, i + 1))) return std::nullopt;
  }
  return "safe mode: no resource created in this run to " + method + " (" + where +
         " would write to " + joined(concrete, last + 1) + ", which this run did not create)";
}

std::optional<std::string> write_guard::without_resource(const openapi::operation& op,
                                                         http::verb method,
                                                         const std::string& where,
                                                         bool filtered) const {
  if (method == http::verb::post) {
    if (creates(spec_, op)) return std::nullopt;  // a create: what it makes is the run's
    return "safe mode: " + where +
           " is not documented to create (no 201, no Location, no item path below it), so "
           "what it changes is unknown and may be data this run did not create";
  }
  if (method == http::verb::delete_) {
    return "safe mode: " + where + " is a DELETE on a collection path" +
           (filtered ? " with query filters" : "") +
           ", which could remove resources this run did not create";
  }
  return "safe mode: " + where + " writes to a resource this run did not create";
}

std::optional<std::string> write_guard::never_sent(const openapi::operation& op) const {
  if (mode_ == write_mode::destructive || read_only_.count(&op) > 0) return std::nullopt;
  http::request probe;
  probe.method = op.method;
  probe.method_text = op.method_name();
  op_facts scratch;
  if (!writes(probe) || !facts(op, scratch).resources.empty()) return std::nullopt;
  return without_resource(op, op.method, op.method_name() + " " + op.path, false);
}

std::optional<std::string> write_guard::body_reference_refusal(const openapi::operation& op,
                                                               const http::request& req,
                                                               const std::string& where) const {
  if (!op.body || req.body.empty()) return std::nullopt;
  const std::string* content_type = req.find_header("Content-Type");
  const std::string type = content_type ? *content_type : std::string();
  const std::string media = core::media_type_of(type);
  for (const auto& m : op.body->content) {
    if (!m.schema || core::media_type_of(m.name) != media) continue;
    for (const auto& [name, property] : m.schema->resolved().properties) {
      if (!property || !(property->writes || property->resolved().writes)) continue;
      const auto value = body_property(media, type, req.body, name);
      if (!value || value->empty() || writable_.count(*value)) continue;
      const std::lock_guard lock(mutex_);
      const bool made = std::any_of(created_.begin(), created_.end(), [&](const std::string& p) {
        return p.size() > value->size() && p.ends_with("/" + *value);
      });
      if (made) continue;
      return "safe mode: " + where + " changes the resource its body's " + name + " names (" +
             *value + ", x-writes), which this run did not create";
    }
  }
  return std::nullopt;
}

void write_guard::learn(const openapi::operation* op, const http::request& req,
                        const http::result& res) {
  if (!res.ok() || !writes(req)) return;
  const auto status = res.value().status;
  if (status < 200 || status >= 300) return;
  if (req.method != http::verb::post && req.method != http::verb::put) return;
  if (!op) op = operation_written(spec_, req);
  std::vector<std::string> made;
  if (const std::string* location = res.value().find("Location"); location && !location->empty()) {
    std::string_view at(*location);
    if (const auto scheme = at.find("://"); scheme != at.npos) {
      const auto slash = at.find('/', scheme + 3);
      at = slash == at.npos ? std::string_view() : at.substr(slash);
    }
    at = at.substr(0, at.find_first_of("?#"));
    if (!base_path_.empty() && at.substr(0, base_path_.size()) == base_path_) {
      at.remove_prefix(base_path_.size());
    }
    const auto segs = segments(at, true);
    if (!segs.empty()) made.push_back(joined(segs, segs.size()));
  }
  const auto concrete = segments(req.target, true);
  if (req.method == http::verb::put && status == 201) {
    made.push_back(joined(concrete, concrete.size()));
  }
  op_facts scratch;
  const std::string pointer =
      req.method == http::verb::post && op ? facts(*op, scratch).record_id : std::string();
  if (!pointer.empty() && !res.value().body.empty()) {
    boost::system::error_code ec;
    const auto body = boost::json::parse(res.value().body, ec);
    if (!ec) {
      if (const auto* v = stateful::at(body, pointer)) {
        if (auto id = stateful::text_of(*v); id && !id->empty()) {
          auto segs = concrete;
          segs.push_back(*id);
          made.push_back(joined(segs, segs.size()));
        }
      }
    }
  }
  if (made.empty()) return;
  const std::lock_guard lock(mutex_);
  for (auto& m : made) created_.insert(std::move(m));
}

std::vector<std::string> write_guard::created() const {
  const std::lock_guard lock(mutex_);
  return {created_.begin(), created_.end()};
}

}  // namespace conform::harness
