#pragma once
// Where each constraint of a description comes from. Every keyword that
// restricts a value (type, format, pattern, enum, const, the bounds, lengths
// and item counts, uniqueItems, required, additionalProperties, ...) is
// grounded by the nearest `x-assumption` that covers it: on its own schema
// node, else on the schema, parameter, header, request body or response it
// is written inside (docs/spec-extensions.md). An entry inside a subschema
// (`items`, `prefixItems`, `additionalProperties`, `allOf`, `anyOf`, `oneOf`,
// `not`) grounds the constraints written there; a `not` is grounded by what
// grounds the constraints under it. A constraint whose grounds are
// all assumptions is "assumed": a failure resting on it alone is reported as
// contradicting an assumption of the description, not as a fault.

#include <string>
#include <string_view>
#include <vector>

#include "openapi/model.hpp"

namespace conform::openapi {

/// One constraint and what grounds it.
struct constraint_ground {
  std::string file;      // the file it is written in
  std::string location;  // JSON pointer of its node: "#/components/schemas/X/properties/y"
  std::string keyword;   // "maxLength", "required", ...
  std::string property;  // `required`: the property it requires; else ""
  source_pos pos;        // of its node
  std::vector<schema::provenance> grounds;  // the nearest entries that cover it; empty: none

  bool grounded() const { return !grounds.empty(); }
  /// True when it is grounded and every ground is an assumption.
  bool assumed() const;
  /// "<location>/<keyword>" (and "/<property>" for `required`).
  std::string where() const;
  /// "<where>: <ground>; <ground>", as reports name a contradicted assumption.
  std::string text() const;
};

/// The constraint keywords written on `s` (not through $ref), in a stable
/// order; `required` once per property it names is left to the caller.
std::vector<std::string> constraint_keywords(const schema::schema& s);

/// Every constraint of the description: each schema node's keywords, the
/// `required` of each query, header and cookie parameter and of each request
/// body; each once, in a stable order.
std::vector<constraint_ground> constraint_grounds(const api_spec& spec);

/// Marks every assumed constraint on its node (schema::assumed), and the
/// assumed `required` of parameters and request bodies. The loader calls it.
void resolve_provenance(api_spec& spec);

}  // namespace conform::openapi
