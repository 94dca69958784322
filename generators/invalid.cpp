// invalid_values: mutation sites are collected by walking the schema (each
// site generates the whole value with one part broken), probed with fixed
// seeds so that sites that can never break the value are dropped, and every
// value is checked against the validator before it is handed out.

#include "generators/invalid.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <charconv>
#include <cmath>
#include <functional>
#include <memory>
#include <utility>

#include "core/text.hpp"
#include "generators/detail/choice.hpp"
#include "generators/detail/format_gen.hpp"
#include "generators/detail/value_builder.hpp"
#include "generators/value.hpp"
#include "schema/format.hpp"
#include "schema/validator.hpp"

namespace conform::generators {

namespace {

namespace gen = rc::gen;
using boost::json::value;
using rc::Gen;
using schema::json_type;
using node = schema::schema;

/// Turns a generator of a node's value into one of the whole value.
using embed_fn = std::function<Gen<value>(Gen<value>)>;

struct site {
  mutation_kind kind;
  std::string pointer;
  std::string description;
  Gen<value> whole;
  boundary_kind edge = boundary_kind::at_minimum;  // boundary walks only
};

std::string number_text(double d) {
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);  // shortest form: "0.01"
  return ec == std::errc() ? std::string(buf, end) : std::string("?");
}

/// A number as JSON: an integer when it has no fraction.
value number_value(double d) {
  if (std::trunc(d) == d && std::fabs(d) < 9e15) return value(static_cast<std::int64_t>(d));
  return value(d);
}

std::string take_code_points(const std::string& s, std::size_t n) {
  std::size_t count = 0, i = 0;
  for (; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0u) != 0x80u) {
      if (count == n) break;
      ++count;
    }
  }
  return s.substr(0, i);
}

Gen<invalid_value> malformed_bytes(Gen<value> valid_root) {
  static const std::vector<std::string> broken = {"{",        "[1,]",      "{\"a\":}",        "nul",
                                                  "{'a': 1}", "{\"a\" 1}", "[\"unterminated]"};
  Gen<std::string> text = gen::oneOf(
      gen::elementOf(broken),
      gen::map(valid_root, [](const value& v) { return boost::json::serialize(v) + ","; }),
      gen::map(valid_root, [](const value& v) {
        std::string s = boost::json::serialize(v);
        return s.substr(0, s.size() - 1);
      }));
  return gen::map(gen::suchThat(text,
                                [](const std::string& s) {
                                  boost::system::error_code ec;
                                  (void)boost::json::parse(s, ec);
                                  return static_cast<bool>(ec);
                                }),
                  [](std::string s) {
                    invalid_value out;
                    out.raw = std::move(s);
                    out.kind = mutation_kind::malformed_json;
                    out.description = "/: bytes that are not JSON";
                    return out;
                  });
}

/// What a walk collects: sites that break one constraint, or sites that
/// put one value on the edge of its constraint and stay valid.
enum class walk_mode : std::uint8_t { breaking, boundary };

class collector {
 public:
  collector(const node& root, const gen_options& options, walk_mode mode = walk_mode::breaking)
      : root_(root), options_(options), values_(options), mode_(mode) {}

