// Valid values on the edge of one constraint: the bounds themselves, the
// exact lengths and item counts, and an empty array where one is allowed.

#include <utility>
#include <vector>

#include "generators/detail/mutations.hpp"
#include "generators/value.hpp"
#include "schema/validator.hpp"

namespace conform::generators::detail {

void boundary_sites(const mutation_scope& s, const edge_fn& edge) {
  namespace gen = rc::gen;
  using boost::json::value;
  using rc::Gen;
  using schema::json_type;
  const schema::schema& r = s.r;
  const bool strings = !r.types.any() && r.types.has(json_type::string);
  const bool numbers = !r.types.any() && r.types.has(json_type::integer);
  // An array by its type, or by its array keywords when it names no type.
  const bool arrays = r.types.any() ? (r.items != nullptr || r.min_items || r.max_items)
                                    : r.types.has(json_type::array);
  if (numbers) {
    const bool integral = !r.types.has(json_type::number);
    auto at = [&](boundary_kind k, const char* keyword, const char* what, double d) {
      edge(k, keyword, std::string(what) + " " + core::number_text(d), gen::just(number_value(d)));
    };
    if (r.minimum) {
      at(boundary_kind::at_minimum, "minimum", "the minimum",
         integral ? std::ceil(*r.minimum) : *r.minimum);
    }
    if (r.maximum) {
      at(boundary_kind::at_maximum, "maximum", "the maximum",
         integral ? std::floor(*r.maximum) : *r.maximum);
    }
    if (r.exclusive_minimum && integral) {
      at(boundary_kind::at_minimum, "exclusiveMinimum", "just above the exclusive minimum",
         std::floor(*r.exclusive_minimum) + 1);
    }
    if (r.exclusive_maximum && integral) {
      at(boundary_kind::at_maximum, "exclusiveMaximum", "just below the exclusive maximum",
         std::ceil(*r.exclusive_maximum) - 1);
    }
  }
  // Lengths beyond this are not worth a request of their own.
  constexpr std::uint64_t max_exact = 1u << 18;
  auto exactly = [](std::size_t n) {
    return [n](const value& v) {
      std::string text = v.is_string() ? std::string(v.get_string()) : std::string();
      const std::size_t have = schema::code_points(text);
      if (have < n) text.append(n - have, 'a');
      return value(take_code_points(text, n));
    };
  };
  if (strings) {
    if (r.min_length && *r.min_length > 0 && *r.min_length <= max_exact) {
      edge(boundary_kind::min_length, "minLength",
           "a string of exactly minLength " + std::to_string(*r.min_length),
           gen::map(s.valid_here, exactly(*r.min_length)));
    }
    if (r.max_length && *r.max_length <= max_exact) {
      edge(boundary_kind::max_length, "maxLength",
           "a string of exactly maxLength " + std::to_string(*r.max_length),
           gen::map(s.valid_here, exactly(*r.max_length)));
    }
  }
  if (arrays) {
    auto as_array = [](const value& v) {
      return v.is_array() ? v.get_array() : boost::json::array();
    };
    const Gen<value> item =
        r.items != nullptr ? s.values.build(*r.items, s.depth + 1) : any_value(0);
    auto count = [&](boundary_kind k, const char* keyword, std::string what, std::size_t n) {
      edge(k, keyword, std::move(what),
           gen::map(gen::tuple(s.valid_here, gen::container<std::vector<value>>(n, item)),
                    [n, as_array](std::tuple<value, std::vector<value>> t) {
                      boost::json::array a = as_array(std::get<0>(t));
                      a.resize(std::min(a.size(), n));
                      for (std::size_t i = 0; a.size() < n; ++i) a.push_back(std::get<1>(t)[i]);
                      return value(std::move(a));
                    }));
    };
    if (!r.min_items || *r.min_items == 0) {
      edge(boundary_kind::empty_array, "minItems", "an empty array",
           gen::just(value(boost::json::array())));
    } else if (*r.min_items <= 64) {
      count(boundary_kind::min_items, "minItems",
            "exactly minItems " + std::to_string(*r.min_items), *r.min_items);
    }
    if (r.max_items && *r.max_items > 0 && *r.max_items <= 64) {
      count(boundary_kind::max_items, "maxItems",
            "exactly maxItems " + std::to_string(*r.max_items), *r.max_items);
    }
  }
}

}  // namespace conform::generators::detail
