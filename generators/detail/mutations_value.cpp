// Mutations of what a value is: its type, enum and const, and the
// composition keywords anyOf / oneOf / not.

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

#include "generators/detail/checks.hpp"
#include "generators/detail/filter.hpp"
#include "generators/detail/mutations.hpp"
#include "generators/value.hpp"
#include "schema/validator.hpp"

namespace conform::generators::detail {

namespace {

namespace gen = rc::gen;
using boost::json::value;
using rc::Gen;
using schema::json_type;

/// `text` with the case of its letters changed: upper-cased when it has a
/// lower-case letter, else lower-cased; nullopt when it has no letter.
std::optional<std::string> case_changed(std::string text) {
  const bool lower =
      std::any_of(text.begin(), text.end(), [](unsigned char c) { return std::islower(c) != 0; });
  const bool upper =
      std::any_of(text.begin(), text.end(), [](unsigned char c) { return std::isupper(c) != 0; });
  if (!lower && !upper) return std::nullopt;
  for (char& c : text) {
    const auto u = static_cast<unsigned char>(c);
    c = static_cast<char>(lower ? std::toupper(u) : std::tolower(u));
  }
  return text;
}

/// Values just outside `allowed` (one near miss per allowed value, in
/// order), then far ones: the near misses test the list, the far ones only
/// that something is checked at all.
std::vector<value> misses(const std::vector<value>& allowed) {
  std::vector<value> near,
      far{value("conform_not_allowed"), value(-987654), value(nullptr), value(false), value(true)};
  for (const value& e : allowed) {
    if (e.is_string()) {
      const std::string s(e.get_string());
      if (auto c = case_changed(s)) near.emplace_back(*c);
      near.emplace_back(s + "_x");
    } else if (e.is_number()) {
      near.push_back(number_value(e.to_number<double>() + 1));
    } else if (e.is_bool()) {
      near.emplace_back(!e.get_bool());
    }
  }
  near.insert(near.end(), far.begin(), far.end());
  std::vector<value> out;
  for (auto& v : near) {
    const bool listed = std::any_of(allowed.begin(), allowed.end(),
                                    [&](const value& e) { return schema::json_equal(v, e); });
    const bool seen = std::any_of(out.begin(), out.end(),
                                  [&](const value& o) { return schema::json_equal(v, o); });
    if (!listed && !seen) out.push_back(std::move(v));
  }
  return out;
}

}  // namespace

/// The JSON type of a value as the schema vocabulary names it.
json_type json_type_of(const value& v) {
  switch (v.kind()) {
    case boost::json::kind::null:
      return json_type::null;
    case boost::json::kind::bool_:
      return json_type::boolean;
    case boost::json::kind::int64:
    case boost::json::kind::uint64:
      return json_type::integer;
    case boost::json::kind::double_:
      return json_type::number;
    case boost::json::kind::string:
      return json_type::string;
    case boost::json::kind::array:
      return json_type::array;
    case boost::json::kind::object:
      return json_type::object;
  }
  return json_type::null;
}

std::string admitted_types(const schema::schema& r) {
  std::string out;
  for (auto t : {json_type::null, json_type::boolean, json_type::integer, json_type::number,
                 json_type::string, json_type::array, json_type::object}) {
    if ((r.types.bits() & static_cast<std::uint8_t>(t)) == 0) continue;
    out += out.empty() ? "" : " or ";
    out += schema::to_string(t);
  }
  return out;
}

void type_sites(const mutation_scope& s, const site_fn& add) {
  const schema::schema& r = s.r;
  if (r.types.any()) return;
  const bool numeric = r.types.has(json_type::integer) || r.types.has(json_type::number);
  // A valid number written as a string is the wrong type a lenient server
  // most often takes ("42" for 42): first, and only in a JSON value, where
  // it stays a string. As text it reads back as the number it spells.
  Gen<value> a_string = gen::just(value("conform"));
  if (numeric && !s.as_text) {
    a_string = gen::map(s.valid_here, [](const value& v) {
      return v.is_number() ? value(core::number_text(v.to_number<double>())) : value("42");
    });
  }
  std::vector<std::pair<json_type, Gen<value>>> candidates;
  if (s.as_text) {
    // Text reads back as a type the schema admits, or else as a string: the
    // string is the one wrong type a parameter can carry.
    if (!r.types.has(json_type::string)) {
      add(mutation_kind::wrong_type, "type",
          "a value of type string where " + admitted_types(r) + " is expected", a_string,
          json_type::string);
    }
    return;
  }
  if (numeric) candidates.emplace_back(json_type::string, a_string);
  candidates.emplace_back(json_type::null, gen::just(value(nullptr)));
  candidates.emplace_back(json_type::boolean, gen::just(value(true)));
  candidates.emplace_back(json_type::integer, gen::just(value(12345)));
  candidates.emplace_back(json_type::number, gen::just(value(1.5)));
  if (!numeric) candidates.emplace_back(json_type::string, a_string);
  candidates.emplace_back(json_type::array, gen::just(value(boost::json::array())));
  candidates.emplace_back(json_type::object, gen::just(value(boost::json::object())));
  const std::string admitted = admitted_types(r);
  for (auto& [type, g] : candidates) {
    // number admits every integer; integer admits 1.0 but not 1.5.
    if (r.types.has(type) || (type == json_type::integer && r.types.has(json_type::number))) {
      continue;
    }
    const bool numeric_text = type == json_type::string && numeric && !s.as_text;
    add(mutation_kind::wrong_type, "type",
        std::string(numeric_text ? "a numeric string" : "a value of type ") +
            (numeric_text ? "" : schema::to_string(type)) + " where " + admitted + " is expected",
        std::move(g), type);
  }
}

void value_sites(const mutation_scope& s, const site_fn& add) {
  const schema::schema& r = s.r;
  if (r.const_value) {
    add(mutation_kind::not_const, "const",
        "a value other than the const " + boost::json::serialize(*r.const_value),
        nearest_first(misses({*r.const_value})), std::nullopt);
  }
  if (!r.enum_values.empty()) {
    auto c = misses(r.enum_values);
    if (c.empty()) return;
    const std::string first = boost::json::serialize(c.front());
    add(mutation_kind::not_in_enum, "enum", "a value outside the enum (" + first + " first)",
        nearest_first(std::move(c)), std::nullopt);
    // Beside a composition (Discord's `enum: [3]` over `allOf: [a oneOf of
    // consts 1..3]`), the nearest miss is a value the rest admits: 1 or 2.
    if (!r.all_of.empty() || !r.one_of.empty() || !r.any_of.empty()) {
      schema::schema& rest = s.values.scratch()->make();
      rest = r;
      rest.enum_values.clear();
      const std::vector<value> listed = r.enum_values;
      add(mutation_kind::not_in_enum, "enum",
          "a value the rest of the schema admits but the enum does not",
          such_that(
              s.values.build(rest, s.depth),
              [listed](const value& v) {
                return std::none_of(listed.begin(), listed.end(),
                                    [&](const value& e) { return schema::json_equal(v, e); });
              },
              "value at " + r.location + " outside its enum that the rest of it admits"),
          std::nullopt);
    }
  }
}

void branch_sites(const mutation_scope& s, const site_fn& add) {
  const schema::schema& r = s.r;
  for (const auto* list : {&r.any_of, &r.one_of}) {
    if (list->empty()) continue;
    // Candidates of every type and near misses of the branches' consts and
    // enums (a list of consts is an enum in all but name), those of the
    // node's own types first; the probe and the final check keep only what
    // the whole schema rejects.
    std::vector<value> listed;
    for (const schema::schema* b : *list) {
      const schema::schema& rb = b->resolved();
      if (rb.const_value) listed.push_back(*rb.const_value);
      listed.insert(listed.end(), rb.enum_values.begin(), rb.enum_values.end());
    }
    std::vector<value> candidates = misses(listed);
    for (value v : {value(nullptr), value(true), value(12345), value(1.5), value("conform"),
                    value(""), value(boost::json::array()), value(boost::json::object())}) {
      candidates.push_back(std::move(v));
    }
    const std::vector<const schema::schema*> branches = *list;
    std::erase_if(candidates, [&](const value& v) {
      return std::any_of(branches.begin(), branches.end(), [&](const schema::schema* b) {
        return schema::is_valid(*b, v, request_checks);
      });
    });
    std::stable_partition(candidates.begin(), candidates.end(), [&](const value& v) {
      return !r.types.any() && r.types.has(json_type_of(v));
    });
    if (candidates.empty()) continue;
    const bool any = list == &r.any_of;
    add(mutation_kind::no_branch_matches, any ? "anyOf" : "oneOf",
        std::string("a value no branch of ") + (any ? "anyOf" : "oneOf") + " accepts",
        nearest_first(std::move(candidates)), std::nullopt);
  }
  if (r.not_schema != nullptr) {
    add(mutation_kind::matches_not, "not", "a value that matches the schema under `not`",
        s.values.build(*r.not_schema, s.depth), std::nullopt);
  }
}

}  // namespace conform::generators::detail
