#include "openapi/detail/swagger2.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/limits.hpp"

namespace conform::openapi::detail {
namespace {

/// The keywords of a Swagger 2.0 non-body parameter that belong in its schema.
const char* const schema_keys[] = {"type",      "format",           "items",
                                   "enum",      "default",          "maximum",
                                   "minimum",   "exclusiveMaximum", "exclusiveMinimum",
                                   "maxLength", "minLength",        "pattern",
                                   "maxItems",  "minItems",         "uniqueItems",
                                   "multipleOf"};

std::vector<std::string> strings_of(const node& n) {
  std::vector<std::string> out;
  for (const auto& s : n.items()) {
    if (s.is_scalar()) out.push_back(s.text());
  }
  return out;
}

/// Takes `key` out of mapping `m`: its value, or nullopt when it is absent.
std::optional<node> take(node& m, std::string_view key) {
  node* v = m.find(key);
  if (v == nullptr) return std::nullopt;
  node out = std::move(*v);
  m.remove(key);
  return out;
}

/// A new string scalar, placed where `at` is (for the diagnostics about it).
node text_at(std::string s, const node& at) {
  node n = node::scalar(std::move(s), true);
  n.set_position(at.line(), at.column());
  return n;
}

/// A new plain scalar (a boolean), placed where `at` is.
node plain_at(bool b, const node& at) {
  node n = node::scalar(b ? "true" : "false", false);
  n.set_position(at.line(), at.column());
  return n;
}

/// A new mapping, placed where `at` is.
node map_at(const node& at) {
  node n = node::map();
  n.set_position(at.line(), at.column());
  return n;
}

/// Rewrites every 2.0 `$ref` under `n` to where 3.0 keeps the same thing.
void rewrite_refs(node& n) {
  if (n.is_sequence()) {
    for (auto& item : n.items()) rewrite_refs(item);
    return;
  }
  if (!n.is_map()) return;
  for (auto& e : n.entries()) {
    if (e.key == "$ref" && e.value.is_scalar()) {
      std::string ref = e.value.text();
      const auto hash = ref.find('#');
      if (hash == std::string::npos) continue;
      for (const auto& [from, to] :
           {std::pair<std::string, std::string>{"#/definitions/", "#/components/schemas/"},
            {"#/parameters/", "#/components/parameters/"},
            {"#/responses/", "#/components/responses/"}}) {
        if (ref.compare(hash, from.size(), from) == 0) {
          ref = ref.substr(0, hash) + to + ref.substr(hash + from.size());
          e.value = text_at(ref, e.value);
          break;
        }
      }
    } else {
      rewrite_refs(e.value);
    }
  }
}

/// A non-body parameter (or a header): its type keywords into `schema`.
void move_into_schema(node& p) {
  if (!p.is_map() || p.get("schema").defined() || p.get("$ref").defined()) return;
  node schema = map_at(p);
  for (const char* key : schema_keys) {
    if (auto v = take(p, key)) schema.set(key, std::move(*v));
  }
  if (auto cf = take(p, "collectionFormat")) {
    const std::string f = cf->is_scalar() ? cf->text() : "csv";
    if (f == "multi") {
      p.set("style", text_at("form", *cf));
      p.set("explode", plain_at(true, *cf));
    } else if (f == "ssv") {
      p.set("style", text_at("spaceDelimited", *cf));
      p.set("explode", plain_at(false, *cf));
    } else if (f == "pipes") {
      p.set("style", text_at("pipeDelimited", *cf));
      p.set("explode", plain_at(false, *cf));
    } else {  // csv (and tsv, which 3.0 cannot say: comma-separated is the nearest)
      p.set("explode", plain_at(false, *cf));
    }
  }
  p.remove("allowEmptyValue");
  p.set("schema", std::move(schema));
}

/// What a conversion may copy: 2.0 gives one schema for every media type of
/// `produces`/`consumes`, 3.0 one per media type, and those copies are made
/// after the parse's bounds were checked.
struct copy_budget {
  std::size_t left = core::limits::max_expanded_nodes;
  bool exceeded = false;
};

/// `media` -> {schema} for each of `types` (the schema copied into each).
node content_for(const std::vector<std::string>& types, const std::optional<node>& schema,
                 const node& at, copy_budget& budget) {
  const std::size_t cost = (schema ? schema->tree_size() + 1 : 1) * types.size();
  if (cost > budget.left) {
    budget.exceeded = true;
    return map_at(at);
  }
  budget.left -= cost;
  node content = map_at(at);
  for (const auto& t : types) {
    node media = map_at(at);
    if (schema) media.set("schema", schema->clone());
    content.set(t, std::move(media));
  }
  return content;
}

/// A 2.0 `type: file` schema (a file answered) as 3.0 says it: a binary string.
void swagger2_file_to_binary(node& schema) {
  if (!schema.is_map()) return;
  const node& t = schema.get("type");
  if (!t.is_scalar() || t.text() != "file") return;
  node at = text_at("string", t);
  schema.set("format", text_at("binary", t));
  schema.set("type", std::move(at));
}

/// The style of a form field that 2.0's collectionFormat gives, as an
/// Encoding Object (multi: repeated; csv, ssv, pipes: one delimited value).
std::optional<node> swagger2_form_encoding(const node& collection_format) {
  if (!collection_format.is_scalar()) return std::nullopt;
  const std::string f = collection_format.text();
  node e = map_at(collection_format);
  e.set("style", text_at(f == "ssv"     ? "spaceDelimited"
                         : f == "pipes" ? "pipeDelimited"
                                        : "form",
                         collection_format));
  e.set("explode", plain_at(f == "multi", collection_format));
  return e;
}

/// The 2.0 parameters that become a request body: `in: body` and `in: formData`.
bool swagger2_body_like(const node& p) {
  const node& in = p.get("in");
  return in.is_scalar() && (in.text() == "body" || in.text() == "formData");
}

/// Where form fields travel (Swagger 2.0, Parameter Object, `in: formData`):
/// the form types `consumes` declares; without one, urlencoded, or
/// multipart/form-data when a field is a file (the only type that carries one).
std::vector<std::string> swagger2_form_media(const std::vector<std::string>& consumes,
                                             bool has_file) {
  std::vector<std::string> out;
  for (const auto& c : consumes) {
    const std::string type = c.substr(0, c.find(';'));
    if (type == "multipart/form-data" ||
        (type == "application/x-www-form-urlencoded" && !has_file)) {
      out.push_back(c);
    }
  }
  if (out.empty())
    out.push_back(has_file ? "multipart/form-data" : "application/x-www-form-urlencoded");
  return out;
}

/// Shared body and formData parameters (`#/parameters/...` in 2.0), by the
/// `$ref` that now names them, and the body-like parameters of the path item:
/// 3.0 has neither, so the conversion copies them into each operation.
struct swagger2_inherited {
  std::map<std::string, node> shared;  // "#/components/parameters/X" -> the parameter
  const node* path_level = nullptr;    // the path item's body-like parameters (a sequence)
};

/// `p` itself, or the shared body-like parameter its `$ref` names (a copy).
node swagger2_resolve_shared(node p, const swagger2_inherited& inherited) {
  const node& ref = p.get("$ref");
  if (!ref.is_scalar()) return p;
  auto it = inherited.shared.find(ref.text());
  return it == inherited.shared.end() ? std::move(p) : it->second.clone();
}

void convert_operation(node& op, const std::vector<std::string>& consumes_default,
                       const std::vector<std::string>& produces_default, copy_budget& budget,
                       const swagger2_inherited& inherited) {
  // Without `consumes` (here or at the root), a body is JSON and a form is
  // urlencoded (or multipart with a file): `declared` keeps them apart.
  std::vector<std::string> declared = strings_of(op.get("consumes"));
  if (declared.empty()) declared = consumes_default;
  std::vector<std::string> consumes = declared;
  if (consumes.empty()) consumes = {"application/json"};
  std::vector<std::string> produces = strings_of(op.get("produces"));
  if (produces.empty()) produces = produces_default;
  op.remove("consumes");
  op.remove("produces");
  op.remove("schemes");

  // The path item's body-like parameters, where the operation does not
  // override them (the same name and location).
  if (inherited.path_level != nullptr && inherited.path_level->size() > 0) {
    node* own = op.find("parameters");
    if (own == nullptr || own->is_null()) own = &op.set("parameters", node::sequence());
    if (own->is_sequence()) {
      for (const auto& p : inherited.path_level->items()) {
        const bool overridden =
            std::any_of(own->items().begin(), own->items().end(), [&](const node& mine) {
              return mine.get("name").text() == p.get("name").text() &&
                     mine.get("in").text() == p.get("in").text();
            });
        if (!overridden) own->push_back(p.clone());
      }
    }
  }
  if (std::optional<node> params = take(op, "parameters")) {
    if (!params->is_sequence()) {
      op.set("parameters", std::move(*params));  // the loader says what is wrong with it
    } else {
      node kept = node::sequence();
      kept.set_position(params->line(), params->column());
      node form = map_at(*params);
      form.set("type", text_at("object", *params));
      node properties = map_at(*params);
      node required_form = node::sequence();
      bool has_form = false, has_file = false;
      node encoding = map_at(*params);
      for (auto& item : params->items()) {
        node p = swagger2_resolve_shared(std::move(item), inherited);
        const node& in = p.get("in");
        const std::string where = in.is_scalar() ? in.text() : "";
        if (where == "body") {
          node body = map_at(p);
          if (auto d = take(p, "description")) body.set("description", std::move(*d));
          if (auto req = take(p, "required")) body.set("required", std::move(*req));
          std::optional<node> schema = take(p, "schema");
          if (schema) swagger2_file_to_binary(*schema);
          body.set("content", content_for(consumes, schema, p, budget));
          op.set("requestBody", std::move(body));
        } else if (where == "formData") {
          has_form = true;
          const std::string name = p.get("name").text();
          node prop = map_at(p);
          for (const char* key : schema_keys) {
            if (auto v = take(p, key)) prop.set(key, std::move(*v));
          }
          if (const node& t = prop.get("type"); t.is_scalar() && t.text() == "file") {
            has_file = true;
            prop.set("type", text_at("string", t));
            prop.set("format", text_at("binary", prop.get("type")));
          }
          if (auto d = take(p, "description")) prop.set("description", std::move(*d));
          if (auto cf = take(p, "collectionFormat")) {
            if (auto e = swagger2_form_encoding(*cf)) encoding.set(name, std::move(*e));
          }
          if (const node& req = p.get("required"); req.is_scalar() && req.text() == "true") {
            required_form.push_back(text_at(name, req));
          }
          properties.set(name, std::move(prop));
        } else {
          move_into_schema(p);
          kept.push_back(std::move(p));
        }
      }
      if (has_form) {
        const bool any_required = required_form.size() > 0;
        form.set("properties", std::move(properties));
        if (any_required) form.set("required", std::move(required_form));
        node body = map_at(form);
        body.set("required", plain_at(any_required, form));
        const node at = map_at(form);
        node content =
            content_for(swagger2_form_media(declared, has_file), std::move(form), at, budget);
        if (encoding.size() > 0 && content.is_map()) {
          for (auto& m : content.entries()) m.value.set("encoding", encoding.clone());
        }
        body.set("content", std::move(content));
        op.set("requestBody", std::move(body));
      }
      if (kept.size() > 0) op.set("parameters", std::move(kept));
    }
  }

  node* responses = op.find("responses");
  if (responses == nullptr || !responses->is_map()) return;
  for (auto& e : responses->entries()) {
    node& resp = e.value;
    if (!resp.is_map() || resp.get("$ref").defined()) continue;
    if (auto schema = take(resp, "schema")) {
      swagger2_file_to_binary(*schema);
      const node at = map_at(*schema);
      resp.set("content", content_for(produces, std::move(schema), at, budget));
    }
    resp.remove("examples");
    if (node* headers = resp.find("headers"); headers != nullptr && headers->is_map()) {
      for (auto& h : headers->entries()) move_into_schema(h.value);
    }
  }
}

node convert_scheme(const source_doc& doc, const std::string& name, node s, doc_reader& r,
                    bool& ok) {
  const node& type = s.get("type");
  const std::string t = type.is_scalar() ? type.text() : "";
  if (t == "basic") {
    node out = map_at(s);
    out.set("type", text_at("http", type));
    out.set("scheme", text_at("basic", type));
    return out;
  }
  if (t == "apiKey") return s;
  if (t == "oauth2") {
    node out = map_at(s);
    out.set("type", text_at("oauth2", type));
    const node& flow = s.get("flow");
    const std::string f = flow.is_scalar() ? flow.text() : "";
    const std::string flow3 = f == "application"  ? "clientCredentials"
                              : f == "accessCode" ? "authorizationCode"
                                                  : f;
    node body = map_at(s);
    for (const char* key : {"authorizationUrl", "tokenUrl", "scopes"}) {
      if (auto v = take(s, key)) body.set(key, std::move(*v));
    }
    if (!body.get("scopes").defined()) body.set("scopes", map_at(s));
    node flows = map_at(s);
    flows.set(flow3.empty() ? "implicit" : flow3, std::move(body));
    out.set("flows", std::move(flows));
    return out;
  }
  r.error(doc_reader::pos(doc, type.defined() ? type : s),
          "Swagger 2.0 security definition '" + name + "': unknown type '" + t + "'");
  ok = false;
  return s;
}

}  // namespace

void swagger2_parameter(node& p) {
  if (p.is_map() && p.get("type").defined()) move_into_schema(p);
}

bool convert_swagger2(source_doc& doc, doc_reader& r) {
  node& root = doc.root;
  bool ok = true;
  copy_budget budget;
  const std::vector<std::string> consumes = strings_of(root.get("consumes"));  // may be empty
  const std::vector<std::string> produces = [&] {
    auto v = strings_of(root.get("produces"));
    return v.empty() ? std::vector<std::string>{"application/json"} : v;
  }();
  rewrite_refs(root);

  // servers from schemes, host and basePath.
  const node& host = root.get("host");
  const node& base = root.get("basePath");
  std::vector<std::string> schemes = strings_of(root.get("schemes"));
  if (schemes.empty()) schemes = {"https"};
  if (host.defined() || base.defined()) {
    const node& at = host.defined() ? host : base;
    node servers = node::sequence();
    for (const auto& s : schemes) {
      node server = map_at(at);
      server.set("url", text_at((host.is_scalar() ? s + "://" + host.text() : std::string()) +
                                    (base.is_scalar() ? base.text() : std::string()),
                                at));
      servers.push_back(std::move(server));
    }
    root.set("servers", std::move(servers));
  }

  node components = map_at(root);
  if (auto d = take(root, "definitions")) components.set("schemas", std::move(*d));
  swagger2_inherited inherited;
  if (auto p = take(root, "parameters"); p && p->is_map()) {
    node params = map_at(*p);
    for (auto& e : p->entries()) {
      if (swagger2_body_like(e.value)) {
        // 3.0 has no shared body: each operation that names it gets a copy.
        inherited.shared.emplace("#/components/parameters/" + e.key, std::move(e.value));
        continue;
      }
      move_into_schema(e.value);
      params.set(e.key, std::move(e.value));
    }
    components.set("parameters", std::move(params));
  }
  if (auto resp = take(root, "responses"); resp && resp->is_map()) {
    for (auto& e : resp->entries()) {
      if (!e.value.is_map()) continue;
      if (auto schema = take(e.value, "schema")) {
        const node at = map_at(*schema);
        e.value.set("content", content_for(produces, std::move(schema), at, budget));
      }
    }
    components.set("responses", std::move(*resp));
  }
  if (auto sec = take(root, "securityDefinitions"); sec && sec->is_map()) {
    node schemes3 = map_at(*sec);
    for (auto& e : sec->entries()) {
      schemes3.set(e.key, convert_scheme(doc, e.key, std::move(e.value), r, ok));
    }
    components.set("securitySchemes", std::move(schemes3));
  }
  const node openapi_at = map_at(root.get("swagger"));
  for (const char* key : {"definitions", "parameters", "responses", "securityDefinitions", "host",
                          "basePath", "schemes", "consumes", "produces", "swagger"}) {
    root.remove(key);
  }
  if (components.size() > 0) root.set("components", std::move(components));
  root.set("openapi", text_at("3.0.3", openapi_at));

  if (node* paths = root.find("paths"); paths != nullptr && paths->is_map()) {
    for (auto& e : paths->entries()) {
      node& item = e.value;
      if (!item.is_map()) continue;
      // The path item's body-like parameters go to its operations (3.0 has
      // no path-level body); the others stay, their types in a schema.
      node path_level = node::sequence();
      if (node* params = item.find("parameters"); params != nullptr && params->is_sequence()) {
        node kept = node::sequence();
        kept.set_position(params->line(), params->column());
        for (auto& p : params->items()) {
          node resolved = swagger2_resolve_shared(p.clone(), inherited);
          if (swagger2_body_like(resolved)) {
            path_level.push_back(std::move(resolved));
          } else {
            move_into_schema(p);
            kept.push_back(std::move(p));
          }
        }
        if (kept.size() > 0) {
          *params = std::move(kept);
        } else {
          item.remove("parameters");
        }
      }
      inherited.path_level = &path_level;
      for (auto& m : item.entries()) {
        if (m.key == "parameters" || m.key.rfind("x-", 0) == 0 || !m.value.is_map()) continue;
        convert_operation(m.value, consumes, produces, budget, inherited);
      }
      inherited.path_level = nullptr;
    }
  }
  if (budget.exceeded) {
    r.error(doc_reader::pos(doc, root.get("openapi")),
            "the Swagger 2.0 conversion would copy more than " +
                std::to_string(core::limits::max_expanded_nodes) +
                " nodes (each schema once per media type of produces/consumes)");
    ok = false;
  }
  return ok;
}

}  // namespace conform::openapi::detail
