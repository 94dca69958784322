// Wire encodings of parameter and body values.

#include "generators/wire.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <charconv>
#include <cstdint>

namespace conform::generators {

namespace {

using boost::json::value;
using schema::json_type;

/// The types a node admits, looking through refs and allOf.
schema::type_set effective_types(const schema::schema& s, int depth = 0) {
  const schema::schema& r = s.resolved();
  if (!r.types.any() || depth > 8) return r.types;
  for (const auto* b : r.all_of) {
    const auto t = effective_types(*b, depth + 1);
    if (!t.any()) return t;
  }
  return r.types;
}

const schema::schema* items_of(const schema::schema& s, int depth = 0) {
  const schema::schema& r = s.resolved();
  if (r.items != nullptr || depth > 8) return r.items;
  for (const auto* b : r.all_of) {
    if (const auto* i = items_of(*b, depth + 1)) return i;
  }
  return nullptr;
}

value coerce(const schema::schema* s, const std::string& text) {
  const schema::type_set t = s != nullptr ? effective_types(*s) : schema::type_set();
  if (t.any()) return value(text);
  if (t.has(json_type::integer) && !text.empty()) {
    std::int64_t i = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), i);
    if (ec == std::errc() && end == text.data() + text.size()) return value(i);
  }
  if (t.has(json_type::number) && !text.empty()) {
    double d = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
    if (ec == std::errc() && end == text.data() + text.size()) return value(d);
  }
  if (t.has(json_type::boolean) && (text == "true" || text == "false"))
    return value(text == "true");
  if (t.has(json_type::null) && !t.has(json_type::string) && text.empty()) return value(nullptr);
  if ((t.has(json_type::object) || t.has(json_type::array)) && !t.has(json_type::string)) {
    boost::system::error_code ec;
    value v = boost::json::parse(text, ec);
    if (!ec) return v;
  }
  return value(text);
}

}  // namespace

schema::type_set wire_types(const schema::schema& s) {
  return effective_types(s);
}

const schema::schema* wire_items(const schema::schema& s) {
  return items_of(s);
}

std::string scalar_text(const value& v) {
  switch (v.kind()) {
    case boost::json::kind::string:
      return std::string(v.get_string());
    case boost::json::kind::int64:
      return std::to_string(v.get_int64());
    case boost::json::kind::uint64:
      return std::to_string(v.get_uint64());
    case boost::json::kind::double_: {
      char buf[32];
      const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v.get_double());
      return ec == std::errc() ? std::string(buf, end) : boost::json::serialize(v);
    }
    case boost::json::kind::bool_:
      return v.get_bool() ? "true" : "false";
    case boost::json::kind::null:
      return "";
    default:
      return boost::json::serialize(v);
  }
}

std::vector<std::string> to_wire(const value& v) {
  std::vector<std::string> out;
  if (v.is_array()) {
    for (const value& item : v.get_array()) out.push_back(scalar_text(item));
  } else {
    out.push_back(scalar_text(v));
  }
  return out;
}

value from_wire(const schema::schema& s, const std::vector<std::string>& texts) {
  const schema::type_set t = effective_types(s);
  if (!t.any() && t.has(json_type::array) && !t.has(json_type::string)) {
    const schema::schema* items = items_of(s);
    boost::json::array a;
    for (const auto& text : texts) a.push_back(coerce(items, text));
    return value(std::move(a));
  }
  return texts.empty() ? value(nullptr) : coerce(&s, texts.front());
}

bool header_safe(std::string_view text) {
  if (text.empty()) return true;
  if (text.front() == ' ' || text.back() == ' ') return false;
  for (char c : text) {
    if (c < ' ' || c > '~') return false;
  }
  return true;
}

bool segment_safe(std::string_view text) {
  return !text.empty() && text != "." && text != "..";
}

std::string encode_query_value(std::string_view text, bool allow_reserved) {
  // '?' and '=' are reserved and legal in a query value, yet servers split
  // on them (cpp-httplib refuses a second '?' and reads "a=b=c" as "c"):
  // both stay encoded, as '&', '+', '#', '[' and ']' must.
  return core::percent_encode(text, allow_reserved ? ":/@!$'()*,;" : ",");
}

std::string multipart_body(const std::vector<form_part>& parts, std::string_view boundary) {
  std::string out;
  for (const auto& p : parts) {
    out += "--";
    out += boundary;
    out += "\r\nContent-Disposition: form-data; name=\"" + p.name + "\"";
    if (!p.filename.empty()) out += "; filename=\"" + p.filename + "\"";
    out += "\r\n";
    if (!p.content_type.empty()) out += "Content-Type: " + p.content_type + "\r\n";
    out += "\r\n";
    out += p.content;
    out += "\r\n";
  }
  out += "--";
  out += boundary;
  out += "--\r\n";
  return out;
}

std::vector<form_part> form_parts(const boost::json::object& o,
                                  const std::map<std::string, std::string>& encoding) {
  std::vector<form_part> parts;
  for (const auto& member : o) {
    form_part p;
    p.name = std::string(member.key());
    const value& v = member.value();
    if (auto it = encoding.find(p.name); it != encoding.end()) {
      p.content_type = it->second;
    } else {
      p.content_type = v.is_string() ? "text/plain" : "application/json";
    }
    const bool json_part = p.content_type.find("json") != std::string::npos;
    p.content = json_part ? boost::json::serialize(v) : scalar_text(v);
    if (p.content_type == "text/csv" || p.content_type == "application/octet-stream") {
      p.filename = p.name + (p.content_type == "text/csv" ? ".csv" : ".bin");
    }
    parts.push_back(std::move(p));
  }
  return parts;
}

