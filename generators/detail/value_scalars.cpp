// valid_value's scalars (detail/value_builder.hpp): integers and numbers
// within their bounds and multipleOf, strings of their length, format or
// pattern.

#include <rapidcheck.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "generators/detail/checks.hpp"
#include "generators/detail/filter.hpp"
#include "generators/detail/format_gen.hpp"
#include "generators/detail/lazy_tree.hpp"
#include "generators/detail/memo.hpp"
#include "generators/detail/pattern.hpp"
#include "generators/detail/value_builder.hpp"
#include "schema/format.hpp"
#include "schema/validator.hpp"

namespace conform::generators::detail {

namespace {

namespace gen = rc::gen;
using boost::json::value;
using rc::Gen;
using node = schema::schema;

constexpr double default_span = 1000.0;
constexpr double safe_integer = 9007199254740991.0;  // 2^53 - 1

Gen<value> to_value(Gen<std::string> g) {
  return gen::map(std::move(g), [](std::string s) { return value(std::move(s)); });
}

}  // namespace

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
    // int64 holds whatever safe_integer allows.
    lo = std::max(lo, static_cast<double>(std::numeric_limits<std::int32_t>::min()));
    hi = std::min(hi, static_cast<double>(std::numeric_limits<std::int32_t>::max()));
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
  static const std::string alphanumeric =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  static const std::vector<std::string> multi_byte = {"\xC3\xA9", "\xE4\xB8\xAD",
                                                      "\xF0\x9F\x98\x80"};
  // How often each kind of piece comes, for the tree and the draw below alike.
  constexpr std::size_t letters = 12, printable = 2, wide = 1;
  Gen<std::string> piece = detail::weighted_one_of<std::string>(
      {{letters, gen::map(gen::elementOf(alphanumeric), [](char c) { return std::string(1, c); })},
       {printable, gen::map(gen::resize(rc::kNominalSize, gen::inRange<char>(' ', '~' + 1)),
                            [](char c) { return std::string(1, c); })},
       {wide, gen::elementOf(multi_byte)}});
  auto tree = detail::mapcat(gen::inRange<std::size_t>(min, max + 1), [piece](std::size_t n) {
    return gen::map(gen::container<std::vector<std::string>>(n, piece),
                    [](const std::vector<std::string>& parts) {
                      std::string out;
                      for (const auto& p : parts) out += p;
                      return out;
                    });
  });
  // The same characters drawn without the tree: each piece's choice from
  // one split of its random state (by the weights above), its character
  // from the other.
  auto piece_of = [](const rc::Random& r, int, std::string& out) {
    rc::Random choice = r;
    const rc::Random pick = choice.split();
    const std::uint64_t weight = rc::Random(choice).next() % (letters + printable + wide);
    if (weight < letters) {
      out += alphanumeric[draw_index(pick, alphanumeric.size())];
    } else if (weight < letters + printable) {
      out += static_cast<char>(draw_in_range(pick, rc::kNominalSize, ' ', '~' + 1));
    } else {
      out += multi_byte[draw_index(pick, multi_byte.size())];
    }
  };
  return value_first(std::move(tree), [min, max, piece_of](const rc::Random& r, int size) {
    std::string out;
    draw_repeat(r, size, min, max, piece_of, out);
    return out;
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

}  // namespace conform::generators::detail
