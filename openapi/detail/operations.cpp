#include "openapi/detail/operations.hpp"

#include <algorithm>
#include <set>

#include "core/text.hpp"
#include "openapi/detail/extensions.hpp"
#include "openapi/detail/provenance.hpp"
#include "openapi/detail/links.hpp"
#include "openapi/detail/swagger2.hpp"

namespace conform::openapi::detail {

namespace {

/// A node after following `$ref`s to components: where it lives.
struct located {
  const source_doc* doc = nullptr;
  const node* at = nullptr;
  std::string pointer;
  const node& value() const { return *at; }
};

/// Follows `$ref` on a non-schema object (parameter, response, body, header).
std::optional<located> follow(parse_context& ctx, const source_doc& doc, const node& n,
                              const std::string& pointer, std::string_view what) {
  located cur{&doc, &n, pointer};
  std::set<std::string> seen;
  while (cur.value().is_map() && doc_reader::child(cur.value(), "$ref").defined()) {
    const node& ref = doc_reader::child(cur.value(), "$ref");
    auto text = ctx.r.str(*cur.doc, ref, std::string(what) + " $ref");
    if (!text) return std::nullopt;
    const source_pos at = doc_reader::pos(*cur.doc, ref);
    const std::size_t hash = text->find('#');
    const std::string file = text->substr(0, hash);
    const std::string fragment = hash == std::string::npos ? "" : text->substr(hash + 1);
    const source_doc* target = cur.doc;
    if (!file.empty()) {
      target = ctx.docs.load_beside(*cur.doc, file, ctx.r, at);
      if (target == nullptr) return std::nullopt;
    }
    if (!seen.insert(target->display + "#" + fragment).second) {
      ctx.r.error(at, "$ref cycle: '" + *text + "' leads back to itself");
      return std::nullopt;
    }
    const node& next = at_pointer(target->root, fragment);
    if (!next.defined()) {
      ctx.r.error(at,
                  "dangling $ref: '" + target->display + "' has nothing at '#" + fragment + "'");
      return std::nullopt;
    }
    cur.doc = target;
    cur.at = &next;
    cur.pointer = fragment;
  }
  return cur;
}

/// The x-assumption of a parameter, header, request body or response object,
/// kept in the spec by where it is written (it grounds the schemas inside).
std::vector<schema::provenance> read_assumption(parse_context& ctx, const source_doc& d,
                                                const node& object, const std::string& where) {
  const node& a = doc_reader::child(object, "x-assumption");
  if (!a.defined()) return {};
  // A component read again for another operation: read once, said once.
  if (auto it = ctx.spec.x_assumptions.find(where); it != ctx.spec.x_assumptions.end()) {
    return it->second;
  }
  auto entries = read_provenance(ctx.r, d, a);
  if (!entries.empty()) ctx.spec.x_assumptions[where] = entries;
  return entries;
}

/// `style`, `explode`, `allowReserved` and `allowEmptyValue` of a parameter.
void parse_serialisation(doc_reader& r, const source_doc& d, const node& n, parameter& p) {
  const node& style = doc_reader::child(n, "style");
  if (style.defined()) {
    if (auto text = r.str(d, style, "parameter style")) {
      auto st = parse_param_style(*text);
      if (!st) {
        r.error(doc_reader::pos(d, style),
                "parameter '" + p.name + "': unknown style '" + *text +
                    "' (simple, label, matrix, form, spaceDelimited, pipeDelimited, deepObject)");
      } else if (!style_allowed(*st, p.in)) {
        r.error(doc_reader::pos(d, style), "parameter '" + p.name + "': style '" + *text +
                                               "' is not allowed in " +
                                               std::string(to_string(p.in)));
      } else {
        p.style = *st;
      }
    }
  }
  const node& explode = doc_reader::child(n, "explode");
  if (explode.defined()) p.explode = r.boolean(d, explode, "parameter explode");
  const node& reserved = doc_reader::child(n, "allowReserved");
  if (reserved.defined())
    p.allow_reserved = r.boolean(d, reserved, "allowReserved").value_or(false);
  const node& empty = doc_reader::child(n, "allowEmptyValue");
  if (empty.defined()) p.allow_empty_value = r.boolean(d, empty, "allowEmptyValue").value_or(false);
}

std::optional<parameter> parse_parameter(parse_context& ctx, const source_doc& doc, const node& n,
                                         const std::string& pointer) {
  auto loc = follow(ctx, doc, n, pointer, "parameter");
  if (!loc) return std::nullopt;
  const source_doc& d = *loc->doc;
  doc_reader& r = ctx.r;
  if (!r.expect_map(d, loc->value(), "parameter")) return std::nullopt;
  // A Swagger 2.0 parameter $ref'd from another file: read in the 3.0 shape.
  node converted;
  if (ctx.swagger2 && loc->value().get("type").defined()) {
    converted = loc->value().clone();
    swagger2_parameter(converted);
    loc->at = &converted;
  }
  parameter p;
  p.pos = doc_reader::pos(d, loc->value());
  const node& name = r.required(d, loc->value(), "name", "parameter");
  const node& in = r.required(d, loc->value(), "in", "parameter");
  if (!name.defined() || !in.defined()) return std::nullopt;
  auto name_s = r.str(d, name, "parameter name");
  auto in_s = r.str(d, in, "parameter in");
  if (!name_s || !in_s) return std::nullopt;
  p.name = *name_s;
  if (*in_s == "path") {
    p.in = param_location::path;
  } else if (*in_s == "query") {
    p.in = param_location::query;
  } else if (*in_s == "header") {
    p.in = param_location::header;
  } else if (*in_s == "cookie") {
    p.in = param_location::cookie;
  } else {
    r.error(doc_reader::pos(d, in), "parameter '" + p.name +
                                        "': 'in' must be path, query, header or cookie, got '" +
                                        *in_s + "'");
    return std::nullopt;
  }
  const node& req = doc_reader::child(loc->value(), "required");
  if (req.defined()) p.required = r.boolean(d, req, "parameter required").value_or(false);
  if (p.in == param_location::path && !p.required) {
    r.error(p.pos, "path parameter '" + p.name + "' must have required: true");
  }
  const node& desc = doc_reader::child(loc->value(), "description");
  if (desc.defined()) p.description = r.str(d, desc, "description").value_or("");
  parse_serialisation(r, d, loc->value(), p);
  const node& schema = doc_reader::child(loc->value(), "schema");
  if (schema.defined()) {
    p.schema = ctx.schemas.load(d, schema, loc->pointer + "/schema");
  } else {
    const node& content = doc_reader::child(loc->value(), "content");
    if (content.is_map() && content.size() == 1) {
      const node_entry& media = content.entries().front();
      p.content_media = media.key;
      const node& s = doc_reader::child(media.value, "schema");
      if (s.defined()) {
        p.schema = ctx.schemas.load(
            d, s, loc->pointer + "/content/" + core::escape_pointer_token(media.key) + "/schema");
      }
    } else {
      r.error(p.pos, "parameter '" + p.name + "' has neither a schema nor one content entry");
    }
  }
  const node& res = doc_reader::child(loc->value(), "x-resource");
  if (res.defined()) p.resource = parse_resource(r, d, res);
  p.location = d.display + "#" + loc->pointer;
  p.provenance = read_assumption(ctx, d, loc->value(), p.location);
  p.examples = parse_examples(d, loc->value());
  return p;
}

std::vector<media_type> parse_content(parse_context& ctx, const source_doc& d, const node& n,
                                      const std::string& pointer) {
  std::vector<media_type> out;
  if (!ctx.r.expect_map(d, n, "content")) return out;
  for (auto it = n.entries().begin(); it != n.entries().end(); ++it) {
    media_type m;
    m.name = it->key;
    const std::string here = pointer + "/" + core::escape_pointer_token(m.name);
    const node& body = it->value;
    if (body.is_null()) {
      out.push_back(m);
      continue;
    }
    if (!ctx.r.expect_map(d, body, "media type '" + m.name + "'")) continue;
    const node& s = doc_reader::child(body, "schema");
    if (s.defined()) m.schema = ctx.schemas.load(d, s, here + "/schema");
    m.examples = parse_examples(d, body);
    const node& enc = doc_reader::child(body, "encoding");
    if (enc.defined() && ctx.r.expect_map(d, enc, "encoding")) {
      for (auto e = enc.entries().begin(); e != enc.entries().end(); ++e) {
        property_encoding pe;
        const std::string part = e->key;
        const node& ct = doc_reader::child(e->value, "contentType");
        if (ct.defined()) {
          if (auto v = ctx.r.str(d, ct, "encoding contentType")) {
            m.part_content_types[part] = *v;
            pe.content_type = *v;
          }
        }
        const node& st = doc_reader::child(e->value, "style");
        if (st.defined()) {
          if (auto v = ctx.r.str(d, st, "encoding style")) {
            pe.style = parse_param_style(*v);
            if (!pe.style || !style_allowed(*pe.style, param_location::query)) {
              ctx.r.error(doc_reader::pos(d, st), "encoding '" + part + "': style '" + *v +
                                                      "' is not one of form, spaceDelimited, " +
                                                      "pipeDelimited, deepObject");
              pe.style.reset();
            }
          }
        }
        const node& ex = doc_reader::child(e->value, "explode");
        if (ex.defined()) pe.explode = ctx.r.boolean(d, ex, "encoding explode");
        const node& ar = doc_reader::child(e->value, "allowReserved");
        if (ar.defined())
          pe.allow_reserved = ctx.r.boolean(d, ar, "encoding allowReserved").value_or(false);
        m.encoding[part] = std::move(pe);
      }
    }
    out.push_back(std::move(m));
  }
  return out;
}

std::optional<request_body> parse_body(parse_context& ctx, const source_doc& doc, const node& n,
                                       const std::string& pointer) {
  auto loc = follow(ctx, doc, n, pointer, "requestBody");
  if (!loc) return std::nullopt;
  const source_doc& d = *loc->doc;
  if (!ctx.r.expect_map(d, loc->value(), "requestBody")) return std::nullopt;
  request_body b;
  b.pos = doc_reader::pos(d, loc->value());
  const node& req = doc_reader::child(loc->value(), "required");
  if (req.defined()) b.required = ctx.r.boolean(d, req, "requestBody required").value_or(false);
  const node& content = ctx.r.required(d, loc->value(), "content", "requestBody");
  if (content.defined()) b.content = parse_content(ctx, d, content, loc->pointer + "/content");
  b.location = d.display + "#" + loc->pointer;
  b.provenance = read_assumption(ctx, d, loc->value(), b.location);
  return b;
}

std::optional<response> parse_response(parse_context& ctx, const source_doc& doc,
                                       const node_entry& entry, const std::string& pointer) {
  doc_reader& r = ctx.r;
  const node& n = entry.value;
  response resp;
  const std::string& status = entry.key;
  const source_pos key_pos = doc_reader::pos(doc, entry);
  if (status == "default") {
    resp.status = 0;
  } else if (status.size() == 3 && status[0] >= '1' && status[0] <= '5' &&
             (status.substr(1) == "XX" || status.substr(1) == "xx")) {
    resp.status = status[0] - '0';  // a range: "4XX" is 4
  } else if (status.size() == 3 &&
             std::all_of(status.begin(), status.end(),
                         [](char c) { return c >= '0' && c <= '9'; }) &&
             std::stoi(status) >= 100 && std::stoi(status) <= 599) {
    resp.status = std::stoi(status);
  } else {
    r.error(key_pos, "response status '" + status +
                         "' is not an HTTP status 100-599, 'default' or a range like '4XX'");
    return std::nullopt;
  }
  auto loc = follow(ctx, doc, n, pointer, "response");
  if (!loc) return std::nullopt;
  const source_doc& d = *loc->doc;
  if (!r.expect_map(d, loc->value(), "response " + status)) return std::nullopt;
  resp.pos = key_pos;
  const node& desc = doc_reader::child(loc->value(), "description");
  if (desc.defined()) resp.description = r.str(d, desc, "description").value_or("");
  const node& content = doc_reader::child(loc->value(), "content");
  if (content.defined()) resp.content = parse_content(ctx, d, content, loc->pointer + "/content");
  const node& headers = doc_reader::child(loc->value(), "headers");
  if (headers.defined() && r.expect_map(d, headers, "headers")) {
    for (auto it = headers.entries().begin(); it != headers.entries().end(); ++it) {
      const std::string name = it->key;
      const std::string hp = loc->pointer + "/headers/" + core::escape_pointer_token(name);
      auto h = follow(ctx, d, it->value, hp, "header");
      if (!h || !r.expect_map(*h->doc, h->value(), "header '" + name + "'")) continue;
      header_def def;
      def.name = name;
      read_assumption(ctx, *h->doc, h->value(), h->doc->display + "#" + h->pointer);
      const node& hr = doc_reader::child(h->value(), "required");
      if (hr.defined()) def.required = r.boolean(*h->doc, hr, "header required").value_or(false);
      const node& hs = doc_reader::child(h->value(), "schema");
      if (hs.defined()) def.schema = ctx.schemas.load(*h->doc, hs, h->pointer + "/schema");
      resp.headers.push_back(def);
    }
  }
  const node& codes = doc_reader::child(loc->value(), "x-error-codes");
  if (codes.defined()) {
    if (auto l = r.strings(d, codes, "x-error-codes")) resp.error_codes = *l;
  }
  resp.location = d.display + "#" + loc->pointer;
  resp.provenance = read_assumption(ctx, d, loc->value(), resp.location);
  const node& links = doc_reader::child(loc->value(), "links");
  if (links.defined()) resp.links = parse_links(r, d, links);
  return resp;
}

void parse_operation(parse_context& ctx, const std::string& path, verb method,
                     const node_entry& entry, const std::vector<parameter>& path_params,
                     const std::string& pointer,
                     const std::vector<security_requirement>& root_security, bool root_declared) {
  doc_reader& r = ctx.r;
  const node& n = entry.value;
  const source_doc& doc = ctx.doc;
  const std::string what = std::string(http::method_name(method)) + " " + path;
  if (!r.expect_map(doc, n, what)) return;
  operation op;
  op.method = method;
  op.path = path;
  op.pos = doc_reader::pos(doc, entry);
  const node& id = doc_reader::child(n, "operationId");
  if (id.defined()) op.operation_id = r.str(doc, id, "operationId").value_or("");
  const node& tags = doc_reader::child(n, "tags");
  if (tags.defined()) op.tags = r.strings(doc, tags, "tags").value_or(std::vector<std::string>{});
  const node& summary = doc_reader::child(n, "summary");
  if (summary.defined()) op.summary = r.str(doc, summary, "summary").value_or("");

  op.parameters = path_params;
  const node& params = doc_reader::child(n, "parameters");
  if (params.defined() && r.expect_seq(doc, params, "parameters")) {
    std::size_t i = 0;
    for (const auto& pn : params.items()) {
      auto p = parse_parameter(ctx, doc, pn, pointer + "/parameters/" + std::to_string(i++));
      if (!p) continue;
      auto same = std::find_if(op.parameters.begin(), op.parameters.end(), [&](const parameter& q) {
        return q.name == p->name && q.in == p->in;
      });
      if (same != op.parameters.end()) {
        *same = std::move(*p);
      } else {
        op.parameters.push_back(std::move(*p));
      }
    }
  }
  const node& body = doc_reader::child(n, "requestBody");
  if (body.defined()) op.body = parse_body(ctx, doc, body, pointer + "/requestBody");

  // 3.1 lets an operation leave `responses` out; 3.0 requires it.
  const node& responses =
      ctx.openapi31 ? doc_reader::child(n, "responses") : r.required(doc, n, "responses", what);
  if (responses.defined() && r.expect_map(doc, responses, "responses")) {
    for (auto it = responses.entries().begin(); it != responses.entries().end(); ++it) {
      auto resp = parse_response(ctx, doc, *it,
                                 pointer + "/responses/" + core::escape_pointer_token(it->key));
      if (!resp) continue;
      const int status = resp->status;
      if (op.find_response(status) != nullptr) {
        r.error(resp->pos, "response status " + it->key + " is given twice");
        continue;
      }
      op.responses.push_back(std::move(*resp));
    }
    std::stable_sort(op.responses.begin(), op.responses.end(),
                     [](const response& a, const response& b) { return a.status < b.status; });
  }

  const node& sec = doc_reader::child(n, "security");
  if (sec.defined()) {
    op.security = parse_security(ctx, sec);
    op.security_declared = true;
  } else {
    op.security = root_security;
    op.security_declared = root_declared;
  }

  op.access = method == verb::get || method == verb::head ? access_kind::read : access_kind::write;
  const node& access = doc_reader::child(n, "x-access");
  if (access.defined()) {
    if (auto a = r.str(doc, access, "x-access")) {
      if (*a == "read") {
        op.access = access_kind::read;
      } else if (*a == "write") {
        op.access = access_kind::write;
      } else {
        r.error(doc_reader::pos(doc, access), "x-access must be read or write, got '" + *a + "'");
      }
    }
  }
  const node& jwt = doc_reader::child(n, "x-jwt-only");
  if (jwt.defined()) {
    op.jwt_only = r.status_code(doc, jwt, "x-jwt-only", op.jwt_only_status, op.jwt_only_code);
  }
  const node& fam = doc_reader::child(n, "x-family");
  if (fam.defined()) {
    op.family = r.str(doc, fam, "x-family").value_or("");
    op.family_pos = doc_reader::pos(doc, fam);
  }
  const node& assume = doc_reader::child(n, "x-assumption");
  if (assume.defined()) read_provenance(r, doc, assume, &op.assumptions);
  const node& tc = doc_reader::child(n, "x-tenant-context");
  if (tc.defined()) {
    if (auto t = parse_tenant_context(r, doc, tc)) op.tenant = *t;
  }
  const node& pg = doc_reader::child(n, "x-pagination");
  if (pg.defined()) op.paging = parse_pagination(r, doc, pg);
  const node& idem = doc_reader::child(n, "x-idempotency");
  if (idem.defined()) op.idempotent = parse_idempotency(r, doc, idem);
  const node& rep = doc_reader::child(n, "x-repeatable");
  if (rep.defined()) op.repeatable = r.boolean(doc, rep, "x-repeatable").value_or(false);
  const node& tr = doc_reader::child(n, "x-transition");
  if (tr.defined()) op.transition = parse_transition(r, doc, tr);
  ctx.spec.operations.push_back(std::move(op));
}

}  // namespace

std::vector<security_requirement> parse_security(parse_context& ctx, const node& n) {
  std::vector<security_requirement> out;
  doc_reader& r = ctx.r;
  const source_doc& doc = ctx.doc;
  if (!r.expect_seq(doc, n, "security")) return out;
  for (const auto& alt : n.items()) {
    if (!r.expect_map(doc, alt, "security requirement")) continue;
    security_requirement req;
    for (auto it = alt.entries().begin(); it != alt.entries().end(); ++it) {
      const std::string name = it->key;
      security_requirement::use u;
      u.pos = doc_reader::pos(doc, *it);
      u.scheme = ctx.spec.find_scheme(name);
      if (u.scheme == nullptr) {
        std::string known;
        for (const auto& s : ctx.spec.schemes) known += (known.empty() ? "" : ", ") + s->name;
        r.error(u.pos,
                "security names unknown scheme '" + name +
                    "' (components.securitySchemes has: " + (known.empty() ? "none" : known) + ")");
        continue;
      }
      u.scopes = r.strings(doc, it->value, "scopes of '" + name + "'")
                     .value_or(std::vector<std::string>{});
      req.schemes.push_back(std::move(u));
    }
    out.push_back(std::move(req));
  }
  return out;
}

void parse_paths(parse_context& ctx, const node& paths,
                 const std::vector<security_requirement>& root_security, bool root_declared) {
  doc_reader& r = ctx.r;
  const source_doc& doc = ctx.doc;
  if (!r.expect_map(doc, paths, "paths")) return;
  // Room for every operation written inline (an operation is a large object).
  std::size_t inline_operations = 0;
  for (const auto& e : paths.entries()) {
    for (const auto& m : e.value.entries()) inline_operations += parse_method(m.key) ? 1 : 0;
  }
  ctx.spec.operations.reserve(ctx.spec.operations.size() + inline_operations);
  for (auto it = paths.entries().begin(); it != paths.entries().end(); ++it) {
    const std::string path = it->key;
    const std::string pointer = "/paths/" + core::escape_pointer_token(path);
    if (path.empty() || path.front() != '/') {
      r.error(doc_reader::pos(doc, *it), "path '" + path + "' must start with '/'");
      continue;
    }
    // A Path Item may be a $ref (components/pathItems, or another file): follow
    // it, and read its operations where they are written.
    auto loc = follow(ctx, doc, it->value, pointer, "path item");
    if (!loc) continue;
    parse_context here{ctx.r,    ctx.docs,      ctx.schemas, *loc->doc,
                       ctx.spec, ctx.openapi31, ctx.swagger2};
    const source_doc& d = *loc->doc;
    const node& item = loc->value();
    if (!r.expect_map(d, item, "path item '" + path + "'")) continue;
    std::vector<parameter> path_params;
    const node& params = doc_reader::child(item, "parameters");
    if (params.defined() && r.expect_seq(d, params, "parameters")) {
      std::size_t i = 0;
      for (const auto& pn : params.items()) {
        auto p = parse_parameter(here, d, pn, loc->pointer + "/parameters/" + std::to_string(i++));
        if (p) path_params.push_back(std::move(*p));
      }
    }
    for (auto m = item.entries().begin(); m != item.entries().end(); ++m) {
      const std::string key = m->key;
      auto method = parse_method(key);
      if (!method || key != [&] {
            std::string lower = key;
            std::transform(lower.begin(), lower.end(), lower.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            return lower;
          }()) {
        continue;  // parameters, summary, description, servers, x-...
      }
      parse_operation(here, path, *method, *m, path_params,
                      loc->pointer + "/" + core::escape_pointer_token(key), root_security,
                      root_declared);
    }
  }
}

namespace {

/// "get_pets_id" for GET /pets/{id}: the method, then every run of letters
/// and digits of the path, joined by '_'.
std::string made_up_id(const operation& op) {
  std::string out(http::method_name(op.method));
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  bool gap = true;
  for (const char c : op.path) {
    if (std::isalnum(static_cast<unsigned char>(c)) != 0) {
      if (gap) out += '_';
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      gap = false;
    } else {
      gap = true;
    }
  }
  return out;
}

/// The first segment of `path` without braces ("pets" of "/pets/{id}"), or "root".
std::string first_segment(const std::string& path) {
  std::string seg;
  for (std::size_t i = 1; i < path.size() && path[i] != '/'; ++i) {
    if (path[i] != '{' && path[i] != '}') seg += path[i];
  }
  return seg.empty() ? "root" : seg;
}

}  // namespace

void complete_operations(doc_reader& r, api_spec& spec) {
  std::set<std::string> taken;
  for (const auto& op : spec.operations) {
    if (!op.operation_id.empty()) taken.insert(op.operation_id);
  }
  for (auto& op : spec.operations) {
    if (op.family.empty()) op.family = op.tags.empty() ? first_segment(op.path) : op.tags.front();
    if (!op.operation_id.empty()) continue;
    const std::string base = made_up_id(op);
    std::string id = base;
    for (int n = 2; taken.count(id) != 0; ++n) id = base + "_" + std::to_string(n);
    taken.insert(id);
    op.operation_id = id;
    op.synthesised_id = true;
    r.note(op.pos,
           "operation " + op.method_path() + " has no operationId; Conform calls it '" + id + "'");
  }
}

}  // namespace conform::openapi::detail
