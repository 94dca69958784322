#pragma once
// JSON Schema validation over the schema model. Pure functions: callable from
// several threads at once; patterns are compiled once per process.

#include <boost/json/value.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "schema/schema.hpp"

namespace conform::schema {

/// One reason a value does not conform.
struct validation_error {
  std::string instance_pointer;  // JSON pointer into the value: "/data/items/3/id"
  std::string schema_location;   // schema::location + "/" + keyword
  std::string message;           // what is wrong, in one line
};

/// Limits of one validation.
struct validation_options {
  std::size_t max_errors = 32;  // errors collected at most (then `truncated`)
  std::size_t max_depth = 256;  // nesting of schema evaluations before giving up
};

/// The outcome of a validation: no errors means valid.
struct validation_result {
  std::vector<validation_error> errors;
  bool truncated = false;  // more errors than max_errors existed
  bool ok() const { return errors.empty(); }
};

/// Validates `value` against `s`. A valid value costs no allocation beyond
/// what std::regex_search needs for `pattern` keywords.
validation_result validate(const schema& s, const boost::json::value& value,
                           const validation_options& options = {});

/// True when `value` conforms to `s` (stops at the first failure).
bool is_valid(const schema& s, const boost::json::value& value,
              const validation_options& options = {});

/// JSON equality: numbers compare by value (1 == 1.0), objects ignore key order.
bool json_equal(const boost::json::value& a, const boost::json::value& b);

/// True when `text` contains a match of the ECMAScript `pattern` (search, not
/// match). A pattern that does not compile matches nothing.
bool matches_pattern(std::string_view pattern, std::string_view text);

/// Empty when `pattern` compiles as ECMAScript, else why not.
std::string pattern_error(std::string_view pattern);

/// Number of Unicode code points in UTF-8 `text`.
std::size_t code_points(std::string_view text);

}  // namespace conform::schema
