#pragma once
// JSON Schema validation over the schema model. Pure functions: callable from
// several threads at once; patterns are compiled once per process.

#include <boost/json/value.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
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

/// How a validation treats the constraints a description marks as resting
/// on an assumption alone (schema::assumed).
enum class assumption_mode : std::uint8_t {
  /// Like every other constraint.
  strict,
  /// Dropped: they never fail, and each that would have is listed in
  /// validation_result::assumed. A value valid this way and invalid strictly
  /// is invalid only by assumptions. (Under `not` nothing is dropped: that
  /// would tighten the schema, not loosen it; a `not` that is assumed as a
  /// whole, every constraint under it resting on an assumption, is dropped.)
  relaxed,
  /// Like strict; each assumed bound (min/max, lengths, item and property
  /// counts) the value sits exactly on is listed in validation_result::assumed.
  edges,
};

/// Which way a value travels. JSON Schema 2020-12 (section 9.4 of the
/// validation vocabulary): a readOnly property is the owning authority's,
/// and a write of it may be "ignored or rejected"; a writeOnly one is never
/// present when the value is retrieved. So in a request a readOnly
/// property, and in a response a writeOnly one, is neither required nor
/// judged (OpenAPI 3.0 says the same of `required`).
enum class direction : std::uint8_t { any, request, response };

/// Limits of one validation.
struct validation_options {
  std::size_t max_errors = 32;  // errors collected at most (then `truncated`)
  std::size_t max_depth = 256;  // nesting of schema evaluations before giving up
  assumption_mode assumptions = assumption_mode::strict;
  direction way = direction::any;
};

/// The outcome of a validation: valid when there is no error and nothing
/// was left undecided.
struct validation_result {
  std::vector<validation_error> errors;
  bool truncated = false;  // more errors than max_errors existed
  /// Set when a keyword could not be judged within the limits of
  /// core/limits.hpp (a `pattern` too costly to match): the value is then
  /// neither valid nor invalid, `errors` is empty, and the message starts
  /// with "pattern too costly".
  std::optional<validation_error> undecided;
  /// relaxed and edges modes: the assumed constraints met (message: the
  /// assumption's text, schema::assumed_constraint::text), each once.
  std::vector<validation_error> assumed;
  bool ok() const { return errors.empty() && !undecided; }
};

/// Validates `value` against `s`. A valid value costs no allocation beyond
/// what the regex engine needs for `pattern` keywords.
validation_result validate(const schema& s, const boost::json::value& value,
                           const validation_options& options = {});

/// What a validation concluded.
enum class judgement { valid, invalid, undecided };

/// Whether `value` conforms to `s` (stops at the first failure); undecided
/// when a pattern could not be matched within its limits.
judgement judge(const schema& s, const boost::json::value& value,
                const validation_options& options = {});

/// True when `value` surely conforms to `s`: judge() == valid.
bool is_valid(const schema& s, const boost::json::value& value,
              const validation_options& options = {});

/// True when `value` surely does not conform to `s`: judge() == invalid.
bool is_invalid(const schema& s, const boost::json::value& value,
                const validation_options& options = {});

/// JSON equality: numbers compare by value (1 == 1.0), objects ignore key order.
bool json_equal(const boost::json::value& a, const boost::json::value& b);

/// True when `text` surely contains a match of the ECMAScript `pattern`
/// (search, not match). A pattern that does not compile, or that is too
/// costly to match on `text`, matches nothing.
bool matches_pattern(std::string_view pattern, std::string_view text);

/// Whether `text` contains a match of `pattern`; nullopt when the pattern
/// does not compile or is too costly to match on `text`.
std::optional<bool> search_pattern(std::string_view pattern, std::string_view text);

/// Empty when `pattern` compiles as ECMAScript, else why not.
std::string pattern_error(std::string_view pattern);

/// Number of Unicode code points in UTF-8 `text`.
std::size_t code_points(std::string_view text);

}  // namespace conform::schema
