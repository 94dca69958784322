#pragma once
// The typed model of an OpenAPI description and its permission matrix. The
// loader (loader.hpp) builds it; past the loader nothing is a raw YAML node
// or an unparsed string where a type exists. The `x-` extensions Conform
// reads are documented in docs/spec-extensions.md; each maps to one field
// here, named after it.

#include <boost/json/value.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/source.hpp"
#include "http/message.hpp"
#include "schema/schema.hpp"

namespace conform::openapi {

// The model's positions and diagnostics are core's.
using core::diagnostic;
using core::has_errors;
using core::severity;
using core::source_pos;

/// An operation's method is the transport's verb (http::method_name spells it).
using http::verb;
/// Parses "get" / "GET"; nullopt for anything else.
std::optional<verb> parse_method(std::string_view s);

/// Where a parameter travels. `querystring` (OpenAPI 3.2) is the whole query
/// string as one value, written in the media type of its `content`.
enum class param_location : std::uint8_t { path, query, header, cookie, querystring };
std::string_view to_string(param_location l);

/// A parameter's `style` (OpenAPI "Style Values"; RFC 6570 expansions).
enum class param_style : std::uint8_t {
  simple,           // path, header: 3,4,5
  label,            // path: .3.4.5
  matrix,           // path: ;id=3;id=4
  form,             // query, cookie: id=3&id=4
  space_delimited,  // query: id=3%204
  pipe_delimited,   // query: id=3|4
  deep_object,      // query: id[role]=admin
};
/// "simple", "spaceDelimited", "deepObject", ...
std::string_view to_string(param_style s);
std::optional<param_style> parse_param_style(std::string_view s);
/// The default style where `in` (path, header: simple; query, cookie: form).
param_style default_style(param_location in);
/// True when the specification allows `s` for a parameter in `in`.
bool style_allowed(param_style s, param_location in);

/// x-resource on a path parameter: which resource the id names, the profile
/// fixture that holds an existing one, and the 404 code an unknown id gets.
struct resource_ref {
  std::string name;                          // "follow_up"
  std::string fixture;                       // "follow_up_id"
  std::string not_found_code;                // "FOLLOW_UP_NOT_FOUND"
  std::optional<std::string> fixture_state;  // "cancellable", documented need on the fixture
};

struct parameter {
  std::string name;
  param_location in = param_location::query;
  bool required = false;
  const schema::schema* schema = nullptr;
  std::string description;
  std::optional<resource_ref> resource;  // x-resource
  /// How the value is written, as the description says (nullopt: not said).
  std::optional<param_style> style;
  std::optional<bool> explode;
  /// The style in effect: as written, else simple for path and header, form
  /// for query and cookie.
  param_style wire_style() const { return style.value_or(default_style(in)); }
  /// explode in effect: as written, else true with form only.
  bool wire_explode() const { return explode.value_or(wire_style() == param_style::form); }
  bool allow_reserved = false;     // query: reserved characters sent as they are
  bool allow_empty_value = false;  // query: `name=` may be sent
  /// A `content` parameter: the media type its value is written in
  /// ("application/json"); empty for a `schema` parameter.
  std::string content_media;
  /// Its `example`, then the `value`s of its `examples`, in order: values
  /// the description names (an id that exists, in the examples of many
  /// descriptions), never generated ones.
  std::vector<boost::json::value> examples;
  source_pos pos;
  /// Where it is written ("<file>#<pointer>", after $ref), and its
  /// x-assumption entries (they ground its `required` and its schema).
  std::string location;
  std::vector<schema::provenance> provenance;
  /// Set by resolve_provenance when `required` rests on an assumption alone:
  /// the assumption's text.
  std::string required_assumption;
};

/// One entry of a media type's `encoding` (multipart and urlencoded bodies).
struct property_encoding {
  std::string content_type;  // contentType ("" = not said)
  /// urlencoded: style and explode of the property (nullopt = not said).
  std::optional<param_style> style;
  std::optional<bool> explode;
  bool allow_reserved = false;
};

/// One media type of a request or response body.
struct media_type {
  std::string name;  // "application/json", "multipart/form-data"
  const schema::schema* schema = nullptr;
  /// multipart: per-part content type (encoding.<part>.contentType).
  std::map<std::string, std::string> part_content_types;
  /// Every `encoding` entry, by property name.
  std::map<std::string, property_encoding> encoding;
  /// The media type's own `example` and the `value` of each inline
  /// `examples` entry, in order: requests (or answers) the description shows.
  std::vector<boost::json::value> examples;
  /// OpenAPI 3.2 `itemSchema`: each item of a sequential media type
  /// (application/jsonl, application/x-ndjson, application/json-seq,
  /// text/event-stream); nullptr when not given.
  const schema::schema* item_schema = nullptr;
};

struct request_body {
  bool required = false;
  std::vector<media_type> content;
  source_pos pos;
  /// Where it is written ("<file>#<pointer>") and its x-assumption entries.
  std::string location;
  std::vector<schema::provenance> provenance;
  /// Set by resolve_provenance when `required` rests on an assumption alone.
  std::string required_assumption;
  const media_type* find(std::string_view media) const;
};

struct header_def {
  std::string name;
  bool required = false;
  const schema::schema* schema = nullptr;
};

/// A response's `links` entry (OpenAPI Link Object): which operation an
/// answer feeds, and with what. Values are runtime expressions
/// ("$response.body#/data/id", "$request.path.id") or constants.
struct link {
  std::string name;  // its key under `links`
  /// The operation it names (operationId, or operationRef resolved to one);
  /// empty when it names none the description has (a warning said so).
  std::string operation_id;
  /// Parameter name (optionally "path.id", "query.cursor") -> expression.
  std::vector<std::pair<std::string, std::string>> parameters;
  std::string request_body;  // an expression or a constant; "" for none
  std::string description;
  std::string operation_ref;  // as written, until resolved
  source_pos pos;
};

struct response {
  /// 100-599: that status; 1-5: a range ("4XX" is 4); 0: "default".
  int status = 0;
  bool is_default() const { return status == 0; }
  bool is_range() const { return status >= 1 && status <= 5; }
  /// True when this entry documents `http_status` (exactly, by range, or as default).
  bool covers(int http_status) const;
  std::string description;
  std::vector<media_type> content;
  std::vector<header_def> headers;
  /// x-error-codes: the error_code values this status can carry here.
  std::vector<std::string> error_codes;
  /// `links`, in document order.
  std::vector<link> links;
  source_pos pos;
  /// Where it is written ("<file>#<pointer>") and its x-assumption entries:
  /// all assumptions means the body this status documents is ours.
  std::string location;
  std::vector<schema::provenance> provenance;
  const media_type* find(std::string_view media) const;
};

/// How a response key is written: "default", "4XX" or "404".
std::string status_key(int status);

/// What kind of credential a scheme takes, as OpenAPI itself says it: http
/// bearer (oauth2 and openIdConnect end in one too; a JWT is a bearer with
/// `bearerFormat: JWT`), http basic and digest, apiKey (header, query or
/// cookie: `security_scheme::kind`), mutualTLS. What a credential of the
/// scheme does (its tenants, roles, key prefixes) is said by the scheme's
/// extensions, and our `x-credential` gives it a free label
/// (docs/spec-extensions.md).
enum class credential_kind : std::uint8_t {
  bearer,
  basic,
  digest,
  api_key,
  /// A client certificate presented in the TLS handshake (OpenAPI
  /// `mutualTLS`): nothing goes into the request itself.
  mutual_tls
};
/// "bearer", "basic", "digest", "api_key", "mutual_tls": the words a profile
/// names a scheme without a label by.
std::string_view to_string(credential_kind k);
std::optional<credential_kind> parse_credential_kind(std::string_view s);

struct security_scheme {
  std::string name;  // key under components.securitySchemes
  /// How the credential travels. oauth2 and openIdConnect are http_bearer.
  enum class type : std::uint8_t {
    http_bearer,
    http_basic,
    http_digest,
    api_key_header,
    api_key_query,
    api_key_cookie,
    mutual_tls  // a client certificate in the TLS handshake: no header, no parameter
  } kind = type::http_bearer;
  /// The header that carries it: "Authorization" (bearer, basic, digest), the
  /// apiKey header, or "Cookie" for an apiKey cookie; "" for an apiKey in query.
  std::string header;
  /// apiKey: the header, query parameter or cookie name.
  std::string param;
  /// The type as written: "http", "apiKey", "oauth2", "openIdConnect".
  std::string declared_type = "http";
  /// What OpenAPI says the scheme takes (its type).
  credential_kind credential = credential_kind::bearer;
  /// x-credential: the description's own label for its credentials (any
  /// name: "org_token"), "" when not written. Profiles name the scheme by it.
  std::string credential_label;
  /// http bearer: `bearerFormat` as written ("JWT"), "" when absent.
  std::string bearer_format;
  /// oauth2: every scope its flows declare, in order, without repeats.
  std::vector<std::string> flow_scopes;
  /// OpenAPI 3.2 `deprecated`: the scheme is on its way out.
  bool deprecated = false;
  /// OpenAPI 3.2 oauth2 `oauth2MetadataUrl` (RFC 8414), as written; "" when absent.
  std::string oauth2_metadata_url;
  /// x-key-prefixes: environment ("sandbox", "production") -> key prefix.
  std::map<std::string, std::string> key_prefixes;
  /// x-roles: the claim, its values, and those that may only read.
  std::string role_claim;
  std::vector<std::string> roles;
  std::vector<std::string> read_only_roles;
  /// x-tenant-claim: the claim listing the tenants a token reaches (a
  /// string or an array of strings); "" when the description does not say.
  std::string tenant_claim;
  /// x-tenants: which tenants a credential of this scheme acts for, and
  /// whether it names one on a route that reads the tenant from a header.
  enum class tenant_reach : std::uint8_t {
    unknown,  // the description does not say (or says x-tenants: none)
    one,      // its own tenant alone: it names none, and no header widens it
    named,    // several: each call to a header-tenant route names one
    claimed,  // those its token's claims list: it names one when they are several
  };
  tenant_reach tenants = tenant_reach::unknown;
  source_pos pos;

