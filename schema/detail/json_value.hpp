#pragma once
// Private to schema/: what the validator's keywords read off a JSON value
// (its number, whether a type admits it, its kind's name, a short excerpt
// for messages, multipleOf), apart from the walk (validator.cpp).

#include <boost/json/value.hpp>

#include <string>

#include "schema/format.hpp"
#include "schema/schema.hpp"

namespace conform::schema::detail {

bool is_number(const boost::json::value& v);

double to_double(const boost::json::value& v);

json_number as_json_number(const boost::json::value& v);

/// A whole number: an integer, or a finite double without a fraction.
bool is_integral(const boost::json::value& v);

/// Whether `types` (every type when none is named) admits `v`.
bool type_admits(type_set types, const boost::json::value& v);

/// The JSON Schema type name of `v`'s kind ("integer", "object", ...).
const char* kind_name(const boost::json::value& v);

/// The types of `types`, "integer or string".
std::string types_text(type_set types);

/// A short rendering of a value for messages: its JSON, cut as core::excerpt cuts.
std::string excerpt(const boost::json::value& v);

/// Whether `v` is a multiple of `m`, exactly for integers and within a few
/// thousand ULPs for doubles; a bound `m` <= 0 constrains nothing.
bool multiple_of(const boost::json::value& v, double m);

}  // namespace conform::schema::detail
