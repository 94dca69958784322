// Mutations of scalars: string lengths, pattern and format; number ranges
// and multipleOf. Each end of a range is its own site, and the value just
// past the end comes first (what the coverage phase sends, at size 0).

#include <utility>
#include <vector>

#include "generators/detail/format_gen.hpp"
#include "generators/detail/memo.hpp"
#include "generators/detail/mutations.hpp"
#include "schema/format.hpp"
#include "schema/validator.hpp"

namespace conform::generators::detail {

namespace {

namespace gen = rc::gen;
using boost::json::value;
using rc::Gen;
using schema::json_type;

Gen<value> map_string(Gen<value> g, std::function<std::string(std::string)> f) {
  return gen::map(std::move(g), [f = std::move(f)](value v) {
    return value(f(v.is_string() ? std::string(v.get_string()) : std::string()));
  });
}

/// A string of exactly `n` code points made from a valid one.
std::function<std::string(std::string)> of_length(std::size_t n) {
  return [n](std::string s) {
    const std::size_t have = schema::code_points(s);
    if (have < n) s.append(n - have, 'a');
    return take_code_points(s, n);
  };
}

}  // namespace

void string_sites(const mutation_scope& s, const site_fn& add) {
  const schema::schema& r = s.r;
  if (!r.types.any() && !r.types.has(json_type::string)) return;
  if (r.min_length && *r.min_length > 0) {
    const std::size_t n = *r.min_length - 1;
    add(mutation_kind::too_short, "minLength",
        "a string of " + std::to_string(n) + " characters, below minLength " +
            std::to_string(*r.min_length),
        map_string(s.valid_here, of_length(n)), std::nullopt);
  }
  if (r.max_length) {
    const std::size_t n = *r.max_length + 1;
    add(mutation_kind::too_long, "maxLength",
        "a string of " + std::to_string(n) + " characters, above maxLength " +
            std::to_string(*r.max_length),
        map_string(s.valid_here, of_length(n)), std::nullopt);
  }
  if (r.pattern) {
    const std::string p = *r.pattern;
    Gen<value> candidates = gen::oneOf(
        gen::elementOf(std::vector<value>{value(""), value(" "), value("~"),
                                          value("conform pattern violation!"), value("\t\n")}),
        map_string(s.valid_here, [](std::string x) { return x + "~"; }),
        map_string(s.valid_here, [](std::string x) { return " " + x; }));
    add(mutation_kind::pattern_violated, "pattern", "a string that does not match " + p,
        detail::such_that_kept(candidates,
                               [p](const value& v) {
                                 return v.is_string() &&
                                        schema::search_pattern(p, v.get_string()) == false;
                               }),
        std::nullopt);
  }
  if (r.format) {
    const auto f = schema::parse_format(*r.format);
    std::vector<value> bad;
    for (const auto& text : format_violations(f)) {
      if (!schema::check_format(f, text)) bad.emplace_back(text);
    }
    if (!bad.empty()) {
      add(mutation_kind::format_violated, "format", "a string that is not a valid " + *r.format,
          nearest_first(std::move(bad)), std::nullopt);
    }
  }
}

void number_sites(const mutation_scope& s, const site_fn& add) {
  const schema::schema& r = s.r;
  if (!r.types.any() && !r.types.has(json_type::integer)) return;
  const bool integral = !r.types.any() && !r.types.has(json_type::number);
  const double step = integral ? 1.0 : 0.5;
  auto bound = [&](const char* keyword, const char* what, double b, std::vector<double> values) {
    std::vector<value> out;
    for (double d : values) out.push_back(number_value(d));
    add(mutation_kind::out_of_range, keyword,
        std::string("a number ") + what + " " + core::number_text(b), nearest_first(std::move(out)),
        std::nullopt);
  };
  if (r.minimum) {
    bound("minimum", "below the minimum", *r.minimum,
          {std::floor(*r.minimum - step), *r.minimum - 1000});
  }
  if (r.maximum) {
    bound("maximum", "above the maximum", *r.maximum,
          {std::ceil(*r.maximum + step), *r.maximum + 1000});
  }
  if (r.exclusive_minimum) {
    bound("exclusiveMinimum", "at or below the exclusive minimum", *r.exclusive_minimum,
          {*r.exclusive_minimum, std::floor(*r.exclusive_minimum - step)});
  }
  if (r.exclusive_maximum) {
    bound("exclusiveMaximum", "at or above the exclusive maximum", *r.exclusive_maximum,
          {*r.exclusive_maximum, std::ceil(*r.exclusive_maximum + step)});
  }
  if (r.multiple_of) {
    const double m = *r.multiple_of;
    const double off = (std::trunc(m) == m && m >= 2) ? 1.0 : m / 2;
    add(mutation_kind::not_multiple_of, "multipleOf",
        "a number that is not a multiple of " + core::number_text(m),
        gen::map(s.valid_here,
                 [off](value v) {
                   return v.is_number() ? number_value(v.to_number<double>() + off)
                                        : number_value(off);
                 }),
        std::nullopt);
  }
  if (r.format) {
    if (auto out = number_format_violations(schema::parse_format(*r.format)); !out.empty()) {
      add(mutation_kind::format_violated, "format", "a number outside " + *r.format,
          nearest_first(std::move(out)), std::nullopt);
    }
  }
}

}  // namespace conform::generators::detail
