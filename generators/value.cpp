// valid_value: a generator per schema node, built once per call and reused
// for every value. Composition (allOf, anyOf, oneOf, not) aims at the right
// branch and is then checked by the validator, so every value is valid.

#include "generators/value.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <variant>

#include "generators/detail/checks.hpp"
#include "generators/detail/choice.hpp"
#include "generators/detail/filter.hpp"
#include "generators/detail/format_gen.hpp"
#include "generators/detail/merge.hpp"
#include "generators/detail/pattern.hpp"
#include "generators/detail/value_builder.hpp"
#include "schema/format.hpp"
#include "schema/validator.hpp"

namespace conform::generators {

namespace detail {

namespace {

namespace gen = rc::gen;
using boost::json::value;
using rc::Gen;
using schema::json_type;
using node = schema::schema;

constexpr double default_span = 1000.0;
constexpr double safe_integer = 9007199254740991.0;  // 2^53 - 1

/// A generator that fails: the schema admits no value.
Gen<value> failing(std::string why) {
  return Gen<value>([why = std::move(why)](const rc::Random&, int) -> rc::Shrinkable<value> {
    throw rc::GenerationFailure(why);
  });
}

Gen<value> to_value(Gen<std::string> g) {
  return gen::map(std::move(g), [](std::string s) { return value(std::move(s)); });
}

/// Chooses one of `gens` (shrinking towards the first).
Gen<value> one_of(std::vector<Gen<value>> gens) {
  if (gens.size() == 1) return gens.front();
  const std::size_t n = gens.size();
  return gen::mapcat(detail::pick_index(n),
                     [gens = std::move(gens)](std::size_t i) { return gens[i]; });
}

/// Non-null generators first; null gets `null_percent` when mixed with others.
Gen<value> with_null(Gen<value> non_null, int null_percent) {
  const auto p = static_cast<std::size_t>(std::clamp(null_percent, 0, 100));
  return gen::weightedOneOf<value>(
      {{100 - p, std::move(non_null)}, {p, gen::just(value(nullptr))}});
}

bool has_string_keywords(const node& r) {
  return r.min_length || r.max_length || r.pattern || r.format;
}
bool has_number_keywords(const node& r) {
  return r.minimum || r.maximum || r.exclusive_minimum || r.exclusive_maximum || r.multiple_of;
}
bool has_array_keywords(const node& r) {
  return r.items != nullptr || !r.prefix_items.empty() || r.min_items || r.max_items ||
         r.unique_items;
}
bool has_object_keywords(const node& r) {
  return !r.properties.empty() || !r.required.empty() || !r.additional_allowed ||
         r.additional_properties != nullptr || r.min_properties || r.max_properties;
}

/// The fixture's text as a JSON value of the node's type.
value fixture_value(const node& r, const std::string& text) {
  const bool digits =
      !text.empty() && text.size() < 19 &&
      std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (digits && !r.types.any() && r.types.has(json_type::integer) &&
      !r.types.has(json_type::string)) {
    return value(static_cast<std::int64_t>(std::stoll(text)));
  }
  return value(text);
}

/// Why no value can satisfy `r` as it stands (its const or every enum value
/// refused by its other keywords, `false`), or nullopt. Only what is sure:
/// a node this passes may still have no value, which the filters then say.
std::optional<std::string> unsatisfiable(const node& r) {
  if (r.boolean == node::boolean_form::reject_all) {
    return "the schema at " + r.location + " admits no value (`false`, or types that do not meet)";
  }
  auto first_error = [&r](const value& v) {
    auto result = schema::validate(r, v, {.max_errors = 1, .way = schema::direction::request});
    return result.errors.empty() ? std::string("undecided") : result.errors.front().message;
  };
  if (r.const_value && !schema::is_valid(r, *r.const_value, detail::request_checks)) {
    return "the const " + boost::json::serialize(*r.const_value) + " at " + r.location +
           " is refused by the keywords beside it: " + first_error(*r.const_value);
  }
  if (!r.enum_values.empty() &&
      std::none_of(r.enum_values.begin(), r.enum_values.end(), [&r](const value& v) {
        return schema::is_valid(r, v, detail::request_checks);
      })) {
    return "no value of the enum at " + r.location +
           " is admitted by the keywords beside it: " + first_error(r.enum_values.front());
  }
  return std::nullopt;
}

}  // namespace

value_builder::value_builder(const gen_options& options)
    : options_(options), scratch_(std::make_shared<schema::schema_arena>()) {}

Gen<value> value_builder::build(const node& s, int depth) {
  if (depth > options_.max_depth + 16) {
    return failing("recursive schema at " + s.location + " has no value within depth " +
                   std::to_string(depth));
  }
  constexpr int max_nested_builds = 32;
  if (nested_builds_ >= max_nested_builds) {
    return failing("schema at " + s.location + " nests compositions more than " +
                   std::to_string(max_nested_builds) + " deep (a recursion through anyOf, " +
                   "oneOf or allOf?)");
  }
  struct nested {
    int& n;
    explicit nested(int& count) : n(++count) {}
    ~nested() { --n; }
    nested(const nested&) = delete;
    nested& operator=(const nested&) = delete;
  } guard(nested_builds_);
  // x-fixture: the profile's id, when there is one and it fits the schema.
  const node& r = s.resolved();
  const auto& fixture = s.fixture ? s.fixture : r.fixture;
  if (fixture && options_.fixture) {
    if (auto text = options_.fixture(*fixture)) {
      const node& typed = r.all_of.empty() ? r : detail::fold_all_of(r, *scratch_);
      value v = fixture_value(typed, *text);
      if (schema::is_valid(s, v, detail::request_checks)) return gen::just(std::move(v));
    }
  }
  if (r.ref != nullptr || r.boolean == node::boolean_form::accept_all) return any_value(2);
  if (r.boolean == node::boolean_form::reject_all) {
    return failing("the schema at " + r.location + " is `false`: it admits no value");
  }
  auto keep = scratch_;
  auto valid_for = [keep, &r](const value& v) {
    return schema::is_valid(r, v, detail::request_checks);
  };
  if (!r.all_of.empty()) {
    return such_that(build(detail::fold_all_of(r, *scratch_), depth), valid_for,
                     "value at " + r.location + " that every allOf branch accepts");
  }
  if (!r.one_of.empty() || !r.any_of.empty()) {
    const bool one = !r.one_of.empty();
    const auto& branches = one ? r.one_of : r.any_of;
    const char* keyword = one ? "oneOf" : "anyOf";
    // A branch that cannot hold a value with the node's own keywords (a
    // const 1 under `enum: [3]`) is left out, not drawn and failed on: the
    // node is satisfiable when one branch is.
    std::vector<Gen<value>> alternatives;
    std::string dropped;
    for (std::size_t i = 0; i < branches.size(); ++i) {
      const node& merged = detail::with_branch(r, *branches[i], *scratch_);
      if (auto why = unsatisfiable(detail::fold_all_of(merged, *scratch_))) {
        dropped += (dropped.empty() ? "" : "; ") + ("#" + std::to_string(i) + " ") + *why;
        continue;
      }
      alternatives.push_back(build(merged, depth));
    }
    if (alternatives.empty()) {
      return failing("no branch of the " + std::string(keyword) + " at " + r.location +
                     " can hold a value with the keywords beside it: " + dropped);
    }
    return such_that(one_of(std::move(alternatives)), valid_for,
                     std::string("value at ") + r.location + " that " +
                         (one ? "exactly one branch of its oneOf" : "a branch of its anyOf") +
                         " accepts");
  }
  if (r.not_schema != nullptr) {
    node& copy = scratch_->make();
    copy = r;
    copy.not_schema = nullptr;
    return such_that(build(copy, depth), valid_for,
                     "value at " + r.location + " that its `not` schema rejects");
  }
  if (auto why = unsatisfiable(r)) return failing(*why);
  if (r.const_value) return gen::just(*r.const_value);
  if (!r.enum_values.empty()) {
    std::vector<value> allowed;
    for (const value& v : r.enum_values) {
      if (schema::is_valid(r, v, detail::request_checks)) allowed.push_back(v);
    }
    return gen::elementOf(std::move(allowed));
  }
  Gen<value> typed = by_type(r, depth);
  if (options_.example_percent > 0) {
    std::vector<value> examples;
    for (const value& v : r.examples) {
      if (schema::is_valid(r, v, detail::request_checks)) examples.push_back(v);
    }
    if (!examples.empty()) {
      const auto p = static_cast<std::size_t>(std::clamp(options_.example_percent, 0, 100));
      return gen::weightedOneOf<value>(
          {{p, gen::elementOf(std::move(examples))}, {100 - p, std::move(typed)}});
    }
  }
  return typed;
}

Gen<value> value_builder::by_type(const node& r, int depth) {
  std::vector<json_type> types;
  const auto all = {json_type::boolean, json_type::integer, json_type::number,
                    json_type::string,  json_type::array,   json_type::object};
  if (!r.types.any()) {
    for (auto t : all) {
      if ((r.types.bits() & static_cast<std::uint8_t>(t)) != 0) types.push_back(t);
    }
  } else {
    if (has_string_keywords(r)) types.push_back(json_type::string);
    if (has_number_keywords(r)) types.push_back(json_type::number);
    if (has_array_keywords(r)) types.push_back(json_type::array);
    if (has_object_keywords(r)) types.push_back(json_type::object);
    if (types.empty()) return any_value(std::max(0, std::min(2, options_.max_depth - depth)));
  }
  const bool nullable = !r.types.any() && r.types.has(json_type::null);
  if (types.empty()) return gen::just(value(nullptr));  // only null
  std::vector<Gen<value>> gens;
  for (auto t : types) {
    switch (t) {
      case json_type::boolean:
        gens.push_back(gen::map(gen::arbitrary<bool>(), [](bool b) { return value(b); }));
        break;
      case json_type::integer:
        gens.push_back(integer_gen(r));
        break;
      case json_type::number:
        gens.push_back(number_gen(r));
        break;
      case json_type::string:
        gens.push_back(string_gen(r));
        break;
      case json_type::array:
        gens.push_back(array_gen(r, depth));
        break;
      case json_type::object:
        gens.push_back(object_gen(r, depth));
        break;
      case json_type::null:
        break;
    }
  }
  Gen<value> g = one_of(std::move(gens));
  return nullable ? with_null(std::move(g), options_.null_percent) : g;
}

Gen<value> value_builder::integer_gen(const node& r) {
  double lo = -default_span, hi = default_span;
  const bool has_lo = r.minimum || r.exclusive_minimum;
  const bool has_hi = r.maximum || r.exclusive_maximum;
  double lo_b = -safe_integer, hi_b = safe_integer;
  if (r.minimum) lo_b = std::max(lo_b, std::ceil(*r.minimum));
  if (r.exclusive_minimum) lo_b = std::max(lo_b, std::floor(*r.exclusive_minimum) + 1);
  if (r.maximum) hi_b = std::min(hi_b, std::floor(*r.maximum));
  if (r.exclusive_maximum) hi_b = std::min(hi_b, std::ceil(*r.exclusive_maximum) - 1);
  if (has_lo && has_hi) {
    lo = lo_b;
    hi = hi_b;
  } else if (has_lo) {
    lo = lo_b;
    hi = std::min(safe_integer, lo_b + default_span * 10);
  } else if (has_hi) {
    hi = hi_b;
    lo = std::max(-safe_integer, hi_b - default_span * 10);
  }
  if (r.format && schema::parse_format(*r.format) == schema::format_kind::int32) {
    lo = std::max(lo, -2147483648.0);  // int64 holds whatever safe_integer allows
    hi = std::min(hi, 2147483647.0);
  }
  if (lo > hi) return failing("no integer fits the bounds at " + r.location);
  if (r.multiple_of) {
    const double m = *r.multiple_of;
    const double klo = std::ceil(lo / m), khi = std::floor(hi / m);
    if (klo > khi) return failing("no multiple of the multipleOf fits the bounds at " + r.location);
    auto g =
        gen::map(gen::inRange(static_cast<std::int64_t>(klo), static_cast<std::int64_t>(khi) + 1),
                 [m](std::int64_t k) {
                   const double v = static_cast<double>(k) * m;
                   return value(static_cast<std::int64_t>(std::llround(v)));
                 });
    if (std::trunc(m) == m) return g;
    return such_that(
        g, [&r](const value& v) { return schema::is_valid(r, v, detail::request_checks); },
        "integer at " + r.location + " on the multipleOf grid within its bounds");
  }
  return gen::map(gen::inRange(static_cast<std::int64_t>(lo), static_cast<std::int64_t>(hi) + 1),
                  [](std::int64_t v) { return value(v); });
}

Gen<value> value_builder::number_gen(const node& r) {
  // Numbers as k / scale: thousandths, or the multipleOf grid.
  double scale = 1000.0;
  double step = 0.001;
  if (r.multiple_of) {
    const double inv = 1.0 / *r.multiple_of;
    if (std::fabs(inv - std::round(inv)) < 1e-9 && std::round(inv) >= 1) {
      scale = std::round(inv);
      step = 1.0 / scale;
    } else {
      scale = 0;  // a multipleOf of 1 or more, or a non-decimal step
      step = *r.multiple_of;
    }
  }
  double lo = -default_span, hi = default_span;
  const bool has_lo = r.minimum || r.exclusive_minimum;
  const bool has_hi = r.maximum || r.exclusive_maximum;
  double lo_b = -safe_integer / 1024, hi_b = safe_integer / 1024;
  if (r.minimum) lo_b = std::max(lo_b, *r.minimum);
  if (r.exclusive_minimum) lo_b = std::max(lo_b, *r.exclusive_minimum);
  if (r.maximum) hi_b = std::min(hi_b, *r.maximum);
  if (r.exclusive_maximum) hi_b = std::min(hi_b, *r.exclusive_maximum);
  if (has_lo && has_hi) {
    lo = lo_b;
    hi = hi_b;
  } else if (has_lo) {
    lo = lo_b;
    hi = lo_b + default_span * 10;
  } else if (has_hi) {
    hi = hi_b;
    lo = hi_b - default_span * 10;
  }
  const double klo = std::ceil(lo / step), khi = std::floor(hi / step);
  if (klo > khi) return failing("no number fits the bounds at " + r.location);
  auto g = gen::map(
      gen::inRange(static_cast<std::int64_t>(klo), static_cast<std::int64_t>(khi) + 1),
      [scale, step](std::int64_t k) {
        return value(scale > 0 ? static_cast<double>(k) / scale : static_cast<double>(k) * step);
      });
  // Exclusive bounds and rounding at the edges: the validator decides.
  return such_that(
      g, [&r](const value& v) { return schema::is_valid(r, v, detail::request_checks); },
      "number at " + r.location + " within its bounds");
}

Gen<std::string> value_builder::plain_string(std::size_t min, std::size_t max) {
  // Mostly ASCII letters and digits, sometimes punctuation, spaces and
  // multi-byte characters (lengths count code points).
  static const std::vector<std::string> multi_byte = {"\xC3\xA9", "\xE4\xB8\xAD",
                                                      "\xF0\x9F\x98\x80"};
  Gen<std::string> piece = gen::weightedOneOf<std::string>(
      {{12, gen::map(gen::elementOf(std::string(
                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")),
                     [](char c) { return std::string(1, c); })},
       {2, gen::map(gen::resize(rc::kNominalSize, gen::inRange<char>(' ', '~' + 1)),
                    [](char c) { return std::string(1, c); })},
       {1, gen::elementOf(multi_byte)}});
  return gen::mapcat(gen::inRange<std::size_t>(min, max + 1), [piece](std::size_t n) {
    return gen::map(gen::container<std::vector<std::string>>(n, piece),
                    [](const std::vector<std::string>& parts) {
                      std::string out;
                      for (const auto& p : parts) out += p;
                      return out;
                    });
  });
}

Gen<value> value_builder::string_gen(const node& r) {
  const std::size_t min = r.min_length.value_or(0);
  const std::size_t max =
      std::min<std::uint64_t>(r.max_length.value_or(UINT64_MAX), min + options_.max_string_length);
  if (r.max_length && *r.max_length < min) {
    return failing("minLength above maxLength at " + r.location);
  }
  const bool bounded = r.min_length || r.max_length;
  auto length_ok = [min, lim = r.max_length](const std::string& s) {
    const std::size_t n = schema::code_points(s);
    return n >= min && (!lim || n <= *lim);
  };
  const auto f = r.format ? schema::parse_format(*r.format) : schema::format_kind::unknown;
  if (auto fg = detail::format_generator(f)) {
    Gen<std::string> g = *fg;
    if (r.pattern) {
      g = such_that(
          g, [p = *r.pattern](const std::string& s) { return schema::matches_pattern(p, s); },
          "string of format " + *r.format + " matching " + *r.pattern + " at " + r.location);
    }
    return to_value(bounded ? such_that(g, length_ok,
                                        "string of format " + *r.format + " with a length " +
                                            "within minLength and maxLength at " + r.location)
                            : g);
  }
  if (r.pattern) {
    auto pg = detail::pattern_generator(*r.pattern, options_.max_repeat);
    if (auto* g = std::get_if<Gen<std::string>>(&pg)) {
      return to_value(bounded ? such_that(*g, length_ok,
                                          "string matching " + *r.pattern + " with a length " +
                                              "within minLength and maxLength at " + r.location)
                              : *g);
    }
    // Outside the subset: generate plain strings and keep those that match.
    return to_value(such_that(
        plain_string(min, max),
        [p = *r.pattern](const std::string& s) { return schema::matches_pattern(p, s); },
        "string matching " + *r.pattern + " at " + r.location +
            " (a pattern outside the generated subset: plain strings filtered)"));
  }
  return to_value(plain_string(min, max));
}

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
      gen::mapcat(gen::inRange<std::size_t>(min, max + 1), [item, unique](std::size_t n) {
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
    g = gen::mapcat(gen::tuple(acc, gen::inRange<std::size_t>(rest_min, rest_max + 1)),
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
  // dependentRequired: a property required by a required one is required too.
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
      part = gen::mapcat(detail::chance(percent),
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

}  // namespace detail

rc::Gen<boost::json::value> valid_value(const schema::schema& s, const gen_options& options) {
  detail::value_builder builder(options);
  rc::Gen<boost::json::value> g = builder.build(s, 0);
  // The generator's closures point into the builder's scratch nodes: keep them alive.
  return rc::gen::map(std::move(g), [keep = builder.scratch()](boost::json::value v) { return v; });
}

rc::Gen<boost::json::value> any_value(int depth) {
  namespace gen = rc::gen;
  using boost::json::value;
  std::vector<std::pair<std::size_t, rc::Gen<value>>> choices;
  rc::Gen<value> scalar = gen::weightedOneOf<value>(
      {{1, gen::just(value(nullptr))},
       {2, gen::map(gen::arbitrary<bool>(), [](bool b) { return value(b); })},
       {3,
        gen::map(gen::inRange<std::int64_t>(-1000, 1001), [](std::int64_t i) { return value(i); })},
       {1, gen::map(gen::inRange<std::int64_t>(-100000, 100001),
                    [](std::int64_t i) { return value(static_cast<double>(i) / 100.0); })},
       {3, gen::map(gen::container<std::string>(
                        gen::resize(rc::kNominalSize, gen::inRange<char>('a', 'z' + 1))),
                    [](std::string s) { return value(std::move(s)); })}});
  if (depth <= 0) return scalar;
  rc::Gen<value> inner = any_value(depth - 1);
  rc::Gen<value> array =
      gen::map(gen::container<std::vector<value>>(inner),
               [](std::vector<value> v) { return value(boost::json::array(v.begin(), v.end())); });
  rc::Gen<value> object = gen::map(gen::container<std::map<std::string, value>>(
                                       gen::container<std::string>(gen::resize(
                                           rc::kNominalSize, gen::inRange<char>('a', 'z' + 1))),
                                       inner),
                                   [](const std::map<std::string, value>& m) {
                                     boost::json::object o;
                                     for (const auto& [k, v] : m) o[k] = v;
                                     return value(std::move(o));
                                   });
  return gen::weightedOneOf<value>({{6, scalar}, {1, array}, {1, object}});
}

std::vector<std::string> unsupported_patterns(const schema::schema& s) {
  std::vector<std::string> out;
  std::set<const schema::schema*> seen;
  std::vector<const schema::schema*> pending{&s};
  while (!pending.empty()) {
    const schema::schema* n = pending.back();
    pending.pop_back();
    if (n == nullptr || !seen.insert(n).second) continue;
    if (n->ref != nullptr) {
      pending.push_back(n->ref);
      continue;
    }
    if (n->pattern && !n->format) {
      auto g = detail::pattern_generator(*n->pattern, 1);
      if (auto* why = std::get_if<detail::unsupported_pattern>(&g)) {
        out.push_back(n->location + ": " + *n->pattern + ": " + why->why);
      }
    }
    pending.push_back(n->items);
    pending.push_back(n->additional_properties);
    pending.push_back(n->not_schema);
    for (const auto& p : n->properties) pending.push_back(p.second);
    for (const auto* b : n->all_of) pending.push_back(b);
    for (const auto* b : n->any_of) pending.push_back(b);
    for (const auto* b : n->one_of) pending.push_back(b);
  }
  return out;
}

}  // namespace conform::generators