  /// A JWT only where the description says so: an http bearer (or an
  /// oauth2 or openIdConnect token) with `bearerFormat: JWT`.
  bool is_jwt() const;
  /// How reports name an auth model of this scheme: its x-credential label
  /// when written ("org_token"), else the scheme's key ("petstore_auth").
  std::string label() const;
  /// The word a profile's `scheme:` names it by, besides its key: its
  /// x-credential label, else its kind ("bearer", "api_key").
  std::string kind_name() const;
  /// True when a profile's `scheme: word` is for this scheme by that word
  /// (`kind_name()`; its key is matched by profile::bind).
  bool named_by(std::string_view word) const { return kind_name() == word; }
};

/// One alternative of an operation's `security`: every scheme listed must be
/// satisfied (Conform's description uses one scheme per alternative).
struct security_requirement {
  struct use {
    const security_scheme* scheme = nullptr;
    std::vector<std::string> scopes;
    source_pos pos;  // where the scheme is named in `security`
  };
  std::vector<use> schemes;
};

/// x-tenant-context: where an operation takes the effective tenant from.
struct tenant_context {
  enum class source : std::uint8_t { none, header, path, body } from = source::none;
  std::string name;  // header name, path parameter, or body property
  /// When the tenant comes from the path or body, the header is still read
  /// and must agree (header_name empty = not read).
  std::string header_name;
  /// What a caller that must name a tenant and did not gets.
  int missing_status = 0;
  std::string missing_code;
  source_pos pos;  // of the x-tenant-context node (unknown when absent)
};

/// x-pagination. Response locations are JSON pointers into the body.
struct pagination {
  enum class style : std::uint8_t { page, cursor } kind = style::page;
  std::string page_param;    // page style
  std::string size_param;    // per_page / page_size
  std::string cursor_param;  // cursor style
  std::int64_t default_size = 0, min_size = 1, max_size = 0;
  std::string items;        // "/data/items"
  std::string count;        // page: "/meta/count"
  std::string pages;        // page: "/meta/pages"
  std::string page;         // page: "/meta/page"
  std::string next_cursor;  // cursor: "/data/next_cursor"
  std::string item_id;      // identity of an item: "/id"
  /// Query parameters a traversal must keep identical (filters and sort).
  std::vector<std::string> filter_params;
  std::string sort_param;
  /// What a bad cursor (tampered, or reused with other filters) gets.
  int invalid_cursor_status = 0;
  std::string invalid_cursor_code;
  /// Parameters the route ignores (page counters on a cursor route).
  std::vector<std::string> ignored_params;
  source_pos pos;
};

/// x-idempotency.
struct idempotency {
  std::string header;  // "Idempotency-Key"
  bool required = false;
  int missing_status = 0;
  std::string missing_code;
  std::uint64_t max_key_length = 0;
  std::string replayed_header;  // "Idempotent-Replayed"
  int reused_status = 0;
  std::string reused_code;
  int conflict_status = 0;
  std::string conflict_code;
  /// How a second effect would show: read `field` of the item of
  /// `operation_id`'s list whose `match_field` equals the request body's
  /// `match_body_property`. Empty operation_id = no observable effect declared.
  struct effect_probe {
    std::string operation_id;
    std::string match_field;
    std::string match_body_property;
    std::string field;
    source_pos pos;
  } effect;
  source_pos pos;
};

/// A state machine of components.x-state-machines.
struct state_machine {
  std::string name;               // "campaign"
  std::string resource;           // the resource_ref name whose status it is
  std::string field;              // "status" (in the record)
  std::string read_operation_id;  // how to read the record's state (may be empty)
  std::vector<std::string> states;
  std::string initial;
  std::vector<std::string> terminal;
  struct transition {
    std::string from;
    std::string operation_id;
    std::string to;
    source_pos pos;
  };
  std::vector<transition> transitions;
  /// Preconditions of a move, each with the code a failed one gets.
  struct precondition {
    std::string operation_id;
    std::string error_code;
    std::string description;
    /// The profile fixture naming a resource on which this precondition
    /// fails (empty: none declared, so the precondition cannot be tested).
    std::string fixture;
    source_pos pos;
  };
  std::vector<precondition> preconditions;
  int refused_status = 0;
  std::string refused_code;
  /// State -> the profile fixture naming a resource in that state, so that a
  /// harness can reach the state through the API. Every key is a state.
  std::map<std::string, std::string> fixtures;
  source_pos pos;
};

/// x-transition on an operation: this operation moves `machine`'s resource
/// named by `parameter`.
struct transition_ref {
  std::string machine;
  std::string parameter;
  source_pos pos;
};

enum class access_kind : std::uint8_t { read, write };

struct operation {
  std::string operation_id;
  verb method = verb::get;
  /// The method as sent when it is none of Beast's verbs (`method` is then
  /// verb::unknown): OpenAPI 3.2's QUERY, or a key of `additionalOperations`.
  std::string method_text;
  /// "GET", "QUERY", "LINK": the method as it goes on the wire.
  std::string method_name() const;
  std::string path;  // template relative to the server URL: "/items/{id}"
  /// "DELETE /follow-ups/{id}": how reports name the operation.
  std::string method_path() const;
  std::vector<std::string> tags;
  std::string summary;
  std::vector<parameter> parameters;  // path-level ones merged in
  std::optional<request_body> body;
  std::vector<response> responses;  // sorted by status, "default" (0) first
  /// Alternatives; empty with `security_declared` = no credentials needed.
  std::vector<security_requirement> security;
  /// True when `security` was written (on the operation or the root), so an
  /// empty list means "no credentials" rather than "not said".
  bool security_declared = false;
  bool jwt_only = false;                     // x-jwt-only
  int jwt_only_status = 0;                   // what another credential gets (401)
  std::string jwt_only_code;                 // "JWT_REQUIRED"
  access_kind access = access_kind::read;    // x-access (default: GET read, else write)
  tenant_context tenant;                     // x-tenant-context
  std::optional<pagination> paging;          // x-pagination
  std::optional<idempotency> idempotent;     // x-idempotency
  std::optional<transition_ref> transition;  // x-transition
  /// x-repeatable: the same request sent again gets the same answer (status
  /// and body, the request id aside): a delivery a caller may repeat.
  bool repeatable = false;
  /// x-creates: a POST that makes new records and changes none it did not
  /// make, though it answers 200 (safe mode sends it: harness/write_guard.hpp).
  bool creates = false;
  /// x-family, the permission matrix's route family; without it the first
  /// tag, else the first path segment (`family_pos` unknown then).
  std::string family;
  std::vector<std::string> assumptions;  // x-assumption texts
  source_pos pos;
  source_pos family_pos;  // of x-family (unknown when absent)
  /// True when operationId was not written and Conform made one up from the
  /// method and the path ("get_pets_id").
  bool synthesised_id = false;
  /// True when a `$ref` inside it could not be resolved (said at the
  /// reference): the checks that would only repeat that loss (a path
  /// parameter "with no definition") keep quiet.
  bool unresolved = false;

