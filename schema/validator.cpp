// The validator: one recursive walk that either stops at the first failure
// (fast mode, no allocation) or collects errors with their JSON pointers.

#include "schema/validator.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "core/text.hpp"
#include "schema/detail/json_value.hpp"
#include "schema/detail/pattern_cache.hpp"
#include "schema/format.hpp"

namespace conform::schema {

namespace {

using boost::json::kind;
using boost::json::value;

using detail::as_json_number;
using detail::excerpt;
using detail::is_integral;
using detail::is_number;
using detail::kind_name;
using detail::multiple_of;
using detail::to_double;
using detail::type_admits;
using detail::types_text;

/// The first keyword that could not be judged, shared by a walker and the
/// walkers it starts for subschemas.
struct undecided_note {
  bool hit = false;
  validation_error where;
};

/// The assumed constraints a walk met (relaxed and edges modes).
using assumption_hits = std::vector<validation_error>;

class walker {
 public:
  /// `out` null: fast mode (stop at the first failure, record nothing).
  /// `hits`: where relaxed and edges modes list the assumed constraints met.
  walker(const validation_options& options, validation_result* out, undecided_note* note,
         assumption_hits* hits = nullptr)
      : options_(options), out_(out), note_(note), hits_(hits) {}

  bool check(const schema& s, const value& v, std::size_t depth) {
    if (depth > options_.max_depth) {
      return fail(s, "$ref", [&] {
        return "schema nesting deeper than " + std::to_string(options_.max_depth) +
               " levels (a recursive schema that consumes no input?)";
      });
    }
    const schema& r = s.resolved();
    if (r.ref != nullptr) return true;  // a cycle of pure refs constrains nothing
    if (r.boolean == schema::boolean_form::accept_all) return true;
    if (r.boolean == schema::boolean_form::reject_all) {
      return fail(r, "", [] { return std::string("the schema is `false`: no value is allowed"); });
    }
    bool ok = true;
    auto step = [&](bool result) {
      ok = ok && result;
      return ok || collecting();
    };
    if (!step(check_type(r, v))) return false;
    if (!step(check_values(r, v))) return false;
    if (v.is_string() && !step(check_string(r, v.get_string()))) return false;
    if (is_number(v) && !step(check_number(r, v))) return false;
    if (v.is_array() && !step(check_array(r, v.get_array(), depth))) return false;
    if (v.is_object() && !step(check_object(r, v.get_object(), depth))) return false;
    if (!step(check_composition(r, v, depth))) return false;
    return ok;
  }

 private:
  bool collecting() const { return out_ != nullptr; }

  /// Relaxed mode: true when `keyword` (of `property`, for `required`) of
  /// `r` rests on an assumption alone, so that breaking it is no failure;
  /// the constraint is listed as met.
  bool relaxed(const schema& r, std::string_view keyword, std::string_view property = {}) {
    if (options_.assumptions != assumption_mode::relaxed || r.assumed.empty()) return false;
    const assumed_constraint* a = r.assumption_for(keyword, property);
    if (a == nullptr) return false;
    hit(*a, r, keyword);
    return true;
  }

  /// Edges mode: the value sits exactly on the bound `keyword` of `r`; listed
  /// when that bound rests on an assumption alone.
  void edge(const schema& r, std::string_view keyword) {
    if (options_.assumptions != assumption_mode::edges || r.assumed.empty()) return;
    if (const assumed_constraint* a = r.assumption_for(keyword)) hit(*a, r, keyword);
  }

  void hit(const assumed_constraint& a, const schema& r, std::string_view keyword) {
    if (hits_) add_hit(*hits_, {pointer_, r.location + "/" + std::string(keyword), a.text});
  }

  static void add_hit(assumption_hits& to, validation_error h) {
    for (const auto& k : to) {
      if (k.message == h.message) return;
    }
    to.push_back(std::move(h));
  }

  template <typename Message>
  bool fail(const schema& s, std::string_view keyword, Message&& message) {
    if (out_ == nullptr) return false;
    if (out_->errors.size() >= options_.max_errors) {
      out_->truncated = true;
      return false;
    }
    std::string location = s.location;
    if (!keyword.empty()) {
      location += '/';
      location += keyword;
    }
    out_->errors.push_back({pointer_, std::move(location), message()});
    return false;
  }