  void walk(const node& s, int depth, const std::string& pointer, const embed_fn& embed) {
    if (depth > options_.max_depth) return;
    const node& r = s.resolved();
    if (r.ref != nullptr || r.boolean == node::boolean_form::accept_all) return;
    auto add = [&](mutation_kind kind, std::string what, Gen<value> local) {
      sites_.push_back({kind, pointer, std::move(what), embed(std::move(local))});
    };
    auto edge = [&](boundary_kind kind, std::string what, Gen<value> local) {
      sites_.push_back(
          {mutation_kind::wrong_type, pointer, std::move(what), embed(std::move(local)), kind});
    };
    if (r.boolean == node::boolean_form::reject_all) {
      add(mutation_kind::wrong_type, "a value where the schema is `false`", any_value(1));
      return;
    }
    // A property the profile fills (x-fixture) has one valid value that
    // matters: the id the server knows. Its bounds are not tested.
    if (mode_ == walk_mode::boundary && (s.fixture || r.fixture) && options_.fixture) return;
    const Gen<value> valid_here = values_.build(s, depth);
    if (mode_ == walk_mode::boundary) {
      boundary_values(r, depth, valid_here, edge);
      branches(r, depth, pointer, embed);
      children(r, depth, pointer, embed, valid_here);
      return;
    }
    type_mutations(r, add);
    value_mutations(r, add);
    string_mutations(r, valid_here, add);
    number_mutations(r, valid_here, add);
    array_mutations(r, depth, valid_here, add);
    object_mutations(r, valid_here, add);
    branch_mutations(r, add);
    if (r.not_schema != nullptr) {
      add(mutation_kind::matches_not, "a value that matches the schema under `not`",
          values_.build(*r.not_schema, depth));
    }
    branches(r, depth, pointer, embed);
    children(r, depth, pointer, embed, valid_here);
  }

  /// Walks allOf / anyOf / oneOf branches. Breaking an allOf branch breaks
  /// the whole; an anyOf / oneOf branch may not (the final check decides).
  void branches(const node& r, int depth, const std::string& pointer, const embed_fn& embed) {
    for (const auto* list : {&r.all_of, &r.any_of, &r.one_of}) {
      for (const node* b : *list) {
        // Branches do not deepen `depth`; a recursion through them stops here.
        if (branch_walks_ >= 64) break;
        ++branch_walks_;
        walk(*b, depth, pointer, embed);
        --branch_walks_;
      }
    }
  }

  /// Adds the malformed-JSON site (whole value only).
  void add_malformed() { malformed_ = true; }

  /// Keeps the sites that produce at least one rejected value in `probes` tries.
  void probe(int probes) {
    std::vector<site> kept;
    for (auto& s : sites_) {
      for (int i = 0; i < probes; ++i) {
        try {
          const value v =
              s.whole(rc::Random(static_cast<std::uint64_t>(i) * 7919 + 17), 10 + i * 4).value();
          if (wanted(v)) {
            kept.push_back(std::move(s));
            break;
          }
        } catch (const rc::GenerationFailure&) {
          // this sample could not be made; try the next seed
        }
      }
    }
    sites_ = std::move(kept);
  }

  std::vector<boundary_kind> edges() const {
    std::vector<boundary_kind> out;
    for (const auto& s : sites_) out.push_back(s.edge);
    return out;
  }

  std::vector<std::string> describe() const {
    std::vector<std::string> out;
    for (const auto& s : sites_) {
      out.push_back(std::string(to_string(s.kind)) + " at " +
                    (s.pointer.empty() ? "/" : s.pointer));
    }
    if (malformed_) out.push_back("malformed_json at /");
    return out;
  }

  /// One generator per kept site, in walk order (malformed JSON last). Each
  /// checks its values: rejected by the schema (breaking) or accepted (boundary).
  std::vector<invalid_site> site_generators() {
    std::vector<invalid_site> out;
    const node* root = &root_;
    auto keep = values_.scratch();
    const bool breaking = mode_ == walk_mode::breaking;
    for (const auto& s : sites_) {
      const std::string where = s.pointer.empty() ? std::string("/") : s.pointer;
      out.push_back({s.kind, s.pointer, where + ": " + s.description,
                     gen::map(gen::suchThat(s.whole,
                                            [root, keep, breaking](const value& v) {
                                              return breaking ? schema::is_invalid(*root, v)
                                                              : schema::is_valid(*root, v);
                                            }),
                              [kind = s.kind, pointer = s.pointer,
                               what = where + ": " + s.description](value v) {
                                invalid_value iv;
                                iv.json = std::move(v);
                                iv.kind = kind;
                                iv.pointer = pointer;
                                iv.description = what;
                                return iv;
                              })});
    }
    if (malformed_) {
      out.push_back({mutation_kind::malformed_json, "", "/: bytes that are not JSON",
                     malformed_bytes(values_.build(root_, 0))});
    }
    return out;
  }

