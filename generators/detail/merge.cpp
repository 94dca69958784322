// allOf folding: intersect types and bounds, union properties and required.

#include "generators/detail/merge.hpp"

#include <algorithm>

#include "schema/validator.hpp"

namespace conform::generators::detail {

namespace {

using schema::json_type;
using schema::schema_arena;
using schema::type_set;
using node = schema::schema;

type_set intersect(type_set a, type_set b) {
  if (a.any()) return b;
  if (b.any()) return a;
  type_set out(static_cast<std::uint8_t>(0));
  bool some = false;
  for (auto t : {json_type::null, json_type::boolean, json_type::integer, json_type::number,
                 json_type::string, json_type::array, json_type::object}) {
    if (a.has(t) && b.has(t)) {
      out = out.with(t);
      some = true;
    }
  }
  return some ? out : type_set(static_cast<std::uint8_t>(0));
}

template <typename T>
void lower_bound_of(std::optional<T>& into, const std::optional<T>& other) {
  if (other && (!into || *other > *into)) into = other;
}
template <typename T>
void upper_bound_of(std::optional<T>& into, const std::optional<T>& other) {
  if (other && (!into || *other < *into)) into = other;
}

const node* both(const node* a, const node* b, schema_arena& scratch) {
  if (a == nullptr) return b;
  if (b == nullptr || a == b) return a;
  node& n = scratch.make();
  n.location = a->location;
  n.all_of = {a, b};
  return &n;
}

void fold_into(node& m, const node& b, schema_arena& scratch, bool& closed,
               std::vector<std::string>& allowed_names) {
  if (b.boolean == node::boolean_form::accept_all) return;
  if (b.boolean == node::boolean_form::reject_all) {
    m.boolean = node::boolean_form::reject_all;
    return;
  }
  const bool had_types = !m.types.any();
  const type_set t = intersect(m.types, b.types);
  if (had_types && !b.types.any() && t.bits() == 0) {
    m.boolean = node::boolean_form::reject_all;  // no type admitted by both
    return;
  }
  m.types = t;
  if (!m.const_value && b.const_value) m.const_value = b.const_value;
  if (!b.enum_values.empty()) {
    if (m.enum_values.empty()) {
      m.enum_values = b.enum_values;
    } else {
      std::erase_if(m.enum_values, [&](const boost::json::value& v) {
        return std::none_of(b.enum_values.begin(), b.enum_values.end(),
                            [&](const boost::json::value& w) { return schema::json_equal(v, w); });
      });
      if (m.enum_values.empty()) m.boolean = node::boolean_form::reject_all;
    }
  }
  if (!m.format) m.format = b.format;
  if (!m.pattern) m.pattern = b.pattern;
  lower_bound_of(m.min_length, b.min_length);
  upper_bound_of(m.max_length, b.max_length);
  lower_bound_of(m.minimum, b.minimum);
  upper_bound_of(m.maximum, b.maximum);
  lower_bound_of(m.exclusive_minimum, b.exclusive_minimum);
  upper_bound_of(m.exclusive_maximum, b.exclusive_maximum);
  if (!m.multiple_of) m.multiple_of = b.multiple_of;
  m.items = both(m.items, b.items, scratch);
  for (std::size_t i = 0; i < b.prefix_items.size(); ++i) {
    if (i < m.prefix_items.size()) {
      m.prefix_items[i] = both(m.prefix_items[i], b.prefix_items[i], scratch);
    } else {
      m.prefix_items.push_back(b.prefix_items[i]);
    }
  }
  m.dependent_required.insert(m.dependent_required.end(), b.dependent_required.begin(),
                              b.dependent_required.end());
  lower_bound_of(m.min_items, b.min_items);
  upper_bound_of(m.max_items, b.max_items);
  m.unique_items = m.unique_items || b.unique_items;
  for (const auto& [name, sub] : b.properties) {
    auto it = std::find_if(m.properties.begin(), m.properties.end(),
                           [&name = name](const auto& p) { return p.first == name; });
    if (it == m.properties.end()) {
      m.properties.emplace_back(name, sub);
    } else {
      it->second = both(it->second, sub, scratch);
    }
  }
  for (const auto& name : b.required) {
    if (!m.is_required(name)) m.required.push_back(name);
  }
  if (!b.additional_allowed) {
    std::vector<std::string> names;
    for (const auto& p : b.properties) names.push_back(p.first);
    if (!closed) {
      allowed_names = names;
    } else {
      std::erase_if(allowed_names, [&](const std::string& n) {
        return std::find(names.begin(), names.end(), n) == names.end();
      });
    }
    closed = true;
  }
  m.additional_properties = both(m.additional_properties, b.additional_properties, scratch);
  lower_bound_of(m.min_properties, b.min_properties);
  upper_bound_of(m.max_properties, b.max_properties);
  if (m.any_of.empty()) m.any_of = b.any_of;
  if (m.one_of.empty()) m.one_of = b.one_of;
  if (m.not_schema == nullptr) m.not_schema = b.not_schema;
  if (!m.fixture) m.fixture = b.fixture;
}

void fold_branches(node& m, const std::vector<const node*>& branches, schema_arena& scratch,
                   bool& closed, std::vector<std::string>& allowed, int depth) {
  for (const node* b : branches) {
    const node& rb = b->resolved();
    if (depth < 16 && !rb.all_of.empty()) {
      node copy = rb;
      copy.all_of.clear();
      fold_into(m, copy, scratch, closed, allowed);
      fold_branches(m, rb.all_of, scratch, closed, allowed, depth + 1);
    } else {
      fold_into(m, rb, scratch, closed, allowed);
    }
  }
}

}  // namespace

const node& fold_all_of(const node& r, schema_arena& scratch) {
  node& m = scratch.make();
  m = r;
  m.all_of.clear();
  m.examples.clear();  // an example of one part need not fit the whole
  bool closed = !r.additional_allowed;
  std::vector<std::string> allowed;
  if (closed) {
    for (const auto& p : r.properties) allowed.push_back(p.first);
  }
  fold_branches(m, r.all_of, scratch, closed, allowed, 0);
  if (closed) {
    m.additional_allowed = false;
    std::erase_if(m.properties, [&](const auto& p) {
      return std::find(allowed.begin(), allowed.end(), p.first) == allowed.end();
    });
  }
  return m;
}

const node& with_branch(const node& r, const node& extra, schema_arena& scratch) {
  node& m = scratch.make();
  m = r;
  m.any_of.clear();
  m.one_of.clear();
  m.examples.clear();
  m.all_of.push_back(&extra);
  return m;
}

}  // namespace conform::generators::detail