  /// A pattern that could not be matched within its limits: noted (the
  /// first one only), never an error, never a pass.
  bool undecided(const schema& r, std::string_view text) {
    if (!note_->hit) {
      note_->hit = true;
      note_->where = {pointer_, r.location + "/pattern",
                      "pattern too costly: " + *r.pattern + " on a string of " +
                          std::to_string(text.size()) + " bytes needs more than the " +
                          "regex engine's limits (docs/limits.md)"};
    }
    return false;
  }

  /// Runs `f` with `token` appended to the instance pointer (collect mode only).
  template <typename F>
  bool at(std::string_view token, F&& f) {
    if (!collecting()) return f();
    const std::size_t size = pointer_.size();
    pointer_ += '/';
    pointer_ += core::escape_pointer_token(token);
    const bool result = f();
    pointer_.resize(size);
    return result;
  }

  bool check_type(const schema& r, const value& v) {
    if (type_admits(r.types, v) || relaxed(r, "type")) return true;
    return fail(r, "type", [&] {
      return std::string("expected ") + types_text(r.types) + ", got " + kind_name(v);
    });
  }

  bool check_values(const schema& r, const value& v) {
    bool ok = true;
    if (r.const_value && !json_equal(*r.const_value, v) && !relaxed(r, "const")) {
      ok = fail(r, "const", [&] {
        return "expected the constant " + excerpt(*r.const_value) + ", got " + excerpt(v);
      });
      if (!collecting()) return false;
    }
    if (!r.enum_values.empty() &&
        std::none_of(r.enum_values.begin(), r.enum_values.end(),
                     [&](const value& e) { return json_equal(e, v); }) &&
        !relaxed(r, "enum")) {
      ok = fail(r, "enum", [&] {
        std::string allowed;
        for (std::size_t i = 0; i < r.enum_values.size() && i < 8; ++i) {
          if (i != 0) allowed += ", ";
          allowed += excerpt(r.enum_values[i]);
        }
        if (r.enum_values.size() > 8) allowed += ", ...";
        return excerpt(v) + " is not one of the allowed values (" + allowed + ")";
      });
    }
    return ok;
  }

  bool check_string(const schema& r, const boost::json::string& str) {
    const std::string_view text(str.data(), str.size());
    bool ok = true;
    if (r.min_length || r.max_length) {
      const std::size_t n = code_points(text);
      if (r.min_length && n == *r.min_length) edge(r, "minLength");
      if (r.max_length && n == *r.max_length) edge(r, "maxLength");
      if (r.min_length && n < *r.min_length && !relaxed(r, "minLength")) {
        ok = fail(r, "minLength", [&] {
          return "string has " + std::to_string(n) + " characters, fewer than minLength " +
                 std::to_string(*r.min_length);
        });
        if (!collecting()) return false;
      }
      if (r.max_length && n > *r.max_length && !relaxed(r, "maxLength")) {
        ok = fail(r, "maxLength", [&] {
          return "string has " + std::to_string(n) + " characters, more than maxLength " +
                 std::to_string(*r.max_length);
        });
        if (!collecting()) return false;
      }
    }
    if (r.pattern) {
      const auto& compiled = detail::compile_pattern(*r.pattern);
      detail::search_outcome found = detail::search_outcome::no_match;
      if (!compiled.ok()) {
        ok = fail(r, "pattern", [&] {
          return "the schema's pattern " + *r.pattern +
                 " is not an ECMAScript regex: " + compiled.error();
        });
      } else if ((found = compiled.search(text)) == detail::search_outcome::too_costly) {
        ok = undecided(r, text);
      } else if (found == detail::search_outcome::no_match && !relaxed(r, "pattern")) {
        ok = fail(r, "pattern", [&] {
          return excerpt(value(text)) + " does not match the pattern " + *r.pattern;
        });
      }
      if (!ok && !collecting()) return false;
    }
    if (r.format) {
      const format_kind f = parse_format(*r.format);
      if (!check_format(f, text) && !relaxed(r, "format")) {
        ok = fail(r, "format",
                  [&] { return excerpt(value(text)) + " is not a valid " + *r.format; });
      }
    }
    return ok;
  }