  std::optional<Gen<invalid_value>> generator() {
    std::vector<Gen<invalid_value>> gens;
    for (auto& s : site_generators()) gens.push_back(std::move(s.gen));
    if (gens.empty()) return std::nullopt;
    const std::size_t n = gens.size();
    return gen::mapcat(detail::pick_index(n),
                       [gens = std::move(gens)](std::size_t i) { return gens[i]; });
  }

 private:
  bool wanted(const value& v) const {
    return mode_ == walk_mode::breaking ? schema::is_invalid(root_, v) : schema::is_valid(root_, v);
  }

  /// A value no branch of anyOf / oneOf accepts. Candidates of every type and
  /// the valid values of each branch turned into another type; the probe and
  /// the final check keep only those the whole schema rejects.
  template <typename Add>
  void branch_mutations(const node& r, Add& add) {
    for (const auto* list : {&r.any_of, &r.one_of}) {
      if (list->empty()) continue;
      std::vector<value> candidates = {value(nullptr),
                                       value(true),
                                       value(12345),
                                       value(1.5),
                                       value("conform"),
                                       value(""),
                                       value(boost::json::array()),
                                       value(boost::json::object())};
      const std::vector<const node*> branches = *list;
      std::erase_if(candidates, [&](const value& v) {
        return std::any_of(branches.begin(), branches.end(),
                           [&](const node* b) { return schema::is_valid(*b, v); });
      });
      if (candidates.empty()) continue;
      add(mutation_kind::no_branch_matches,
          std::string("a value no branch of ") + (list == &r.any_of ? "anyOf" : "oneOf") +
              " accepts",
          gen::elementOf(candidates));
    }
  }

  /// Valid values on the edge of one constraint: the bounds themselves, the
  /// exact lengths and counts, and an empty array where one is allowed.
  template <typename Edge>
  void boundary_values(const node& r, int depth, const Gen<value>& valid_here, Edge& edge) {
    const bool strings = !r.types.any() && r.types.has(json_type::string);
    const bool numbers = !r.types.any() && r.types.has(json_type::integer);
    const bool arrays = !r.types.any() && r.types.has(json_type::array);
    if (numbers) {
      const bool integral = !r.types.has(json_type::number);
      auto at = [&](boundary_kind k, const char* what, double d) {
        edge(k, std::string(what) + " " + number_text(d), gen::just(number_value(d)));
      };
      if (r.minimum)
        at(boundary_kind::at_minimum, "the minimum", integral ? std::ceil(*r.minimum) : *r.minimum);
      if (r.maximum)
        at(boundary_kind::at_maximum, "the maximum",
           integral ? std::floor(*r.maximum) : *r.maximum);
      if (r.exclusive_minimum && integral) {
        at(boundary_kind::at_minimum, "just above the exclusive minimum",
           std::floor(*r.exclusive_minimum) + 1);
      }
      if (r.exclusive_maximum && integral) {
        at(boundary_kind::at_maximum, "just below the exclusive maximum",
           std::ceil(*r.exclusive_maximum) - 1);
      }
    }
    // Lengths beyond this are not worth a request of their own.
    constexpr std::uint64_t max_exact = 1u << 18;
    auto exactly = [](std::size_t n) {
      return [n](value v) {
        std::string s = v.is_string() ? std::string(v.get_string()) : std::string();
        const std::size_t have = schema::code_points(s);
        if (have < n) s.append(n - have, 'a');
        return value(take_code_points(s, n));
      };
    };
    if (strings) {
      if (r.min_length && *r.min_length > 0 && *r.min_length <= max_exact) {
        edge(boundary_kind::min_length,
             "a string of exactly minLength " + std::to_string(*r.min_length),
             gen::map(valid_here, exactly(*r.min_length)));
      }
      if (r.max_length && *r.max_length <= max_exact) {
        edge(boundary_kind::max_length,
             "a string of exactly maxLength " + std::to_string(*r.max_length),
             gen::map(valid_here, exactly(*r.max_length)));
      }
    }
    if (arrays) {
      auto as_array = [](const value& v) {
        return v.is_array() ? v.get_array() : boost::json::array();
      };
      const Gen<value> item =
          r.items != nullptr ? values_.build(*r.items, depth + 1) : any_value(0);
      auto count = [&](boundary_kind k, std::string what, std::size_t n) {
        edge(k, std::move(what),
             gen::map(gen::tuple(valid_here, gen::container<std::vector<value>>(n, item)),
                      [n, as_array](std::tuple<value, std::vector<value>> t) {
                        boost::json::array a = as_array(std::get<0>(t));
                        a.resize(std::min(a.size(), n));
                        for (std::size_t i = 0; a.size() < n; ++i) a.push_back(std::get<1>(t)[i]);
                        return value(std::move(a));
                      }));
      };
      if (!r.min_items || *r.min_items == 0) {
        edge(boundary_kind::empty_array, "an empty array", gen::just(value(boost::json::array())));
      } else if (*r.min_items <= 64) {
        count(boundary_kind::min_items, "exactly minItems " + std::to_string(*r.min_items),
              *r.min_items);
      }
      if (r.max_items && *r.max_items > 0 && *r.max_items <= 64) {
        count(boundary_kind::max_items, "exactly maxItems " + std::to_string(*r.max_items),
              *r.max_items);
      }
    }
  }

