#pragma once
// A check: described once (its name, what it expects, the rule it enforces)
// and run in one of two ways. A per-exchange check is a pure function of one
// request, what came back and the context it was sent in; the engine applies
// it to every generated exchange. A scenario check is reported by a
// procedure that sends requests of its own (scenario.hpp). The catalogue
// (catalogue.hpp) holds both kinds under one namespace of names.

#include <boost/json/value.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "generators/request.hpp"
#include "harness/auth.hpp"
#include "harness/run_report.hpp"
#include "http/message.hpp"
#include "openapi/model.hpp"

namespace conform::harness {

/// What a check is: its name, one line of what it expects, and the rule it
/// enforces (the description's extension, the OpenAPI field or the RFC).
struct check_info {
  std::string name;         // "status_code_conformance"
  std::string description;  // one line: what it sends and expects
  std::string rule;         // "OpenAPI responses; x-error-codes"
};

using generators::request_kind;

/// Which generated requests a per-exchange check judges.
enum class applies_to : std::uint8_t { valid, invalid, both };

/// True when a check that applies to `to` judges a request of `kind`.
inline bool applies(applies_to to, request_kind kind) {
  return to == applies_to::both || (to == applies_to::valid) == (kind == request_kind::valid);
}

/// One request sent and what came back, with the context checks need.
struct exchange {
  const openapi::api_spec& spec;
  const openapi::operation& op;
  const auth_model& auth;
  /// How the request was generated: valid, or broken in one way (`mode.key()` says how).
  const generators::request_mode& mode;
  const http::request& request;
  const http::result& result;
  /// The response body parsed as JSON, or nullptr when it is not JSON (or
  /// there is no response); `json_error` says why.
  const boost::json::value* json = nullptr;
  std::string_view json_error;
  /// The generated request behind `request` (what its values came from), or
  /// nullptr when a scenario built it.
  const generators::generated_request* generated = nullptr;
};

/// A check of one exchange.
struct exchange_check {
  check_info info;
  applies_to to = applies_to::both;
  std::function<check_verdict(const exchange&)> run;
  /// Whether the check can judge anything of `op` at all (empty: of every
  /// operation). An operation it cannot concern gets no cell, rather than a
  /// cell that "had nothing to judge".
  std::function<bool(const openapi::api_spec&, const openapi::operation&)> concerns;
  /// The check judges the answer alone, whatever made the request (a
  /// server error, an undocumented status or media type, a body against its
  /// schema). The engine then applies it to every exchange of the run, also
  /// to those it did not generate: a scenario's requests, the stateful
  /// walk's steps and the re-sends of shrinking (issue 37). Such an
  /// exchange has no `generated` request, and its `mode` and `auth` only
  /// name the phase.
  bool answers_alone = false;
};

}  // namespace conform::harness