  bool check_number(const schema& r, const value& v) {
    const double d = to_double(v);
    bool ok = true;
    if (r.minimum && d == *r.minimum) edge(r, "minimum");
    if (r.maximum && d == *r.maximum) edge(r, "maximum");
    auto bound = [&](bool violated, const char* keyword, const char* relation, double b) {
      if (!violated || relaxed(r, keyword)) return true;
      ok = fail(r, keyword,
                [&] { return excerpt(v) + " is " + relation + " " + core::number_text(b); });
      return collecting();
    };
    if (r.minimum && !bound(d < *r.minimum, "minimum", "below the minimum", *r.minimum))
      return false;
    if (r.maximum && !bound(d > *r.maximum, "maximum", "above the maximum", *r.maximum))
      return false;
    if (r.exclusive_minimum && !bound(d <= *r.exclusive_minimum, "exclusiveMinimum",
                                      "not above the exclusive minimum", *r.exclusive_minimum)) {
      return false;
    }
    if (r.exclusive_maximum && !bound(d >= *r.exclusive_maximum, "exclusiveMaximum",
                                      "not below the exclusive maximum", *r.exclusive_maximum)) {
      return false;
    }
    if (r.multiple_of && !bound(!multiple_of(v, *r.multiple_of), "multipleOf", "not a multiple of",
                                *r.multiple_of)) {
      return false;
    }
    if (r.format) {
      const format_kind f = parse_format(*r.format);
      if (!check_number_format(f, as_json_number(v)) && !relaxed(r, "format")) {
        ok = fail(r, "format", [&] { return excerpt(v) + " is not a valid " + *r.format; });
      }
    }
    return ok;
  }

  bool check_array(const schema& r, const boost::json::array& a, std::size_t depth) {
    bool ok = true;
    if (r.min_items && a.size() == *r.min_items) edge(r, "minItems");
    if (r.max_items && a.size() == *r.max_items) edge(r, "maxItems");
    if (r.min_items && a.size() < *r.min_items && !relaxed(r, "minItems")) {
      ok = fail(r, "minItems", [&] {
        return "array has " + std::to_string(a.size()) + " items, fewer than minItems " +
               std::to_string(*r.min_items);
      });
      if (!collecting()) return false;
    }
    if (r.max_items && a.size() > *r.max_items && !relaxed(r, "maxItems")) {
      ok = fail(r, "maxItems", [&] {
        return "array has " + std::to_string(a.size()) + " items, more than maxItems " +
               std::to_string(*r.max_items);
      });
      if (!collecting()) return false;
    }
    if (r.unique_items) {
      for (std::size_t i = 1; i < a.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
          if (!json_equal(a[i], a[j])) continue;
          if (relaxed(r, "uniqueItems")) {
            i = a.size();  // dropped: no duplicate fails
            break;
          }
          ok = fail(r, "uniqueItems", [&] {
            return "items " + std::to_string(j) + " and " + std::to_string(i) +
                   " are equal; uniqueItems forbids duplicates";
          });
          if (!collecting()) return false;
          j = i;  // one report per duplicated item
        }
      }
    }
    for (std::size_t i = 0; i < a.size() && i < r.prefix_items.size(); ++i) {
      const schema& p = *r.prefix_items[i];
      const bool item_ok = collecting()
                               ? at(std::to_string(i), [&] { return check(p, a[i], depth + 1); })
                               : check(p, a[i], depth + 1);
      ok = ok && item_ok;
      if (!ok && !collecting()) return false;
    }
    if (r.items != nullptr) {
      for (std::size_t i = r.prefix_items.size(); i < a.size(); ++i) {
        const bool item_ok =
            collecting() ? at(std::to_string(i), [&] { return check(*r.items, a[i], depth + 1); })
                         : check(*r.items, a[i], depth + 1);
        ok = ok && item_ok;
        if (!ok && !collecting()) return false;
      }
    }
    return ok;
  }