  template <typename Add>
  void type_mutations(const node& r, Add& add) {
    if (r.types.any()) return;
    node& only_types = values_.scratch()->make();
    only_types.types = r.types;
    std::vector<value> wrong;
    for (value candidate : {value(nullptr), value(true), value(12345), value(1.5), value("conform"),
                            value(boost::json::array()), value(boost::json::object())}) {
      if (schema::is_invalid(only_types, candidate)) wrong.push_back(std::move(candidate));
    }
    if (wrong.empty()) return;
    std::string admitted;
    for (auto t : {json_type::null, json_type::boolean, json_type::integer, json_type::number,
                   json_type::string, json_type::array, json_type::object}) {
      if ((r.types.bits() & static_cast<std::uint8_t>(t)) == 0) continue;
      admitted += admitted.empty() ? "" : " or ";
      admitted += schema::to_string(t);
    }
    add(mutation_kind::wrong_type, "a value that is not " + admitted, gen::elementOf(wrong));
  }

  template <typename Add>
  void value_mutations(const node& r, Add& add) {
    auto outside = [](const value& seed) {
      std::vector<value> out{value("conform_not_allowed"), value(nullptr), value(-987654),
                             value(false), value(true)};
      if (seed.is_string()) out.insert(out.begin(), value(std::string(seed.get_string()) + "_x"));
      if (seed.is_number()) out.insert(out.begin(), number_value(seed.to_number<double>() + 1));
      return out;
    };
    if (r.const_value) {
      std::vector<value> c = outside(*r.const_value);
      std::erase_if(c, [&](const value& v) { return schema::json_equal(v, *r.const_value); });
      add(mutation_kind::not_const,
          "a value other than the const " + boost::json::serialize(*r.const_value),
          gen::elementOf(c));
    }
    if (!r.enum_values.empty()) {
      std::vector<value> c = outside(r.enum_values.front());
      for (const value& e : r.enum_values) {
        if (e.is_number()) c.push_back(number_value(e.to_number<double>() + 1));
      }
      std::erase_if(c, [&](const value& v) {
        return std::any_of(r.enum_values.begin(), r.enum_values.end(),
                           [&](const value& e) { return schema::json_equal(v, e); });
      });
      // Prefer values of the enum's own type: those test the list, not the type.
      add(mutation_kind::not_in_enum, "a value outside the enum", gen::elementOf(c));
    }
  }