namespace {

bool json_type_name(std::string_view content_type) {
  return content_type.find("json") != std::string_view::npos;
}

bool array_shaped(const schema::schema& s) {
  const schema::type_set t = effective_types(s);
  return !t.any() && t.has(json_type::array) && !t.has(json_type::string);
}

bool binary_string(const schema::schema& s) {
  const schema::schema& r = s.resolved();
  return r.format && (*r.format == "binary");
}

/// The first media type of an Encoding Object's contentType, which may
/// list several ("image/png, image/jpeg"); a part carries one.
std::string first_media_type(const std::string& declared) {
  std::string out = declared.substr(0, declared.find(','));
  while (!out.empty() && out.back() == ' ') out.pop_back();
  while (!out.empty() && out.front() == ' ') out.erase(out.begin());
  return out;
}

/// The part's type by the property's schema alone, as the Encoding Object's
/// defaults say (objects and arrays JSON, strings by contentMediaType or
/// format binary, other primitives text/plain); "" when the schema admits
/// both a structure and a primitive, and only the value can tell.
std::string schema_part_type(const schema::schema& sub) {
  const schema::type_set t = effective_types(sub);
  if (t.any()) return {};
  const bool structured = t.has(json_type::object) || t.has(json_type::array);
  const bool primitive = t.has(json_type::string) || t.has(json_type::integer) ||
                         t.has(json_type::number) || t.has(json_type::boolean);
  if (structured && primitive) return {};
  if (structured) return "application/json";
  if (t.has(json_type::string) && sub.resolved().content_media_type) {
    return *sub.resolved().content_media_type;
  }
  if (t.has(json_type::string) && binary_string(sub)) return "application/octet-stream";
  return "text/plain";
}

/// One part for `v` of property `name` with schema `sub` (may be null). The
/// part's type follows the encoding, else the schema, never the value: a
/// value of another type in a text part is sent as text (and read back as
/// the server reads it), not turned into a JSON part.
form_part part_for(const std::string& name, const value& v, const schema::schema* sub,
                   const std::string& declared) {
  form_part p;
  p.name = name;
  const std::string by_schema = sub != nullptr ? schema_part_type(*sub) : std::string();
  if (!declared.empty()) {
    p.content_type = first_media_type(declared);
  } else if (sub == nullptr) {  // not in the schema: as form_parts without one
    p.content_type = v.is_string() ? "text/plain" : "application/json";
  } else if (!by_schema.empty()) {
    p.content_type = by_schema;
  } else if (v.is_object() || v.is_array()) {
    p.content_type = "application/json";
  } else if (v.is_string() && sub != nullptr && sub->resolved().content_media_type) {
    p.content_type = *sub->resolved().content_media_type;
  } else if (v.is_string() && sub != nullptr && binary_string(*sub)) {
    p.content_type = "application/octet-stream";
  } else {
    p.content_type = "text/plain";
  }
  p.content = json_type_name(p.content_type) ? boost::json::serialize(v) : scalar_text(v);
  if (p.content_type == "text/csv" || p.content_type == "application/octet-stream") {
    p.filename = p.name + (p.content_type == "text/csv" ? ".csv" : ".bin");
  }
  return p;
}

}  // namespace

std::vector<form_part> form_parts(const boost::json::object& o,
                                  const std::map<std::string, std::string>& encoding,
                                  const schema::schema& s) {
  std::vector<form_part> parts;
  const schema::schema& r = s.resolved();
  for (const auto& member : o) {
    const std::string name(member.key());
    const value& v = member.value();
    const schema::schema* sub = r.property(name);
    auto it = encoding.find(name);
    const std::string declared = it != encoding.end() ? it->second : std::string();
    if (v.is_array() && sub != nullptr && array_shaped(*sub) && !json_type_name(declared)) {
      const schema::schema* items = items_of(*sub);
      for (const value& item : v.get_array())
        parts.push_back(part_for(name, item, items, declared));
      continue;
    }
    parts.push_back(part_for(name, v, sub, declared));
  }
  return parts;
}

value from_parts(const schema::schema& s, const std::vector<form_part>& parts) {
  boost::json::object o;
  const schema::schema& r = s.resolved();
  auto read_one = [](const form_part& p, const schema::schema* sub) {
    if (json_type_name(p.content_type)) {
      boost::system::error_code ec;
      value v = boost::json::parse(p.content, ec);
      return ec ? value(p.content) : v;
    }
    return sub != nullptr ? from_wire(*sub, {p.content}) : value(p.content);
  };
  std::vector<std::string> order;
  std::map<std::string, std::vector<const form_part*>> by_name;
  for (const auto& p : parts) {
    if (!by_name.contains(p.name)) order.push_back(p.name);
    by_name[p.name].push_back(&p);
  }
  for (const auto& name : order) {
    const auto& ps = by_name[name];
    const schema::schema* sub = r.property(name);
    const bool items = sub != nullptr && array_shaped(*sub) &&
                       (ps.size() > 1 || !json_type_name(ps.front()->content_type));
    if (!items) {
      o[name] = read_one(*ps.front(), sub);
      continue;
    }
    const schema::schema* item_schema = items_of(*sub);
    boost::json::array a;
    for (const auto* p : ps) a.push_back(read_one(*p, item_schema));
    o[name] = value(std::move(a));
  }
  return value(std::move(o));
}

}  // namespace conform::generators
