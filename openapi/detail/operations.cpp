#include "openapi/detail/operations.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>

#include "core/text.hpp"
#include "openapi/detail/extensions.hpp"
#include "openapi/detail/links.hpp"
#include "openapi/detail/objects.hpp"
#include "openapi/detail/provenance.hpp"
#include "openapi/detail/swagger2.hpp"

namespace conform::openapi::detail {

namespace {

/// "QUERY", "LINK": an HTTP method token (RFC 9110 tchar).
bool method_token(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
           std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
  });
}

/// At most one `in: querystring` parameter, and never beside `in: query` ones (OpenAPI 3.2).
void check_querystring(doc_reader& r, const operation& op, const std::string& what) {
  const parameter* querystring = nullptr;
  for (const auto& p : op.parameters) {
    if (p.in != param_location::querystring) continue;
    if (querystring != nullptr) {
      r.error(p.pos, what + ": a second in: querystring parameter ('" + p.name + "' after '" +
                         querystring->name + "'); the query string is one value");
    }
    querystring = &p;
  }
  if (querystring == nullptr) return;
  for (const auto& p : op.parameters) {
    if (p.in != param_location::query) continue;
    r.error(p.pos, what + ": in: query parameter '" + p.name +
                       "' beside the in: querystring parameter '" + querystring->name +
                       "', which is the whole query string");
  }
}

}  // namespace

bool is_ref(const node& n) {
  return n.is_map() && doc_reader::child(n, "$ref").defined();
}

