// Schema comparison for `conform spec diff`: types, enums, formats, bounds,
// patterns, properties and composition, judged by direction (request values
// a client sends, response values it reads). Rule ids follow oasdiff's.
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <utility>

#include "core/text.hpp"
#include "openapi/detail/diff.hpp"

namespace conform::openapi::detail {

namespace {

using schema::json_type;
using schema::type_set;

constexpr json_type all_types[] = {json_type::null,   json_type::boolean, json_type::integer,
                                   json_type::number, json_type::string,  json_type::array,
                                   json_type::object};

/// True when `a` admits every type `b` admits.
bool covers(type_set a, type_set b) {
  if (a.any()) return true;
  if (b.any()) return false;
  for (json_type t : all_types) {
    if ((b.bits() & static_cast<std::uint8_t>(t)) != 0 && !a.has(t)) return false;
  }
  return true;
}

std::string type_text(type_set t) {
  if (t.any()) return "any";
  std::string out;
  for (json_type j : all_types) {
    if ((t.bits() & static_cast<std::uint8_t>(j)) == 0) continue;
    if (!out.empty()) out += "|";
    out += schema::to_string(j);
  }
  return out;
}

/// A bound as one comparable key: the value and whether it is exclusive.
struct bound {
  double value = 0;
  bool exclusive = false;
};

std::optional<bound> lower_of(const schema::schema& s) {
  std::optional<bound> b;
  if (s.minimum) b = bound{*s.minimum, false};
  if (s.exclusive_minimum && (!b || *s.exclusive_minimum >= b->value)) {
    b = bound{*s.exclusive_minimum, true};
  }
  return b;
}

std::optional<bound> upper_of(const schema::schema& s) {
  std::optional<bound> b;
  if (s.maximum) b = bound{*s.maximum, false};
  if (s.exclusive_maximum && (!b || *s.exclusive_maximum <= b->value)) {
    b = bound{*s.exclusive_maximum, true};
  }
  return b;
}

std::optional<bound> count_bound(const std::optional<std::uint64_t>& v) {
  if (!v) return std::nullopt;
  return bound{static_cast<double>(*v), false};
}

std::string json_text(const boost::json::value& v) {
  return boost::json::serialize(v);
}

bool contains(const std::vector<boost::json::value>& values, const boost::json::value& v) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

class walker {
 public:
  walker(diff_sink& sink, direction dir, std::string base)
      : sink_(sink), dir_(dir), base_(std::move(base)) {}

  /// `ptr` is the JSON pointer below the walk's base ("/items[]/name").
  void node(const schema::schema* os, const schema::schema* ns, const std::string& ptr,
            const std::string& subject) {
    if (os == nullptr || ns == nullptr) return;
    const schema::schema& o = os->resolved();
    const schema::schema& n = ns->resolved();
    if (!seen_.insert({&o, &n}).second) return;
    where_ = at(ptr);
    subject_ = subject;
    types(o, n);
    enums(o, n);
    format(o, n);
    bounds(o, n);
    pattern(o, n);
    multiple_of(o, n);
    if (!o.unique_items && n.unique_items) narrowed("unique-items-set", "uniqueItems set");
    if (o.unique_items && !n.unique_items) widened("unique-items-unset", "uniqueItems removed");
    const std::string prop = req() ? "request-property" : "response-property";
    properties(o, n, ptr, prop);
    composition(o, n, ptr, subject);
    if (o.items != nullptr && n.items != nullptr) node(o.items, n.items, ptr + "[]", prop);
    if (o.additional_properties != nullptr && n.additional_properties != nullptr) {
      node(o.additional_properties, n.additional_properties, ptr + "/*", prop);
    }
  }

 private:
  bool req() const { return dir_ == direction::request; }
  std::string at(const std::string& ptr) const { return ptr.empty() ? base_ : base_ + " " + ptr; }

