// The generator tests' small API and request oracle (request_support.hpp).

#include "tests/generators/request_support.hpp"

#include <boost/json/parse.hpp>

#include <algorithm>

#include "core/text.hpp"
#include "schema/validator.hpp"

namespace conform::generators::testing {

using boost::json::value;
using openapi::param_location;

api::api() {
  const auto& id = make(R"({"type": "string", "pattern": "^[0-9]+$"})");
  const auto& tenant = make(R"({"type": "string", "pattern": "^[0-9]+$"})");
  const auto& idem = make(R"({"type": "string", "minLength": 1, "maxLength": 255,
                              "pattern": "^[!-~]+$"})");

  cancel.operation_id = "cancelFollowUp";
  cancel.method = http::verb::delete_;
  cancel.path = "/follow-ups/{id}";
  cancel.parameters = {param("id", param_location::path, true, &id),
                       param("reason", param_location::query, false,
                             &make(R"({"type": "string", "minLength": 1, "maxLength": 20})")),
                       param("X-Tenant-Id", param_location::header, false, &tenant)};
  cancel.parameters[0].resource =
      openapi::resource_ref{"follow_up", "follow_up_id", "FOLLOW_UP_NOT_FOUND"};

  list.operation_id = "listCampaigns";
  list.path = "/bulk_call_campaigns";
  list.parameters = {
      param("page", param_location::query, false, &make(R"({"type": "integer", "minimum": 1})")),
      param("per_page", param_location::query, false,
            &make(R"({"type": "integer", "minimum": 1, "maximum": 100})")),
      param("status", param_location::query, false,
            &make(R"({"type": "string", "enum": ["draft", "running", "paused"]})")),
      param("ids", param_location::query, true,
            &make(R"({"type": "array", "minItems": 1, "maxItems": 3,
                      "items": {"type": "integer", "minimum": 1}})")),
      param("X-Tenant-Id", param_location::header, true, &tenant)};

  create.operation_id = "createCampaign";
  create.method = http::verb::post;
  create.path = "/bulk_call_campaigns";
  create.parameters = {param("Idempotency-Key", param_location::header, false, &idem)};
  create.body = openapi::request_body{};
  create.body->required = true;
  create.body->content.push_back(openapi::media_type{"application/json",
                                                     &make(R"({
    "type": "object", "required": ["name", "agent_id", "timezone"],
    "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 200},
                   "agent_id": {"type": "integer", "minimum": 1, "x-fixture": "agent_id"},
                   "timezone": {"type": "string", "format": "timezone"},
                   "campaign_phone_number_ids": {"type": "array", "uniqueItems": true,
                     "maxItems": 50, "items": {"type": "integer", "minimum": 1}}}})"),
                                                     {}});

  import.operation_id = "importContacts";
  import.method = http::verb::post;
  import.path = "/contacts/import";
  import.body = openapi::request_body{};
  import.body->required = true;
  import.body->content.push_back(openapi::media_type{"multipart/form-data",
                                                     &make(R"({
    "type": "object", "required": ["file", "column_mapping"],
    "examples": [{"file": "Phone,Given name\n+14155550100,Ada\n",
                  "column_mapping": {"Phone": "phone_e164", "Given name": "first_name"}}],
    "properties": {"file": {"type": "string"},
                   "column_mapping": {"type": "object", "minProperties": 1,
                     "additionalProperties": {"type": "string",
                       "enum": ["phone_e164", "first_name", "last_name", "email"]}},
                   "bulk_call_campaign_id": {"type": "string", "pattern": "^[0-9]+$"}}})"),
                                                     { {"file", "text/csv"},
                                                       {"column_mapping", "application/json"},
                                                       { "bulk_call_campaign_id",
                                                         "text/plain" } }});

  health.operation_id = "health";
  health.path = "/health";

  answer.operation_id = "telephonyAnswer";
  answer.path = "/telephony/{provider}/answer";
  answer.parameters = {
      param("provider", param_location::path, true, &make(R"({"type": "string"})")),
      param("call_id", param_location::query, true,
            &make(R"({"type": "string", "minLength": 1, "maxLength": 128})"))};

  memory.operation_id = "updateContactMemory";
  memory.method = http::verb::patch;
  memory.path = "/contacts/{contact_id}/memory";
  memory.parameters = {param("contact_id", param_location::path, true, &id)};
  memory.body = openapi::request_body{};
  memory.body->required = true;
  memory.body->content.push_back(openapi::media_type{"application/json",
                                                     &make(R"({
    "type": "object", "required": ["agent_id"], "additionalProperties": false,
    "properties": {"agent_id": {"type": "string", "pattern": "^[0-9]+$"},
                   "memory": {"type": "string", "maxLength": 30},
                   "contact_id": {"type": "string", "pattern": "^[0-9]+$",
                                  "x-same-as": {"in": "path", "name": "contact_id"}}}})"),
                                                     {}});
}

const schema::schema& api::make(std::string_view json) {
  return schema::schema_from_json(arena_, boost::json::parse(json));
}

openapi::parameter api::param(std::string name, param_location in, bool required,
                              const schema::schema* s) {
  openapi::parameter p;
  p.name = std::move(name);
  p.in = in;
  p.required = required;
  p.schema = s;
  return p;
}

std::optional<std::string> fixture_of(const openapi::parameter& p) {
  if (p.resource && p.resource->fixture == "follow_up_id") return "5001";
  return std::nullopt;
}

