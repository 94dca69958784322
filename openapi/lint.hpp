#pragma once
// The summary `conform spec lint` prints of a loaded description.

#include <ostream>
#include <string>
#include <vector>

#include "openapi/model.hpp"

namespace conform::openapi {

/// Writes the summary of a loaded description: operations per family,
/// schemes, scopes, paginated and idempotent operations.
void print_summary(const api_spec& spec, std::ostream& out);

}  // namespace conform::openapi
