#pragma once
// Generators of JSON values that conform to a schema, one generator per
// keyword composed with RapidCheck combinators. Shrinking keeps values valid.

#include <boost/json/value.hpp>
#include <rapidcheck.h>

#include <string>
#include <vector>

#include "generators/options.hpp"
#include "schema/schema.hpp"

namespace conform::generators {

/// Values valid for `s`. The schema (and its arena) must outlive the
/// generator. Patterns outside the supported subset fall back to generate-
/// then-filter (see unsupported_patterns); a schema that admits no value
/// yields a generator that fails with rc::GenerationFailure.
rc::Gen<boost::json::value> valid_value(const schema::schema& s, const gen_options& options = {});

/// Values of any JSON type, nested at most `depth` levels.
rc::Gen<boost::json::value> any_value(int depth = 2);

/// One note per `pattern` reachable from `s` that the pattern generator does
/// not support ("<schema location>: <pattern>: <why>"): for those, valid
/// values come from filtering, which may fail ("not run: pattern unsupported").
std::vector<std::string> unsupported_patterns(const schema::schema& s);

}  // namespace conform::generators