  static Gen<value> map_string(Gen<value> g, std::function<std::string(std::string)> f) {
    return gen::map(std::move(g), [f = std::move(f)](value v) {
      return value(f(v.is_string() ? std::string(v.get_string()) : std::string()));
    });
  }

  template <typename Add>
  void string_mutations(const node& r, const Gen<value>& valid_here, Add& add) {
    if (!r.types.any() && !r.types.has(json_type::string)) return;
    if (r.min_length && *r.min_length > 0) {
      const std::size_t n = *r.min_length - 1;
      add(mutation_kind::too_short,
          "a string of " + std::to_string(n) + " characters, below minLength " +
              std::to_string(*r.min_length),
          map_string(valid_here, [n](std::string s) {
            const std::size_t have = schema::code_points(s);
            if (have < n) s.append(n - have, 'a');
            return take_code_points(s, n);
          }));
    }
    if (r.max_length) {
      const std::size_t n = *r.max_length + 1;
      add(mutation_kind::too_long,
          "a string of " + std::to_string(n) + " characters, above maxLength " +
              std::to_string(*r.max_length),
          map_string(valid_here, [n](std::string s) {
            const std::size_t have = schema::code_points(s);
            if (have < n) s.append(n - have, 'a');
            return take_code_points(s, n);
          }));
    }
    if (r.pattern) {
      const std::string p = *r.pattern;
      Gen<value> candidates = gen::oneOf(
          gen::elementOf(std::vector<value>{value(""), value(" "), value("~"),
                                            value("conform pattern violation!"), value("\t\n")}),
          map_string(valid_here, [](std::string s) { return s + "~"; }),
          map_string(valid_here, [](std::string s) { return " " + s; }));
      add(mutation_kind::pattern_violated, "a string that does not match " + p,
          gen::suchThat(candidates, [p](const value& v) {
            return v.is_string() && schema::search_pattern(p, v.get_string()) == false;
          }));
    }
    if (r.format) {
      const auto f = schema::parse_format(*r.format);
      std::vector<value> bad;
      for (const auto& s : detail::format_violations(f)) {
        if (!schema::check_format(f, s)) bad.emplace_back(s);
      }
      if (!bad.empty()) {
        add(mutation_kind::format_violated, "a string that is not a valid " + *r.format,
            gen::elementOf(bad));
      }
    }
  }

  template <typename Add>
  void number_mutations(const node& r, const Gen<value>& valid_here, Add& add) {
    if (!r.types.any() && !r.types.has(json_type::integer)) return;
    const bool integral = !r.types.any() && !r.types.has(json_type::number);
    const double step = integral ? 1.0 : 0.5;
    auto bound = [&](const char* what, double b, std::vector<double> values) {
      std::vector<value> out;
      for (double d : values) out.push_back(number_value(d));
      add(mutation_kind::out_of_range, std::string("a number ") + what + " " + number_text(b),
          gen::elementOf(out));
    };
    if (r.minimum)
      bound("below the minimum", *r.minimum, {std::floor(*r.minimum - step), *r.minimum - 1000});
    if (r.maximum)
      bound("above the maximum", *r.maximum, {std::ceil(*r.maximum + step), *r.maximum + 1000});
    if (r.exclusive_minimum) {
      bound("at or below the exclusive minimum", *r.exclusive_minimum,
            {*r.exclusive_minimum, std::floor(*r.exclusive_minimum - step)});
    }
    if (r.exclusive_maximum) {
      bound("at or above the exclusive maximum", *r.exclusive_maximum,
            {*r.exclusive_maximum, std::ceil(*r.exclusive_maximum + step)});
    }
    if (r.multiple_of) {
      const double m = *r.multiple_of;
      const double off = (std::trunc(m) == m && m >= 2) ? 1.0 : m / 2;
      add(mutation_kind::not_multiple_of, "a number that is not a multiple of " + number_text(m),
          gen::map(valid_here, [off](value v) {
            return v.is_number() ? number_value(v.to_number<double>() + off) : number_value(off);
          }));
    }
  }

