#pragma once
// How the runner turns an operation and an auth model into a request
// generator, and a generated request into the bytes on the wire (the
// headers the runner owns: credentials, tenant context, idempotency key).

#include <optional>
#include <string>

#include "generators/request.hpp"
#include "harness/http/message.hpp"
#include "harness/runner/auth.hpp"

namespace conform::runner::detail {

/// A generator for (operation, auth model, mode), or why there is none (no
/// generator and an empty `why`: the mode does not apply to the operation).
struct made_generator {
  std::optional<rc::Gen<generators::generated_request>> gen;
  std::string why;
};

made_generator make_generator(const spec::api_spec& spec, const spec::operation& op,
                              const auth_choice& auth, request_mode mode);

/// The request to send: the generated parts plus the runner's headers.
/// `idempotency_key` must be unique per send (a replay or a reuse would
/// answer for an earlier request, not this one).
http::request to_http_request(const spec::api_spec& spec, const spec::operation& op,
                              const auth_choice& auth, const generators::generated_request& g,
                              std::string_view idempotency_key);

}  // namespace conform::runner::detail
