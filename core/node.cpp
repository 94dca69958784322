#include "core/node.hpp"

#include <algorithm>

namespace conform::core {

namespace {

const std::string empty_text;
const std::vector<node> no_items;
const std::vector<node_entry> no_entries;

}  // namespace

node node::scalar(std::string text, bool quoted) {
  node n;
  n.value_ = std::move(text);
  n.quoted_ = quoted;
  return n;
}

node node::sequence() {
  node n;
  n.value_ = std::vector<node>{};
  return n;
}

node node::map() {
  node n;
  n.value_ = std::vector<node_entry>{};
  return n;
}

const node& node::undefined() {
  static const node u = [] {
    node n;
    n.undefined_ = true;
    return n;
  }();
  return u;
}

node::kind node::type() const {
  if (undefined_) return kind::undefined;
  switch (value_.index()) {
    case 1:
      return kind::scalar;
    case 2:
      return kind::sequence;
    case 3:
      return kind::map;
    default:
      return kind::null;
  }
}

const std::string& node::text() const {
  const auto* s = std::get_if<std::string>(&value_);
  return s != nullptr ? *s : empty_text;
}

void node::set_position(std::uint32_t line, std::uint32_t column) {
  line_ = line;
  column_ = column;
}

std::size_t node::size() const {
  if (const auto* v = std::get_if<std::vector<node>>(&value_)) return v->size();
  if (const auto* m = std::get_if<std::vector<node_entry>>(&value_)) return m->size();
  return 0;
}

const std::vector<node>& node::items() const {
  const auto* v = std::get_if<std::vector<node>>(&value_);
  return v != nullptr ? *v : no_items;
}

std::vector<node>& node::items() {
  if (value_.index() == 0 && !undefined_) value_ = std::vector<node>{};
  return std::get<std::vector<node>>(value_);
}

const node& node::item(std::size_t i) const {
  const auto& v = items();
  return i < v.size() ? v[i] : undefined();
}

node& node::push_back(node value) {
  auto& v = items();
  v.push_back(std::move(value));
  return v.back();
}

const std::vector<node_entry>& node::entries() const {
  const auto* m = std::get_if<std::vector<node_entry>>(&value_);
  return m != nullptr ? *m : no_entries;
}

std::vector<node_entry>& node::entries() {
  if (value_.index() == 0 && !undefined_) value_ = std::vector<node_entry>{};
  return std::get<std::vector<node_entry>>(value_);
}

const node& node::get(std::string_view key) const {
  for (const auto& e : entries()) {
    if (e.key == key) return e.value;
  }
  return undefined();
}

node* node::find(std::string_view key) {
  auto* m = std::get_if<std::vector<node_entry>>(&value_);
  if (m == nullptr) return nullptr;
  for (auto& e : *m) {
    if (e.key == key) return &e.value;
  }
  return nullptr;
}

node& node::set(std::string_view key, node value) {
  if (node* n = find(key)) {
    *n = std::move(value);
    return *n;
  }
  auto& m = entries();
  m.push_back(node_entry{std::string(key), std::move(value), 0, 0});
  return m.back().value;
}

bool node::remove(std::string_view key) {
  auto* m = std::get_if<std::vector<node_entry>>(&value_);
  if (m == nullptr) return false;
  const auto it =
      std::find_if(m->begin(), m->end(), [&](const node_entry& e) { return e.key == key; });
  if (it == m->end()) return false;
  m->erase(it);
  return true;
}

std::size_t node::tree_size() const {
  std::size_t n = 1;
  for (const auto& item : items()) n += item.tree_size();
  for (const auto& e : entries()) n += e.value.tree_size();
  return n;
}

node node::clone() const {
  node n;
  n.line_ = line_;
  n.column_ = column_;
  n.quoted_ = quoted_;
  n.undefined_ = undefined_;
  switch (value_.index()) {
    case 1:
      n.value_ = std::get<std::string>(value_);
      break;
    case 2: {
      std::vector<node> out;
      const auto& in = std::get<std::vector<node>>(value_);
      out.reserve(in.size());
      for (const auto& item : in) out.push_back(item.clone());
      n.value_ = std::move(out);
      break;
    }
    case 3: {
      std::vector<node_entry> out;
      const auto& in = std::get<std::vector<node_entry>>(value_);
      out.reserve(in.size());
      for (const auto& e : in) out.push_back(node_entry{e.key, e.value.clone(), e.line, e.column});
      n.value_ = std::move(out);
      break;
    }
    default:
      break;
  }
  return n;
}

}  // namespace conform::core