std::optional<located> follow(parse_context& ctx, const source_doc& doc, const node& n,
                              const std::string& pointer, std::string_view what) {
  located cur{&doc, &n, pointer};
  std::set<std::string> seen;
  while (is_ref(cur.value())) {
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

namespace {

/// The path's shared part: what every operation of a Path Item starts from.
struct path_item_base {
  std::string path;
  std::vector<parameter> params;
  bool params_unresolved = false;  // a path-level parameter could not be read
  const std::vector<security_requirement>& root_security;
  bool root_declared = false;
};

/// The operation's `parameters` (in place or by a nonstandard `$ref`), over
/// the path item's: one of the same name and location replaces it.
void read_operation_parameters(parse_context& ctx, const node& n, const std::string& pointer,
                               operation& op) {
  doc_reader& r = ctx.r;
  auto params = deref_nonstandard(ctx, ctx.doc, doc_reader::child(n, "parameters"),
                                  pointer + "/parameters", "a parameters list");
  if (!params) op.unresolved = true;
  if (!params || !params->value().defined() ||
      !r.expect_seq(*params->doc, params->value(), "parameters")) {
    return;
  }
  std::size_t i = 0;
  for (const auto& pn : params->value().items()) {
    auto p = parse_parameter(ctx, *params->doc, pn, params->pointer + "/" + std::to_string(i++));
    if (!p) {
      op.unresolved = true;
      continue;
    }
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

/// The operation's `responses` (in place or by a nonstandard `$ref`), by status.
void read_operation_responses(parse_context& ctx, const node& n, const std::string& pointer,
                              const std::string& what, operation& op) {
  doc_reader& r = ctx.r;
  const source_doc& doc = ctx.doc;
  // 3.1 lets an operation leave `responses` out; 3.0 requires it.
  const node& written =
      ctx.openapi31 ? doc_reader::child(n, "responses") : r.required(doc, n, "responses", what);
  auto responses =
      deref_nonstandard(ctx, doc, written, pointer + "/responses", "a Responses Object");
  if (!responses) op.unresolved = true;
  if (!responses || !responses->value().defined() ||
      !r.expect_map(*responses->doc, responses->value(), "responses")) {
    return;
  }
  const node& rs = responses->value();
  for (auto it = rs.entries().begin(); it != rs.entries().end(); ++it) {
    auto resp = parse_response(ctx, *responses->doc, *it,
                               responses->pointer + "/" + core::escape_pointer_token(it->key));
    if (!resp) {
      op.unresolved = true;
      continue;
    }
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

/// Whether the operation reads or writes: by its method, unless x-access says.
void read_operation_access(doc_reader& r, const source_doc& doc, const node& n, operation& op) {
  // QUERY is safe, as GET is (RFC 9110 section 9.2.1; draft-ietf-httpbis-safe-method-w-body).
  op.access = op.method == verb::get || op.method == verb::head || op.method_text == "QUERY"
                  ? access_kind::read
                  : access_kind::write;
  const node& access = doc_reader::child(n, "x-access");
  if (!access.defined()) return;
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

/// Conform's own x- keys on an operation, after x-access: what it is tested for.
void read_operation_extensions(doc_reader& r, const source_doc& doc, const node& n, operation& op) {
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
  const node& makes = doc_reader::child(n, "x-creates");
  if (makes.defined()) op.creates = r.boolean(doc, makes, "x-creates").value_or(false);
  const node& tr = doc_reader::child(n, "x-transition");
  if (tr.defined()) op.transition = parse_transition(r, doc, tr);
}

void parse_operation(parse_context& outer, const path_item_base& item, verb method,
                     const std::string& method_text, const node_entry& entry,
                     const std::string& entry_pointer) {
  doc_reader& r = outer.r;
  const std::string& path = item.path;
  const std::string what =
      (method_text.empty() ? std::string(http::method_name(method)) : method_text) + " " + path;
  // DigitalOcean writes `get: {$ref: 'resources/x.yml'}`: not OpenAPI, but
  // what bundlers resolve. Unresolved, the operation is left out, so that no
  // symptom of the loss (its path parameters "undefined") follows.
  auto loc = deref_nonstandard(outer, outer.doc, entry.value, entry_pointer,
                               "an Operation Object (" + what + ")");
  if (!loc) return;
  parse_context ctx = outer.at(*loc->doc);
  const source_doc& doc = ctx.doc;
  const node& n = loc->value();
  const std::string& pointer = loc->pointer;
  if (!r.expect_map(doc, n, what)) return;
  operation op;
  op.method = method;
  op.method_text = method_text;
  op.path = path;
  op.pos = doc_reader::pos(outer.doc, entry);
  op.unresolved = item.params_unresolved;
  const node& id = doc_reader::child(n, "operationId");
  if (id.defined()) op.operation_id = r.str(doc, id, "operationId").value_or("");
  const node& tags = doc_reader::child(n, "tags");
  if (tags.defined()) op.tags = r.strings(doc, tags, "tags").value_or(std::vector<std::string>{});
  const node& summary = doc_reader::child(n, "summary");
  if (summary.defined()) op.summary = r.str(doc, summary, "summary").value_or("");

  op.parameters = item.params;
  read_operation_parameters(ctx, n, pointer, op);
  check_querystring(r, op, "operation " + what);
  const node& body = doc_reader::child(n, "requestBody");
  if (body.defined()) {
    op.body = parse_body(ctx, doc, body, pointer + "/requestBody");
    if (!op.body) op.unresolved = true;
  }
  read_operation_responses(ctx, n, pointer, what, op);

  const node& sec = doc_reader::child(n, "security");
  if (sec.defined()) {
    op.security = parse_security(ctx, sec);
    op.security_declared = true;
  } else {
    op.security = item.root_security;
    op.security_declared = item.root_declared;
  }
  read_operation_access(r, doc, n, op);
  read_operation_extensions(r, doc, n, op);
  ctx.spec.operations.push_back(std::move(op));
}

/// OpenAPI 3.2 `additionalOperations`: operations of methods the Path Item
/// has no field for, keyed by the method as sent ("LINK", "PURGE").
void parse_additional(parse_context& ctx, const path_item_base& base, const node_entry& entry,
                      const std::string& pointer) {
  doc_reader& r = ctx.r;
  if (!r.expect_map(ctx.doc, entry.value, "additionalOperations")) return;
  static constexpr std::string_view fixed[] = {"GET",  "PUT",   "POST",  "DELETE", "OPTIONS",
                                               "HEAD", "PATCH", "TRACE", "QUERY"};
  for (const auto& m : entry.value.entries()) {
    const source_pos at = doc_reader::pos(ctx.doc, m);
    if (!method_token(m.key)) {
      r.error(at, "additionalOperations: '" + m.key + "' is not an HTTP method name");
      continue;
    }
    std::string upper = m.key;
    for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (std::find(std::begin(fixed), std::end(fixed), upper) != std::end(fixed)) {
      r.error(
          at, "additionalOperations: '" + m.key + "' has a field of its own in the Path " +
                  "Item ('" +
                  [&] {
                    std::string lower = upper;
                    for (auto& c : lower) c = static_cast<char>(std::tolower(c));
                    return lower;
                  }() +
                  "'); it must be written there");
      continue;
    }
    // Beast's verb when it spells the method alike ("LINK"), else the text.
    const auto v = http::parse_verb(m.key);
    const bool known = v && http::method_name(*v) == m.key;
    parse_operation(ctx, base, known ? *v : verb::unknown, known ? "" : m.key, m,
                    pointer + "/" + core::escape_pointer_token(m.key));
  }
}

/// The scheme a Security Requirement names: by its key in
/// components.securitySchemes, or (OpenAPI 3.2) by a URI of it in this
/// description ("#/components/securitySchemes/x", the same after the
/// description's file name or its `$self`).
const security_scheme* scheme_named(const parse_context& ctx, const std::string& name) {
  if (const auto* s = ctx.spec.find_scheme(name)) return s;
  const std::size_t hash = name.find('#');
  if (!ctx.openapi32 || hash == std::string::npos) return nullptr;
  const std::string file = name.substr(0, hash);
  const std::string fragment = name.substr(hash + 1);
  const std::string own = std::filesystem::path(ctx.spec.file).filename().string();
  if (!file.empty() && file != ctx.spec.self_uri && file != own) return nullptr;
  constexpr std::string_view prefix = "/components/securitySchemes/";
  if (fragment.rfind(prefix, 0) != 0) return nullptr;
  const std::string key = fragment.substr(prefix.size());
  if (key.find('/') != std::string::npos) return nullptr;
  std::string token;
  for (std::size_t i = 0; i < key.size(); ++i) {
    if (key[i] == '~' && i + 1 < key.size() && (key[i + 1] == '0' || key[i + 1] == '1')) {
      token += key[++i] == '0' ? '~' : '/';
    } else {
      token += key[i];
    }
  }
  return ctx.spec.find_scheme(token);
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
      u.scheme = scheme_named(ctx, name);
      if (u.scheme == nullptr && ctx.state && ctx.state->unfollowed_schemes.count(name) != 0) {
        r.error(u.pos, "security names scheme '" + name +
                           "', whose $ref Conform could not follow (said at the scheme)");
        continue;
      }
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
    parse_context here = ctx.at(*loc->doc);
    const source_doc& d = *loc->doc;
    const node& item = loc->value();
    if (!r.expect_map(d, item, "path item '" + path + "'")) continue;
    path_item_base base{path, {}, false, root_security, root_declared};
    auto params = deref_nonstandard(here, d, doc_reader::child(item, "parameters"),
                                    loc->pointer + "/parameters", "a parameters list");
    base.params_unresolved = !params;
    if (params && params->value().defined() &&
        r.expect_seq(*params->doc, params->value(), "parameters")) {
      std::size_t i = 0;
      for (const auto& pn : params->value().items()) {
        auto p =
            parse_parameter(here, *params->doc, pn, params->pointer + "/" + std::to_string(i++));
        if (p) {
          base.params.push_back(std::move(*p));
        } else {
          base.params_unresolved = true;
        }
      }
    }
    for (auto m = item.entries().begin(); m != item.entries().end(); ++m) {
      const std::string key = m->key;
      const std::string at = loc->pointer + "/" + core::escape_pointer_token(key);
      if (key == "query" && here.openapi32) {
        parse_operation(here, base, verb::unknown, "QUERY", *m, at);
        continue;
      }
      if (key == "additionalOperations" && here.openapi32) {
        parse_additional(here, base, *m, at);
        continue;
      }
      auto method = parse_method(key);
      if (!method || key != [&] {
            std::string lower = key;
            std::transform(lower.begin(), lower.end(), lower.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            return lower;
          }()) {
        continue;  // parameters, summary, description, servers, x-...
      }
      parse_operation(here, base, *method, "", *m, at);
    }
  }
}

namespace {

/// "get_pets_id" for GET /pets/{id}: the method, then every run of letters
/// and digits of the path, joined by '_'.
std::string made_up_id(const operation& op) {
  std::string out = op.method_name();
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
