#pragma once
// Builds the schema model from a JSON Schema document held as JSON: for tests,
// benchmarks and tools that have a schema but no OpenAPI description. The
// OpenAPI loader (harness/spec) does not use it.

#include <boost/json/value.hpp>

#include <stdexcept>
#include <string>

#include "schema/schema.hpp"

namespace conform::schema {

/// A document that is not a schema Conform understands; what() names the
/// JSON pointer of the offending node.
class schema_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Builds the nodes of `document` into `arena` and returns its root. `$ref`
/// takes local pointers ("#/$defs/node", cycles allowed); 3.0 `nullable` and
/// boolean `exclusiveMinimum` are folded as the OpenAPI loader does. Throws
/// schema_error on a malformed document.
const schema& schema_from_json(schema_arena& arena, const boost::json::value& document,
                               const std::string& file = "inline");

}  // namespace conform::schema
