// invalid_values: mutation sites are collected by walking the schema (each
// site generates the whole value with one part broken), probed with fixed
// seeds so that sites that can never break the value are dropped, and every
// value is checked against the validator before it is handed out. The
// families of mutation of one node are in detail/mutations_*.cpp, the
// boundary values in detail/boundaries.cpp.

#include "generators/invalid.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <functional>
#include <memory>
#include <utility>

#include "core/text.hpp"
#include "generators/detail/checks.hpp"
#include "generators/detail/choice.hpp"
#include "generators/detail/filter.hpp"
#include "generators/detail/memo.hpp"
#include "generators/detail/mutations.hpp"
#include "generators/detail/value_builder.hpp"
#include "generators/value.hpp"
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
  std::string keyword;
  std::optional<json_type> as_type;
};

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
  return gen::map(detail::such_that_kept(text,
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
  collector(const node& root, const gen_options& options, walk_mode mode,
            const invalid_options& invalid)
      : root_(root),
        options_(options),
        values_(options),
        mode_(mode),
        as_text_(invalid.as_text),
        form_(invalid.form) {}

  /// `text`: the node's value travels as text (a parameter, a text part).
  void walk(const node& s, int depth, const std::string& pointer, const embed_fn& embed,
            bool text = false) {
    if (depth > options_.max_depth) return;
    const node& r = s.resolved();
    if (r.ref != nullptr || r.boolean == node::boolean_form::accept_all) return;
    const detail::site_fn add = [&](mutation_kind kind, std::string keyword, std::string what,
                                    Gen<value> local, std::optional<json_type> as_type) {
      sites_.push_back({kind, pointer, std::move(what), embed(std::move(local)),
                        boundary_kind::at_minimum, std::move(keyword), as_type});
    };
    const detail::edge_fn edge = [&](boundary_kind kind, std::string keyword, std::string what,
                                     Gen<value> local) {
      sites_.push_back({mutation_kind::wrong_type, pointer, std::move(what),
                        embed(std::move(local)), kind, std::move(keyword), std::nullopt});
    };
    if (r.boolean == node::boolean_form::reject_all) {
      add(mutation_kind::wrong_type, "false", "a value where the schema is `false`", any_value(1),
          std::nullopt);
      return;
    }
    // A property the profile fills (x-fixture) has one valid value that
    // matters: the id the server knows. Its bounds are not tested.
    if (mode_ == walk_mode::boundary && (s.fixture || r.fixture) && options_.fixture) return;
    const Gen<value> valid_here = values_.build(s, depth);
    const detail::mutation_scope scope{r, depth, valid_here, values_, as_text_ || text};
    if (mode_ == walk_mode::boundary) {
      detail::boundary_sites(scope, edge);
    } else {
      detail::type_sites(scope, add);
      detail::value_sites(scope, add);
      detail::string_sites(scope, add);
      detail::number_sites(scope, add);
      detail::array_sites(scope, add);
      detail::object_sites(scope, add);
      detail::branch_sites(scope, add);
    }
    branches(r, depth, pointer, embed, text);
    children(r, depth, pointer, embed, valid_here);
  }

  /// Walks allOf / anyOf / oneOf branches. Breaking an allOf branch breaks
  /// the whole; an anyOf / oneOf branch may not (the final check decides).
  void branches(const node& r, int depth, const std::string& pointer, const embed_fn& embed,
                bool text = false) {
    for (const auto* list : {&r.all_of, &r.any_of, &r.one_of}) {
      for (const node* b : *list) {
        // Branches do not deepen `depth`; a recursion through them stops here.
        if (branch_walks_ >= 64) break;
        ++branch_walks_;
        walk(*b, depth, pointer, embed, text);
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
      out.push_back(
          {s.kind, s.pointer, where + ": " + s.description,
           gen::map(
               detail::such_that(
                   s.whole,
                   [root, keep, breaking](const value& v) {
                     return breaking ? schema::is_invalid(*root, v, detail::request_checks)
                                     : schema::is_valid(*root, v, detail::request_checks);
                   },
                   std::string(breaking ? "value the whole schema rejects"
                                        : "value the whole schema accepts") +
                       " with " + where + ": " + s.description),
               [kind = s.kind, pointer = s.pointer, what = where + ": " + s.description](value v) {
                 invalid_value iv;
                 iv.json = std::move(v);
                 iv.kind = kind;
                 iv.pointer = pointer;
                 iv.description = what;
                 return iv;
               }),
           s.keyword, s.as_type});
    }
    if (malformed_) {
      out.push_back({mutation_kind::malformed_json, "", "/: bytes that are not JSON",
                     malformed_bytes(values_.build(root_, 0)), "malformed", std::nullopt});
    }
    return out;
  }

  std::optional<Gen<invalid_value>> generator() {
    std::vector<Gen<invalid_value>> gens;
    for (auto& s : site_generators()) gens.push_back(std::move(s.gen));
    if (gens.empty()) return std::nullopt;
    const std::size_t n = gens.size();
    return detail::mapcat(detail::pick_index(n),
                          [gens = std::move(gens)](std::size_t i) { return gens[i]; });
  }

 private:
  bool wanted(const value& v) const {
    return mode_ == walk_mode::breaking ? schema::is_invalid(root_, v, detail::request_checks)
                                        : schema::is_valid(root_, v, detail::request_checks);
  }

  /// In a form body (multipart, urlencoded) a property of no structured
  /// type is a text part or pair, and so is each item of an array property.
  bool text_part(const node& child, int child_depth, bool parent_is_array) const {
    if (!form_) return false;
    const node& c = child.resolved();
    const bool structured =
        c.types.any() || c.types.has(json_type::object) || c.types.has(json_type::array);
    if (structured) return false;
    return child_depth == 1 || (child_depth == 2 && parent_is_array);
  }

  void children(const node& r, int depth, const std::string& pointer, const embed_fn& embed,
                const Gen<value>& valid_here) {
    const bool objects = r.types.any() || r.types.has(json_type::object);
    if (objects) {
      for (const auto& [name, sub] : r.properties) {
        // A readOnly property in a request may be "ignored or rejected":
        // breaking it shows nothing either way.
        if (detail::server_owned(*sub)) continue;
        walk(
            *sub, depth + 1, pointer + "/" + core::escape_pointer_token(name),
            [embed, valid_here, name = name](Gen<value> child) {
              return embed(gen::map(
                  gen::tuple(valid_here, std::move(child)), [name](std::tuple<value, value> t) {
                    boost::json::object o = std::get<0>(t).is_object() ? std::get<0>(t).get_object()
                                                                       : boost::json::object();
                    o[name] = std::move(std::get<1>(t));
                    return value(std::move(o));
                  }));
            },
            text_part(*sub, depth + 1, false));
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
    if (!arrays) return;
    for (std::size_t i = 0; i < r.prefix_items.size(); ++i) {
      if (r.max_items && *r.max_items <= i) break;
      walk(*r.prefix_items[i], depth + 1, pointer + "/" + std::to_string(i),
           at_index(r, depth, i, embed, valid_here),
           text_part(*r.prefix_items[i], depth + 1, true));
    }
    const std::size_t first = r.prefix_items.size();
    if (r.items != nullptr && !(r.max_items && *r.max_items <= first)) {
      walk(*r.items, depth + 1, pointer + "/" + std::to_string(first),
           at_index(r, depth, first, embed, valid_here), text_part(*r.items, depth + 1, true));
    }
  }

  /// Puts a child's value at index `i` of a valid array of `r`; items
  /// before it that the valid array lacks are drawn valid (each prefix
  /// item by its own schema, later ones by `items`).
  embed_fn at_index(const node& r, int depth, std::size_t i, const embed_fn& embed,
                    const Gen<value>& valid_here) {
    if (i == 0) {
      return [embed, valid_here](Gen<value> child) {
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
      };
    }
    Gen<boost::json::array> lead = gen::just(boost::json::array());
    for (std::size_t j = 0; j < i; ++j) {
      const node* item = j < r.prefix_items.size() ? r.prefix_items[j] : r.items;
      lead = gen::map(gen::tuple(lead, values_.build(*item, depth + 1)),
                      [](std::tuple<boost::json::array, value> t) {
                        std::get<0>(t).push_back(std::move(std::get<1>(t)));
                        return std::move(std::get<0>(t));
                      });
    }
    return [embed, valid_here, lead, i](Gen<value> child) {
      return embed(gen::map(gen::tuple(valid_here, lead, std::move(child)),
                            [i](std::tuple<value, boost::json::array, value> t) {
                              boost::json::array a = std::get<0>(t).is_array()
                                                         ? std::get<0>(t).get_array()
                                                         : boost::json::array();
                              const auto& fill = std::get<1>(t);
                              while (a.size() < i) a.push_back(fill[a.size()]);
                              if (a.size() > i) {
                                a[i] = std::move(std::get<2>(t));
                              } else {
                                a.push_back(std::move(std::get<2>(t)));
                              }
                              return value(std::move(a));
                            }));
    };
  }

  const node& root_;
  gen_options options_;
  detail::value_builder values_;
  std::vector<site> sites_;
  walk_mode mode_;
  bool as_text_ = false;  // the whole value travels as text (a parameter)
  bool form_ = false;     // the value is a form body: its scalar properties are text
  int branch_walks_ = 0;  // allOf / anyOf / oneOf branches being walked, nested
  bool malformed_ = false;
};

collector collect(const node& s, const gen_options& options, const invalid_options& invalid,
                  walk_mode mode = walk_mode::breaking) {
  collector c(s, options, mode, invalid);
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
    out.push_back(
        {kinds[i], std::move(gens[i].pointer), std::move(gens[i].description),
         rc::gen::map(std::move(gens[i].gen), [](invalid_value iv) { return std::move(*iv.json); }),
         std::move(gens[i].keyword)});
  }
  return out;
}

}  // namespace conform::generators
