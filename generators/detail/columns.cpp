#include "generators/detail/columns.hpp"

#include <boost/json.hpp>

#include <algorithm>

#include "openapi/model.hpp"

namespace conform::generators::detail {

namespace {

form_part* part_named(std::vector<form_part>& ps, const std::string& name) {
  for (auto& p : ps) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

std::string trim(std::string_view t) {
  while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
  while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.remove_suffix(1);
  return std::string(t);
}

/// The header row's cells of an unquoted CSV text (a quoted one is not
/// read: nullopt).
std::optional<std::vector<std::string>> header_of(const std::string& csv) {
  if (csv.find('"') != std::string::npos) return std::nullopt;
  std::string line = csv.substr(0, csv.find('\n'));
  if (!line.empty() && line.back() == '\r') line.pop_back();
  std::vector<std::string> cells;
  if (line.empty()) return cells;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = line.find(',', start);
    cells.push_back(trim(std::string_view(line).substr(start, comma - start)));
    if (comma == std::string::npos) return cells;
    start = comma + 1;
  }
}

/// A header cell as CSV writes it (RFC 4180: quoted when it must be).
std::string cell(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos && trim(text) == text) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

/// `csv` with `columns` added to its header row, each row one empty cell longer.
std::string with_columns(const std::string& csv, const std::vector<std::string>& columns) {
  auto header = header_of(csv);
  std::string out;
  std::string rest;
  if (header) {
    const std::size_t nl = csv.find('\n');
    std::string first = csv.substr(0, nl);
    if (!first.empty() && first.back() == '\r') first.pop_back();
    out = first;
    rest = nl == std::string::npos ? std::string() : csv.substr(nl + 1);
  }
  const bool had = !out.empty();
  for (std::size_t i = 0; i < columns.size(); ++i) {
    out += (had || i > 0 ? "," : "") + cell(columns[i]);
  }
  out += "\n";
  std::size_t start = 0;
  while (start < rest.size()) {
    std::size_t nl = rest.find('\n', start);
    if (nl == std::string::npos) nl = rest.size();
    std::string line = rest.substr(start, nl - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) out += line + std::string(columns.size(), ',') + "\n";
    start = nl + 1;
  }
  return out;
}

/// The object of a JSON part, or nullopt.
std::optional<boost::json::object> object_of(const form_part& p) {
  boost::system::error_code ec;
  boost::json::value v = boost::json::parse(p.content, ec);
  if (ec || !v.is_object()) return std::nullopt;
  return std::move(v.get_object());
}

}  // namespace

void keep_columns(std::vector<form_part>& ps, const schema::schema& body) {
  for (const auto& b : openapi::columns_bindings(body)) {
    form_part* mapping = part_named(ps, b.property);
    form_part* csv = part_named(ps, b.columns.part);
    if (mapping == nullptr || csv == nullptr) continue;
    const auto o = object_of(*mapping);
    if (!o) continue;
    const auto header = header_of(csv->content).value_or(std::vector<std::string>{});
    std::vector<std::string> missing;
    for (const auto& member : *o) {
      const std::string key(member.key());
      if (std::find(header.begin(), header.end(), trim(key)) == header.end() &&
          std::find(missing.begin(), missing.end(), key) == missing.end()) {
        missing.push_back(key);
      }
    }
    if (missing.empty()) continue;
    csv->content = with_columns(header_of(csv->content) ? csv->content : std::string(), missing);
  }
}

std::optional<std::string> break_columns(std::vector<form_part>& ps, const schema::schema& body) {
  for (const auto& b : openapi::columns_bindings(body)) {
    form_part* mapping = part_named(ps, b.property);
    form_part* csv = part_named(ps, b.columns.part);
    if (mapping == nullptr || csv == nullptr) continue;
    auto o = object_of(*mapping);
    if (!o || o->empty()) continue;
    boost::json::object once;
    std::vector<boost::json::value> seen;
    for (const auto& member : *o) {
      const bool twice = std::any_of(seen.begin(), seen.end(), [&](const boost::json::value& v) {
        return v == member.value();
      });
      if (twice) continue;
      seen.push_back(member.value());
      once[member.key()] = member.value();
    }
    mapping->content = boost::json::serialize(once);
    keep_columns(ps, body);
    const auto header = header_of(csv->content).value_or(std::vector<std::string>{});
    std::string absent = "conform_absent_column";
    while (std::find(header.begin(), header.end(), absent) != header.end() ||
           once.contains(absent)) {
      absent += "_";
    }
    boost::json::object broken;
    bool renamed = false;
    for (const auto& member : once) {
      if (!renamed) {
        broken[absent] = member.value();
        renamed = true;
      } else {
        broken[member.key()] = member.value();
      }
    }
    mapping->content = boost::json::serialize(broken);
    return absent;
  }
  return std::nullopt;
}

}  // namespace conform::generators::detail