  void add(change_level level, const std::string& suffix, std::string what) {
    sink_.add(level, subject_ + "-" + suffix, where_, std::move(what));
  }
  /// What the server accepts or answers got smaller: breaks a request.
  void narrowed(const std::string& suffix, std::string what) {
    add(req() ? change_level::breaking : change_level::info, suffix, std::move(what));
  }
  /// ... got larger: breaks a response.
  void widened(const std::string& suffix, std::string what) {
    add(req() ? change_level::info : change_level::breaking, suffix, std::move(what));
  }

  void types(const schema::schema& o, const schema::schema& n) {
    if (o.types == n.types) return;
    const std::string what =
        "type changed from " + type_text(o.types) + " to " + type_text(n.types);
    const type_set sender = req() ? o.types : n.types;    // what may be sent
    const type_set receiver = req() ? n.types : o.types;  // what is expected
    if (covers(receiver, sender)) {
      add(change_level::info, req() ? "type-generalized" : "type-specialized", what);
      return;
    }
    const bool o_null = !o.types.any() && o.types.has(json_type::null);
    const bool n_null = !n.types.any() && n.types.has(json_type::null);
    const type_set o_rest(static_cast<std::uint8_t>(o.types.bits() & ~1u));
    const type_set n_rest(static_cast<std::uint8_t>(n.types.bits() & ~1u));
    if (o_rest == n_rest && o_null != n_null) {
      add(change_level::breaking, n_null ? "became-nullable" : "became-not-nullable",
          n_null ? "became nullable" : "no longer nullable");
      return;
    }
    add(change_level::breaking, "type-changed", what);
  }

  void enums(const schema::schema& o, const schema::schema& n) {
    if (o.enum_values == n.enum_values) return;
    if (o.enum_values.empty()) {
      narrowed("became-enum",
               "became an enum of " + std::to_string(n.enum_values.size()) + " value(s)");
      return;
    }
    if (n.enum_values.empty()) {
      add(req() ? change_level::info : change_level::warning, "enum-removed",
          "enum removed: any value of the type now");
      return;
    }
    for (const auto& v : o.enum_values) {
      if (contains(n.enum_values, v)) continue;
      add(req() ? change_level::breaking : change_level::info, "enum-value-removed",
          "enum value " + json_text(v) + " removed");
    }
    for (const auto& v : n.enum_values) {
      if (contains(o.enum_values, v)) continue;
      // oasdiff: a new value in a response is a warning (a client switching
      // over the values meets one it does not know).
      add(req() ? change_level::info : change_level::warning, "enum-value-added",
          "enum value " + json_text(v) + " added");
    }
  }

  void format(const schema::schema& o, const schema::schema& n) {
    if (o.format == n.format) return;
    if (!o.format) {
      narrowed("format-added", "format '" + *n.format + "' added");
    } else if (!n.format) {
      add(req() ? change_level::info : change_level::warning, "format-removed",
          "format '" + *o.format + "' removed");
    } else {
      add(req() ? change_level::breaking : change_level::warning, "format-changed",
          "format changed from '" + *o.format + "' to '" + *n.format + "'");
    }
  }

  /// One bound: `lower` ones tighten upwards, upper ones downwards.
  void one_bound(bool lower, const std::string& rule, const char* keyword,
                 const char* exclusive_keyword, std::optional<bound> o, std::optional<bound> n) {
    if (!o && !n) return;
    if (o && n && o->value == n->value && o->exclusive == n->exclusive) return;
    auto text = [&](const bound& b) {
      return std::string(b.exclusive ? exclusive_keyword : keyword) + " " +
             core::whole_number_text(b.value);
    };
    if (!o) {
      narrowed(rule + "-set", text(*n) + " set");
      return;
    }
    if (!n) {
      widened(rule + "-unset", text(*o) + " removed");
      return;
    }
    const bool tighter = lower ? (n->value > o->value || (n->value == o->value && n->exclusive))
                               : (n->value < o->value || (n->value == o->value && n->exclusive));
    const std::string what = "changed from " + text(*o) + " to " + text(*n);
    const bool up =
        n->value > o->value || (n->value == o->value && (lower ? n->exclusive : !n->exclusive));
    const std::string suffix = rule + (up ? "-increased" : "-decreased");
    if (tighter) {
      narrowed(suffix, what);
    } else {
      widened(suffix, what);
    }
  }

