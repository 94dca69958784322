#include "generators/detail/bind.hpp"

#include <algorithm>

#include "schema/validator.hpp"

namespace conform::generators::detail {
namespace {

using boost::json::value;

/// The fixture's text as a JSON value of the schema's type (an integer
/// where the schema takes integers and no strings).
value typed(const schema::schema& r, const std::string& text) {
  const bool digits =
      !text.empty() && text.size() < 19 &&
      std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (digits && !r.types.any() && r.types.has(schema::json_type::integer) &&
      !r.types.has(schema::json_type::string)) {
    return value(static_cast<std::int64_t>(std::stoll(text)));
  }
  return value(text);
}

/// The schemas that describe property `name` of `s`: its own, and those of
/// its allOf branches (followed through $ref).
void property_schemas(const schema::schema& s, std::string_view name,
                      std::vector<const schema::schema*>& out, int depth = 0) {
  if (depth > 8) return;
  const schema::schema& r = s.resolved();
  for (const auto& [key, child] : r.properties) {
    if (key == name && child) out.push_back(child);
  }
  for (const auto* b : r.all_of) {
    if (b) property_schemas(*b, name, out, depth + 1);
  }
}

void fill(value& v, const schema::schema& s, const gen_options& o, int depth) {
  if (depth > 16) return;
  const schema::schema& r = s.resolved();
  const auto& name = s.fixture ? s.fixture : r.fixture;
  if (name && o.fixture && !v.is_object() && !v.is_array()) {
    if (auto text = o.fixture(*name)) {
      value want = typed(r, *text);
      if (schema::is_valid(s, want)) v = std::move(want);
    }
    return;
  }
  if (auto* obj = v.if_object()) {
    for (auto& [key, child] : *obj) {
      std::vector<const schema::schema*> schemas;
      property_schemas(s, key, schemas);
      for (const auto* ps : schemas) fill(child, *ps, o, depth + 1);
    }
  } else if (auto* arr = v.if_array()) {
    if (r.items) {
      for (auto& item : *arr) fill(item, *r.items, o, depth + 1);
    }
  }
}

/// The member `pointer` names, made when its parent object exists; nullptr otherwise.
value* slot(value& root, std::string_view pointer) {
  if (pointer.empty() || pointer.front() != '/') return nullptr;
  value* at = &root;
  std::size_t i = 1;
  while (true) {
    const std::size_t j = std::min(pointer.find('/', i), pointer.size());
    std::string token(pointer.substr(i, j - i));
    for (std::size_t k = 0; (k = token.find('~', k)) != std::string::npos; ++k) {
      token.replace(k, 2, k + 1 < token.size() && token[k + 1] == '1' ? "/" : "~");
    }
    auto* obj = at->if_object();
    if (obj == nullptr) return nullptr;
    if (j == pointer.size()) return &(*obj)[token];
    at = obj->if_contains(token);
    if (at == nullptr) return nullptr;
    i = j + 1;
  }
}

}  // namespace

bool bind_values(value& v, const schema::schema& s, const gen_options& options,
                 const std::vector<std::pair<std::string, value>>& pinned) {
  bool changed = false;
  if (options.fixture) {
    value filled = v;
    fill(filled, s, options, 0);
    if (filled != v && schema::is_valid(s, filled)) {
      v = std::move(filled);
      changed = true;
    }
  }
  for (const auto& [pointer, want] : pinned) {
    value next = v;
    value* at = slot(next, pointer);
    if (at == nullptr) continue;
    *at = want;
    if (!schema::is_valid(s, next)) {
      // An id pinned as text where the schema takes an integer.
      const std::string text = want.is_string() ? std::string(want.get_string()) : std::string();
      const bool digits =
          !text.empty() && text.size() < 19 &&
          std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
      if (!digits) continue;
      *at = static_cast<std::int64_t>(std::stoll(text));
      if (!schema::is_valid(s, next)) continue;
    }
    if (next != v) {
      v = std::move(next);
      changed = true;
    }
  }
  return changed;
}

}  // namespace conform::generators::detail