std::string percent_decode(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      out += static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      out.emplace_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

std::vector<generators::form_part> parse_multipart(const std::string& body,
                                                   const std::string& content_type) {
  const std::string marker = "boundary=";
  const std::string boundary =
      "--" + content_type.substr(content_type.find(marker) + marker.size());
  std::vector<generators::form_part> parts;
  std::size_t at = body.find(boundary);
  while (at != std::string::npos) {
    at += boundary.size();
    if (body.compare(at, 2, "--") == 0) break;
    const std::size_t head_end = body.find("\r\n\r\n", at);
    const std::size_t next = body.find(boundary, head_end);
    if (head_end == std::string::npos || next == std::string::npos) break;
    const std::string head = body.substr(at, head_end - at);
    generators::form_part p;
    const std::size_t name_at = head.find("name=\"") + 6;
    p.name = head.substr(name_at, head.find('"', name_at) - name_at);
    if (const auto ct = head.find("Content-Type: "); ct != std::string::npos) {
      p.content_type = head.substr(ct + 14, head.find("\r\n", ct) - ct - 14);
    }
    p.content = body.substr(head_end + 4, next - head_end - 4 - 2);
    parts.push_back(std::move(p));
    at = next;
  }
  return parts;
}

std::vector<std::string> problems(const openapi::operation& op, const generated_request& r,
                                  const std::vector<std::string>& runner_headers) {
  std::vector<std::string> out;
  const auto tmpl = split(op.path, '/');
  const auto path = split(r.path, '/');
  if (tmpl.size() != path.size()) return {"path shape " + r.path};
  for (std::size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i].empty() || tmpl[i].front() != '{') {
      if (tmpl[i] != path[i]) out.push_back("path shape " + r.path);
      continue;
    }
    const std::string name = tmpl[i].substr(1, tmpl[i].size() - 2);
    const openapi::parameter* p = nullptr;
    for (const auto& q : op.parameters) {
      if (q.name == name && q.in == param_location::path) p = &q;
    }
    if (p == nullptr) return {"no path parameter " + name};
    const std::string text = percent_decode(path[i]);
    if (text.empty()) out.push_back("empty path " + name);
    if (p->schema && !schema::is_valid(*p->schema, generators::from_wire(*p->schema, {text}))) {
      out.push_back("invalid path " + name);
    }
  }
  for (const auto& p : op.parameters) {
    if (p.in == param_location::path) continue;
    std::vector<std::string> texts;
    if (p.in == param_location::query) {
      for (const auto& [n, v] : r.query) {
        if (n == p.name) texts.push_back(v);
      }
    } else {
      if (std::any_of(runner_headers.begin(), runner_headers.end(),
                      [&](const std::string& h) { return core::iequals(h, p.name); })) {
        continue;
      }
      for (const auto& [n, v] : r.headers) {
        if (!core::iequals(n, p.name)) continue;
        const auto& rs = p.schema->resolved();
        const bool list = !rs.types.any() && rs.types.has(schema::json_type::array);
        texts = list ? split(v, ',') : std::vector<std::string>{v};
      }
    }
    const std::string where = (p.in == param_location::query ? "query " : "header ") + p.name;
    if (texts.empty()) {
      if (p.required) out.push_back("missing " + where);
      continue;
    }
    if (!schema::is_valid(*p.schema, generators::from_wire(*p.schema, texts)))
      out.push_back("invalid " + where);
  }
  if (op.body) {
    const auto& media = op.body->content.front();
    if (r.body.empty() && r.content_type.empty()) {
      if (op.body->required) out.push_back("missing body");
    } else if (r.content_type.rfind(media.name, 0) != 0) {
      out.push_back("wrong content type " + r.content_type);
    } else if (media.name == "application/json") {
      boost::system::error_code ec;
      const value v = boost::json::parse(r.body, ec);
      if (ec) {
        out.push_back("malformed body");
      } else if (!schema::is_valid(*media.schema, v)) {
        out.push_back("invalid body");
      } else {
        // x-same-as: a body property present must equal its parameter.
        for (const auto& b : openapi::same_as_bindings(*media.schema)) {
          const value* at = &v;
          for (const auto& token : split(b.pointer.substr(1), '/')) {
            const auto* o = at->if_object();
            at = o ? o->if_contains(token) : nullptr;
            if (at == nullptr) break;
          }
          if (at == nullptr || b.same_as.in != "path") continue;
          const auto segment = std::find(tmpl.begin(), tmpl.end(), "{" + b.same_as.name + "}");
          if (segment == tmpl.end()) continue;
          const std::string text = percent_decode(path[segment - tmpl.begin()]);
          if (!schema::json_equal(*at, generators::from_wire(*b.node, {text}))) {
            out.push_back("same_as body " + b.pointer);
          }
        }
      }
    } else {
      const auto parts = parse_multipart(r.body, r.content_type);
      if (!schema::is_valid(*media.schema, generators::from_parts(*media.schema, parts))) {
        out.push_back("invalid body");
      }
    }
  } else if (!r.body.empty()) {
    out.push_back("a body where the operation takes none");
  }
  return out;
}

std::string report(const generated_request& r, const std::vector<std::string>& wrong) {
  std::string out = r.target() + " [" + r.content_type + "] " + r.body.substr(0, 300) +
                    " mode=" + std::string(to_string(r.mode.mutation)) + " " + r.mode.description +
                    " ->";
  for (const auto& w : wrong) out += " {" + w + "}";
  for (const auto& [n, v] : r.headers) out += " H:" + n + "=" + v;
  return out;
}

std::optional<generated_request> first_sample(const coverage_case& c, std::uint64_t seed) {
  for (int attempt = 0; attempt < 4; ++attempt) {
    try {
      return c.gen(rc::Random(seed + static_cast<std::uint64_t>(attempt)), attempt * 10).value();
    } catch (const std::exception&) {
    }
  }
  return std::nullopt;
}

}  // namespace conform::generators::testing
