#pragma once
// Shaping the requests the idempotency scenarios send: small amounts where a
// request moves something real, and telling two requests apart the way a
// server's idempotency store does (a multipart boundary is not content).

#include <string>

#include "generators/request.hpp"
#include "harness/http/message.hpp"

namespace conform::suites::idempotency_detail {

/// `g` with every top-level number of its JSON body that is neither a
/// fixture nor an enum set to a small valid value (`variant` picks one of a
/// few), so that a scenario that moves amounts moves little. Unchanged when the
/// body is not a JSON object or no small value fits a property's bounds.
generators::generated_request with_small_numbers(const spec::operation& op,
                                                 generators::generated_request g, int variant);

/// True when `a` and `b` are the same request as D4.2 compares them: method,
/// target, headers but the content type, and the body with any multipart
/// boundary taken out.
bool same_request(const http::request& a, const http::request& b);

}  // namespace conform::suites::idempotency_detail