  template <typename Add>
  void array_mutations(const node& r, int depth, const Gen<value>& valid_here, Add& add) {
    if (!r.types.any() && !r.types.has(json_type::array)) return;
    auto as_array = [](const value& v) {
      return v.is_array() ? v.get_array() : boost::json::array();
    };
    const Gen<value> item = r.items != nullptr ? values_.build(*r.items, depth + 1) : any_value(0);
    if (r.min_items && *r.min_items > 0) {
      const std::size_t n = *r.min_items - 1;
      add(mutation_kind::too_few_items,
          std::to_string(n) + " items, below minItems " + std::to_string(*r.min_items),
          gen::map(valid_here, [n, as_array](value v) {
            boost::json::array a = as_array(v);
            a.resize(std::min(a.size(), n));
            return value(std::move(a));
          }));
    }
    if (r.max_items) {
      const std::size_t n = *r.max_items + 1;
      add(mutation_kind::too_many_items,
          std::to_string(n) + " items, above maxItems " + std::to_string(*r.max_items),
          gen::map(gen::tuple(valid_here, gen::container<std::vector<value>>(n, item)),
                   [n, as_array](std::tuple<value, std::vector<value>> t) {
                     boost::json::array a = as_array(std::get<0>(t));
                     for (std::size_t i = 0; a.size() < n; ++i) a.push_back(std::get<1>(t)[i]);
                     return value(std::move(a));
                   }));
    }
    if (r.unique_items) {
      add(mutation_kind::duplicate_items, "an array with a duplicated item",
          gen::map(gen::tuple(valid_here, item), [as_array](std::tuple<value, value> t) {
            boost::json::array a = as_array(std::get<0>(t));
            if (a.empty()) a.push_back(std::get<1>(t));
            a.push_back(value(a.front()));
            return value(std::move(a));
          }));
    }
  }

  template <typename Add>
  void object_mutations(const node& r, const Gen<value>& valid_here, Add& add) {
    if (!r.types.any() && !r.types.has(json_type::object)) return;
    auto as_object = [](const value& v) {
      return v.is_object() ? v.get_object() : boost::json::object();
    };
    for (const std::string& name : r.required) {
      add(mutation_kind::missing_required, "the required property \"" + name + "\" left out",
          gen::map(valid_here, [name, as_object](value v) {
            boost::json::object o = as_object(v);
            o.erase(name);
            return value(std::move(o));
          }));
    }
    for (const auto& [trigger, names] : r.dependent_required) {
      if (names.empty() || trigger == names.front()) continue;
      const node* sub = r.property(trigger);
      const Gen<value> present = sub != nullptr ? values_.build(*sub, 1) : any_value(0);
      add(mutation_kind::missing_required,
          "\"" + names.front() + "\" left out while \"" + trigger +
              "\" is present (dependentRequired)",
          gen::map(gen::tuple(valid_here, present),
                   [trigger, gone = names.front(), as_object](std::tuple<value, value> t) {
                     boost::json::object o = as_object(std::get<0>(t));
                     o[trigger] = std::move(std::get<1>(t));
                     o.erase(gone);
                     return value(std::move(o));
                   }));
    }
    auto fresh_name = [&r](std::string base) {
      while (r.property(base) != nullptr) base += "_";
      return base;
    };
    if (!r.additional_allowed) {
      const std::string extra = fresh_name("conform_unexpected");
      add(mutation_kind::extra_property,
          "the undeclared property \"" + extra + "\" (additionalProperties is false)",
          gen::map(valid_here, [extra, as_object](value v) {
            boost::json::object o = as_object(v);
            o[extra] = true;
            return value(std::move(o));
          }));
    }
    if (r.min_properties && *r.min_properties > 0) {
      const std::size_t n = *r.min_properties - 1;
      add(mutation_kind::too_few_properties,
          std::to_string(n) + " properties, below minProperties " +
              std::to_string(*r.min_properties),
          gen::map(valid_here, [n, as_object](value v) {
            boost::json::object o = as_object(v);
            while (o.size() > n) o.erase(o.begin() + static_cast<std::ptrdiff_t>(o.size() - 1));
            return value(std::move(o));
          }));
    }
    if (r.max_properties) {
      const std::size_t n = *r.max_properties + 1;
      const std::string base = fresh_name("conform_extra");
      add(mutation_kind::too_many_properties,
          std::to_string(n) + " properties, above maxProperties " +
              std::to_string(*r.max_properties),
          gen::map(valid_here, [n, base, as_object](value v) {
            boost::json::object o = as_object(v);
            for (std::size_t i = 0; o.size() < n; ++i) o[base + std::to_string(i)] = i;
            return value(std::move(o));
          }));
    }
  }

