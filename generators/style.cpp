// Parameter styles, written and read back.

#include "generators/style.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>

#include "core/text.hpp"
#include "generators/wire.hpp"

namespace conform::generators {

namespace {

using boost::json::value;
using core::percent_decode;
using openapi::param_location;
using openapi::param_style;
using schema::json_type;

enum class shape : std::uint8_t { scalar, array, object };

/// The shape a schema gives its value on the wire.
shape shape_of(const schema::schema& s) {
  const schema::type_set t = wire_types(s);
  if (t.any() || t.has(json_type::string)) return shape::scalar;
  if (t.has(json_type::array)) return shape::array;
  if (t.has(json_type::object)) return shape::object;
  return shape::scalar;
}

std::vector<std::string> split(std::string_view text, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t at = text.find(sep, start);
    out.emplace_back(text.substr(start, at == std::string_view::npos ? at : at - start));
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

char delimiter(param_style s) {
  switch (s) {
    case param_style::space_delimited:
      return ' ';
    case param_style::pipe_delimited:
      return '|';
    default:
      return ',';
  }
}

/// Items of an array, texts of an object's members (key, text), or one text.
std::vector<std::string> items_of(const value& v, bool encode) {
  std::vector<std::string> out;
  for (const value& item : v.get_array()) {
    out.push_back(encode ? core::percent_encode(scalar_text(item)) : scalar_text(item));
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> members_of(const value& v, bool encode) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& m : v.get_object()) {
    std::string k(m.key());
    std::string t = scalar_text(m.value());
    if (encode) {
      k = core::percent_encode(k);
      t = core::percent_encode(t);
    }
    out.emplace_back(std::move(k), std::move(t));
  }
  return out;
}

/// An object's members as "k<kv>v" joined by `sep`, or "k,v,k,v" when not exploded.
std::string object_text(const value& v, bool explode, std::string_view sep, bool encode) {
  std::vector<std::string> parts;
  for (auto& [k, t] : members_of(v, encode)) {
    if (explode) {
      parts.push_back(k + "=" + t);
    } else {
      parts.push_back(k);
      parts.push_back(t);
    }
  }
  return core::join(parts, explode ? sep : ",");
}

/// simple (path or header) and label (path): one text.
std::string simple_text(const param_format& f, const value& v, bool encode) {
  const bool label = f.style == param_style::label;
  const std::string prefix = label ? "." : "";
  const std::string sep = label && f.explode ? "." : ",";
  if (v.is_array()) return prefix + core::join(items_of(v, encode), sep);
  if (v.is_object()) return prefix + object_text(v, f.explode, sep, encode);
  const std::string t = scalar_text(v);
  return prefix + (encode ? core::percent_encode(t) : t);
}

std::string matrix_text(const param_format& f, const value& v) {
  const std::string head = ";" + core::percent_encode(f.name);
  if (v.is_array()) {
    const auto items = items_of(v, true);
    if (items.empty()) return head;
    if (!f.explode) return head + "=" + core::join(items, ",");
    std::string out;
    for (const auto& i : items) out += head + "=" + i;
    return out;
  }
  if (v.is_object()) {
    if (!f.explode) return head + "=" + object_text(v, false, ",", true);
    std::string out;
    for (auto& [k, t] : members_of(v, true)) out += ";" + k + "=" + t;
    return out.empty() ? head : out;
  }
  const std::string t = core::percent_encode(scalar_text(v));
  return t.empty() ? head : head + "=" + t;
}

std::optional<wire_pairs> query_pairs(const param_format& f, const value& v) {
  wire_pairs out;
  if (f.style == param_style::deep_object) {
    if (!v.is_object()) return std::nullopt;
    for (const auto& m : v.get_object()) {
      if (m.value().is_object() || m.value().is_array()) return std::nullopt;
      out.emplace_back(f.name + "[" + std::string(m.key()) + "]", scalar_text(m.value()));
    }
    return out;
  }
  const std::string sep(1, delimiter(f.style));
  if (v.is_array()) {
    auto items = items_of(v, false);
    // RFC 6570 takes an empty list as undefined: no pair at all (the
    // parameter left out). `name=` is not an empty array but an array of one
    // empty item to a server that splits it, and nothing to one that does
    // not: a value only `name=` could carry is not written.
    if (!f.explode && (items.empty() || (items.size() == 1 && items.front().empty()))) {
      return std::nullopt;
    }
    if (!f.explode) {
      out.emplace_back(f.name, core::join(items, sep));
    } else {
      for (auto& i : items) out.emplace_back(f.name, std::move(i));
    }
    return out;
  }
  if (v.is_object()) {
    if (f.explode) {
      for (auto& [k, t] : members_of(v, false)) out.emplace_back(std::move(k), std::move(t));
    } else {
      std::vector<std::string> parts;
      for (auto& [k, t] : members_of(v, false)) {
        parts.push_back(std::move(k));
        parts.push_back(std::move(t));
      }
      out.emplace_back(f.name, core::join(parts, sep));
    }
    return out;
  }
  out.emplace_back(f.name, scalar_text(v));
  return out;
}

bool json_media(std::string_view media) {
  return media.find("json") != std::string_view::npos;
}

/// Pieces read back: items, or alternating keys and values, or one text.
struct pieces {
  std::vector<std::string> texts;
  bool keyed = false;  // texts are key, value, key, value, ...
};

/// "k=v" texts as alternating key, value.
std::vector<std::string> unpair(const std::vector<std::string>& kvs) {
  std::vector<std::string> out;
  for (const auto& kv : kvs) {
    const std::size_t eq = kv.find('=');
    out.push_back(kv.substr(0, eq));
    out.push_back(eq == std::string::npos ? std::string() : kv.substr(eq + 1));
  }
  return out;
}

std::vector<std::string> decoded(std::vector<std::string> v) {
  for (auto& s : v) s = percent_decode(s);
  return v;
}

pieces read_path(const param_format& f, shape sh, std::string_view text) {
  pieces out;
  out.keyed = sh == shape::object;
  if (f.style == param_style::matrix) {
    auto segments = split(text.empty() ? text : text.substr(1), ';');
    std::vector<std::string> values;  // of segments named as the parameter
    std::vector<std::string> all;     // every segment as "k=v"
    for (const auto& seg : segments) {
      const std::size_t eq = seg.find('=');
      if (percent_decode(seg.substr(0, eq)) == f.name) {
        values.push_back(eq == std::string::npos ? std::string() : seg.substr(eq + 1));
      }
      all.push_back(seg);
    }
    if (sh == shape::scalar) {
      if (!values.empty()) out.texts.push_back(percent_decode(values.front()));
    } else if (sh == shape::object && f.explode) {
      out.texts = decoded(unpair(all));
    } else if (sh == shape::array && f.explode) {
      out.texts = decoded(values);
    } else if (!values.empty() && !values.front().empty()) {
      out.texts = decoded(split(values.front(), ','));
    }
    return out;
  }
  if (f.style == param_style::label) {
    if (text.empty() || text.front() != '.') {
      out.keyed = false;
      out.texts.push_back(percent_decode(text));  // not a label: read as it stands
      return out;
    }
    text.remove_prefix(1);
  }
  if (sh == shape::scalar) {
    out.texts.push_back(percent_decode(text));
    return out;
  }
  if (text.empty()) return out;
  const char sep = f.style == param_style::label && f.explode ? '.' : ',';
  if (sh == shape::array) {
    out.texts = decoded(split(text, sep));
  } else {
    out.texts = decoded(f.explode ? unpair(split(text, sep)) : split(text, ','));
  }
  return out;
}

pieces read_header(const param_format& f, shape sh, const std::string& text) {
  pieces out;
  out.keyed = sh == shape::object;
  if (sh == shape::scalar) {
    out.texts.push_back(text);
  } else if (sh == shape::array) {
    out.texts = split(text, ',');
  } else {
    out.texts = f.explode ? unpair(split(text, ',')) : split(text, ',');
  }
  return out;
}

pieces read_pairs(const param_format& f, shape sh, const wire_pairs& w) {
  pieces out;
  out.keyed = sh == shape::object;
  if (w.empty()) return out;
  if (f.style == param_style::deep_object) {
    out.keyed = true;
    const std::string head = f.name + "[";
    for (const auto& [name, text] : w) {
      if (!name.starts_with(head) || name.back() != ']') continue;
      out.texts.push_back(name.substr(head.size(), name.size() - head.size() - 1));
      out.texts.push_back(text);
    }
    return out;
  }
  const char sep = delimiter(f.style);
  if (sh == shape::scalar) {
    out.texts.push_back(w.front().second);
  } else if (sh == shape::array) {
    if (f.explode) {
      for (const auto& p : w) out.texts.push_back(p.second);
    } else {
      out.texts = split(w.front().second, sep);
    }
  } else if (f.explode) {
    for (const auto& [k, t] : w) {
      out.texts.push_back(k);
      out.texts.push_back(t);
    }
  } else {
    out.texts = split(w.front().second, sep);
  }
  return out;
}

value build(const schema::schema& s, shape sh, const pieces& p) {
  if (sh == shape::object || p.keyed) {
    boost::json::object o;
    const schema::schema& r = s.resolved();
    for (std::size_t i = 0; i < p.texts.size(); i += 2) {
      const std::string& key = p.texts[i];
      const std::string text = i + 1 < p.texts.size() ? p.texts[i + 1] : std::string();
      const schema::schema* sub = r.property(key);
      if (sub == nullptr) sub = r.additional_properties;
      o[key] = sub != nullptr ? from_wire(*sub, {text}) : value(text);
    }
    return value(std::move(o));
  }
  if (sh == shape::array) return from_wire(s, p.texts);
  return p.texts.empty() ? value(nullptr) : from_wire(s, {p.texts.front()});
}

}  // namespace

param_format format_of(const openapi::parameter& p) {
  param_format f;
  f.in = p.in;
  f.style = p.wire_style();
  f.explode = p.wire_explode();
  f.name = p.name;
  f.media = p.content_media;
  f.schema = p.schema;
  return f;
}

namespace {

bool form_media(std::string_view media) {
  return media.rfind("application/x-www-form-urlencoded", 0) == 0;
}

/// An in: querystring value: a form's pairs for a urlencoded object (each
/// property as the Encoding Object's defaults write it), else the whole text
/// under no name (JSON, or a scalar as it is).
std::optional<wire_pairs> write_querystring(const param_format& f, const value& v) {
  if (form_media(f.media)) {
    if (!v.is_object() || f.schema == nullptr) return std::nullopt;
    return form_body(v.get_object(), *f.schema, {});
  }
  return wire_pairs{{"", json_media(f.media) ? boost::json::serialize(v) : scalar_text(v)}};
}

value read_querystring(const param_format& f, const schema::schema& s, const wire_pairs& w) {
  if (form_media(f.media)) return read_form_body(s, w, {});
  if (w.empty()) return value(nullptr);
  const std::string& text = w.front().second;
  if (!json_media(f.media)) return from_wire(s, {text});
  boost::system::error_code ec;
  value v = boost::json::parse(text, ec);
  return ec ? value(text) : v;
}

}  // namespace

std::optional<wire_pairs> write_param(const param_format& f, const value& v) {
  if (f.in == param_location::querystring) return write_querystring(f, v);
  if (!f.media.empty()) {
    std::string text = json_media(f.media) ? boost::json::serialize(v) : scalar_text(v);
    if (f.in == param_location::path) text = core::percent_encode(text);
    return wire_pairs{{f.name, std::move(text)}};
  }
  switch (f.in) {
    case param_location::path:
      return wire_pairs{
          {f.name, f.style == param_style::matrix ? matrix_text(f, v) : simple_text(f, v, true)}};
    case param_location::header:
      return wire_pairs{{f.name, simple_text(f, v, false)}};
    case param_location::query:
    case param_location::cookie:
      return query_pairs(f, v);
    case param_location::querystring:
      break;  // written above
  }
  return std::nullopt;
}

value read_param(const param_format& f, const schema::schema& s, const wire_pairs& w) {
  if (f.in == param_location::querystring) return read_querystring(f, s, w);
  if (!f.media.empty()) {
    if (w.empty()) return value(nullptr);
    const std::string text =
        f.in == param_location::path ? percent_decode(w.front().second) : w.front().second;
    if (!json_media(f.media)) return from_wire(s, {text});
    boost::system::error_code ec;
    value v = boost::json::parse(text, ec);
    return ec ? value(text) : v;
  }
  const shape sh = shape_of(s);
  pieces p;
  switch (f.in) {
    case param_location::path:
      p = read_path(f, sh, w.empty() ? std::string() : w.front().second);
      break;
    case param_location::header:
      p = read_header(f, sh, w.empty() ? std::string() : w.front().second);
      break;
    case param_location::query:
    case param_location::cookie:
    case param_location::querystring:  // read above
      p = read_pairs(f, sh, w);
      break;
  }
  return build(s, sh, p);
}

namespace {

param_format property_format(const std::string& name, const schema::schema* sub,
                             const std::map<std::string, openapi::property_encoding>& encoding) {
  param_format f;
  f.in = param_location::query;
  f.name = name;
  auto it = encoding.find(name);
  const openapi::property_encoding* e = it != encoding.end() ? &it->second : nullptr;
  f.style = e != nullptr && e->style ? *e->style : param_style::form;
  f.explode = e != nullptr && e->explode ? *e->explode : f.style == param_style::form;
  if (e != nullptr && json_media(e->content_type)) {
    f.media = e->content_type;
  } else if ((e == nullptr || !e->style) && sub != nullptr && shape_of(*sub) == shape::object) {
    f.media = "application/json";
  }
  return f;
}

}  // namespace

wire_pairs form_body(const boost::json::object& o, const schema::schema& s,
                     const std::map<std::string, openapi::property_encoding>& encoding) {
  wire_pairs out;
  const schema::schema& r = s.resolved();
  for (const auto& m : o) {
    const std::string name(m.key());
    const schema::schema* sub = r.property(name);
    param_format f = property_format(name, sub, encoding);
    if (sub == nullptr && m.value().is_object()) f.media = "application/json";
    auto w = write_param(f, m.value());
    if (!w) {  // a style that cannot carry it: JSON text
      f.media = "application/json";
      w = write_param(f, m.value());
    }
    out.insert(out.end(), w->begin(), w->end());
  }
  return out;
}

value read_form_body(const schema::schema& s, const wire_pairs& w,
                     const std::map<std::string, openapi::property_encoding>& encoding) {
  boost::json::object o;
  const schema::schema& r = s.resolved();
  std::vector<std::string> names;
  for (const auto& [name, _] : w) {
    const std::size_t bracket = name.find('[');
    std::string base = name.substr(0, bracket);
    if (std::find(names.begin(), names.end(), base) == names.end()) names.push_back(base);
  }
  for (const auto& name : names) {
    const schema::schema* sub = r.property(name);
    const param_format f = property_format(name, sub, encoding);
    wire_pairs mine;
    for (const auto& kv : w) {
      if (kv.first == name || kv.first.starts_with(name + "[")) mine.push_back(kv);
    }
    o[name] = sub != nullptr ? read_param(f, *sub, mine) : value(mine.front().second);
  }
  return value(std::move(o));
}

namespace {

/// True when a cookie name or value can be sent as it is (RFC 6265
/// cookie-octets, and ',' the form style's delimiter).
bool cookie_safe(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) {
    return c > ' ' && c <= '~' && c != '"' && c != ';' && c != '\\';
  });
}

}  // namespace

