#pragma once
// `conform spec diff`: every change between two loaded descriptions, each
// classified by what it does to a client written against the old one.
// The rule set follows oasdiff's (docs/spec-diff.md maps one onto the other)
// and adds rules for our x- extensions. Requests and responses are judged in
// opposite directions: narrowing what a server accepts breaks clients,
// widening what it answers may break them too.

#include <string>
#include <string_view>
#include <vector>

#include "openapi/model.hpp"

namespace conform::openapi {

/// How bad a change is for an existing client (oasdiff's ERR, WARN, INFO).
enum class change_level : std::uint8_t {
  breaking,  // a client written against the old description fails
  warning,   // may break some clients; cannot be proven either way
  info,      // compatible
};
std::string_view to_string(change_level l);

struct spec_change {
  change_level level = change_level::info;
  /// Stable id of the rule, oasdiff's where one exists ("request-property-removed").
  std::string rule;
  /// "GET /items/{id}" as the new description spells it (the old one for a
  /// removed operation); empty for a change outside operations.
  std::string operation;
  std::string operation_id;
  /// Where inside it: "query parameter 'limit'", "request body
  /// application/json /name", "response 200 application/json /items[]/state",
  /// "security", "x-pagination.max_size", "security scheme 'bearer'".
  std::string where;
  /// What changed, with the old and new values: "maximum lowered from 100 to 50".
  std::string what;
};

/// Every change from `old_spec` to `new_spec`, operations in the old
/// description's order (added ones last), breaking ones not reordered.
/// Operations are matched by method and path template, parameter names
/// aside ("/items/{id}" is "/items/{item_id}").
std::vector<spec_change> diff(const api_spec& old_spec, const api_spec& new_spec);

/// Number of changes of `level`.
std::size_t count(const std::vector<spec_change>& changes, change_level level);

/// One line: "breaking  GET /items  query parameter 'limit'  maximum lowered
/// from 100 to 50 [request-parameter-max-decreased]".
std::string to_string(const spec_change& c);

}  // namespace conform::openapi
