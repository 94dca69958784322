#pragma once
// Arazzo runtime expressions and criteria, the subset the workflow documents
// use: $statusCode, $response.body[#pointer], $response.header.<name>,
// $inputs.<name>, $steps.<step>.outputs.<name>; simple conditions (== and !=
// joined by &&) and JSONPath conditions of the form
// `$.a.b[?(@.x == 'v' && @.y != 1)]` (true when an item matches).
// Expressions are parsed once, when a document is loaded, so that a document
// that cannot be evaluated is refused before anything is sent.

#include <boost/json/value.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/outcome.hpp"
#include "harness/scenario.hpp"

namespace conform::suites::workflows {

/// One runtime expression.
struct expression {
  enum class kind { status_code, response_body, response_header, input, step_output };
  kind what = kind::status_code;
  std::string pointer;  // response_body: JSON pointer ("" = the whole body)
  std::string name;     // response_header, input: the name; step_output: the output
  std::string step;     // step_output: the step
  std::string text;     // as written
};

/// Parses `text` ("$response.body#/data/id"), or says why it is not one.
core::outcome<expression> parse_expression(std::string_view text);

/// A literal or a runtime expression, one side of a comparison.
struct operand {
  std::optional<expression> expr;
  boost::json::value literal;      // when !expr
  std::vector<expression> embeds;  // string literals: the {$...} they embed
};

/// `left == right` or `left != right`.
struct comparison {
  operand left, right;
  bool equal = true;
};

/// A successCriteria entry, parsed.
struct criterion {
  std::string text;  // the condition as written
  bool jsonpath = false;
  std::optional<expression> context;  // jsonpath: what the path applies to
  // simple: every comparison holds. jsonpath: `path` names an array (or the
  // value itself, with no filter) and an item satisfies every comparison,
  // whose left sides are `@` member names (in operand.literal).
  std::vector<comparison> all;
  std::vector<std::string> path;  // jsonpath: member names after `$`
  bool filter = false;
};

/// Parses a criterion, or says why it is outside the subset.
core::outcome<criterion> parse_criterion(std::string_view condition, std::string_view type,
                                         std::string_view context);

/// What expressions read from while a workflow runs.
struct scope {
  const harness::probe* response = nullptr;  // the current step's answer
  const std::map<std::string, boost::json::value>* inputs = nullptr;
  const std::map<std::string, std::map<std::string, boost::json::value>>* outputs = nullptr;
};

/// The value of `e`, or why there is none ("the response has no /data/id").
core::outcome<boost::json::value> evaluate(const expression& e, const scope& s);

/// `text` with every embedded `{$...}` replaced by its value's text.
core::outcome<std::string> expand(std::string_view text, const scope& s);

/// Appends to `out` the expressions `text` embeds in braces, or says which
/// one does not parse.
core::status embedded_expressions(std::string_view text, std::vector<expression>& out);

/// Whether `c` holds; `seen` says what came back either way (for reports).
bool holds(const criterion& c, const scope& s, std::string* seen);

/// The text of a JSON scalar as it goes into a path, query or header.
std::string scalar_text(const boost::json::value& v);

}  // namespace conform::suites::workflows