  void children(const node& r, int depth, const std::string& pointer, const embed_fn& embed,
                const Gen<value>& valid_here) {
    const bool objects = r.types.any() || r.types.has(json_type::object);
    if (objects) {
      for (const auto& [name, sub] : r.properties) {
        walk(*sub, depth + 1, pointer + "/" + core::escape_pointer_token(name),
             [embed, valid_here, name = name](Gen<value> child) {
               return embed(gen::map(gen::tuple(valid_here, std::move(child)),
                                     [name](std::tuple<value, value> t) {
                                       boost::json::object o = std::get<0>(t).is_object()
                                                                   ? std::get<0>(t).get_object()
                                                                   : boost::json::object();
                                       o[name] = std::move(std::get<1>(t));
                                       return value(std::move(o));
                                     }));
             });
      }
      if (r.additional_allowed && r.additional_properties != nullptr) {
        std::string name = "conform_extra";
        while (r.property(name) != nullptr) name += "_";
        walk(*r.additional_properties, depth + 1, pointer + "/" + name,
             [embed, valid_here, name](Gen<value> child) {
               return embed(gen::map(gen::tuple(valid_here, std::move(child)),
                                     [name](std::tuple<value, value> t) {
                                       boost::json::object o = std::get<0>(t).is_object()
                                                                   ? std::get<0>(t).get_object()
                                                                   : boost::json::object();
                                       o[name] = std::move(std::get<1>(t));
                                       return value(std::move(o));
                                     }));
             });
      }
    }
    const bool arrays = r.types.any() || r.types.has(json_type::array);
    if (arrays && r.items != nullptr && !(r.max_items && *r.max_items == 0)) {
      walk(*r.items, depth + 1, pointer + "/0", [embed, valid_here](Gen<value> child) {
        return embed(
            gen::map(gen::tuple(valid_here, std::move(child)), [](std::tuple<value, value> t) {
              boost::json::array a =
                  std::get<0>(t).is_array() ? std::get<0>(t).get_array() : boost::json::array();
              if (a.empty()) {
                a.push_back(std::move(std::get<1>(t)));
              } else {
                a[0] = std::move(std::get<1>(t));
              }
              return value(std::move(a));
            }));
      });
    }
  }

  const node& root_;
  gen_options options_;
  detail::value_builder values_;
  std::vector<site> sites_;
  walk_mode mode_;
  int branch_walks_ = 0;  // allOf / anyOf / oneOf branches being walked, nested
  bool malformed_ = false;
};

