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

/// The mutations invalid_values can make for `s`, as "kind at pointer" lines
/// (what a report lists as tested).
std::vector<std::string> mutation_sites(const schema::schema& s, const gen_options& options = {},
                                        const invalid_options& invalid = {});

}  // namespace conform::generators
