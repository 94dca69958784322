#pragma once
// How the engine turns an operation and an auth model into a request
// generator, and a generated request into the bytes on the wire (the
// headers the engine owns: credentials, tenant context, idempotency key).

#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "generators/request.hpp"
#include "harness/auth.hpp"
#include "harness/check.hpp"
#include "http/message.hpp"

namespace conform::harness {

/// A generator for (operation, auth model, mode), or why there is none (no
/// generator and an empty `why`: the mode does not apply to the operation).
struct made_generator {
  std::optional<rc::Gen<generators::generated_request>> gen;
  std::string why;
};

/// What a stateful step pins in its request: parameters by location and
/// name, body members by JSON pointer (ids another answer gave).
struct pinned_values {
  std::vector<std::tuple<openapi::param_location, std::string, std::string>> params;
  std::vector<std::pair<std::string, boost::json::value>> body;
  /// Take the description's examples (request bodies, path parameters
  /// without a fixture) before generated values.
  bool examples = false;
  /// The chance an optional parameter is sent; -1 keeps the generator's.
  int optional_param_percent = -1;
};

/// A generator for (operation, auth model, mode); `pinned` adds the values
/// a stateful step must send (valid mode).
made_generator make_generator(const openapi::api_spec& spec, const openapi::operation& op,
                              const auth_choice& auth, request_kind kind,
                              const pinned_values* pinned = nullptr);

/// The coverage cases of (operation, auth model): one request per
/// constraint, with the same options and fixtures as make_generator.
std::vector<generators::coverage_case> make_coverage(const openapi::api_spec& spec,
                                                     const openapi::operation& op,
                                                     const auth_choice& auth);

/// The request to send: the generated parts plus the engine's headers.
/// `idempotency_key` must be unique per send (a replay or a reuse would
/// answer for an earlier request, not this one).
http::request to_http_request(const openapi::api_spec& spec, const openapi::operation& op,
                              const auth_choice& auth, const generators::generated_request& g,
                              std::string_view idempotency_key);

/// Why `sent`, the request about to go out, no longer breaks what `g`'s
/// mode claims (a header the target adds with -H, a credential or the
/// engine's own headers overwrote the broken part, or put back the part
/// left out), or nullopt when the broken part reaches the wire as
/// generated. A valid request claims nothing, unless it names its own
/// Accept (or none), which the target's -H may overwrite.
std::optional<std::string> claim_lost(const generators::generated_request& g,
                                      const http::request& sent);

}  // namespace conform::harness
