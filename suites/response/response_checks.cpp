#include "suites/response/response_checks.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>
#include <string_view>

#include "core/text.hpp"
#include "schema/validator.hpp"
#include "suites/response/grounds.hpp"
#include "suites/response/sequential.hpp"

namespace conform::suites {
namespace {

using core::join;

using check_fn = harness::check_verdict (*)(const harness::exchange&);
using harness::check_verdict;
using harness::exchange;

const http::response* response_of(const exchange& e) {
  return e.result.ok() ? &e.result.value() : nullptr;
}

/// The documented response for `status`: the exact one, else its range, else "default".
const openapi::response* documented_response(const openapi::operation& op, int status) {
  return op.documented_response(status);
}

const openapi::api_rules::generic_error* generic_error_for(const openapi::api_spec& spec,
                                                           int status) {
  for (const auto& g : spec.rules.generic_errors) {
    if (g.status == status && !g.route_level) return &g;
  }
  return nullptr;
}

/// JSON, or a structured syntax of it (RFC 6839: "+json").
bool json_media(const std::string& media) {
  return media == "application/json" || media.ends_with("+json");
}

/// The schema a JSON body of this status must match, or nullptr.
const schema::schema* expected_schema(const openapi::api_spec& spec, const openapi::operation& op,
                                      int status) {
  if (const auto* r = documented_response(op, status)) {
    for (const auto& m : r->content) {
      const std::string media = core::media_type_of(m.name);
      if (json_media(media) && m.schema) return m.schema;
    }
    return nullptr;
  }
  if (!status_documented(spec, op, status)) return nullptr;  // status_code_conformance says so
  if (status >= 400) return spec.rules.error_envelope;
  if (status >= 200 && status < 300) return spec.rules.success_envelope;
  return nullptr;
}

std::string excerpt_of(const boost::json::value& v) {
  return core::excerpt(boost::json::serialize(v), 120);
}

/// A JSON pointer with its array indices as "*", so that one fault in every
/// item of a list is one cause, not one per item.
std::string generic_pointer(std::string_view pointer) {
  std::string out;
  std::size_t i = 0;
  while (i < pointer.size()) {
    const std::size_t next = pointer.find('/', i + 1);
    const std::string_view segment = pointer.substr(i, next - i);  // "/3"
    const bool index =
        segment.size() > 1 && segment.find_first_not_of("0123456789", 1) == std::string_view::npos;
    out += index ? "/*" : std::string(segment);
    if (next == std::string_view::npos) break;
    i = next;
  }
  return out;
}

/// True for a rate-limit answer: it says nothing about the request's data.
bool rate_limited(const exchange& e, unsigned status) {
  return e.spec.rules.rate_limited_status != 0 &&
         status == static_cast<unsigned>(e.spec.rules.rate_limited_status);
}

const std::vector<std::string> json_only = {"application/json"};

/// True when `seen` is `documented` or lies in it, a range ("audio/*", "*/*").
bool media_in(const std::string& documented, const std::string& seen) {
  if (documented == seen || documented == "*/*") return true;
  return documented.ends_with("/*") && !seen.empty() &&
         seen.starts_with(documented.substr(0, documented.size() - 1));
}

/// True when the response's type is one the description documents for its
/// status, and not JSON: the server chose that representation (a client
/// that sent `Accept: */*` or none leaves the choice to it), so no JSON
/// body is owed.
bool chose_documented_non_json(const exchange& e, const http::response& r) {
  const auto* doc = documented_response(e.op, static_cast<int>(r.status));
  const std::string* header = r.find(http::field::content_type);
  if (!doc || !header) return false;
  const std::string seen = core::media_type_of(*header);
  if (json_media(seen)) return false;
  return std::any_of(doc->content.begin(), doc->content.end(), [&seen](const auto& m) {
    const std::string media = core::media_type_of(m.name);
    return !json_media(media) && media_in(media, seen);
  });
}

/// True for 204 and 304, the statuses HTTP forbids content in (RFC 9110
/// sections 15.3.5 and 15.4.5), whatever content the description lists.
bool no_content_status(unsigned status) {
  return status == 204 || status == 304;
}

// ---------------------------------------------------------------------------

check_verdict response_received(const exchange& e) {
  if (e.result.ok()) return check_verdict::pass();
  const auto& err = e.result.error();
  return check_verdict::violation("a response", "no response: " + err.message,
                                  "transport " + std::string(http::to_string(err.what)));
}

check_verdict not_a_server_error(const exchange& e) {
  const auto* r = response_of(e);
  if (!r) return check_verdict::not_applicable();
  if (r->status < 500) return check_verdict::pass();
  return check_verdict::violation("a status below 500", "status " + std::to_string(r->status),
                                  "status " + std::to_string(r->status));
}

check_verdict status_code_conformance(const exchange& e) {
  const auto* r = response_of(e);
  if (!r) return check_verdict::not_applicable();
  const int status = static_cast<int>(r->status);
  if (status_documented(e.spec, e.op, status)) return check_verdict::pass();
  // No `responses` at all (optional in OpenAPI 3.1): the answers are
  // undescribed, not forbidden. Only what is described is judged.
  if (e.op.responses.empty()) return check_verdict::not_applicable();
  // 413, 414 and 431 are refusals any HTTP server may give for content, a
  // URL or a header field longer than it takes (RFC 9110 sections 15.5.14
  // and 15.5.15, RFC 6585 section 5): a scenario sends such content on
  // purpose (payload_too_large), and this check judges its answer too.
  if (status == 413 || status == 414 || status == 431) return check_verdict::pass();
  std::vector<std::string> documented;
  for (const auto& resp : e.op.responses) {
    documented.push_back(openapi::status_key(resp.status));
  }
  return check_verdict::violation("a documented status (" + core::join(documented) + ")",
                                  "status " + std::to_string(status),
                                  "undocumented status " + std::to_string(status));
}

/// The error body's code (a string at x-error-envelope.code), or nullptr.
const boost::json::string* error_code_of(const exchange& e) {
  const auto& pointer = e.spec.rules.error_code_pointer;
  if (pointer.empty() || !e.json) return nullptr;
  boost::system::error_code ec;
  const auto* code = e.json->find_pointer(pointer, ec);
  return !ec && code && code->is_string() ? &code->as_string() : nullptr;
}

check_verdict error_code_conformance(const exchange& e) {
  const auto* r = response_of(e);
  if (!r || r->status < 400 || !e.json || !e.json->is_object())
    return check_verdict::not_applicable();
  const auto* code = error_code_of(e);
  if (!code) return check_verdict::not_applicable();  // the schema check says so
  const int status = static_cast<int>(r->status);
  auto allowed = documented_error_codes(e.spec, e.op, status);
  if (!allowed || allowed->empty()) return check_verdict::not_applicable();
  const std::string seen(*code);
  if (std::find(allowed->begin(), allowed->end(), seen) != allowed->end()) {
    return check_verdict::pass();
  }
  check_verdict v = check_verdict::violation(
      "error_code for " + std::to_string(status) + " one of " + core::join(*allowed),
      "error_code " + seen, std::to_string(status) + " " + seen);
  // Codes of a response that is an assumption of the description as a whole.
  const auto* doc = documented_response(e.op, status);
  if (const std::string whole = doc ? response::response_assumption(*doc) : ""; !whole.empty()) {
    v.assumed({whole});
  }
  return v;
}

check_verdict content_type_conformance(const exchange& e) {
  const auto* r = response_of(e);
  // A 204 or 304 has no content to type: no_content_is_empty judges one that has.
  if (!r || r->body.empty() || no_content_status(r->status)) return check_verdict::not_applicable();
  const int status = static_cast<int>(r->status);
  std::vector<std::string> allowed;
  if (const auto* doc = documented_response(e.op, status)) {
    for (const auto& m : doc->content) allowed.push_back(core::media_type_of(m.name));
    // A response without `content` leaves its payload undescribed: any body,
    // of any type, is outside what the description says.
    if (allowed.empty()) return check_verdict::not_applicable();
  } else if (status_documented(e.spec, e.op, status) &&
             (status >= 400 || (status >= 200 && status < 300))) {
    allowed = json_only;  // x-errors and the rate limit: the description's envelopes are JSON
  } else {
    // Undocumented: status_code_conformance says so; the body has no documented type.
    return check_verdict::not_applicable();
  }
  const std::string* header = r->find(http::field::content_type);
  const std::string seen = header ? core::media_type_of(*header) : std::string();
  // A documented range ("audio/*", "*/*") admits every type in it.
  const bool matches = std::any_of(allowed.begin(), allowed.end(),
                                   [&seen](const std::string& a) { return media_in(a, seen); });
  if (matches) return check_verdict::pass();
  return check_verdict::violation("Content-Type " + core::join(allowed, " or "),
                                  header ? "Content-Type " + *header : "no Content-Type",
                                  "content type " + (seen.empty() ? std::string("missing") : seen));
}

/// The assumptions alone a body that fails `s` breaks: the assumed
/// constraints it breaks, when it passes without them; else, when the
/// documented response as a whole is an assumption of the description, that
/// assumption, when the body keeps the description's envelope (if any).
std::vector<std::string> assumptions_broken(const exchange& e, const schema::schema& s,
                                            int status) {
  auto texts = response::response_only_breaks_assumptions(s, *e.json);
  if (!texts.empty()) return texts;
  const auto* doc = documented_response(e.op, status);
  const std::string whole = doc ? response::response_assumption(*doc) : std::string();
  if (whole.empty()) return {};
  const schema::schema* envelope = status >= 400                   ? e.spec.rules.error_envelope
                                   : status >= 200 && status < 300 ? e.spec.rules.success_envelope
                                                                   : nullptr;
  if (envelope && !schema::is_valid(*envelope, *e.json)) return {};
  return {whole};
}

/// The documented sequential media type (OpenAPI 3.2 itemSchema) the
/// response's Content-Type names, or nullptr.
const openapi::media_type* sequential_media(const openapi::operation& op, int status,
                                            const http::response& r) {
  const auto* doc = documented_response(op, status);
  if (!doc) return nullptr;
  const std::string* header = r.find(http::field::content_type);
  const std::string seen = header ? core::media_type_of(*header) : std::string();
  for (const auto& m : doc->content) {
    if (m.item_schema && core::media_type_of(m.name) == seen) return &m;
  }
  return nullptr;
}

/// A sequential body judged item by item against the media type's itemSchema.
check_verdict items_conform(const openapi::media_type& m, const http::response& r, int status) {
  std::vector<std::size_t> broken;
  const auto items = response::sequential_items(core::media_type_of(m.name), r.body, broken);
  const std::string status_text = std::to_string(status);
  if (!broken.empty()) {
    return check_verdict::violation("every item of the " + m.name + " body JSON",
                                    "item " + std::to_string(broken.front()) +
                                        " is not JSON: " + excerpt_of(items[broken.front()]),
                                    status_text + " item not JSON");
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    auto result = schema::validate(*m.item_schema, items[i],
                                   {.max_errors = 4, .way = schema::direction::response});
    if (result.ok()) continue;
    if (result.undecided) return check_verdict::not_run(result.undecided->message);
    const auto& first = result.errors.front();
    std::string seen;
    for (const auto& err : result.errors) {
      if (!seen.empty()) seen += "; ";
      seen += "item " + std::to_string(i) +
              (err.instance_pointer.empty() ? std::string() : err.instance_pointer) + ": " +
              err.message;
    }
    const auto& loc = m.item_schema->resolved().location;
    return check_verdict::violation(
        "every item of the body matching " + (loc.empty() ? m.item_schema->location : loc), seen,
        status_text + " item" +
            (first.instance_pointer.empty() ? std::string()
                                            : generic_pointer(first.instance_pointer)) +
            " " + first.schema_location.substr(first.schema_location.rfind('/') + 1));
  }
  return check_verdict::pass();
}

check_verdict response_schema_conformance(const exchange& e) {
  const auto* r = response_of(e);
  // No body to match, even where the description lists JSON content for the
  // status: HTTP forbids it there (no_content_is_empty judges one sent).
  if (!r || no_content_status(r->status)) return check_verdict::not_applicable();
  const int status = static_cast<int>(r->status);
  if (const auto* m = sequential_media(e.op, status, *r)) return items_conform(*m, *r, status);
  if (chose_documented_non_json(e, *r)) return check_verdict::not_applicable();
  const schema::schema* s = expected_schema(e.spec, e.op, status);
  if (!s) return check_verdict::not_applicable();
  if (!e.json) {
    return check_verdict::violation("a JSON body for " + std::to_string(status),
                                    "not JSON: " + std::string(e.json_error), "body not JSON");
  }
  auto result =
      schema::validate(*s, *e.json, {.max_errors = 4, .way = schema::direction::response});
  if (result.ok()) return check_verdict::pass();
  // Not run, never a pass: the validator could not decide within its limits.
  if (result.undecided) return check_verdict::not_run(result.undecided->message);
  const auto& first = result.errors.front();
  std::string seen;
  for (const auto& err : result.errors) {
    if (!seen.empty()) seen += "; ";
    seen += (err.instance_pointer.empty() ? std::string("/") : err.instance_pointer) + ": " +
            err.message;
  }
  check_verdict v = check_verdict::violation(
      "a body matching " + (s->resolved().location.empty() ? s->location : s->resolved().location),
      seen,
      std::to_string(status) + " " +
          (first.instance_pointer.empty() ? "/" : generic_pointer(first.instance_pointer)) + " " +
          first.schema_location.substr(first.schema_location.rfind('/') + 1));
  return v.assumed(assumptions_broken(e, *s, status));
}

check_verdict no_content_is_empty(const exchange& e) {
  const auto* r = response_of(e);
  if (!r || !no_content_status(r->status)) return check_verdict::not_applicable();
  const std::string status = std::to_string(r->status);
  const std::string expected = "no content in a " + status + " (RFC 9110 section " +
                               (r->status == 204 ? "15.3.5" : "15.4.5") + ")";
  if (!r->body.empty()) {
    const std::string* type = r->find(http::field::content_type);
    return check_verdict::violation(
        expected, "a body: " + core::body_excerpt(r->body, type ? *type : std::string(), 120),
        status + " with content");
  }
  // A parser ends a 204 at its header (RFC 9112 section 6.3): content the
  // server sent shows as the length it announced (RFC 9110 section 8.6,
  // RFC 9112 section 6.1). A 304's Content-Length is the selected
  // representation's, and no announcement.
  if (r->status == 204) {
    const std::string* length = r->find(http::field::content_length);
    if (length && *length != "0") {
      return check_verdict::violation(expected, "Content-Length " + *length,
                                      status + " with content");
    }
    if (const std::string* coding = r->find(http::field::transfer_encoding)) {
      return check_verdict::violation(expected, "Transfer-Encoding " + *coding,
                                      status + " with content");
    }
  }
  return check_verdict::pass();
}

check_verdict request_id_conformance(const exchange& e) {
  const auto* r = response_of(e);
  const std::string& header_name = e.spec.rules.request_id_header;
  if (!r || header_name.empty()) return check_verdict::not_applicable();
  const std::string* header = r->find(std::string_view(header_name));
  if (!header || header->empty()) {
    return check_verdict::violation("header " + header_name, "no " + header_name,
                                    "missing " + header_name);
  }
  const std::string& field = e.spec.rules.request_id_body_field;
  if (!field.empty() && e.json && e.json->is_object()) {
    const auto* body_id = e.json->as_object().if_contains(field);
    if (body_id && body_id->is_string() && body_id->as_string() != *header) {
      return check_verdict::violation(
          "body " + field + " equal to " + header_name,
          "body " + excerpt_of(*body_id) + ", header \"" + *header + "\"",
          field + " differs from " + header_name);
    }
  }
  return check_verdict::pass();
}

/// The status the operation documents for an invalid request: 422, else
/// 400; 0 when it documents neither.
int validation_status(const exchange& e) {
  return e.op.find_response(422) ? 422 : e.op.find_response(400) ? 400 : 0;
}

/// True when the error body's code, if it has one, is among the
/// description's validation codes (x-error-envelope), or it lists none.
bool validation_code_ok(const exchange& e) {
  const auto* c = error_code_of(e);
  const auto& validation = e.spec.rules.validation_codes;
  return !c || validation.empty() ||
         std::find(validation.begin(), validation.end(), std::string(*c)) != validation.end();
}

/// "404 NOT_FOUND": the status, and the error code when the body has one.
std::string refusal_message(const exchange& e);

std::string answer_of(const exchange& e, int status) {
  const auto* c = error_code_of(e);
  return std::to_string(status) + (c ? " " + std::string(*c) : std::string());
}

/// The answer with the server's own reason, when it gave one: `400
/// VALIDATION_ERROR ("name is too long")`.
std::string answer_with_reason(const exchange& e, int status) {
  std::string out = answer_of(e, status);
  const std::string why = e.result.ok() ? refusal_message(e) : std::string();
  if (!why.empty() && why != "{}") out += " (\"" + why + "\")";
  return out;
}

check_verdict negative_data_rejection(const exchange& e) {
  const auto* r = response_of(e);
  if (!r || r->status >= 500) return check_verdict::not_applicable();  // not_a_server_error says so
  if (rate_limited(e, r->status)) return check_verdict::not_applicable();
  if (r->status >= 400) {
    // A refusal that says the content was invalid (the validation status
    // and code, or a size refusal) confirms whatever the request broke.
    // Another one (404 for an id below an assumed minimum, a state
    // conflict) confirms nothing of an assumption the request broke alone.
    const int status = static_cast<int>(r->status);
    const int want = validation_status(e);
    const bool says_invalid =
        status == 413 || status == 414 || status == 431 ||
        ((want != 0 ? status == want : status == 400 || status == 422) && validation_code_ok(e));
    return says_invalid ? check_verdict::pass()
                        : response::assumptions_not_observed(e, answer_with_reason(e, status),
                                                             answer_of(e, status));
  }
  check_verdict v = check_verdict::violation(
      "a 4xx refusal of the invalid request (" + e.mode.key() + ")",
      "status " + std::to_string(r->status), "accepted invalid: " + e.mode.key());
  return v.assumed(response::invalid_only_by_assumptions(e));
}

/// The documented validation refusal of a request broken in one way: 422
/// when the operation documents one, else a 4xx, with `code` when given,
/// else a validation code (x-error-envelope) when the body carries one.
/// `what` names the broken rule in the failure's cause.
check_verdict validation_refusal(const exchange& e, const std::string& code,
                                 std::string_view what) {
  const auto* r = response_of(e);
  if (!r || rate_limited(e, r->status)) return check_verdict::not_applicable();
  const int want = validation_status(e);
  const int status = static_cast<int>(r->status);
  const bool status_ok = want != 0 ? status == want : status >= 400 && status < 500;
  const auto* c = error_code_of(e);
  const bool code_ok = code.empty() ? validation_code_ok(e) : c != nullptr && *c == code;
  if (status_ok && code_ok) return check_verdict::pass();
  // What came first says nothing of the body: a credential whose rights are
  // not stated refused, or a made-up id of the path not found.
  if ((status == 401 || status == 403) && !e.auth.unverified.empty()) {
    return check_verdict::not_applicable();
  }
  if (status == 404 && !e.auth.made_up.empty()) {
    return check_verdict::not_run(
        "the path named a made-up id (no fixture, none found), and "
        "its 404 came before the body was read");
  }
  std::string expected = want != 0 ? "status " + std::to_string(want) : std::string("a 4xx");
  if (!code.empty()) {
    expected += " " + code;
  } else if (!e.spec.rules.validation_codes.empty()) {
    expected += " with a validation code";
  }
  return check_verdict::violation(
      expected + " for " + e.mode.description, "status " + answer_with_reason(e, status),
      std::string(what) + " not enforced: " + e.mode.where + " status " + std::to_string(status));
}

/// A request whose x-same-as property differs from its parameter gets the
/// documented validation refusal.
check_verdict same_as_enforced(const exchange& e) {
  if (e.mode.mutation != generators::request_mutation::same_as_mismatch) {
    return check_verdict::not_applicable();
  }
  return validation_refusal(e, "", "same_as");
}

/// The error code an x-columns-of of the request's body names, or "".
std::string columns_code(const exchange& e) {
  if (!e.op.body) return {};
  for (const auto& m : e.op.body->content) {
    if (m.schema == nullptr) continue;
    for (const auto& b : openapi::columns_bindings(*m.schema)) {
      if (!b.columns.code.empty()) return b.columns.code;
    }
  }
  return {};
}

/// A form body whose x-columns-of part maps a column its CSV part's header
/// lacks gets the documented validation refusal, with the extension's code
/// when it names one.
check_verdict columns_in_header(const exchange& e) {
  if (e.mode.mutation != generators::request_mutation::columns_not_in_header) {
    return check_verdict::not_applicable();
  }
  return validation_refusal(e, columns_code(e), "columns");
}

/// The human-readable message of an error body: the first string among the
/// members frameworks use ("message", "detail", "error", ...; FastAPI's
/// `detail[0].msg`), else the start of the body.
std::string refusal_message(const exchange& e) {
  const auto& r = e.result.value();
  if (!e.json) {
    const std::string* type = r.find(http::field::content_type);
    return core::body_excerpt(r.body, type ? *type : std::string(), 120);
  }
  auto text_of = [](const boost::json::value& v) -> std::optional<std::string> {
    // An empty member says nothing (Spring's `"message": ""`): look further.
    if (v.is_string() && !v.as_string().empty()) return std::string(v.as_string());
    if (const auto* o = v.if_object()) {
      for (const char* k : {"msg", "message", "detail", "title"}) {
        if (const auto* m = o->if_contains(k); m && m->is_string() && !m->as_string().empty())
          return std::string(m->as_string());
      }
    }
    return std::nullopt;
  };
  if (const auto* o = e.json->if_object()) {
    for (const char* key : {"message", "detail", "error_description", "error", "errors", "title",
                            "msg", "description"}) {
      const auto* v = o->if_contains(key);
      if (v == nullptr) continue;
      if (auto t = text_of(*v)) return core::excerpt(*t, 160);
      if (v->is_array() && !v->as_array().empty()) {
        if (auto t = text_of(v->as_array().front())) return core::excerpt(*t, 160);
      }
    }
  }
  return excerpt_of(*e.json);
}

/// True when the operation documents a 2xx answer (exactly or as 2XX).
bool documents_success(const openapi::operation& op) {
  return std::any_of(op.responses.begin(), op.responses.end(), [](const openapi::response& r) {
    return r.status == 2 || (r.status >= 200 && r.status < 300);
  });
}

/// True when the description promises that this valid request is accepted
/// (docs/checks.md): it declares its validation refusals
/// (x-error-envelope.validation_codes, our extension: the schemas are the
/// whole of validation), or every value of the request is one the
/// description or the profile shows (its fixtures, its examples) on an
/// operation that documents a 2xx. Otherwise a schema is a necessary
/// condition only: prose and cross-field rules cannot be written in it.
bool acceptance_promised(const exchange& e) {
  if (!e.spec.rules.validation_codes.empty()) return true;
  return e.generated != nullptr && e.generated->documented && documents_success(e.op);
}

check_verdict positive_data_acceptance(const exchange& e) {
  const auto* r = response_of(e);
  if (!r || rate_limited(e, r->status)) return check_verdict::not_applicable();
  const unsigned status = r->status;
  const auto* c = error_code_of(e);
  const std::string code = c ? std::string(*c) : std::string();
  const auto& validation = e.spec.rules.validation_codes;
  const bool auth_refusal = status == 401 || status == 403;
  const bool invalid_refusal =
      status == 400 || status == 415 ||
      (status == 422 &&
       (code.empty() || std::find(validation.begin(), validation.end(), code) != validation.end()));
  // A credential whose rights are not stated: its refusal teaches what it may
  // do (the report's reach), it does not contradict the description.
  if (auth_refusal && !e.auth.unverified.empty()) return check_verdict::not_applicable();
  // Ids nobody knew were made up: only a 2xx says anything about acceptance.
  if (!e.auth.made_up.empty() && (status < 200 || status >= 300)) {
    std::string names;
    for (const auto& f : e.auth.made_up) names += (names.empty() ? "" : ", ") + f;
    return check_verdict::not_run("no id is known for " + names +
                                  " (no fixture, none found): the request named made-up ones");
  }
  // 414 and 431: the URL or a header field is longer than the server takes
  // (RFC 9110 section 15.5.15, RFC 6585 section 5), a limit of its own.
  const bool size_refusal = status == 414 || status == 431;
  if (!auth_refusal && !invalid_refusal && !size_refusal) return check_verdict::pass();
  if (size_refusal || (invalid_refusal && !acceptance_promised(e))) {
    // A refusal the description does not rule out: worth reading, never a
    // failure. It passes when it is a documented answer with a body of its
    // schema; otherwise the status and schema checks say what is wrong.
    const std::string text =
        "refused a schema-valid request: " + std::to_string(status) + " " + refusal_message(e);
    const std::string key = "refused " + std::to_string(status);
    const int st = static_cast<int>(status);
    bool as_documented = status_documented(e.spec, e.op, st);
    if (const schema::schema* s = as_documented ? expected_schema(e.spec, e.op, st) : nullptr) {
      as_documented = e.json && schema::validate(*s, *e.json, {.max_errors = 1}).ok();
    }
    return (as_documented ? check_verdict::pass() : check_verdict::not_applicable())
        .with_note(text, key);
  }
  std::string seen = "status " + std::to_string(status) + (code.empty() ? "" : " " + code);
  if (const auto* errs =
          e.json && e.json->is_object() ? e.json->as_object().if_contains("errors") : nullptr) {
    seen += " " + excerpt_of(*errs);
  } else if (const std::string why = refusal_message(e); !why.empty() && why != "{}") {
    seen += " (\"" + why + "\")";  // the server's own reason
  }
  check_verdict v = check_verdict::violation(
      "a valid request with a sufficient credential not refused as invalid or unauthorised", seen,
      std::to_string(status) + (code.empty() ? "" : " " + code));
  // A value on a bound the description assumed: the target may draw the
  // line elsewhere, and only the assumption says it may not.
  if (invalid_refusal) v.assumed(response::assumed_edges(e));
  return v;
}

}  // namespace

std::optional<std::vector<std::string>> documented_error_codes(const openapi::api_spec& spec,
                                                               const openapi::operation& op,
                                                               int status) {
  const auto* r = op.find_response(status);
  if (r == nullptr && status >= 100 && status <= 599) r = op.find_response(status / 100);  // "4XX"
  if (r != nullptr) {
    if (r->error_codes.empty()) return std::nullopt;
    return r->error_codes;
  }
  std::vector<std::string> codes;
  for (const auto& g : spec.rules.generic_errors) {
    if (g.status == status && !g.route_level) codes.push_back(g.code);
  }
  if (status == spec.rules.rate_limited_status && op.needs_credentials() &&
      !spec.rules.rate_limited_code.empty()) {
    codes.push_back(spec.rules.rate_limited_code);
  }
  if (codes.empty()) return std::nullopt;
  return codes;
}

bool status_documented(const openapi::api_spec& spec, const openapi::operation& op, int status) {
  if (documented_response(op, status)) return true;
  if (generic_error_for(spec, status)) return true;
  return status == spec.rules.rate_limited_status && op.needs_credentials();
}

void register_response_checks(harness::check_catalogue& catalogue) {
  using harness::applies_to;
  auto add = [&catalogue](std::string name, std::string description, std::string rule,
                          applies_to to, check_fn run, bool answers_alone = false) {
    harness::exchange_check k{{std::move(name), std::move(description), std::move(rule)}, to, run};
    k.answers_alone = answers_alone;
    catalogue.add(std::move(k));
  };
  // These judge the answer alone: every exchange of a run goes through them,
  // a scenario's and a stateful step's too (harness::exchange_check).
  constexpr bool any_exchange = true;
  add("response_received", "a response comes back (no transport failure)",
      "RFC 9110 section 6: a request is answered", applies_to::both, response_received);
  add("not_a_server_error", "no 5xx answer", "RFC 9110 section 15.6 (5xx: the server failed)",
      applies_to::both, not_a_server_error, any_exchange);
  add("status_code_conformance", "the status is documented for the operation",
      "OpenAPI responses; x-errors", applies_to::both, status_code_conformance, any_exchange);
  add("error_code_conformance", "the error envelope's code is one documented for that status",
      "x-error-codes; x-error-envelope", applies_to::both, error_code_conformance, any_exchange);
  add("content_type_conformance", "Content-Type is a documented media type",
      "OpenAPI responses.content; RFC 9110 section 8.3", applies_to::both, content_type_conformance,
      any_exchange);
  add("response_schema_conformance", "the body matches the documented schema",
      "OpenAPI responses.content.schema (JSON Schema 2020-12)", applies_to::both,
      response_schema_conformance, any_exchange);
  add("no_content_is_empty", "a 204 or 304 answer carries no content",
      "RFC 9110 sections 15.3.5 (204) and 15.4.5 (304); RFC 9110 section 8.6", applies_to::both,
      no_content_is_empty, any_exchange);
  add("request_id_conformance", "the x-request-id header is sent and agrees with the body's",
      "x-request-id", applies_to::both, request_id_conformance, any_exchange);
  add("negative_data_rejection", "a request invalid by the description gets 4xx",
      "OpenAPI parameters and requestBody; RFC 9110 section 15.5 (4xx)", applies_to::invalid,
      negative_data_rejection);
  catalogue.add(
      {{"same_as_enforced",
        "a body value that must equal a parameter (x-same-as) and differs is refused as invalid",
        "x-same-as; x-error-envelope.validation_codes"},
       applies_to::invalid,
       same_as_enforced,
       [](const openapi::api_spec&, const openapi::operation& op) {
         if (!op.body) return false;
         return std::any_of(
             op.body->content.begin(), op.body->content.end(), [](const openapi::media_type& m) {
               return m.schema != nullptr && !openapi::same_as_bindings(*m.schema).empty();
             });
       }});
  catalogue.add(
      {{"columns_in_header",
        "a form body that maps a column its CSV part's header lacks (x-columns-of) is refused "
        "as invalid",
        "x-columns-of; x-error-envelope.validation_codes"},
       applies_to::invalid,
       columns_in_header,
       [](const openapi::api_spec&, const openapi::operation& op) {
         if (!op.body) return false;
         return std::any_of(
             op.body->content.begin(), op.body->content.end(), [](const openapi::media_type& m) {
               return m.schema != nullptr && !openapi::columns_bindings(*m.schema).empty();
             });
       }});
  add("positive_data_acceptance",
      "a valid request with a sufficient credential is not refused as invalid where the "
      "description promises acceptance (a refusal elsewhere is a note)",
      "OpenAPI parameters, requestBody, security and examples; x-error-envelope.validation_codes",
      applies_to::valid, positive_data_acceptance);
}

}  // namespace conform::suites
