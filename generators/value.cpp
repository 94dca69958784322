// valid_value: a generator per schema node, built once per call and reused
// for every value. Composition (allOf, anyOf, oneOf, not) aims at the right
// branch and is then checked by the validator, so every value is valid.
// The scalars are in detail/value_scalars.cpp, the arrays and objects in
// detail/value_containers.cpp.

#include "generators/value.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>
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
#include "generators/detail/memo.hpp"
#include "generators/detail/merge.hpp"
#include "generators/detail/pattern.hpp"
#include "generators/detail/value_builder.hpp"
#include "schema/validator.hpp"

namespace conform::generators {

namespace detail {

namespace {

namespace gen = rc::gen;
using boost::json::value;
using rc::Gen;
using schema::json_type;
using node = schema::schema;

/// Chooses one of `gens` (shrinking towards the first).
Gen<value> one_of(std::vector<Gen<value>> gens) {
  if (gens.size() == 1) return gens.front();
  const std::size_t n = gens.size();
  return detail::mapcat(detail::pick_index(n),
                        [gens = std::move(gens)](std::size_t i) { return gens[i]; });
}

/// Non-null generators first; null gets `null_percent` when mixed with others.
Gen<value> with_null(Gen<value> non_null, int null_percent) {
  const auto p = static_cast<std::size_t>(std::clamp(null_percent, 0, 100));
  return detail::weighted_one_of<value>(
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

Gen<value> failing(std::string why) {
  return Gen<value>([why = std::move(why)](const rc::Random&, int) -> rc::Shrinkable<value> {
    throw rc::GenerationFailure(why);
  });
}

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
      return detail::weighted_one_of<value>(
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
  rc::Gen<value> scalar = detail::weighted_one_of<value>(
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
  return detail::weighted_one_of<value>({{6, scalar}, {1, array}, {1, object}});
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