/// True when written pairs can travel in `where` as one parameter.
bool travels(param_location where, const wire_pairs& w) {
  if (w.empty()) return false;
  switch (where) {
    case param_location::path:
      return segment_safe(w.front().second);
    case param_location::header: {
      const std::string& text = w.front().second;
      if (text.empty() || !header_safe(text)) return false;
      std::size_t start = 0;  // every item too: a server trims what it splits
      for (std::size_t at = text.find(',');; at = text.find(',', start)) {
        if (!header_safe(text.substr(start, at - start))) return false;
        if (at == std::string::npos) return true;
        start = at + 1;
      }
    }
    case param_location::cookie:
      return std::all_of(w.begin(), w.end(), [](const auto& kv) {
        return !kv.first.empty() && cookie_safe(kv.first) && cookie_safe(kv.second);
      });
    default:
      return true;
  }
}

std::optional<std::string> oversized(param_location where, const wire_pairs& w) {
  std::size_t bytes = 0;
  switch (where) {
    case param_location::path:
      for (const auto& kv : w) bytes += kv.second.size();  // already percent-encoded
      break;
    case param_location::query:
    case param_location::querystring:  // the whole query: its pairs, as a query's
      for (const auto& kv : w) {
        // Encoding only makes it longer: what is too long raw is too long sent.
        bytes += kv.first.size() + kv.second.size() + 2;
        if (bytes > max_param_url_bytes) break;
        bytes += core::percent_encode(kv.first).size() +
                 encode_query_value(kv.second, false).size() - kv.first.size() - kv.second.size();
      }
      break;
    case param_location::header:
    case param_location::cookie:
      for (const auto& kv : w) bytes += kv.first.size() + 2 + kv.second.size();
      if (bytes <= max_field_bytes) return std::nullopt;
      return std::string(openapi::to_string(where)) + " value of " + std::to_string(bytes) +
             " bytes: more than the " + std::to_string(max_field_bytes) +
             std::string(beyond_servers) + " field (RFC 9110 section 5.4; 431 beyond)";
  }
  if (bytes <= max_param_url_bytes) return std::nullopt;
  return std::string(openapi::to_string(where)) + " parameter of " + std::to_string(bytes) +
         " bytes in the URL: more than a share of the " + std::to_string(max_url_bytes) +
         std::string(beyond_servers) + " (RFC 9110 section 4.1; 414 beyond)";
}

