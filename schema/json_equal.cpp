// The validator's small public helpers: JSON equality (numbers by value,
// objects without order), pattern searches through the shared cache, and
// code point counts.

#include <boost/json/value.hpp>

#include "core/text.hpp"
#include "schema/detail/pattern_cache.hpp"
#include "schema/validator.hpp"

namespace conform::schema {

namespace {

using boost::json::kind;
using boost::json::value;

bool is_json_number(const value& v) {
  return v.is_int64() || v.is_uint64() || v.is_double();
}

}  // namespace

bool json_equal(const value& a, const value& b) {
  if (is_json_number(a) && is_json_number(b)) {
    auto wide = [](const value& v) -> long double {
      if (v.is_int64()) return static_cast<long double>(v.get_int64());
      if (v.is_uint64()) return static_cast<long double>(v.get_uint64());
      return static_cast<long double>(v.get_double());
    };
    return wide(a) == wide(b);
  }
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case kind::null:
      return true;
    case kind::bool_:
      return a.get_bool() == b.get_bool();
    case kind::string:
      return a.get_string() == b.get_string();
    case kind::array: {
      const auto& x = a.get_array();
      const auto& y = b.get_array();
      if (x.size() != y.size()) return false;
      for (std::size_t i = 0; i < x.size(); ++i) {
        if (!json_equal(x[i], y[i])) return false;
      }
      return true;
    }
    case kind::object: {
      const auto& x = a.get_object();
      const auto& y = b.get_object();
      if (x.size() != y.size()) return false;
      for (const auto& member : x) {
        const value* other = y.if_contains(member.key());
        if (other == nullptr || !json_equal(member.value(), *other)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

bool matches_pattern(std::string_view pattern, std::string_view text) {
  return search_pattern(pattern, text).value_or(false);
}

std::optional<bool> search_pattern(std::string_view pattern, std::string_view text) {
  const auto& compiled = detail::compile_pattern(pattern);
  if (!compiled.ok()) return std::nullopt;
  const detail::search_outcome found = compiled.search(text);
  if (found == detail::search_outcome::too_costly) return std::nullopt;
  return found == detail::search_outcome::match;
}

std::string pattern_error(std::string_view pattern) {
  return detail::compile_pattern(pattern).error();
}

std::size_t code_points(std::string_view text) {
  return core::code_points(text);
}

}  // namespace conform::schema
