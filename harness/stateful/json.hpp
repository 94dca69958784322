#pragma once
// What the stateful phase and the checks of its chains read from the
// exchanges: JSON pointers into answers, the places in a response schema
// where ids live, and parameter values read back from a request line.

#include <boost/json/value.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "openapi/model.hpp"
#include "schema/schema.hpp"

namespace conform::harness::stateful {

/// The value at JSON pointer `pointer` ("" is the root), or nullptr.
const boost::json::value* at(const boost::json::value& root, std::string_view pointer);

/// A scalar as the text a parameter carries ("42", "abc"); nullopt for
/// objects, arrays and null.
std::optional<std::string> text_of(const boost::json::value& v);

/// The pointer of the shallowest property whose name `match` accepts,
/// through properties, allOf, anyOf, oneOf and $ref but not into arrays.
std::optional<std::string> find_property(const schema::schema& s,
                                         const std::function<bool(std::string_view)>& match);

/// The pointer of the shallowest array (the root included) whose items
/// have an `id` property.
std::optional<std::string> find_id_array(const schema::schema& s);

/// The value of query parameter `name` in request target `target`, decoded.
std::optional<std::string> query_value(const std::string& target, const std::string& name);

/// The value of path parameter `name` of template `path` in request target
/// `target` ("/items/{id}" against "/items/42?x=1" gives "42"), decoded.
std::optional<std::string> path_value(const std::string& path, const std::string& target,
                                      const std::string& name);

/// True for an operation that may change the target (not GET or HEAD).
inline bool is_write(const openapi::operation& op) {
  return op.method != http::verb::get && op.method != http::verb::head;
}

}  // namespace conform::harness::stateful
