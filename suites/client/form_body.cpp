#include "suites/client/form_body.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <map>

#include "schema/validator.hpp"

namespace conform::suites::client {

namespace {

using generators::detail::form_part;

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

/// The value of parameter `name` in a header value ("form-data; name=\"f\"").
std::optional<std::string> param_of(std::string_view header, std::string_view name) {
  std::size_t at = header.find(';');
  while (at != std::string_view::npos) {
    std::string_view rest = header.substr(at + 1);
    const std::size_t next = rest.find(';');
    std::string_view item = trim(rest.substr(0, next));
    at = next == std::string_view::npos ? next : at + 1 + next;
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos || lower(trim(item.substr(0, eq))) != name) continue;
    std::string_view v = trim(item.substr(eq + 1));
    if (v.size() >= 2 && v.front() == '"') {
      // A quoted string; ';' inside it was split on above only when the
      // client put one in a name, which the parts here never need.
      v = v.substr(1, v.size() - 2);
    }
    return std::string(v);
  }
  return std::nullopt;
}

/// The media type of a content type, lower case, without parameters.
std::string media_of(std::string_view content_type) {
  return lower(trim(content_type.substr(0, content_type.find(';'))));
}

/// True when `media` is one of `declared` (a comma-separated list; "type/*"
/// and "*/*" wildcards).
bool accepted(const std::string& media, std::string_view declared) {
  std::size_t at = 0;
  while (at <= declared.size()) {
    const std::size_t comma = declared.find(',', at);
    const std::string want = media_of(
        declared.substr(at, comma == std::string_view::npos ? std::string_view::npos : comma - at));
    if (want == media || want == "*/*") return true;
    if (want.size() > 2 && want.ends_with("/*") &&
        media.starts_with(want.substr(0, want.size() - 1))) {
      return true;
    }
    if (comma == std::string_view::npos) break;
    at = comma + 1;
  }
  return false;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string form_decode(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex_value(s[i + 1]) >= 0 && hex_value(s[i + 2]) >= 0) {
      out += static_cast<char>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2]));
      i += 2;
    } else {
      out += s[i] == '+' ? ' ' : s[i];
    }
  }
  return out;
}

std::string first_error(const schema::validation_result& r) {
  if (r.errors.empty()) return "";
  const auto& e = r.errors.front();
  return (e.instance_pointer.empty() ? std::string() : e.instance_pointer + ": ") + e.message;
}

}  // namespace

std::string boundary_of(std::string_view content_type) {
  return param_of(content_type, "boundary").value_or("");
}

core::outcome<std::vector<form_part>> parse_multipart(std::string_view body,
                                                      std::string_view boundary) {
  const std::string delimiter = "--" + std::string(boundary);
  std::size_t at = body.find(delimiter);
  if (boundary.empty() || at == std::string_view::npos) {
    return core::fail("no boundary line");
  }
  std::vector<form_part> parts;
  at += delimiter.size();
  for (;;) {
    if (body.substr(at, 2) == "--") return parts;  // the close delimiter
    while (at < body.size() && (body[at] == ' ' || body[at] == '\t')) ++at;
    if (body.substr(at, 2) != "\r\n") {
      return core::fail("a boundary line is not followed by CRLF");
    }
    at += 2;
    const std::size_t end = body.find("\r\n" + delimiter, at);
    if (end == std::string_view::npos) {
      return core::fail("part " + std::to_string(parts.size() + 1) + " has no closing boundary");
    }
    const std::string_view part = body.substr(at, end - at);
    std::size_t head_end = part.starts_with("\r\n") ? 0 : part.find("\r\n\r\n");
    if (head_end == std::string_view::npos) {
      return core::fail("part " + std::to_string(parts.size() + 1) +
                        " has no blank line after its headers");
    }
    form_part p;
    std::string_view head = part.substr(0, head_end);
    bool named = false;
    while (!head.empty()) {
      const std::size_t eol = head.find("\r\n");
      const std::string_view line = head.substr(0, eol);
      head = eol == std::string_view::npos ? std::string_view() : head.substr(eol + 2);
      const std::size_t colon = line.find(':');
      if (colon == std::string_view::npos) continue;
      const std::string name = lower(trim(line.substr(0, colon)));
      const std::string_view value = trim(line.substr(colon + 1));
      if (name == "content-disposition") {
        if (auto n = param_of(value, "name")) {
          p.name = *n;
          named = true;
        }
        p.filename = param_of(value, "filename").value_or("");
      } else if (name == "content-type") {
        p.content_type = std::string(value);
      }
    }
    if (!named) {
      return core::fail("part " + std::to_string(parts.size() + 1) +
                        " has no Content-Disposition with a name");
    }
    p.content = std::string(part.substr(head_end + (head_end == 0 ? 2 : 4)));
    parts.push_back(std::move(p));
    at = end + 2 + delimiter.size();
  }
}

std::string form_problem(std::string_view media, std::string_view content_type,
                         std::string_view body, const openapi::media_type& m) {
  if (!m.schema) return "";
  boost::json::value value;
  if (media == "multipart/form-data") {
    const std::string boundary = boundary_of(content_type);
    if (boundary.empty()) return "the multipart body's Content-Type has no boundary";
    auto parts = parse_multipart(body, boundary);
    if (!parts) return "the multipart body cannot be read: " + parts.error();
    for (auto& p : *parts) {
      // A part without a Content-Type is text/plain (RFC 7578, 4.4).
      const std::string part_media =
          p.content_type.empty() ? "text/plain" : media_of(p.content_type);
      auto declared = m.part_content_types.find(p.name);
      if (declared != m.part_content_types.end() && !declared->second.empty() &&
          !accepted(part_media, declared->second)) {
        return "part " + p.name + " is sent as " + part_media + ", and encoding." + p.name +
               ".contentType says " + declared->second;
      }
      p.content_type = part_media;
    }
    value = generators::detail::from_parts(*m.schema, *parts);
  } else if (media == "application/x-www-form-urlencoded") {
    std::map<std::string, std::vector<std::string>> fields;
    std::vector<std::string> order;
    std::size_t at = 0;
    while (at <= body.size() && !body.empty()) {
      const std::size_t amp = body.find('&', at);
      const std::string_view pair =
          body.substr(at, amp == std::string_view::npos ? std::string_view::npos : amp - at);
      if (!pair.empty()) {
        const std::size_t eq = pair.find('=');
        const std::string name = form_decode(pair.substr(0, eq));
        if (!fields.contains(name)) order.push_back(name);
        fields[name].push_back(eq == std::string_view::npos ? ""
                                                            : form_decode(pair.substr(eq + 1)));
      }
      if (amp == std::string_view::npos) break;
      at = amp + 1;
    }
    boost::json::object o;
    const schema::schema& r = m.schema->resolved();
    for (const auto& name : order) {
      const schema::schema* sub = r.property(name);
      o[name] = sub ? generators::detail::from_wire(*sub, fields[name])
                    : boost::json::value(fields[name].front());
    }
    value = std::move(o);
  } else {
    return "";
  }
  const auto r = schema::validate(*m.schema, value);
  if (!r.ok()) return "the body does not match the schema: " + first_error(r);
  return "";
}

}  // namespace conform::suites::client