  void bounds(const schema::schema& o, const schema::schema& n) {
    one_bound(true, "min", "minimum", "exclusiveMinimum", lower_of(o), lower_of(n));
    one_bound(false, "max", "maximum", "exclusiveMaximum", upper_of(o), upper_of(n));
    one_bound(true, "min-length", "minLength", "minLength", count_bound(o.min_length),
              count_bound(n.min_length));
    one_bound(false, "max-length", "maxLength", "maxLength", count_bound(o.max_length),
              count_bound(n.max_length));
    one_bound(true, "min-items", "minItems", "minItems", count_bound(o.min_items),
              count_bound(n.min_items));
    one_bound(false, "max-items", "maxItems", "maxItems", count_bound(o.max_items),
              count_bound(n.max_items));
    one_bound(true, "min-properties", "minProperties", "minProperties",
              count_bound(o.min_properties), count_bound(n.min_properties));
    one_bound(false, "max-properties", "maxProperties", "maxProperties",
              count_bound(o.max_properties), count_bound(n.max_properties));
  }

  void pattern(const schema::schema& o, const schema::schema& n) {
    if (o.pattern == n.pattern) return;
    if (!o.pattern) {
      narrowed("pattern-added", "pattern '" + *n.pattern + "' added");
    } else if (!n.pattern) {
      add(req() ? change_level::info : change_level::warning, "pattern-removed",
          "pattern '" + *o.pattern + "' removed");
    } else {
      // Whether one regex admits more than another cannot be decided here.
      add(change_level::warning, "pattern-changed",
          "pattern changed from '" + *o.pattern + "' to '" + *n.pattern + "'");
    }
  }

  void multiple_of(const schema::schema& o, const schema::schema& n) {
    if (o.multiple_of == n.multiple_of) return;
    auto divides = [](double d, double v) {
      const double q = v / d;
      return std::fabs(q - std::round(q)) < 1e-9;
    };
    if (!o.multiple_of) {
      narrowed("multiple-of-set", "multipleOf " + core::whole_number_text(*n.multiple_of) + " set");
    } else if (!n.multiple_of) {
      widened("multiple-of-unset",
              "multipleOf " + core::whole_number_text(*o.multiple_of) + " removed");
    } else {
      const std::string what = "multipleOf changed from " +
                               core::whole_number_text(*o.multiple_of) + " to " +
                               core::whole_number_text(*n.multiple_of);
      // Every old multiple is still one: the new step divides the old one.
      const bool wider = divides(*n.multiple_of, *o.multiple_of);
      if (wider) {
        widened("multiple-of-changed", what);
      } else {
        narrowed("multiple-of-changed", what);
      }
    }
  }

