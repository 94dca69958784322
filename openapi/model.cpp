#include "openapi/model.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "core/text.hpp"

namespace conform::openapi {

namespace {

/// The methods a Path Item may hold (OpenAPI's fixed fields).
constexpr std::array<verb, 8> path_item_methods{verb::get,     verb::put,   verb::post,
                                                verb::delete_, verb::patch, verb::head,
                                                verb::options, verb::trace};

}  // namespace

std::optional<verb> parse_method(std::string_view s) {
  for (verb v : path_item_methods) {
    if (http::iequals(http::method_name(v), s)) return v;
  }
  return std::nullopt;
}

std::string operation::method_name() const {
  return method_text.empty() ? std::string(http::method_name(method)) : method_text;
}

std::string operation::method_path() const {
  return method_name() + " " + path;
}

std::string_view to_string(param_location l) {
  switch (l) {
    case param_location::path:
      return "path";
    case param_location::query:
      return "query";
    case param_location::header:
      return "header";
    case param_location::cookie:
      return "cookie";
    case param_location::querystring:
      return "querystring";
  }
  return "?";
}

std::string_view to_string(param_style s) {
  switch (s) {
    case param_style::simple:
      return "simple";
    case param_style::label:
      return "label";
    case param_style::matrix:
      return "matrix";
    case param_style::form:
      return "form";
    case param_style::space_delimited:
      return "spaceDelimited";
    case param_style::pipe_delimited:
      return "pipeDelimited";
    case param_style::deep_object:
      return "deepObject";
  }
  return "?";
}

std::optional<param_style> parse_param_style(std::string_view s) {
  for (auto v :
       {param_style::simple, param_style::label, param_style::matrix, param_style::form,
        param_style::space_delimited, param_style::pipe_delimited, param_style::deep_object}) {
    if (to_string(v) == s) return v;
  }
  return std::nullopt;
}

param_style default_style(param_location in) {
  return in == param_location::path || in == param_location::header ? param_style::simple
                                                                    : param_style::form;
}

bool style_allowed(param_style s, param_location in) {
  switch (in) {
    case param_location::path:
      return s == param_style::simple || s == param_style::label || s == param_style::matrix;
    case param_location::query:
      return s == param_style::form || s == param_style::space_delimited ||
             s == param_style::pipe_delimited || s == param_style::deep_object;
    case param_location::header:
      return s == param_style::simple;
    case param_location::cookie:
      return s == param_style::form;
    case param_location::querystring:
      return false;  // its `content` media type says how it is written
  }
  return false;
}

std::string status_key(int status) {
  if (status == 0) return "default";
  if (status >= 1 && status <= 5) return std::to_string(status) + "XX";
  return std::to_string(status);
}

bool response::covers(int http_status) const {
  if (is_default()) return true;
  if (is_range()) return http_status / 100 == status;
  return http_status == status;
}

std::string_view to_string(credential_kind k) {
  switch (k) {
    case credential_kind::bearer:
      return "bearer";
    case credential_kind::basic:
      return "basic";
    case credential_kind::digest:
      return "digest";
    case credential_kind::api_key:
      return "api_key";
    case credential_kind::mutual_tls:
      return "mutual_tls";
  }
  return "?";
}

bool security_scheme::is_jwt() const {
  if (credential != credential_kind::bearer || bearer_format.size() != 3) return false;
  return std::equal(bearer_format.begin(), bearer_format.end(), "JWT", [](char a, char b) {
    return std::toupper(static_cast<unsigned char>(a)) == b;
  });
}

std::string security_scheme::label() const {
  return credential_label.empty() ? name : credential_label;
}

std::string security_scheme::kind_name() const {
  return credential_label.empty() ? std::string(to_string(credential)) : credential_label;
}

std::optional<credential_kind> parse_credential_kind(std::string_view s) {
  if (s == "bearer") return credential_kind::bearer;
  if (s == "basic") return credential_kind::basic;
  if (s == "digest") return credential_kind::digest;
  if (s == "api_key") return credential_kind::api_key;
  if (s == "mutual_tls") return credential_kind::mutual_tls;
  return std::nullopt;
}

const media_type* request_body::find(std::string_view media) const {
  for (const auto& m : content) {
    if (http::iequals(m.name, media)) return &m;
  }
  return nullptr;
}

const media_type* response::find(std::string_view media) const {
  for (const auto& m : content) {
    if (http::iequals(m.name, media)) return &m;
  }
  return nullptr;
}

const response* operation::find_response(int status) const {
  for (const auto& r : responses) {
    if (r.status == status) return &r;
  }
  return nullptr;
}

const response* operation::documented_response(int http_status) const {
  if (http_status >= 100 && http_status <= 599) {
    if (const auto* r = find_response(http_status)) return r;
    if (const auto* r = find_response(http_status / 100)) return r;
  }
  return find_response(0);
}

const parameter* operation::find_parameter(std::string_view name, param_location in) const {
  for (const auto& p : parameters) {
    if (p.in != in) continue;
    // Header names are case-insensitive; the others are not.
    if (in == param_location::header ? http::iequals(p.name, name) : p.name == name) return &p;
  }
  return nullptr;
}

std::vector<const security_scheme*> operation::accepted_schemes() const {
  std::vector<const security_scheme*> out;
  for (const auto& alt : security) {
    for (const auto& u : alt.schemes) {
      if (u.scheme != nullptr && std::find(out.begin(), out.end(), u.scheme) == out.end()) {
        out.push_back(u.scheme);
      }
    }
  }
  return out;
}

std::optional<std::vector<std::string>> operation::scopes_for(const security_scheme& s) const {
  for (const auto& alt : security) {
    // Only single-scheme alternatives say what this scheme alone needs.
    if (alt.schemes.size() == 1 && alt.schemes.front().scheme == &s) {
      return alt.schemes.front().scopes;
    }
  }
  for (const auto& alt : security) {
    for (const auto& u : alt.schemes) {
      if (u.scheme == &s) return u.scopes;
    }
  }
  return std::nullopt;
}

const permission_matrix::scope_def* permission_matrix::find_scope(std::string_view name) const {
  for (const auto& s : scopes) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

const permission_matrix::operation_row* permission_matrix::find_operation(
    std::string_view operation_id) const {
  for (const auto& r : operations) {
    if (r.operation_id == operation_id) return &r;
  }
  return nullptr;
}

const operation* api_spec::find_operation(std::string_view operation_id) const {
  for (const auto& op : operations) {
    if (op.operation_id == operation_id) return &op;
  }
  return nullptr;
}

const security_scheme* api_spec::find_scheme(std::string_view name) const {
  for (const auto& s : schemes) {
    if (s->name == name) return s.get();
  }
  return nullptr;
}

const security_scheme* api_spec::find_scheme_named_by(std::string_view word) const {
  for (const auto& s : schemes) {
    if (s->named_by(word)) return s.get();
  }
  return nullptr;
}

std::vector<std::string> api_spec::credential_labels() const {
  std::vector<std::string> out;
  for (const auto& s : schemes) {
    if (!s->credential_label.empty() &&
        std::find(out.begin(), out.end(), s->credential_label) == out.end()) {
      out.push_back(s->credential_label);
    }
  }
  return out;
}

namespace {

void collect_same_as(const schema::schema& s, const std::string& pointer, int depth,
                     std::vector<const schema::schema*>& path, std::vector<same_as_binding>& out) {
  if (depth > 16) return;
  const schema::schema& r = s.resolved();
  // A cycle through $ref ends here: each node once per path.
  if (std::find(path.begin(), path.end(), &r) != path.end()) return;
  path.push_back(&r);
  for (const auto& [name, sub] : r.properties) {
    const std::string here = pointer + "/" + core::escape_pointer_token(name);
    const schema::schema* with = sub->same_as              ? sub
                                 : sub->resolved().same_as ? &sub->resolved()
                                                           : nullptr;
    if (with != nullptr) {
      const bool seen = std::any_of(out.begin(), out.end(),
                                    [&](const same_as_binding& b) { return b.pointer == here; });
      if (!seen) out.push_back({here, with, *with->same_as});
    }
    collect_same_as(*sub, here, depth + 1, path, out);
  }
  for (const auto* list : {&r.all_of, &r.any_of, &r.one_of}) {
    for (const schema::schema* b : *list) collect_same_as(*b, pointer, depth + 1, path, out);
  }
  path.pop_back();
}

}  // namespace

std::vector<columns_binding> columns_bindings(const schema::schema& body) {
  std::vector<columns_binding> out;
  for (const auto& [name, p] : body.resolved().properties) {
    if (p == nullptr) continue;
    const auto& c = p->columns_of ? p->columns_of : p->resolved().columns_of;
    if (c) out.push_back({name, p, *c});
  }
  return out;
}

std::vector<same_as_binding> same_as_bindings(const schema::schema& body) {
  std::vector<same_as_binding> out;
  std::vector<const schema::schema*> path;
  collect_same_as(body, "", 0, path, out);
  return out;
}

}  // namespace conform::openapi
