#include "openapi/detail/objects.hpp"

#include <algorithm>
#include <set>

#include "core/text.hpp"
#include "openapi/detail/extensions.hpp"
#include "openapi/detail/links.hpp"
#include "openapi/detail/provenance.hpp"
#include "openapi/detail/swagger2.hpp"

namespace conform::openapi::detail {

namespace {

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
      if (*text == "cookie" && p.in == param_location::cookie) {
        // 3.2's cookie style: form's pairs joined by "; ", unencoded, which is
        // how cookie parameters are sent anyway.
        p.style = param_style::form;
      } else if (!st) {
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

std::optional<param_location> parse_location(parse_context& ctx, const source_doc& d,
                                             const node& in, const std::string& name,
                                             const std::string& text) {
  if (text == "path") return param_location::path;
  if (text == "query") return param_location::query;
  if (text == "header") return param_location::header;
  if (text == "cookie") return param_location::cookie;
  if (text == "querystring" && ctx.openapi32) return param_location::querystring;
  if (text == "querystring") {
    ctx.r.error(doc_reader::pos(d, in), "parameter '" + name +
                                            "': in: querystring is OpenAPI 3.2; this description "
                                            "is " +
                                            ctx.spec.openapi_version);
    return std::nullopt;
  }
  ctx.r.error(doc_reader::pos(d, in),
              "parameter '" + name + "': 'in' must be path, query, header" +
                  (ctx.openapi32 ? ", cookie or querystring" : " or cookie") + ", got '" + text +
                  "'");
  return std::nullopt;
}

/// The fields OpenAPI 3.2 forbids on an `in: querystring` parameter.
void check_querystring_fields(doc_reader& r, const source_doc& d, const node& n,
                              const std::string& name) {
  for (const char* key : {"schema", "style", "explode", "allowReserved", "allowEmptyValue"}) {
    const node& k = doc_reader::child(n, key);
    if (!k.defined()) continue;
    r.error(doc_reader::pos(d, k), "parameter '" + name + "': an in: querystring parameter " +
                                       "takes `content` (one media type), not `" + key + "`");
  }
}

}  // namespace

void note_nonstandard(parse_context& ctx, const source_pos& at, std::string what) {
  if (ctx.state == nullptr) return;
  if (ctx.state->nonstandard_refs++ == 0) {
    ctx.state->first_nonstandard = at;
    ctx.state->first_nonstandard_what = std::move(what);
  }
}

std::optional<located> deref_nonstandard(parse_context& ctx, const source_doc& doc, const node& n,
                                         const std::string& pointer, const std::string& what) {
  if (!is_ref(n)) return located{&doc, &n, pointer};
  note_nonstandard(ctx, doc_reader::pos(doc, doc_reader::child(n, "$ref")), what);
  return follow(ctx, doc, n, pointer, what);
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
  const auto where = parse_location(ctx, d, in, p.name, *in_s);
  if (!where) return std::nullopt;
  p.in = *where;
  const node& req = doc_reader::child(loc->value(), "required");
  if (req.defined()) p.required = r.boolean(d, req, "parameter required").value_or(false);
  if (p.in == param_location::path && !p.required) {
    r.error(p.pos, "path parameter '" + p.name + "' must have required: true");
  }
  const node& desc = doc_reader::child(loc->value(), "description");
  if (desc.defined()) p.description = r.str(d, desc, "description").value_or("");
  if (p.in == param_location::querystring) {
    check_querystring_fields(r, d, loc->value(), p.name);
  } else {
    parse_serialisation(r, d, loc->value(), p);
  }
  const node& schema = doc_reader::child(loc->value(), "schema");
  if (schema.defined() && p.in != param_location::querystring) {
    p.schema = ctx.schemas.load(d, schema, loc->pointer + "/schema");
  } else if (!schema.defined()) {
    const node& content = doc_reader::child(loc->value(), "content");
    if (content.is_map() && content.size() == 1) {
      const node_entry& media = content.entries().front();
      p.content_media = media.key;
      auto m =
          follow(ctx, d, media.value,
                 loc->pointer + "/content/" + core::escape_pointer_token(media.key), "media type");
      if (!m) return std::nullopt;
      const node& s = doc_reader::child(m->value(), "schema");
      if (s.defined()) p.schema = ctx.schemas.load(*m->doc, s, m->pointer + "/schema");
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

namespace {

void parse_encoding(parse_context& ctx, const source_doc& d, const node& enc, media_type& m) {
  if (!ctx.r.expect_map(d, enc, "encoding")) return;
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

}  // namespace

std::vector<media_type> parse_content(parse_context& ctx, const source_doc& doc, const node& raw,
                                      const std::string& raw_pointer) {
  std::vector<media_type> out;
  auto map = deref_nonstandard(ctx, doc, raw, raw_pointer, "a content map");
  if (!map) return out;
  const source_doc& d = *map->doc;
  const node& n = map->value();
  if (!ctx.r.expect_map(d, n, "content")) return out;
  for (auto it = n.entries().begin(); it != n.entries().end(); ++it) {
    media_type m;
    m.name = it->key;
    if (it->value.is_null()) {
      out.push_back(m);
      continue;
    }
    // 3.2 keeps Media Type Objects in components.mediaTypes; a $ref to one is
    // followed in every version.
    auto loc = follow(ctx, d, it->value, map->pointer + "/" + core::escape_pointer_token(m.name),
                      "media type");
    if (!loc) continue;
    const node& body = loc->value();
    if (!ctx.r.expect_map(*loc->doc, body, "media type '" + m.name + "'")) continue;
    const node& s = doc_reader::child(body, "schema");
    if (s.defined()) m.schema = ctx.schemas.load(*loc->doc, s, loc->pointer + "/schema");
    m.examples = parse_examples(*loc->doc, body);
    if (ctx.openapi32) {
      const node& item = doc_reader::child(body, "itemSchema");
      if (item.defined())
        m.item_schema = ctx.schemas.load(*loc->doc, item, loc->pointer + "/itemSchema");
    }
    const node& enc = doc_reader::child(body, "encoding");
    if (enc.defined()) parse_encoding(ctx, *loc->doc, enc, m);
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
  auto headers = deref_nonstandard(ctx, d, doc_reader::child(loc->value(), "headers"),
                                   loc->pointer + "/headers", "a headers map");
  if (headers && headers->value().defined() &&
      r.expect_map(*headers->doc, headers->value(), "headers")) {
    const node& hs = headers->value();
    for (auto it = hs.entries().begin(); it != hs.entries().end(); ++it) {
      const std::string name = it->key;
      const std::string hp = headers->pointer + "/" + core::escape_pointer_token(name);
      auto h = follow(ctx, *headers->doc, it->value, hp, "header");
      if (!h || !r.expect_map(*h->doc, h->value(), "header '" + name + "'")) continue;
      header_def def;
      def.name = name;
      read_assumption(ctx, *h->doc, h->value(), h->doc->display + "#" + h->pointer);
      const node& hr = doc_reader::child(h->value(), "required");
      if (hr.defined()) def.required = r.boolean(*h->doc, hr, "header required").value_or(false);
      const node& hsch = doc_reader::child(h->value(), "schema");
      if (hsch.defined()) def.schema = ctx.schemas.load(*h->doc, hsch, h->pointer + "/schema");
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

}  // namespace conform::openapi::detail
