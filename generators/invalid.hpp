#pragma once
// Generators of values that a schema rejects, one thing broken at a time,
// each checked against the validator before it is handed out.

#include <boost/json/value.hpp>
#include <rapidcheck.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "generators/options.hpp"
#include "schema/schema.hpp"

namespace conform::generators {

/// What was broken.
enum class mutation_kind : std::uint8_t {
  wrong_type,           // a value of a type the schema does not admit
  missing_required,     // a required property left out
  out_of_range,         // below minimum / above maximum / on an exclusive bound
  not_multiple_of,      // breaks multipleOf
  too_long,             // above maxLength
  too_short,            // below minLength
  not_in_enum,          // outside enum
  not_const,            // different from const
  pattern_violated,     // does not match pattern
  format_violated,      // not in the string format
  extra_property,       // a property where additionalProperties is false
  too_few_items,        // below minItems
  too_many_items,       // above maxItems
  duplicate_items,      // breaks uniqueItems
  too_few_properties,   // below minProperties
  too_many_properties,  // above maxProperties
  matches_not,          // matches the schema under `not`
  no_branch_matches,    // no branch of anyOf / oneOf accepts it
  malformed_json,       // bytes that are not JSON at all
};

/// "wrong_type", "missing_required", ...
std::string_view to_string(mutation_kind k);

/// A value the schema rejects, and what was done to it.
struct invalid_value {
  std::optional<boost::json::value> json;  // empty for malformed_json
  std::string raw;                         // malformed_json: the bytes to send
  mutation_kind kind = mutation_kind::wrong_type;
  std::string pointer;      // JSON pointer of the part broken ("" = the whole value)
  std::string description;  // one line: what is wrong and where

  /// The bytes to send: `raw` for malformed JSON, else the serialized value.
  std::string body() const;
};

/// What invalid_values may produce beyond schema violations.
struct invalid_options {
  bool malformed_json = false;  // add unparsable bytes as a mutation
  int probes = 24;              // samples tried per mutation before it is kept
  /// The value travels as text (a parameter): a numeric string is no wrong
  /// type there, since the server reads it back as the number it spells.
  bool as_text = false;
  /// The value is a form body (multipart, urlencoded): its scalar
  /// properties, and the items of its array properties, travel as text.
  bool form = false;
};

/// Values `s` rejects, one mutation at a time; every one has been checked
/// with the validator (malformed JSON: with the parser). nullopt when the
/// schema admits everything, so that no bogus case is made up.
std::optional<rc::Gen<invalid_value>> invalid_values(const schema::schema& s,
                                                     const gen_options& options = {},
                                                     const invalid_options& invalid = {});

/// Bytes that do not parse as JSON (broken snippets and valid values of `s`
/// cut short or with a trailing comma), each checked with the parser.
rc::Gen<invalid_value> malformed_json(const schema::schema& s, const gen_options& options = {});

/// One constraint of a schema and a generator of values that break exactly
/// it (the coverage phase sends one of each).
struct invalid_site {
  mutation_kind kind = mutation_kind::wrong_type;
  std::string pointer;      // where in the value ("" = the whole value)
  std::string description;  // "/name: a string of 65 characters, above maxLength 64"
  rc::Gen<invalid_value> gen;
  /// The keyword the site tests: "type", "enum", "maxLength", "required", ...
  std::string keyword;
  /// wrong_type: the JSON type of the values (one site per type not admitted).
  std::optional<schema::json_type> as_type;
};

/// The sites invalid_values picks from, in a stable order (the schema's
/// walk order, malformed JSON last): one per keyword and node, and for
/// `type` one per JSON type the node does not admit; at size 0 each gives
/// its nearest miss (a numeric string, a value one past the bound, an enum
/// value with its case changed). Each generator is checked like
/// invalid_values' and may give up (rc::GenerationFailure) on a sample.
std::vector<invalid_site> invalid_value_sites(const schema::schema& s,
                                              const gen_options& options = {},
                                              const invalid_options& invalid = {});

/// Which edge of a constraint a valid boundary value sits on.
enum class boundary_kind : std::uint8_t {
  at_minimum,   // the minimum (or just inside an exclusive one, integers)
  at_maximum,   // the maximum (or just inside an exclusive one, integers)
  min_length,   // a string of exactly minLength code points
  max_length,   // a string of exactly maxLength code points
  min_items,    // exactly minItems items
  max_items,    // exactly maxItems items
  empty_array,  // an empty array where minItems allows it
};

/// "at_minimum", "max_length", ...
std::string_view to_string(boundary_kind k);

/// A valid value of the whole schema with one part on the edge of its constraint.
struct boundary_site {
  boundary_kind kind = boundary_kind::at_minimum;
  std::string pointer;
  std::string description;          // "/per_page: the maximum 100"
  rc::Gen<boost::json::value> gen;  // every value is checked valid
  std::string keyword;              // "maximum", "maxLength", "minItems", ...
};

/// Boundary values of `s`, one site per constraint edge that a valid value
/// can sit on (sites that never yield a valid value in `probes` tries are
/// dropped, e.g. maxLength under a pattern that forbids that length).
std::vector<boundary_site> boundary_value_sites(const schema::schema& s,
                                                const gen_options& options = {}, int probes = 24);

/// The mutations invalid_values can make for `s`, as "kind at pointer" lines
/// (what a report lists as tested).
std::vector<std::string> mutation_sites(const schema::schema& s, const gen_options& options = {},
                                        const invalid_options& invalid = {});

}  // namespace conform::generators
