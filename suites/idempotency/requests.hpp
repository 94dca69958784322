#pragma once
// Shaping the requests the idempotency scenarios send: small amounts where a
// request moves something real (the scope matrix uses this too), telling two
// requests apart the way a server's idempotency store does (a multipart
// boundary is not content), and which answers that store keeps.

#include <string>

#include "generators/request.hpp"
#include "http/message.hpp"
#include "harness/scenario.hpp"
#include "openapi/model.hpp"

namespace conform::suites::idempotency {

/// `g` with every top-level number of its JSON body that is neither a
/// fixture nor an enum set to a small valid value (`variant` picks one of a
/// few), so that a scenario that moves amounts moves little. Unchanged when the
/// body is not a JSON object or no small value fits a property's bounds.
generators::generated_request with_small_numbers(const openapi::operation& op,
                                                 generators::generated_request g, int variant);

/// True when `a` and `b` are the same request of `op` as an idempotency store compares them:
/// method, target (path and query), the tenant context header of `op` (its
/// x-tenant-context header, or the header it still reads beside a path or
/// body tenant), and the body with any multipart boundary taken out. Other
/// headers (credentials, the key, tracing) do not count.
bool same_request(const openapi::operation& op, const http::request& a, const http::request& b);

/// True when `p` is an answer the idempotency store of `op` keeps and replays:
/// answered below 500, and not one of the answers given before the store is
/// reached (401, 403, the spec's rate-limited status, 415, and the missing
/// tenant context answer of `op`).
bool stored(const harness::probe& p, const openapi::operation& op, const openapi::api_spec& spec);

}  // namespace conform::suites::idempotency