  /// True unless `security` is empty or has an empty alternative (`{}`: anonymous allowed).
  bool needs_credentials() const {
    for (const auto& alt : security) {
      if (alt.schemes.empty()) return false;
    }
    return !security.empty();
  }
  const response* find_response(int status) const;  // the entry keyed `status`, else nullptr
  /// The entry that documents an answered status: the exact one, else its
  /// range ("4XX"), else "default"; nullptr when none does.
  const response* documented_response(int http_status) const;
  const parameter* find_parameter(std::string_view name, param_location in) const;
  /// Schemes accepted, in order, deduplicated.
  std::vector<const security_scheme*> accepted_schemes() const;
  /// Scopes the scheme needs here; nullopt when the scheme is not accepted.
  std::optional<std::vector<std::string>> scopes_for(const security_scheme& s) const;
};

/// An x-same-as inside a request body: the property at `pointer` must equal
/// the parameter `same_as.in` / `same_as.name` of the same request.
struct same_as_binding {
  std::string pointer;  // JSON pointer in the body: "/knowledge_base_source/knowledge_base_id"
  const schema::schema* node = nullptr;  // the property's schema (carries x-same-as)
  schema::schema::same_as_ref same_as;
};

/// Every x-same-as reachable from `body` through properties and
/// allOf / anyOf / oneOf (not through array items), each pointer once.
std::vector<same_as_binding> same_as_bindings(const schema::schema& body);

/// An x-columns-of of a form body: the property whose object's keys name
/// columns, and the CSV part whose header row must hold each of them.
struct columns_binding {
  std::string property;                  // the body property whose keys name columns
  const schema::schema* node = nullptr;  // its schema (carries x-columns-of)
  schema::schema::columns_of_ref columns;
};

/// Every x-columns-of among the properties of `body` (its $ref followed).
std::vector<columns_binding> columns_bindings(const schema::schema& body);

/// specs/permissions.yaml: the permission matrix.
struct permission_matrix {
  struct scope_def {
    std::string name;
    std::string family;
    std::vector<std::string> key_types;  // x-credential labels
    bool opt_in = false;
    bool default_grant = false;
    source_pos pos;
  };
  struct operation_row {
    std::string operation_id;
    std::string family;
    /// Per key type (an x-credential label of the description): nullopt =
    /// not accepted; else the scopes needed.
    std::map<std::string, std::optional<std::vector<std::string>>> needs;
    source_pos pos;
    /// Where each key type's entry is written (absent = not written).
    std::map<std::string, source_pos> needs_pos;
    /// `public: true`: the operation takes no credentials (no key-type entries).
    bool is_public = false;
  };
  std::string file;
  std::vector<scope_def> scopes;
  std::vector<operation_row> operations;
  const scope_def* find_scope(std::string_view name) const;
  const operation_row* find_operation(std::string_view operation_id) const;
};

/// Root-level extensions that apply to every operation.
struct api_rules {
  /// x-request-id: header carrying the id, and what a client may send.
  std::string request_id_header;
  /// The top-level member of a JSON object body that repeats it ("" = none).
  std::string request_id_body_field;
  std::string request_id_pattern;
  /// x-rate-limit
  int rate_limited_status = 0;
  std::string rate_limited_code;
  std::string retry_after_header;
  /// x-one-credential: a request carries exactly one credential header (a
  /// repeated or empty one counts); what a request with more gets. 0: the
  /// description does not say.
  int one_credential_status = 0;
  std::string one_credential_code;
  /// x-auth-refusals: which status refuses a request for want of a valid
  /// credential (401) and which for a credential the operation does not
  /// accept: another scheme, a missing scope, a role (403). 0: the
  /// description does not say, and either refusal is accepted for both
  /// (RFC 9110 leaves servers that latitude; plain OpenAPI says nothing).
  int unauthenticated_status = 0;
  int forbidden_status = 0;
  /// x-limits
  std::uint64_t max_body_bytes = 0;
  std::uint64_t max_multipart_bytes = 0;
  /// x-errors: codes any operation may answer (unknown route, 405, 413, 415, 429, 500).
  struct generic_error {
    int status = 0;
    std::string code;
    /// `scope: route`: answered for an unknown route or method, never by a
    /// documented operation (404 NOT_FOUND, 405); else any operation may.
    bool route_level = false;
  };
  std::vector<generic_error> generic_errors;
  /// x-success-envelope / x-error-envelope: the component schemas every
  /// answer is checked against.
  const schema::schema* success_envelope = nullptr;
  const schema::schema* error_envelope = nullptr;
  /// x-error-envelope.code: JSON pointer of the machine-readable code in an
  /// error body ("/error_code"); "" when the description does not say.
  std::string error_code_pointer;
  /// x-error-envelope.validation_codes: the codes that say a request was
  /// refused as invalid (with 400, 415 and 422 answers).
  std::vector<std::string> validation_codes;
  /// x-tenant-id-fixture: the fixture name (x-fixture) that stands for the
  /// acting tenant's own id rather than a profile fixture ("" = none).
  std::string tenant_id_fixture;
  /// x-environments: environment names and which one a sandbox/production server runs as.
  std::vector<std::string> environments;
  /// x-retry: how a client retries (section 7). Empty `retryable_statuses`:
  /// the description says nothing, and no client retry rule can be judged.
  struct retry_policy {
    std::vector<int> retryable_statuses;     // retry these, with backoff (429: Retry-After)
    bool network_failures = false;           // retry when no answer came back
    std::vector<int> never_retry_unchanged;  // never re-send the same request after these
    std::uint64_t min_backoff_ms = 0;  // the first wait before a retry of a 5xx/network failure
    std::uint64_t max_backoff_ms = 0;  // cap on one wait (0 = no cap declared)
    std::uint64_t max_retries = 0;     // retries of one request at most (0 = not declared)
  } retry;
  /// x-rule-citations: what grounds a check's rule in this API's own prose
  /// and decisions, by check name. `rule` replaces the check's own generic
  /// citation (`check_info::rule`) where a report shows it; `expected` is
  /// what its failures quote in what they expected (empty: `rule`).
  struct citation {
    std::string rule;
    std::string expected;
  };
  std::map<std::string, citation, std::less<>> citations;
  /// The citation of check `check`, or nullptr when the description gives none.
  const citation* citation_of(std::string_view check) const {
    auto it = citations.find(check);
    return it == citations.end() ? nullptr : &it->second;
  }
};

struct server {
  std::string url;  // with {variables}
  std::string description;
  std::map<std::string, std::string> variable_defaults;
};

/// A loaded description. Movable, not copyable: schemas point into `arena`.
struct api_spec {
  std::string file;
  std::string openapi_version;  // "3.1.0"
  std::string title;
  std::string version;  // info.version
  std::string hash;     // sha256 of the bytes of every file loaded, hex
  /// OpenAPI 3.2 `$self`: the URI the description gives itself, its base for
  /// resolving references ("" when absent).
  std::string self_uri;
  std::vector<server> servers;
  std::vector<std::string> tags;
  std::vector<operation> operations;  // in document order
  /// Webhooks (3.1) named by key: loaded as far as their operations go, never sent.
  std::vector<std::string> webhooks;
  std::vector<std::unique_ptr<security_scheme>> schemes;
  std::map<std::string, state_machine> state_machines;
  api_rules rules;
  std::optional<permission_matrix> permissions;
  std::unique_ptr<schema::schema_arena> arena = std::make_unique<schema::schema_arena>();
  /// x-assumption entries written on parameters, headers, request bodies and
  /// responses, by "<file>#<pointer>" (schema nodes keep their own): what
  /// grounds the constraints of the schemas inside them (provenance.hpp).
  std::map<std::string, std::vector<schema::provenance>> x_assumptions;

  const operation* find_operation(std::string_view operation_id) const;
  const security_scheme* find_scheme(std::string_view name) const;
  /// The first scheme a profile's word names (`security_scheme::named_by`).
  const security_scheme* find_scheme_named_by(std::string_view word) const;
  /// The x-credential labels the schemes declare, in order, once each.
  std::vector<std::string> credential_labels() const;
};

}  // namespace conform::openapi
