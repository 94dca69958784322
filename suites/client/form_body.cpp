#include "suites/client/form_body.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <map>

#include "core/form.hpp"
#include "core/text.hpp"
#include "schema/validator.hpp"

namespace conform::suites::client {

namespace {

/// True when `media` is one of `declared` (a comma-separated list; "type/*"
/// and "*/*" wildcards).
bool accepted(const std::string& media, std::string_view declared) {
  std::size_t at = 0;
  while (at <= declared.size()) {
    const std::size_t comma = declared.find(',', at);
    const std::string want = core::media_type_of(
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

std::string first_error(const schema::validation_result& r) {
  if (r.errors.empty()) return "";
  const auto& e = r.errors.front();
  return (e.instance_pointer.empty() ? std::string() : e.instance_pointer + ": ") + e.message;
}

}  // namespace

std::string form_problem(std::string_view media, std::string_view content_type,
                         std::string_view body, const openapi::media_type& m) {
  if (!m.schema) return "";
  boost::json::value value;
  if (media == "multipart/form-data") {
    const std::string boundary = core::multipart_boundary(content_type);
    if (boundary.empty()) return "the multipart body's Content-Type has no boundary";
    auto parts = core::parse_multipart(body, boundary);
    if (!parts) return "the multipart body cannot be read: " + parts.error();
    for (auto& p : *parts) {
      // A part without a Content-Type is text/plain (RFC 7578, 4.4).
      const std::string part_media =
          p.content_type.empty() ? "text/plain" : core::media_type_of(p.content_type);
      auto declared = m.part_content_types.find(p.name);
      if (declared != m.part_content_types.end() && !declared->second.empty() &&
          !accepted(part_media, declared->second)) {
        return "part " + p.name + " is sent as " + part_media + ", and encoding." + p.name +
               ".contentType says " + declared->second;
      }
      p.content_type = part_media;
    }
    value = generators::from_parts(*m.schema, *parts);
  } else if (media == "application/x-www-form-urlencoded") {
    std::map<std::string, std::vector<std::string>> fields;
    std::vector<std::string> order;
    for (auto& [name, value] : core::parse_urlencoded(body)) {
      if (!fields.contains(name)) order.push_back(name);
      fields[name].push_back(std::move(value));
    }
    boost::json::object o;
    const schema::schema& r = m.schema->resolved();
    for (const auto& name : order) {
      const schema::schema* sub = r.property(name);
      o[name] = sub ? generators::from_wire(*sub, fields[name])
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
