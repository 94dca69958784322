#pragma once
// Test helper: a canonical text of a loaded model without positions, file
// names, hash or OpenAPI version, so two descriptions can be compared.

#include <string>

#include "openapi/model.hpp"

namespace conform::openapi::testing {

/// Every operation, scheme, state machine and reachable schema, as text.
std::string dump(const api_spec& spec);

/// One schema and what it reaches (targets of $ref by location only).
std::string dump(const schema::schema& s);

}  // namespace conform::openapi::testing
