#include "harness/stateful/json.hpp"

#include <deque>
#include <set>
#include <utility>

#include "core/text.hpp"

namespace conform::harness::stateful {
namespace {

/// Breadth-first over the schema's object members (not into arrays): calls
/// `visit(pointer, name, schema)` for each property, shallowest first; stops
/// when it returns true.
template <typename F>
bool walk_members(const schema::schema& root, F&& visit) {
  std::deque<std::pair<const schema::schema*, std::string>> queue{{&root, ""}};
  std::set<std::pair<const schema::schema*, std::string>> seen;
  std::size_t budget = 4096;
  while (!queue.empty() && budget-- > 0) {
    auto [s, pointer] = queue.front();
    queue.pop_front();
    if (!s || !seen.insert({s, pointer}).second || pointer.size() > 256) continue;
    const schema::schema& r = s->resolved();
    for (const auto& [name, child] : r.properties) {
      if (!child) continue;
      const std::string here = pointer + "/" + core::escape_pointer_token(name);
      if (visit(here, name, *child)) return true;
      queue.emplace_back(child, here);
    }
    for (const auto* group : {&r.all_of, &r.any_of, &r.one_of}) {
      for (const auto* b : *group) queue.emplace_back(b, pointer);
    }
  }
  return false;
}

bool array_with_id_items(const schema::schema& s) {
  const schema::schema& r = s.resolved();
  if (!r.items) return false;
  bool found = false;
  walk_members(*r.items,
               [&found](const std::string& pointer, std::string_view name, const schema::schema&) {
                 if (name == "id" && pointer == "/id") found = true;
                 return found;
               });
  return found;
}

}  // namespace

const boost::json::value* at(const boost::json::value& root, std::string_view pointer) {
  if (pointer.empty()) return &root;
  boost::system::error_code ec;
  const auto* v = root.find_pointer(pointer, ec);
  return ec ? nullptr : v;
}

std::optional<std::string> text_of(const boost::json::value& v) {
  if (v.is_string()) return std::string(v.get_string());
  if (v.is_int64()) return std::to_string(v.get_int64());
  if (v.is_uint64()) return std::to_string(v.get_uint64());
  if (v.is_bool()) return v.get_bool() ? "true" : "false";
  if (v.is_double()) {
    const double d = v.get_double();
    if (d == static_cast<double>(static_cast<long long>(d))) {
      return std::to_string(static_cast<long long>(d));
    }
    return std::to_string(d);
  }
  return std::nullopt;
}

std::optional<std::string> find_property(const schema::schema& s,
                                         const std::function<bool(std::string_view)>& match) {
  std::optional<std::string> out;
  walk_members(s, [&](const std::string& pointer, std::string_view name, const schema::schema&) {
    if (!match(name)) return false;
    out = pointer;
    return true;
  });
  return out;
}

std::optional<std::string> find_id_array(const schema::schema& s) {
  if (array_with_id_items(s)) return std::string();
  std::optional<std::string> out;
  walk_members(s, [&](const std::string& pointer, std::string_view, const schema::schema& child) {
    if (!array_with_id_items(child)) return false;
    out = pointer;
    return true;
  });
  return out;
}

std::optional<std::string> query_value(const std::string& target, const std::string& name) {
  const auto q = target.find('?');
  if (q == std::string::npos) return std::nullopt;
  std::string_view rest = std::string_view(target).substr(q + 1);
  while (!rest.empty()) {
    const auto amp = rest.find('&');
    const std::string_view pair = rest.substr(0, amp);
    const auto eq = pair.find('=');
    if (core::percent_decode(pair.substr(0, eq), true) == name) {
      return eq == std::string_view::npos ? std::string()
                                          : core::percent_decode(pair.substr(eq + 1), true);
    }
    if (amp == std::string_view::npos) break;
    rest = rest.substr(amp + 1);
  }
  return std::nullopt;
}

std::optional<std::string> path_value(const std::string& path, const std::string& target,
                                      const std::string& name) {
  const std::string actual = target.substr(0, target.find('?'));
  // Segment by segment: "{name}" takes the whole segment (simple style).
  std::size_t i = 0, j = 0;
  while (i < path.size() && j < actual.size()) {
    const std::size_t pi = std::min(path.find('/', i + 1), path.size());
    const std::size_t aj = std::min(actual.find('/', j + 1), actual.size());
    const std::string_view seg = std::string_view(path).substr(i, pi - i);
    if (seg == "/{" + name + "}")
      return core::percent_decode(std::string_view(actual).substr(j + 1, aj - j - 1));
    i = pi;
    j = aj;
  }
  return std::nullopt;
}

}  // namespace conform::harness::stateful
