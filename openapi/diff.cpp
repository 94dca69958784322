// `conform spec diff`: operations matched by method and path template, then
// parameters, request bodies and responses; schemas, security and the x-
// extensions are compared in detail/diff_schema.cpp and detail/diff_extensions.cpp.
#include "openapi/diff.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <cctype>

#include "openapi/detail/diff.hpp"

namespace conform::openapi {
namespace {

using detail::diff_sink;
using detail::direction;

/// "/items/{id}" and "/items/{item_id}" are one path: names of path
/// parameters are the server's business.
std::string path_key(const operation& op) {
  std::string out = op.method_name();
  out += ' ';
  bool in_param = false;
  for (char c : op.path) {
    if (c == '{') {
      in_param = true;
      out += "{}";
    } else if (c == '}') {
      in_param = false;
    } else if (!in_param) {
      out += c;
    }
  }
  return out;
}

std::string param_where(const parameter& p) {
  return std::string(to_string(p.in)) + " parameter '" + p.name + "'";
}

/// Header names are case-insensitive; other parameters are not. An
/// operation has one querystring parameter (OpenAPI 3.2) whatever its name:
/// the name never travels.
bool same_parameter(const parameter& a, const parameter& b) {
  if (a.in != b.in) return false;
  if (a.in == param_location::querystring) return true;
  return a.in == param_location::header ? http::iequals(a.name, b.name) : a.name == b.name;
}

const parameter* find_param(const operation& op, const parameter& like) {
  for (const auto& p : op.parameters) {
    if (same_parameter(p, like)) return &p;
  }
  return nullptr;
}

std::string status_text(int status) {
  return status_key(status);
}

bool success(int status) {
  return status == 2 || (status >= 200 && status < 300);
}

const boost::json::value* default_of(const parameter& p) {
  if (p.schema == nullptr) return nullptr;
  const auto& s = p.schema->resolved();
  return s.default_value ? &*s.default_value : nullptr;
}

void diff_parameters(diff_sink& sink, const operation& o, const operation& n) {
  for (const auto& op : o.parameters) {
    const parameter* np = find_param(n, op);
    const std::string where = param_where(op);
    if (np == nullptr) {
      // oasdiff: a warning; the server now ignores (or refuses) what clients send.
      sink.add(change_level::warning, "request-parameter-removed", where, "parameter removed");
      continue;
    }
    if (!op.required && np->required) {
      sink.add(change_level::breaking, "request-parameter-became-required", where,
               "parameter became required");
    } else if (op.required && !np->required) {
      sink.add(change_level::info, "request-parameter-became-optional", where,
               "parameter became optional");
    }
    // A client leaving out an optional parameter relied on its default.
    if (!np->required) {
      const auto* od = default_of(op);
      const auto* nd = default_of(*np);
      if (od != nullptr && nd != nullptr && *od != *nd) {
        sink.add(change_level::breaking, "request-parameter-default-value-changed", where,
                 "default changed from " + boost::json::serialize(*od) + " to " +
                     boost::json::serialize(*nd));
      } else if (od == nullptr && nd != nullptr) {
        sink.add(change_level::breaking, "request-parameter-default-value-added", where,
                 "default " + boost::json::serialize(*nd) + " set");
      } else if (od != nullptr && nd == nullptr) {
        sink.add(change_level::breaking, "request-parameter-default-value-removed", where,
                 "default " + boost::json::serialize(*od) + " removed");
      }
    }
    if (op.in == param_location::querystring && op.content_media != np->content_media) {
      sink.add(change_level::breaking, "request-querystring-media-type-changed", where,
               "written as " + np->content_media + " instead of " + op.content_media);
    }
    detail::diff_schema(sink, direction::request, op.schema, np->schema, where,
                        "request-parameter");
  }
  for (const auto& np : n.parameters) {
    if (find_param(o, np) != nullptr) continue;
    const std::string where = param_where(np);
    if (np.in == param_location::path) {
      sink.add(change_level::breaking, "new-request-path-parameter", where, "path parameter added");
    } else if (np.required) {
      sink.add(change_level::breaking, "new-required-request-parameter", where,
               "required parameter added");
    } else {
      sink.add(change_level::info, "new-optional-request-parameter", where,
               "optional parameter added");
    }
  }
}

/// The `itemSchema` of a sequential media type (OpenAPI 3.2): each item
/// compared as a body is; one added constrains what a client sends (and
/// tells it more of what it reads), one removed the reverse.
void diff_item_schema(diff_sink& sink, direction dir, const media_type& o, const media_type& n,
                      const std::string& where) {
  const bool request = dir == direction::request;
  const std::string subject = request ? "request-body-item" : "response-body-item";
  if (o.item_schema == nullptr && n.item_schema == nullptr) return;
  if (o.item_schema == nullptr) {
    sink.add(request ? change_level::breaking : change_level::info, subject + "-schema-added",
             where + " items", "itemSchema added");
    return;
  }
  if (n.item_schema == nullptr) {
    sink.add(request ? change_level::info : change_level::warning, subject + "-schema-removed",
             where + " items", "itemSchema removed");
    return;
  }
  detail::diff_schema(sink, dir, o.item_schema, n.item_schema, where + " items", subject);
}

void diff_request_body(diff_sink& sink, const operation& o, const operation& n) {
  if (!o.body && !n.body) return;
  if (!o.body) {
    sink.add(n.body->required ? change_level::breaking : change_level::info,
             n.body->required ? "added-required-request-body" : "added-optional-request-body",
             "request body", n.body->required ? "required body added" : "optional body added");
    return;
  }
  if (!n.body) {
    sink.add(change_level::warning, "request-body-removed", "request body", "body removed");
    return;
  }
  if (!o.body->required && n.body->required) {
    sink.add(change_level::breaking, "request-body-became-required", "request body",
             "body became required");
  } else if (o.body->required && !n.body->required) {
    sink.add(change_level::info, "request-body-became-optional", "request body",
             "body became optional");
  }
  for (const auto& om : o.body->content) {
    const media_type* nm = n.body->find(om.name);
    const std::string where = "request body " + om.name;
    if (nm == nullptr) {
      sink.add(change_level::breaking, "request-body-media-type-removed", where,
               "media type '" + om.name + "' no longer accepted");
      continue;
    }
    detail::diff_schema(sink, direction::request, om.schema, nm->schema, where, "request-body");
    diff_item_schema(sink, direction::request, om, *nm, where);
  }
  for (const auto& nm : n.body->content) {
    if (o.body->find(nm.name) != nullptr) continue;
    sink.add(change_level::info, "request-body-media-type-added", "request body " + nm.name,
             "media type '" + nm.name + "' accepted");
  }
}

const header_def* find_header(const response& r, const std::string& name) {
  for (const auto& h : r.headers) {
    if (http::iequals(h.name, name)) return &h;
  }
  return nullptr;
}

void diff_response(diff_sink& sink, const response& o, const response& n) {
  const std::string base = "response " + status_text(o.status);
  for (const auto& om : o.content) {
    const media_type* nm = n.find(om.name);
    const std::string where = base + " " + om.name;
    if (nm == nullptr) {
      sink.add(change_level::breaking, "response-media-type-removed", where,
               "media type '" + om.name + "' no longer answered");
      continue;
    }
    detail::diff_schema(sink, direction::response, om.schema, nm->schema, where, "response-body");
    diff_item_schema(sink, direction::response, om, *nm, where);
  }
  for (const auto& nm : n.content) {
    if (o.find(nm.name) != nullptr) continue;
    sink.add(change_level::info, "response-media-type-added", base + " " + nm.name,
             "media type '" + nm.name + "' may be answered");
  }
  for (const auto& oh : o.headers) {
    const header_def* nh = find_header(n, oh.name);
    const std::string where = base + " header '" + oh.name + "'";
    if (nh == nullptr) {
      sink.add(
          oh.required ? change_level::breaking : change_level::warning,
          oh.required ? "required-response-header-removed" : "optional-response-header-removed",
          where, "header removed");
      continue;
    }
    if (oh.required && !nh->required) {
      sink.add(change_level::breaking, "response-header-became-optional", where,
               "header became optional");
    }
    detail::diff_schema(sink, direction::response, oh.schema, nh->schema, where, "response-header");
  }
  for (const auto& nh : n.headers) {
    if (find_header(o, nh.name) != nullptr) continue;
    sink.add(change_level::info, "response-header-added", base + " header '" + nh.name + "'",
             std::string(nh.required ? "required" : "optional") + " header added");
  }
  // x-error-codes: like an enum of the response, a new code is one a client
  // switching over them does not know.
  for (const auto& c : n.error_codes) {
    if (std::find(o.error_codes.begin(), o.error_codes.end(), c) != o.error_codes.end()) continue;
    sink.add(change_level::warning, "response-error-code-added", base + " x-error-codes",
             "error code '" + c + "' may be answered");
  }
  for (const auto& c : o.error_codes) {
    if (std::find(n.error_codes.begin(), n.error_codes.end(), c) != n.error_codes.end()) continue;
    sink.add(change_level::info, "response-error-code-removed", base + " x-error-codes",
             "error code '" + c + "' no longer answered");
  }
}

void diff_responses(diff_sink& sink, const operation& o, const operation& n) {
  for (const auto& orr : o.responses) {
    const response* nr = n.find_response(orr.status);
    if (nr == nullptr) {
      const bool ok = success(orr.status);
      sink.add(ok ? change_level::breaking : change_level::info,
               ok ? "response-success-status-removed" : "response-non-success-status-removed",
               "response " + status_text(orr.status), "status removed");
      continue;
    }
    diff_response(sink, orr, *nr);
  }
  for (const auto& nr : n.responses) {
    if (o.find_response(nr.status) != nullptr) continue;
    const bool ok = success(nr.status);
    sink.add(change_level::info,
             ok ? "response-success-status-added" : "response-non-success-status-added",
             "response " + status_text(nr.status), "status added");
  }
}

void diff_operation(diff_sink& sink, const operation& o, const operation& n) {
  if (o.operation_id != n.operation_id) {
    sink.add(change_level::info, "api-operation-id-changed", "operationId",
             "operationId changed from '" + o.operation_id + "' to '" + n.operation_id + "'");
  }
  diff_parameters(sink, o, n);
  diff_request_body(sink, o, n);
  diff_responses(sink, o, n);
  detail::diff_security(sink, o, n);
  detail::diff_operation_extensions(sink, o, n);
}

}  // namespace

std::string_view to_string(change_level l) {
  switch (l) {
    case change_level::breaking:
      return "breaking";
    case change_level::warning:
      return "warning";
    case change_level::info:
      return "info";
  }
  return "?";
}

std::vector<spec_change> diff(const api_spec& old_spec, const api_spec& new_spec) {
  std::vector<spec_change> out;
  diff_sink root{out, "", ""};
  detail::diff_root(root, old_spec, new_spec);
  auto find = [](const api_spec& spec, const std::string& key) -> const operation* {
    for (const auto& op : spec.operations) {
      if (path_key(op) == key) return &op;
    }
    return nullptr;
  };
  for (const auto& o : old_spec.operations) {
    const operation* n = find(new_spec, path_key(o));
    if (n == nullptr) {
      diff_sink sink{out, o.method_path(), o.operation_id};
      sink.add(change_level::breaking, "api-removed", "", "operation removed");
      continue;
    }
    diff_sink sink{out, n->method_path(), n->operation_id};
    diff_operation(sink, o, *n);
  }
  for (const auto& n : new_spec.operations) {
    if (find(old_spec, path_key(n)) != nullptr) continue;
    diff_sink sink{out, n.method_path(), n.operation_id};
    sink.add(change_level::info, "endpoint-added", "", "operation added");
  }
  return out;
}

std::size_t count(const std::vector<spec_change>& changes, change_level level) {
  return static_cast<std::size_t>(std::count_if(
      changes.begin(), changes.end(), [&](const spec_change& c) { return c.level == level; }));
}

std::string to_string(const spec_change& c) {
  std::string line(to_string(c.level));
  line.resize(std::max<std::size_t>(line.size(), 8), ' ');
  line += "  ";
  line += c.operation.empty() ? "(description)" : c.operation;
  if (!c.where.empty()) line += "  " + c.where;
  line += "  " + c.what + " [" + c.rule + "]";
  return line;
}

}  // namespace conform::openapi
