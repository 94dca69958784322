// valid_value's containers (detail/value_builder.hpp): arrays (prefixItems,
// items, uniqueItems) and objects (required and optional members,
// additionalProperties, dependentRequired) within their size bounds.

#include <boost/json/value.hpp>
#include <rapidcheck.h>

#include <algorithm>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "generators/detail/checks.hpp"
#include "generators/detail/choice.hpp"
#include "generators/detail/filter.hpp"
#include "generators/detail/memo.hpp"
#include "generators/detail/value_builder.hpp"
#include "generators/value.hpp"
#include "schema/validator.hpp"

namespace conform::generators::detail {

namespace {

namespace gen = rc::gen;
using boost::json::value;
using rc::Gen;
using node = schema::schema;

/// The names an object must have: `required`, and by dependentRequired
/// every property a required one requires, in the order they are found.
std::vector<std::string> required_names(const schema::schema& r) {
  std::vector<std::string> needed = r.required;
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [trigger, names] : r.dependent_required) {
      if (std::find(needed.begin(), needed.end(), trigger) == needed.end()) continue;
      for (const auto& n : names) {
        if (std::find(needed.begin(), needed.end(), n) != needed.end()) continue;
        needed.push_back(n);
        grew = true;
      }
    }
  }
  return needed;
}

}  // namespace

Gen<value> value_builder::array_gen(const node& r, int depth) {
  const std::size_t min = r.min_items.value_or(0);
  if (r.max_items && *r.max_items < min) return failing("minItems above maxItems at " + r.location);
  std::size_t max =
      std::min<std::uint64_t>(r.max_items.value_or(UINT64_MAX), min + options_.max_items);
  if (depth >= options_.max_depth) max = min;
  // Past the depth limit an array that may be empty is empty: its items'
  // generator is not even built (recursive schemas would otherwise build a
  // generator per node down to the hard limit, twice per level for two arrays).
  if (max == 0) return gen::just(value(boost::json::array()));
  if (!r.prefix_items.empty()) return tuple_gen(r, depth, min, max);
  Gen<value> item = r.items != nullptr
                        ? build(*r.items, depth + 1)
                        : any_value(std::max(0, std::min(1, options_.max_depth - depth - 1)));
  const bool unique = r.unique_items;
  Gen<value> g =
      detail::mapcat(gen::inRange<std::size_t>(min, max + 1), [item, unique](std::size_t n) {
        return gen::map(gen::container<std::vector<value>>(n, item),
                        [unique](std::vector<value> items) {
                          boost::json::array a;
                          a.reserve(items.size());
                          for (auto& v : items) {
                            if (unique && std::any_of(a.begin(), a.end(), [&](const value& w) {
                                  return schema::json_equal(v, w);
                                })) {
                              continue;
                            }
                            a.push_back(std::move(v));
                          }
                          return value(std::move(a));
                        });
      });
  if (!unique || min == 0) return g;
  return such_that(
      g, [min](const value& v) { return v.get_array().size() >= min; },
      "array of " + std::to_string(min) + " distinct items at " + r.location +
          " (uniqueItems with minItems)");
}

Gen<value> value_builder::tuple_gen(const node& r, int depth, std::size_t min, std::size_t max) {
  // prefixItems: the leading items by their own schemas (as many as maxItems
  // lets through), then up to `max` items of `items`; uniqueness is left to
  // the final check.
  std::vector<Gen<value>> heads;
  for (const node* p : r.prefix_items) {
    if (heads.size() >= max) break;
    heads.push_back(build(*p, depth + 1));
  }
  Gen<boost::json::array> acc = gen::just(boost::json::array());
  for (const auto& h : heads) {
    acc = gen::map(gen::tuple(acc, h), [](std::tuple<boost::json::array, value> t) {
      boost::json::array a = std::move(std::get<0>(t));
      a.push_back(std::move(std::get<1>(t)));
      return a;
    });
  }
  const std::size_t n = heads.size();
  const std::size_t rest_min = min > n ? min - n : 0;
  const std::size_t rest_max = max > n ? max - n : 0;
  const bool closed =
      r.items != nullptr && r.items->resolved().boolean == node::boolean_form::reject_all;
  Gen<value> g = gen::map(acc, [](boost::json::array a) { return value(std::move(a)); });
  if (rest_max > 0 && !closed) {
    Gen<value> item = r.items != nullptr ? build(*r.items, depth + 1) : any_value(0);
    g = detail::mapcat(gen::tuple(acc, gen::inRange<std::size_t>(rest_min, rest_max + 1)),
                       [item](std::tuple<boost::json::array, std::size_t> t) {
                         return gen::map(gen::container<std::vector<value>>(std::get<1>(t), item),
                                         [head = std::get<0>(t)](std::vector<value> rest) {
                                           boost::json::array a = head;
                                           for (auto& v : rest) a.push_back(std::move(v));
                                           return value(std::move(a));
                                         });
                       });
  }
  auto keep = scratch_;
  return such_that(
      g, [keep, &r](const value& v) { return schema::is_valid(r, v, detail::request_checks); },
      "array at " + r.location + " whose prefixItems and items all validate");
}

