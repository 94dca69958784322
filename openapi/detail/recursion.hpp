#pragma once
// Private to the spec loader: recursive schemas need a base case. A schema
// that every value of which must contain a value of itself (through $ref,
// allOf, required properties, non-empty arrays; anyOf and oneOf only when
// every branch does) admits no finite value, and generating one would never
// end. Such schemas are refused at load, with the cycle named.

#include <set>
#include <vector>

#include "openapi/detail/reader.hpp"
#include "schema/schema.hpp"

namespace conform::openapi::detail {

/// Reports an error for each cycle without a base case among the schemas
/// reachable from `roots`; schemas in `skip` (already reported) are left out.
void check_base_cases(const std::vector<const schema::schema*>& roots,
                      const std::set<const schema::schema*>& skip, doc_reader& r);

}  // namespace conform::openapi::detail
