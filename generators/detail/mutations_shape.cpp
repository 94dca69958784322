// Mutations of shape: item counts and uniqueness of arrays; required,
// dependentRequired, additionalProperties and property counts of objects.

#include <utility>
#include <vector>

#include "generators/detail/checks.hpp"
#include "generators/detail/mutations.hpp"
#include "generators/value.hpp"

namespace conform::generators::detail {

namespace {

namespace gen = rc::gen;
using boost::json::value;
using rc::Gen;
using schema::json_type;

boost::json::array array_of(const value& v) {
  return v.is_array() ? v.get_array() : boost::json::array();
}

boost::json::object object_of(const value& v) {
  return v.is_object() ? v.get_object() : boost::json::object();
}

}  // namespace

void array_sites(const mutation_scope& s, const site_fn& add) {
  const schema::schema& r = s.r;
  if (!r.types.any() && !r.types.has(json_type::array)) return;
  const Gen<value> item = r.items != nullptr ? s.values.build(*r.items, s.depth + 1) : any_value(0);
  if (r.min_items && *r.min_items > 0) {
    const std::size_t n = *r.min_items - 1;
    add(mutation_kind::too_few_items, "minItems",
        std::to_string(n) + " items, below minItems " + std::to_string(*r.min_items),
        gen::map(s.valid_here,
                 [n](const value& v) {
                   boost::json::array a = array_of(v);
                   a.resize(std::min(a.size(), n));
                   return value(std::move(a));
                 }),
        std::nullopt);
  }
  if (r.max_items) {
    const std::size_t n = *r.max_items + 1;
    add(mutation_kind::too_many_items, "maxItems",
        std::to_string(n) + " items, above maxItems " + std::to_string(*r.max_items),
        gen::map(gen::tuple(s.valid_here, gen::container<std::vector<value>>(n, item)),
                 [n](std::tuple<value, std::vector<value>> t) {
                   boost::json::array a = array_of(std::get<0>(t));
                   for (std::size_t i = 0; a.size() < n; ++i) a.push_back(std::get<1>(t)[i]);
                   return value(std::move(a));
                 }),
        std::nullopt);
  }
  if (r.unique_items) {
    add(mutation_kind::duplicate_items, "uniqueItems", "an array with a duplicated item",
        gen::map(gen::tuple(s.valid_here, item),
                 [](std::tuple<value, value> t) {
                   boost::json::array a = array_of(std::get<0>(t));
                   if (a.empty()) a.push_back(std::get<1>(t));
                   a.push_back(value(a.front()));
                   return value(std::move(a));
                 }),
        std::nullopt);
  }
}

void object_sites(const mutation_scope& s, const site_fn& add) {
  const schema::schema& r = s.r;
  if (!r.types.any() && !r.types.has(json_type::object)) return;
  for (const std::string& name : r.required) {
    // A readOnly property is never sent: leaving it out breaks nothing.
    if (const auto* p = r.property(name); p != nullptr && server_owned(*p)) continue;
    add(mutation_kind::missing_required, "required",
        "the required property \"" + name + "\" left out",
        gen::map(s.valid_here,
                 [name](const value& v) {
                   boost::json::object o = object_of(v);
                   o.erase(name);
                   return value(std::move(o));
                 }),
        std::nullopt);
  }
  for (const auto& [trigger, names] : r.dependent_required) {
    if (names.empty() || trigger == names.front()) continue;
    const schema::schema* sub = r.property(trigger);
    const Gen<value> present = sub != nullptr ? s.values.build(*sub, 1) : any_value(0);
    add(mutation_kind::missing_required, "dependentRequired",
        "\"" + names.front() + "\" left out while \"" + trigger +
            "\" is present (dependentRequired)",
        gen::map(gen::tuple(s.valid_here, present),
                 [trigger = trigger, gone = names.front()](std::tuple<value, value> t) {
                   boost::json::object o = object_of(std::get<0>(t));
                   o[trigger] = std::move(std::get<1>(t));
                   o.erase(gone);
                   return value(std::move(o));
                 }),
        std::nullopt);
  }
  auto fresh_name = [&r](std::string base) {
    while (r.property(base) != nullptr) base += "_";
    return base;
  };
  if (!r.additional_allowed) {
    const std::string extra = fresh_name("conform_unexpected");
    add(mutation_kind::extra_property, "additionalProperties",
        "the undeclared property \"" + extra + "\" (additionalProperties is false)",
        gen::map(s.valid_here,
                 [extra](const value& v) {
                   boost::json::object o = object_of(v);
                   o[extra] = true;
                   return value(std::move(o));
                 }),
        std::nullopt);
  }
  if (r.min_properties && *r.min_properties > 0) {
    const std::size_t n = *r.min_properties - 1;
    add(mutation_kind::too_few_properties, "minProperties",
        std::to_string(n) + " properties, below minProperties " + std::to_string(*r.min_properties),
        gen::map(s.valid_here,
                 [n](const value& v) {
                   boost::json::object o = object_of(v);
                   while (o.size() > n) {
                     o.erase(o.begin() + static_cast<std::ptrdiff_t>(o.size() - 1));
                   }
                   return value(std::move(o));
                 }),
        std::nullopt);
  }
  if (r.max_properties) {
    const std::size_t n = *r.max_properties + 1;
    const std::string base = fresh_name("conform_extra");
    add(mutation_kind::too_many_properties, "maxProperties",
        std::to_string(n) + " properties, above maxProperties " + std::to_string(*r.max_properties),
        gen::map(s.valid_here,
                 [n, base](const value& v) {
                   boost::json::object o = object_of(v);
                   for (std::size_t i = 0; o.size() < n; ++i) o[base + std::to_string(i)] = i;
                   return value(std::move(o));
                 }),
        std::nullopt);
  }
}

}  // namespace conform::generators::detail