  bool check_object(const schema& r, const boost::json::object& o, std::size_t depth) {
    bool ok = true;
    if (r.min_properties && o.size() == *r.min_properties) edge(r, "minProperties");
    if (r.max_properties && o.size() == *r.max_properties) edge(r, "maxProperties");
    if (r.min_properties && o.size() < *r.min_properties && !relaxed(r, "minProperties")) {
      ok = fail(r, "minProperties", [&] {
        return "object has " + std::to_string(o.size()) + " properties, fewer than minProperties " +
               std::to_string(*r.min_properties);
      });
      if (!collecting()) return false;
    }
    if (r.max_properties && o.size() > *r.max_properties && !relaxed(r, "maxProperties")) {
      ok = fail(r, "maxProperties", [&] {
        return "object has " + std::to_string(o.size()) + " properties, more than maxProperties " +
               std::to_string(*r.max_properties);
      });
      if (!collecting()) return false;
    }
    for (const std::string& name : r.required) {
      if (o.contains(name) || unseen(r.property(name)) || relaxed(r, "required", name)) continue;
      ok = fail(r, "required", [&] { return "missing required property \"" + name + "\""; });
      if (!collecting()) return false;
    }
    for (const auto& [trigger, names] : r.dependent_required) {
      if (!o.contains(trigger)) continue;
      for (const std::string& name : names) {
        if (o.contains(name) || relaxed(r, "dependentRequired")) continue;
        ok = fail(r, "dependentRequired", [&, &trigger = trigger] {
          return "property \"" + name + "\" is required when \"" + trigger + "\" is present";
        });
        if (!collecting()) return false;
      }
    }
    for (const auto& member : o) {
      const std::string_view key(member.key().data(), member.key().size());
      const schema* sub = r.property(key);
      bool member_ok = true;
      if (unseen(sub)) {
        // a readOnly property in a request, a writeOnly one in a response: ignored
      } else if (sub != nullptr) {
        member_ok = at(key, [&] { return check(*sub, member.value(), depth + 1); });
      } else if (!r.additional_allowed && !relaxed(r, "additionalProperties")) {
        member_ok = at(key, [&] {
          return fail(r, "additionalProperties", [&] {
            return "property \"" + std::string(key) +
                   "\" is not allowed (additionalProperties is false)";
          });
        });
      } else if (r.additional_properties != nullptr) {
        member_ok =
            at(key, [&] { return check(*r.additional_properties, member.value(), depth + 1); });
      }
      ok = ok && member_ok;
      if (!ok && !collecting()) return false;
    }
    return ok;
  }

  /// True for a property this direction neither requires nor judges: a
  /// readOnly one in a request, a writeOnly one in a response.
  bool unseen(const schema* property) const {
    if (property == nullptr || options_.way == direction::any) return false;
    const schema& r = property->resolved();
    return options_.way == direction::request ? property->read_only || r.read_only
                                              : property->write_only || r.write_only;
  }

  /// A fast-mode evaluation of a subschema (for anyOf, oneOf, not). The
  /// assumptions a branch met count only when it matched. With `strict`
  /// nothing is relaxed: under `not`, dropping a constraint would tighten
  /// the schema, not loosen it.
  bool matches(const schema& s, const value& v, std::size_t depth, bool strict = false) const {
    if (strict && options_.assumptions == assumption_mode::relaxed) {
      validation_options strict = options_;
      strict.assumptions = assumption_mode::strict;
      walker fast(strict, nullptr, note_);
      return fast.check(s, v, depth);
    }
    assumption_hits local;
    walker fast(options_, nullptr, note_, hits_ ? &local : nullptr);
    const bool matched = fast.check(s, v, depth);
    if (matched && hits_) {
      for (auto& h : local) add_hit(*hits_, std::move(h));
    }
    return matched;
  }

  /// A fast-mode evaluation of a subschema whose assumption hits go to
  /// `local` (when given), kept only if it matched.
  bool matches_into(const schema& s, const value& v, std::size_t depth,
                    assumption_hits* local) const {
    assumption_hits mine;
    walker fast(options_, nullptr, note_, local ? &mine : nullptr);
    const bool matched = fast.check(s, v, depth);
    if (matched && local) {
      for (auto& h : mine) add_hit(*local, std::move(h));
    }
    return matched;
  }

  /// True when some branch of anyOf takes `v`. The assumptions met are those
  /// of the first branch that takes it, none when one takes it meeting none.
  bool any_branch_matches(const schema& r, const value& v, std::size_t depth) {
    bool any = false;
    std::optional<assumption_hits> chosen;
    for (const schema* sub : r.any_of) {
      assumption_hits local;
      if (!matches_into(*sub, v, depth + 1, hits_ ? &local : nullptr)) continue;
      any = true;
      if (hits_ == nullptr) break;
      if (local.empty()) {
        chosen = assumption_hits{};
        break;
      }
      if (!chosen) chosen = std::move(local);
    }
    if (chosen) {
      for (auto& h : *chosen) add_hit(*hits_, std::move(h));
    }
    return any;
  }

  /// The first error of `s` on `v`, for explaining a failed anyOf / oneOf branch.
  std::string first_error(const schema& s, const value& v, std::size_t depth) const {
    validation_options one = options_;
    one.max_errors = 1;
    validation_result result;
    walker sub(one, &result, note_);
    sub.check(s, v, depth);
    if (result.errors.empty()) return "matches";
    const auto& e = result.errors.front();
    return (e.instance_pointer.empty() ? std::string("at the root") : "at " + e.instance_pointer) +
           ": " + e.message;
  }