  void properties(const schema::schema& o, const schema::schema& n, const std::string& ptr,
                  const std::string& prop) {
    for (const auto& [name, os] : o.properties) {
      const schema::schema* ns = n.property(name);
      const schema::schema& ro = os->resolved();
      const std::string child = ptr + "/" + name;
      // A client never sends a readOnly property nor reads a writeOnly one.
      const bool unseen = req() ? ro.read_only : ro.write_only;
      if (ns == nullptr) {
        if (unseen) continue;
        where_ = at(child);
        subject_ = prop;
        if (req()) {
          // Still sendable unless the object is now closed.
          add(n.additional_allowed ? change_level::warning : change_level::breaking, "removed",
              "property '" + name + "' removed" +
                  (n.additional_allowed ? "" : " (and additionalProperties is false)"));
        } else {
          const bool was = o.is_required(name);
          sink_.add(
              was ? change_level::breaking : change_level::warning,
              was ? "response-required-property-removed" : "response-optional-property-removed",
              where_,
              std::string(was ? "required" : "optional") + " property '" + name + "' removed");
        }
        continue;
      }
      const schema::schema& rn = ns->resolved();
      const bool unseen_now = req() ? rn.read_only : rn.write_only;
      if (unseen && unseen_now) continue;
      where_ = at(child);
      subject_ = prop;
      const bool was = o.is_required(name), is = n.is_required(name);
      if (req() && !was && is) {
        if (rn.default_value) {
          add(change_level::info, "became-required-with-default",
              "property '" + name + "' became required (it has a default)");
        } else {
          add(change_level::breaking, "became-required", "property '" + name + "' became required");
        }
      } else if (req() && was && !is) {
        add(change_level::info, "became-optional", "property '" + name + "' became optional");
      } else if (!req() && was && !is) {
        add(change_level::breaking, "became-optional", "property '" + name + "' became optional");
      } else if (!req() && !was && is) {
        add(change_level::info, "became-required", "property '" + name + "' became required");
      }
      node(os, ns, child, prop);
      where_ = at(child);
    }
    for (const auto& [name, ns] : n.properties) {
      if (o.property(name) != nullptr) continue;
      const schema::schema& rn = ns->resolved();
      where_ = at(ptr + "/" + name);
      subject_ = prop;
      const bool is = n.is_required(name);
      if (req() && is && !rn.read_only && !rn.default_value) {
        sink_.add(change_level::breaking, "new-required-request-property", where_,
                  "required property '" + name + "' added");
      } else {
        const std::string rule =
            req() ? (is ? "new-required-request-property-with-default"
                        : "new-optional-request-property")
                  : (is ? "response-required-property-added" : "response-optional-property-added");
        sink_.add(change_level::info, rule, where_,
                  std::string(is ? "required" : "optional") + " property '" + name + "' added");
      }
    }
    where_ = at(ptr);
    if (req() && o.additional_allowed && o.additional_properties == nullptr &&
        !n.additional_allowed) {
      subject_ = prop;
      add(change_level::warning, "additional-properties-closed",
          "additionalProperties became false: undeclared properties are refused");
    }
  }

  void composition(const schema::schema& o, const schema::schema& n, const std::string& ptr,
                   const std::string& subject) {
    struct part {
      const char* keyword;
      const char* rule;
      const std::vector<const schema::schema*>& o;
      const std::vector<const schema::schema*>& n;
      bool conjunction;
    };
    const part parts[] = {{"allOf", "all-of", o.all_of, n.all_of, true},
                          {"anyOf", "any-of", o.any_of, n.any_of, false},
                          {"oneOf", "one-of", o.one_of, n.one_of, false}};
    for (const part& p : parts) {
      where_ = at(ptr);
      subject_ = subject;
      if (p.n.size() > p.o.size()) {
        const std::string what = std::string(p.keyword) + ": " +
                                 std::to_string(p.n.size() - p.o.size()) + " subschema(s) added";
        // One more conjunct narrows; one more branch widens.
        if (p.conjunction) {
          add(req() ? change_level::breaking : change_level::info, std::string(p.rule) + "-added",
              what);
        } else {
          add(req() ? change_level::info : change_level::breaking, std::string(p.rule) + "-added",
              what);
        }
      } else if (p.n.size() < p.o.size()) {
        const std::string what = std::string(p.keyword) + ": " +
                                 std::to_string(p.o.size() - p.n.size()) + " subschema(s) removed";
        if (p.conjunction) {
          add(req() ? change_level::warning : change_level::info, std::string(p.rule) + "-removed",
              what);
        } else {
          add(req() ? change_level::breaking : change_level::info, std::string(p.rule) + "-removed",
              what);
        }
      }
      const std::size_t common = std::min(p.o.size(), p.n.size());
      for (std::size_t i = 0; i < common; ++i) {
        node(p.o[i], p.n[i], ptr, subject);
      }
    }
  }

  diff_sink& sink_;
  direction dir_;
  std::string base_;
  std::set<std::pair<const schema::schema*, const schema::schema*>> seen_;
  std::string where_, subject_;
};

}  // namespace

void diff_schema(diff_sink& sink, direction dir, const schema::schema* old_schema,
                 const schema::schema* new_schema, const std::string& where,
                 const std::string& subject) {
  walker(sink, dir, where).node(old_schema, new_schema, "", subject);
}

}  // namespace conform::openapi::detail
