#pragma once
// The checks every exchange gets, whatever the operation: a response came
// back, no 5xx, the status and the error_code are documented, the content
// type and the body conform, the request id is there, an invalid request is
// refused and a valid one is not refused as invalid.

#include <optional>
#include <string>
#include <vector>

#include "harness/catalogue.hpp"

namespace conform::suites {

/// Adds the response checks to `catalogue`.
void register_response_checks(harness::check_catalogue& catalogue);

/// The error_code values the operation documents for `status`: its own
/// response's x-error-codes when it documents the status, else the
/// description's operation-wide x-errors for it. nullopt when nothing is
/// documented for that status (a check cannot judge the code then).
std::optional<std::vector<std::string>> documented_error_codes(const openapi::api_spec& spec,
                                                               const openapi::operation& op,
                                                               int status);

/// True when `status` is documented for the operation, or is one any
/// operation may answer (x-errors, the rate limit on an authenticated one).
bool status_documented(const openapi::api_spec& spec, const openapi::operation& op, int status);

}  // namespace conform::suites
