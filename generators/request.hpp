#pragma once
// Whole requests for one operation of the spec model: path, query, headers
// and body, valid or with exactly one thing wrong. Credentials are not
// applied here (the engine adds them). Everything comes from the model.

#include <rapidcheck.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "generators/invalid.hpp"
#include "generators/options.hpp"
#include "openapi/model.hpp"

namespace conform::generators {

/// What is wrong with a generated request (none: it is valid).
enum class request_mutation : std::uint8_t {
  none,
  invalid_path_param,     // a path parameter's value breaks its schema
  invalid_query_param,    // a query parameter's value breaks its schema
  invalid_header_param,   // a header parameter's value breaks its schema
  missing_param,          // a required query or header parameter left out
  invalid_body,           // the body breaks its schema
  missing_body,           // a required body left out
  malformed_body,         // the JSON body does not parse
  wrong_content_type,     // a valid body sent as text/plain
  same_as_mismatch,       // a body property differs from the parameter x-same-as names
  invalid_cookie_param,   // a cookie parameter's value breaks its schema
  columns_not_in_header,  // a form body maps a column its CSV part's header lacks (x-columns-of)
};

/// "none", "invalid_query_param", ...
std::string_view to_string(request_mutation m);

/// Whether a request is generated to conform to the description or to
/// break it in one way: the axis the engine plans along.
enum class request_kind : std::uint8_t { valid, invalid };

/// The mode a request was made in, and where it was broken.
struct request_mode {
  request_mutation mutation = request_mutation::none;
  std::string where;        // "query per_page", "header X-Tenant-Id", "body /name", ""
  std::string description;  // one line for reports
  std::optional<mutation_kind> value_mutation;  // the value-level mutation, when there is one
  bool valid() const { return mutation == request_mutation::none; }
  request_kind kind() const { return valid() ? request_kind::valid : request_kind::invalid; }
  /// What was broken, as a stable key: "invalid_query_param query per_page"
  /// ("" for a valid request).
  std::string key() const;
};

/// One request, ready for the transport (the engine adds credentials).
struct generated_request {
  const openapi::operation* op = nullptr;
  http::verb method = http::verb::get;
  std::string path;  // the template with parameters substituted and percent-encoded
  std::vector<std::pair<std::string, std::string>> query;    // in order, not encoded
  std::vector<std::pair<std::string, std::string>> headers;  // header parameters only
  /// Cookie parameters, sent in one `Cookie` header by the engine.
  std::vector<std::pair<std::string, std::string>> cookies;
  /// Names of query pairs whose values keep RFC 3986 reserved characters (allowReserved).
  std::vector<std::string> reserved_query;
  std::string body;          // bytes; empty with no body
  std::string content_type;  // the Content-Type to send; empty with no body
  request_mode mode;
  bool body_from_example = false;  // the body is one of the schema's examples
  /// The request carries values, and every one is one the description or
  /// the profile shows: a fixture, an example of the parameter's schema, a
  /// documented example body. A refusal of such a request cannot rest on a
  /// rule the schemas do not write down.
  bool documented = false;
  /// Path parameters filled from profile fixtures (name, value).
  std::vector<std::pair<std::string, std::string>> fixtures_used;
  /// The Accept header to send instead of the engine's (the media types the
  /// operation documents): nullopt keeps the engine's, "" sends no Accept,
  /// "*/*" any type. The coverage phase's content negotiation cases.
  std::optional<std::string> accept;

  /// `path`, then `?` and the percent-encoded query when there is one.
  std::string target() const;
};

/// The value a parameter must take (a path parameter's profile fixture,
/// x-resource; or any parameter's value a caller pins), or nullopt. A
/// parameter with a value is always sent.
using fixture_lookup = std::function<std::optional<std::string>(const openapi::parameter&)>;

/// How requests are generated.
struct request_options {
  gen_options values;               // for parameter and body values (values.fixture: x-fixture)
  int optional_param_percent = 50;  // chance an optional parameter is sent
  int optional_body_percent = 80;   // chance a body that is not required is sent
  int example_body_percent = 50;    // chance a body is one of its schema's valid examples
  std::size_t max_body_bytes = 1 << 20;  // valid bodies above this are not generated
  /// Header names the engine sets (any case): never generated nor broken here.
  std::vector<std::string> runner_headers;
  /// Body values pinned by JSON pointer ("/bulk_call_campaign_id"): set in
  /// every valid body (generated or example) where it stays valid.
  std::vector<std::pair<std::string, boost::json::value>> body_values;
};

/// Valid requests: every required parameter present and valid, path ids from
/// fixtures when the lookup has them, a body from the media type's schema.
/// The operation and its schemas must outlive the generator.
rc::Gen<generated_request> valid_request(const openapi::operation& op, fixture_lookup fixtures,
                                         const request_options& options = {});

/// Requests with exactly one thing wrong, each checked to be invalid as the
/// server will read it; nullopt when nothing in the operation can be broken.
std::optional<rc::Gen<generated_request>> invalid_request(const openapi::operation& op,
                                                          fixture_lookup fixtures,
                                                          const request_options& options = {});

/// The ways invalid_request can break `op`, as "mutation where" lines.
std::vector<std::string> request_mutations(const openapi::operation& op, fixture_lookup fixtures,
                                           const request_options& options = {});

/// One case of the coverage phase: a request that tests exactly one
/// constraint of the operation (or, for the first case, none: a plain valid
/// request). Sampled at size 0 with a fixed seed it is already minimal.
struct coverage_case {
  request_kind kind = request_kind::valid;
  /// Stable name of the constraint, unique within the operation:
  /// "invalid_query_param query per_page /: a number above the maximum 100",
  /// "boundary body /title: a string of exactly maxLength 500", "valid".
  std::string constraint;
  rc::Gen<generated_request> gen;
  /// What the case tests, for counts per constraint: the schema keyword
  /// ("type", "enum", "maxLength", ...) or the part of the request
  /// ("required parameter", "required body", "malformed body", "content
  /// type", "x-same-as"); "valid" for the plain valid request.
  std::string keyword;
};

/// The coverage cases of `op`, in a stable order: a valid request; per
/// parameter (path, query, header, cookie), each constraint of its schema
/// broken once (each type it does not admit once, as the server reads the
/// text) and each boundary value; the required parameters left out; per
/// body, each constraint broken once, each boundary value, malformed JSON,
/// the body left out or sent with the wrong content type; each x-same-as
/// broken; and the valid request twice more, once with `Accept: */*` and
/// once with no Accept, as clients that name no type send it. A generator may give up on
/// a sample (rc::GenerationFailure): the caller tries another seed, then
/// reports the case as not covered.
std::vector<coverage_case> coverage_cases(const openapi::operation& op, fixture_lookup fixtures,
                                          const request_options& options = {});

/// Query pairs as `a=1&b=x%20y` (RFC 3986 percent-encoding; ',' kept, the
/// delimiter of form-style lists); the values of pairs named in `reserved`
/// keep the reserved characters a query may hold (allowReserved).
std::string encode_query(const std::vector<std::pair<std::string, std::string>>& query,
                         const std::vector<std::string>& reserved = {});

}  // namespace conform::generators
