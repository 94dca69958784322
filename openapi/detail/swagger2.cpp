#include "openapi/detail/swagger2.hpp"

#include <string>
#include <vector>

namespace conform::openapi::detail {
namespace {

/// The keywords of a Swagger 2.0 non-body parameter that belong in its schema.
const char* const schema_keys[] = {"type",      "format",           "items",
                                   "enum",      "default",          "maximum",
                                   "minimum",   "exclusiveMaximum", "exclusiveMinimum",
                                   "maxLength", "minLength",        "pattern",
                                   "maxItems",  "minItems",         "uniqueItems",
                                   "multipleOf"};

std::vector<std::string> strings_of(const YAML::Node& n) {
  std::vector<std::string> out;
  if (n.IsSequence()) {
    for (const auto& s : n) {
      if (s.IsScalar()) out.push_back(s.Scalar());
    }
  }
  return out;
}

/// Rewrites every 2.0 `$ref` under `n` to where 3.0 keeps the same thing.
void rewrite_refs(YAML::Node n) {
  if (n.IsMap()) {
    for (auto it = n.begin(); it != n.end(); ++it) {
      if (it->first.Scalar() == "$ref" && it->second.IsScalar()) {
        std::string ref = it->second.Scalar();
        const auto hash = ref.find('#');
        if (hash != std::string::npos) {
          for (const auto& [from, to] :
               {std::pair<std::string, std::string>{"#/definitions/", "#/components/schemas/"},
                {"#/parameters/", "#/components/parameters/"},
                {"#/responses/", "#/components/responses/"}}) {
            if (ref.compare(hash, from.size(), from) == 0) {
              ref = ref.substr(0, hash) + to + ref.substr(hash + from.size());
              it->second = ref;
              break;
            }
          }
        }
      } else {
        rewrite_refs(it->second);
      }
    }
  } else if (n.IsSequence()) {
    for (auto item : n) rewrite_refs(item);
  }
}

/// A non-body parameter (or a header): its type keywords into `schema`.
void move_into_schema(YAML::Node p) {
  if (yaml_reader::child(p, "schema").IsDefined() || yaml_reader::child(p, "$ref").IsDefined()) {
    return;
  }
  YAML::Node schema(YAML::NodeType::Map);
  for (const char* key : schema_keys) {
    YAML::Node v = yaml_reader::child(p, key);
    if (!v.IsDefined()) continue;
    schema[key] = v;
    p.remove(key);
  }
  YAML::Node cf = yaml_reader::child(p, "collectionFormat");
  if (cf.IsDefined()) {
    const std::string f = cf.IsScalar() ? cf.Scalar() : "csv";
    p.remove("collectionFormat");
    if (f == "multi") {
      p["style"] = "form";
      p["explode"] = true;
    } else if (f == "ssv") {
      p["style"] = "spaceDelimited";
      p["explode"] = false;
    } else if (f == "pipes") {
      p["style"] = "pipeDelimited";
      p["explode"] = false;
    } else {  // csv (and tsv, which 3.0 cannot say: comma-separated is the nearest)
      p["explode"] = false;
    }
  }
  p.remove("allowEmptyValue");
  p["schema"] = schema;
}

/// `media` -> {schema} for each of `types`.
YAML::Node content_for(const std::vector<std::string>& types, const YAML::Node& schema) {
  YAML::Node content(YAML::NodeType::Map);
  for (const auto& t : types) {
    YAML::Node media(YAML::NodeType::Map);
    if (schema.IsDefined()) media["schema"] = schema;
    content[t] = media;
  }
  return content;
}

void convert_operation(YAML::Node op, const std::vector<std::string>& consumes_default,
                       const std::vector<std::string>& produces_default) {
  std::vector<std::string> consumes = strings_of(yaml_reader::child(op, "consumes"));
  if (consumes.empty()) consumes = consumes_default;
  std::vector<std::string> produces = strings_of(yaml_reader::child(op, "produces"));
  if (produces.empty()) produces = produces_default;
  op.remove("consumes");
  op.remove("produces");
  op.remove("schemes");

  YAML::Node params = yaml_reader::child(op, "parameters");
  if (params.IsDefined() && params.IsSequence()) {
    YAML::Node kept(YAML::NodeType::Sequence);
    YAML::Node form(YAML::NodeType::Map);
    form["type"] = "object";
    YAML::Node required_form(YAML::NodeType::Sequence);
    bool has_form = false, has_file = false;
    for (auto p : params) {
      const YAML::Node in = yaml_reader::child(p, "in");
      const std::string where = in.IsDefined() && in.IsScalar() ? in.Scalar() : "";
      if (where == "body") {
        YAML::Node body(YAML::NodeType::Map);
        if (YAML::Node d = yaml_reader::child(p, "description"); d.IsDefined()) {
          body["description"] = d;
        }
        if (YAML::Node req = yaml_reader::child(p, "required"); req.IsDefined()) {
          body["required"] = req;
        }
        body["content"] = content_for(consumes, yaml_reader::child(p, "schema"));
        op["requestBody"] = body;
      } else if (where == "formData") {
        has_form = true;
        const std::string name = yaml_reader::child(p, "name").Scalar();
        YAML::Node prop(YAML::NodeType::Map);
        for (const char* key : schema_keys) {
          YAML::Node v = yaml_reader::child(p, key);
          if (v.IsDefined()) prop[key] = v;
        }
        if (YAML::Node t = yaml_reader::child(p, "type"); t.IsScalar() && t.Scalar() == "file") {
          has_file = true;
          prop["type"] = "string";
          prop["format"] = "binary";
        }
        if (YAML::Node d = yaml_reader::child(p, "description"); d.IsDefined()) {
          prop["description"] = d;
        }
        form["properties"][name] = prop;
        if (YAML::Node req = yaml_reader::child(p, "required");
            req.IsScalar() && req.Scalar() == "true") {
          required_form.push_back(name);
        }
      } else {
        move_into_schema(p);
        kept.push_back(p);
      }
    }
    if (has_form) {
      if (required_form.size() > 0) form["required"] = required_form;
      YAML::Node body(YAML::NodeType::Map);
      body["required"] = required_form.size() > 0;
      const std::string media = has_file               ? "multipart/form-data"
                                : consumes.size() == 1 ? consumes.front()
                                                       : "application/x-www-form-urlencoded";
      body["content"] = content_for({media}, form);
      op["requestBody"] = body;
    }
    if (kept.size() > 0) {
      op["parameters"] = kept;
    } else {
      op.remove("parameters");
    }
  }

  YAML::Node responses = yaml_reader::child(op, "responses");
  if (!responses.IsDefined() || !responses.IsMap()) return;
  for (auto it = responses.begin(); it != responses.end(); ++it) {
    YAML::Node resp = it->second;
    if (!resp.IsMap() || yaml_reader::child(resp, "$ref").IsDefined()) continue;
    if (YAML::Node schema = yaml_reader::child(resp, "schema"); schema.IsDefined()) {
      resp["content"] = content_for(produces, schema);
      resp.remove("schema");
    }
    resp.remove("examples");
    if (YAML::Node headers = yaml_reader::child(resp, "headers"); headers.IsMap()) {
      for (auto h = headers.begin(); h != headers.end(); ++h) move_into_schema(h->second);
    }
  }
}

YAML::Node convert_scheme(const yaml_doc& doc, const std::string& name, YAML::Node s,
                          yaml_reader& r, bool& ok) {
  const YAML::Node type = yaml_reader::child(s, "type");
  const std::string t = type.IsScalar() ? type.Scalar() : "";
  if (t == "basic") {
    YAML::Node out(YAML::NodeType::Map);
    out["type"] = "http";
    out["scheme"] = "basic";
    return out;
  }
  if (t == "apiKey") return s;
  if (t == "oauth2") {
    YAML::Node out(YAML::NodeType::Map);
    out["type"] = "oauth2";
    const YAML::Node flow = yaml_reader::child(s, "flow");
    const std::string f = flow.IsScalar() ? flow.Scalar() : "";
    const std::string flow3 = f == "application"  ? "clientCredentials"
                              : f == "accessCode" ? "authorizationCode"
                                                  : f;
    YAML::Node body(YAML::NodeType::Map);
    for (const char* key : {"authorizationUrl", "tokenUrl", "scopes"}) {
      if (YAML::Node v = yaml_reader::child(s, key); v.IsDefined()) body[key] = v;
    }
    if (!yaml_reader::child(body, "scopes").IsDefined())
      body["scopes"] = YAML::Node(YAML::NodeType::Map);
    out["flows"][flow3.empty() ? "implicit" : flow3] = body;
    return out;
  }
  r.error(yaml_reader::pos(doc, type.IsDefined() ? type : s),
          "Swagger 2.0 security definition '" + name + "': unknown type '" + t + "'");
  ok = false;
  return s;
}

}  // namespace

void swagger2_parameter(YAML::Node p) {
  if (p.IsMap() && yaml_reader::child(p, "type").IsDefined()) move_into_schema(p);
}

bool convert_swagger2(const yaml_doc& doc, YAML::Node root, yaml_reader& r) {
  bool ok = true;
  const std::vector<std::string> consumes = [&] {
    auto v = strings_of(yaml_reader::child(root, "consumes"));
    return v.empty() ? std::vector<std::string>{"application/json"} : v;
  }();
  const std::vector<std::string> produces = [&] {
    auto v = strings_of(yaml_reader::child(root, "produces"));
    return v.empty() ? std::vector<std::string>{"application/json"} : v;
  }();
  rewrite_refs(root);

  // servers from schemes, host and basePath.
  const YAML::Node host = yaml_reader::child(root, "host");
  const YAML::Node base = yaml_reader::child(root, "basePath");
  std::vector<std::string> schemes = strings_of(yaml_reader::child(root, "schemes"));
  if (schemes.empty()) schemes = {"https"};
  if (host.IsDefined() || base.IsDefined()) {
    YAML::Node servers(YAML::NodeType::Sequence);
    for (const auto& s : schemes) {
      YAML::Node server(YAML::NodeType::Map);
      server["url"] = (host.IsScalar() ? s + "://" + host.Scalar() : std::string()) +
                      (base.IsScalar() ? base.Scalar() : std::string());
      servers.push_back(server);
    }
    root["servers"] = servers;
  }

  YAML::Node components(YAML::NodeType::Map);
  if (YAML::Node d = yaml_reader::child(root, "definitions"); d.IsDefined())
    components["schemas"] = d;
  if (YAML::Node p = yaml_reader::child(root, "parameters"); p.IsMap()) {
    YAML::Node params(YAML::NodeType::Map);
    for (auto it = p.begin(); it != p.end(); ++it) {
      const YAML::Node in = yaml_reader::child(it->second, "in");
      if (in.IsScalar() && (in.Scalar() == "body" || in.Scalar() == "formData")) {
        r.error(yaml_reader::pos(doc, it->first),
                "Swagger 2.0 shared parameter '" + it->first.Scalar() + "' is in " + in.Scalar() +
                    ", which Conform does not convert; convert the description "
                    "first, e.g. `npx swagger2openapi`");
        ok = false;
        continue;
      }
      move_into_schema(it->second);
      params[it->first.Scalar()] = it->second;
    }
    components["parameters"] = params;
  }
  if (YAML::Node resp = yaml_reader::child(root, "responses"); resp.IsMap()) {
    for (auto it = resp.begin(); it != resp.end(); ++it) {
      if (YAML::Node schema = yaml_reader::child(it->second, "schema"); schema.IsDefined()) {
        it->second["content"] = content_for(produces, schema);
        it->second.remove("schema");
      }
    }
    components["responses"] = resp;
  }
  if (YAML::Node sec = yaml_reader::child(root, "securityDefinitions"); sec.IsMap()) {
    YAML::Node schemes3(YAML::NodeType::Map);
    for (auto it = sec.begin(); it != sec.end(); ++it) {
      schemes3[it->first.Scalar()] = convert_scheme(doc, it->first.Scalar(), it->second, r, ok);
    }
    components["securitySchemes"] = schemes3;
  }
  for (const char* key : {"definitions", "parameters", "responses", "securityDefinitions", "host",
                          "basePath", "schemes", "consumes", "produces", "swagger"}) {
    root.remove(key);
  }
  if (components.size() > 0) root["components"] = components;
  root["openapi"] = "3.0.3";

  YAML::Node paths = yaml_reader::child(root, "paths");
  if (paths.IsMap()) {
    for (auto it = paths.begin(); it != paths.end(); ++it) {
      YAML::Node item = it->second;
      if (!item.IsMap()) continue;
      if (YAML::Node params = yaml_reader::child(item, "parameters"); params.IsSequence()) {
        for (auto p : params) move_into_schema(p);
      }
      for (auto m = item.begin(); m != item.end(); ++m) {
        const std::string method = m->first.Scalar();
        if (method == "parameters" || method.rfind("x-", 0) == 0 || !m->second.IsMap()) continue;
        convert_operation(m->second, consumes, produces);
      }
    }
  }
  return ok;
}

}  // namespace conform::openapi::detail
