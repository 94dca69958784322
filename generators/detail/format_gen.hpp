#pragma once
// Generators of strings in the formats schema/format.hpp checks.

#include <boost/json/value.hpp>
#include <rapidcheck.h>

#include <optional>
#include <string>
#include <vector>

#include "schema/format.hpp"

namespace conform::generators::detail {

/// Strings valid for `kind`; nullopt for `unknown` (any string will do).
std::optional<rc::Gen<std::string>> format_generator(schema::format_kind kind);

/// A few strings that are not valid for `kind` (each checked by the caller).
std::vector<std::string> format_violations(schema::format_kind kind);

/// The numbers just outside a number format's range (`int32`, `int64`);
/// empty for the string formats.
std::vector<boost::json::value> number_format_violations(schema::format_kind kind);

}  // namespace conform::generators::detail