collector collect(const node& s, const gen_options& options, const invalid_options& invalid,
                  walk_mode mode = walk_mode::breaking) {
  collector c(s, options, mode);
  c.walk(s, 0, "", [](Gen<value> g) { return g; });
  c.probe(invalid.probes);
  if (invalid.malformed_json) c.add_malformed();
  return c;
}

}  // namespace

std::string_view to_string(mutation_kind k) {
  switch (k) {
    case mutation_kind::wrong_type:
      return "wrong_type";
    case mutation_kind::missing_required:
      return "missing_required";
    case mutation_kind::out_of_range:
      return "out_of_range";
    case mutation_kind::not_multiple_of:
      return "not_multiple_of";
    case mutation_kind::too_long:
      return "too_long";
    case mutation_kind::too_short:
      return "too_short";
    case mutation_kind::not_in_enum:
      return "not_in_enum";
    case mutation_kind::not_const:
      return "not_const";
    case mutation_kind::pattern_violated:
      return "pattern_violated";
    case mutation_kind::format_violated:
      return "format_violated";
    case mutation_kind::extra_property:
      return "extra_property";
    case mutation_kind::too_few_items:
      return "too_few_items";
    case mutation_kind::too_many_items:
      return "too_many_items";
    case mutation_kind::duplicate_items:
      return "duplicate_items";
    case mutation_kind::too_few_properties:
      return "too_few_properties";
    case mutation_kind::too_many_properties:
      return "too_many_properties";
    case mutation_kind::matches_not:
      return "matches_not";
    case mutation_kind::no_branch_matches:
      return "no_branch_matches";
    case mutation_kind::malformed_json:
      return "malformed_json";
  }
  return "unknown";
}

std::string invalid_value::body() const {
  return json ? boost::json::serialize(*json) : raw;
}

std::optional<rc::Gen<invalid_value>> invalid_values(const schema::schema& s,
                                                     const gen_options& options,
                                                     const invalid_options& invalid) {
  return collect(s, options, invalid).generator();
}

rc::Gen<invalid_value> malformed_json(const schema::schema& s, const gen_options& options) {
  detail::value_builder values(options);
  auto g = malformed_bytes(values.build(s, 0));
  return rc::gen::map(std::move(g), [keep = values.scratch()](invalid_value v) { return v; });
}

std::vector<std::string> mutation_sites(const schema::schema& s, const gen_options& options,
                                        const invalid_options& invalid) {
  return collect(s, options, invalid).describe();
}

}  // namespace conform::generators

namespace conform::generators {

std::string_view to_string(boundary_kind k) {
  switch (k) {
    case boundary_kind::at_minimum:
      return "at_minimum";
    case boundary_kind::at_maximum:
      return "at_maximum";
    case boundary_kind::min_length:
      return "min_length";
    case boundary_kind::max_length:
      return "max_length";
    case boundary_kind::min_items:
      return "min_items";
    case boundary_kind::max_items:
      return "max_items";
    case boundary_kind::empty_array:
      return "empty_array";
  }
  return "unknown";
}

std::vector<invalid_site> invalid_value_sites(const schema::schema& s, const gen_options& options,
                                              const invalid_options& invalid) {
  return collect(s, options, invalid).site_generators();
}

std::vector<boundary_site> boundary_value_sites(const schema::schema& s, const gen_options& options,
                                                int probes) {
  invalid_options o;
  o.probes = probes;
  auto c = collect(s, options, o, walk_mode::boundary);
  std::vector<boundary_site> out;
  auto kinds = c.edges();
  auto gens = c.site_generators();
  for (std::size_t i = 0; i < gens.size(); ++i) {
    out.push_back({kinds[i], std::move(gens[i].pointer), std::move(gens[i].description),
                   rc::gen::map(std::move(gens[i].gen),
                                [](invalid_value iv) { return std::move(*iv.json); })});
  }
  return out;
}

}  // namespace conform::generators