Gen<value> value_builder::object_gen(const node& r, int depth) {
  struct member {
    std::string name;
    bool required;
    Gen<value> gen;
  };
  const bool shallow = depth >= options_.max_depth;
  std::vector<member> members;
  const std::vector<std::string> needed = required_names(r);
  auto is_needed = [&needed](const std::string& n) {
    return std::find(needed.begin(), needed.end(), n) != needed.end();
  };
  for (const auto& [name, sub] : r.properties) {
    if (detail::server_owned(*sub)) continue;  // readOnly: a request never sends it
    const bool required = is_needed(name);
    if (shallow && !required) continue;
    members.push_back({name, required, build(*sub, depth + 1)});
  }
  // Required names without a property schema take any value.
  for (const auto& name : needed) {
    if (r.property(name) != nullptr) continue;
    Gen<value> g = r.additional_properties != nullptr ? build(*r.additional_properties, depth + 1)
                                                      : any_value(0);
    members.push_back({name, true, g});
  }
  std::optional<Gen<value>> extra;
  if (r.additional_allowed && !shallow &&
      (r.additional_properties != nullptr || options_.extra_properties)) {
    extra = r.additional_properties != nullptr ? build(*r.additional_properties, depth + 1)
                                               : any_value(1);
  }
  const std::size_t min_props = r.min_properties.value_or(0);
  const std::size_t max_props = r.max_properties.value_or(SIZE_MAX);
  const int optional_percent = std::clamp(options_.optional_percent, 0, 100);
  std::vector<std::string> declared;
  for (const auto& p : r.properties) declared.push_back(p.first);
  // Built from map / mapcat / tuple only (no gen::exec, whose implicit
  // parameters are process-wide): these generators may run on any thread.
  std::size_t required_count = 0;
  for (const auto& m : members) required_count += m.required ? 1 : 0;
  const int percent =
      min_props > required_count ? std::max(optional_percent, 75) : optional_percent;
  Gen<boost::json::object> acc = gen::just(boost::json::object());
  for (const auto& m : members) {
    using maybe = std::optional<value>;
    Gen<maybe> part = gen::map(m.gen, [](value v) { return maybe(std::move(v)); });
    if (!m.required) {
      // The coin shrinks towards false, i.e. towards leaving the property out.
      part = detail::mapcat(detail::chance(percent),
                            [part](bool on) { return on ? part : gen::just(maybe()); });
    }
    acc =
        gen::map(gen::tuple(acc, part), [name = m.name](std::tuple<boost::json::object, maybe> t) {
          boost::json::object o = std::move(std::get<0>(t));
          if (std::get<1>(t)) o[name] = std::move(*std::get<1>(t));
          return o;
        });
  }
  if (extra) {
    auto extras = gen::container<std::vector<value>>(2 + min_props, *extra);
    acc = gen::map(gen::tuple(acc, detail::pick_index(3), extras),
                   [min_props, max_props,
                    declared](std::tuple<boost::json::object, std::size_t, std::vector<value>> t) {
                     boost::json::object o = std::move(std::get<0>(t));
                     auto& values = std::get<2>(t);
                     std::size_t wanted = std::get<1>(t);
                     if (o.size() < min_props) wanted = std::max(wanted, min_props - o.size());
                     for (std::size_t i = 0;
                          i < wanted && i < values.size() && o.size() < max_props; ++i) {
                       std::string name = "extra_" + std::to_string(i + 1);
                       while (o.contains(name) ||
                              std::find(declared.begin(), declared.end(), name) != declared.end()) {
                         name += "_";
                       }
                       o[name] = std::move(values[i]);
                     }
                     return o;
                   });
  }
  if (!r.dependent_required.empty()) {
    // An optional trigger whose dependents were left out is left out too.
    acc = gen::map(acc, [deps = r.dependent_required, needed](boost::json::object o) {
      for (bool dropped = true; dropped;) {
        dropped = false;
        for (const auto& [trigger, names] : deps) {
          if (!o.contains(trigger) ||
              std::find(needed.begin(), needed.end(), trigger) != needed.end())
            continue;
          const bool complete = std::all_of(names.begin(), names.end(),
                                            [&o](const std::string& n) { return o.contains(n); });
          if (!complete) {
            o.erase(trigger);
            dropped = true;
          }
        }
      }
      return o;
    });
  }
  Gen<value> g = gen::map(acc, [](boost::json::object o) { return value(std::move(o)); });
  if (!r.min_properties && !r.max_properties) return g;
  return such_that(
      g,
      [min_props, max_props](const value& v) {
        return v.get_object().size() >= min_props && v.get_object().size() <= max_props;
      },
      "object at " + r.location + " within minProperties and maxProperties");
}

}  // namespace conform::generators::detail
