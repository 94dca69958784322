#include "schema/detail/json_value.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "core/text.hpp"

namespace conform::schema::detail {

using boost::json::kind;
using boost::json::value;

bool is_number(const value& v) {
  return v.is_int64() || v.is_uint64() || v.is_double();
}

double to_double(const value& v) {
  if (v.is_int64()) return static_cast<double>(v.get_int64());
  if (v.is_uint64()) return static_cast<double>(v.get_uint64());
  return v.get_double();
}

json_number as_json_number(const value& v) {
  json_number n;
  if (v.is_int64()) {
    n.i = v.get_int64();
  } else if (v.is_uint64()) {
    n.form = json_number::kind::uint64;
    n.u = v.get_uint64();
  } else {
    n.form = json_number::kind::real;
    n.d = v.get_double();
  }
  return n;
}

bool is_integral(const value& v) {
  if (v.is_int64() || v.is_uint64()) return true;
  if (!v.is_double()) return false;
  const double d = v.get_double();
  return std::isfinite(d) && std::trunc(d) == d;
}

bool type_admits(type_set types, const value& v) {
  if (types.any()) return true;
  switch (v.kind()) {
    case kind::null:
      return types.has(json_type::null);
    case kind::bool_:
      return types.has(json_type::boolean);
    case kind::int64:
    case kind::uint64:
      return types.has(json_type::integer);
    case kind::double_:
      return types.has(json_type::number) || (types.has(json_type::integer) && is_integral(v));
    case kind::string:
      return types.has(json_type::string);
    case kind::array:
      return types.has(json_type::array);
    case kind::object:
      return types.has(json_type::object);
  }
  return false;
}

const char* kind_name(const value& v) {
  switch (v.kind()) {
    case kind::null:
      return "null";
    case kind::bool_:
      return "boolean";
    case kind::int64:
    case kind::uint64:
      return "integer";
    case kind::double_:
      return "number";
    case kind::string:
      return "string";
    case kind::array:
      return "array";
    case kind::object:
      return "object";
  }
  return "unknown";
}

std::string types_text(type_set types) {
  std::string out;
  for (auto t : {json_type::null, json_type::boolean, json_type::integer, json_type::number,
                 json_type::string, json_type::array, json_type::object}) {
    if ((types.bits() & static_cast<std::uint8_t>(t)) == 0) continue;
    if (!out.empty()) out += " or ";
    out += to_string(t);
  }
  return out;
}

std::string excerpt(const value& v) {
  return core::excerpt(boost::json::serialize(v), 48);
}

bool multiple_of(const value& v, double m) {
  if (m <= 0) return true;  // a malformed bound constrains nothing
  if ((v.is_int64() || v.is_uint64()) && std::trunc(m) == m &&
      m < static_cast<double>(std::numeric_limits<std::int64_t>::max())) {
    const auto mi = static_cast<std::uint64_t>(m);
    if (v.is_uint64()) return v.get_uint64() % mi == 0;
    const std::int64_t i = v.get_int64();
    const std::uint64_t mag =
        i < 0 ? 0 - static_cast<std::uint64_t>(i) : static_cast<std::uint64_t>(i);
    return mag % mi == 0;
  }
  const double q = to_double(v) / m;
  if (!std::isfinite(q)) return false;
  // A few thousand ULPs of q: enough for 0.07 / 0.01, and still far below
  // the half a step that tells 9999999.995 from a multiple of 0.01.
  return std::fabs(q - std::round(q)) <= 1e-12 * std::max(1.0, std::fabs(q));
}

}  // namespace conform::schema::detail