bool forced_oversized(const openapi::parameter& p) {
  if (p.schema == nullptr) return false;
  const schema::schema& s = p.schema->resolved();
  const bool field = p.in == param_location::header || p.in == param_location::cookie;
  const std::uint64_t limit = field ? max_field_bytes : max_param_url_bytes;
  // At least a byte per character and two per item (the item and its delimiter).
  return s.min_length.value_or(0) > limit || s.min_items.value_or(0) * 2 > limit;
}

/// The path template with each `{name}` replaced by its written value and
/// the template's own text percent-encoded where a path needs it ('?', '#').
std::string fill_path(const std::string& tmpl, const std::map<std::string, std::string>& values) {
  std::string out;
  std::size_t i = 0;
  while (i < tmpl.size()) {
    const std::size_t open = tmpl.find('{', i);
    const std::size_t close = open == std::string::npos ? open : tmpl.find('}', open);
    if (close == std::string::npos) {
      out += encode_path_literal(std::string_view(tmpl).substr(i));
      break;
    }
    out += encode_path_literal(std::string_view(tmpl).substr(i, open - i));
    const std::string name = tmpl.substr(open + 1, close - open - 1);
    auto it = values.find(name);
    out += it != values.end() ? it->second : tmpl.substr(open, close - open + 1);
    i = close + 1;
  }
  return out;
}

std::string encode_path_literal(std::string_view text) {
  static constexpr char hexdigits[] = "0123456789ABCDEF";
  auto is_hex = [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  };
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const bool keep =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
        std::string_view("-._~!$&'()*+,;=:@/").find(static_cast<char>(c)) !=
            std::string_view::npos ||
        (c == '%' && i + 2 < text.size() && is_hex(text[i + 1]) && is_hex(text[i + 2]));
    if (keep) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hexdigits[c >> 4];
      out += hexdigits[c & 0xF];
    }
  }
  return out;
}

}  // namespace conform::generators