  bool check_composition(const schema& r, const value& v, std::size_t depth) {
    bool ok = true;
    for (const schema* sub : r.all_of) {
      ok = check(*sub, v, depth + 1) && ok;
      if (!ok && !collecting()) return false;
    }
    if (!r.any_of.empty() && !any_branch_matches(r, v, depth)) {
      ok = fail(r, "anyOf", [&] {
        std::string why =
            "matches none of the " + std::to_string(r.any_of.size()) + " anyOf schemas";
        for (std::size_t i = 0; i < r.any_of.size() && i < 4; ++i) {
          why += "; #" + std::to_string(i) + " " + first_error(*r.any_of[i], v, depth + 1);
        }
        return why;
      });
      if (!collecting()) return false;
    }
    if (!r.one_of.empty()) {
      std::size_t count = 0;
      std::size_t first = 0, second = 0;
      assumption_hits met;
      for (std::size_t i = 0; i < r.one_of.size() && count < 2; ++i) {
        if (!matches_into(*r.one_of[i], v, depth + 1, hits_ ? &met : nullptr)) continue;
        (count == 0 ? first : second) = i;
        ++count;
      }
      // Relaxed: branches that overlap only once assumed constraints are
      // dropped (as the wrapped and flat shapes of a body may) do not make
      // the value invalid; an overlap the strict branches have does. When
      // one branch takes the value strictly, no assumption was met.
      if (count == 2 && options_.assumptions == assumption_mode::relaxed) {
        std::size_t strictly = 0;
        for (const auto* b : r.one_of) strictly += matches(*b, v, depth + 1, true) ? 1 : 0;
        if (strictly < 2) count = 1;
        if (strictly == 1) met.clear();
      }
      if (count == 1 && hits_) {
        for (auto& h : met) add_hit(*hits_, std::move(h));
      }
      if (count != 1) {
        ok = fail(r, "oneOf", [&] {
          if (count == 0) {
            std::string why =
                "matches none of the " + std::to_string(r.one_of.size()) + " oneOf schemas";
            for (std::size_t i = 0; i < r.one_of.size() && i < 4; ++i) {
              why += "; #" + std::to_string(i) + " " + first_error(*r.one_of[i], v, depth + 1);
            }
            return why;
          }
          return "matches oneOf schemas #" + std::to_string(first) + " and #" +
                 std::to_string(second) + "; exactly one must match";
        });
        if (!collecting()) return false;
      }
    }
    if (r.not_schema != nullptr && matches(*r.not_schema, v, depth + 1, true) &&
        !relaxed(r, "not")) {
      ok = fail(r, "not", [&] { return excerpt(v) + " matches the schema under `not`"; });
    }
    return ok;
  }

  const validation_options& options_;
  validation_result* out_;
  undecided_note* note_;
  assumption_hits* hits_;
  std::string pointer_;
};

}  // namespace

validation_result validate(const schema& s, const value& v, const validation_options& options) {
  validation_result result;
  undecided_note note;
  const bool listing = options.assumptions != assumption_mode::strict;
  walker fast(options, nullptr, &note, listing ? &result.assumed : nullptr);
  const bool valid = fast.check(s, v, 0);
  if (note.hit) {
    // Under `not` or `oneOf` an unjudged pattern may turn any conclusion
    // around: nothing is concluded.
    result.undecided = std::move(note.where);
    return result;
  }
  if (valid) return result;
  walker collector(options, &result, &note);
  collector.check(s, v, 0);
  if (result.errors.empty()) {
    // Cannot happen when both modes agree; never report an invalid value as valid.
    result.errors.push_back({"", s.location, "the value does not conform"});
  }
  return result;
}

judgement judge(const schema& s, const value& v, const validation_options& options) {
  undecided_note note;
  walker fast(options, nullptr, &note);
  const bool valid = fast.check(s, v, 0);
  if (note.hit) return judgement::undecided;
  return valid ? judgement::valid : judgement::invalid;
}

bool is_valid(const schema& s, const value& v, const validation_options& options) {
  return judge(s, v, options) == judgement::valid;
}

bool is_invalid(const schema& s, const value& v, const validation_options& options) {
  return judge(s, v, options) == judgement::invalid;
}

}  // namespace conform::schema
