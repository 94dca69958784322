// Client rules of sections 4 and 5: every request is one the description
// documents, with valid parameters, media type and body (judged by the
// validator the harness uses for responses; form bodies read back part by
// part); exactly one credential header (x-one-credential); partner-key calls
// on tenant routes name the tenant; no key of the other environment.
#include <boost/json.hpp>

#include <algorithm>
#include <map>

#include "core/text.hpp"
#include "generators/wire.hpp"
#include "harness/results.hpp"
#include "schema/validator.hpp"
#include "suites/client/client.hpp"
#include "suites/client/form_body.hpp"
#include "suites/client/support.hpp"

namespace conform::suites::client {

namespace {

using harness::traffic_judgement;
using harness::traffic_violation;

constexpr std::string_view valid_check = "client_request_valid";
constexpr std::string_view one_credential_check = "client_one_credential";
constexpr std::string_view tenant_check = "client_tenant_header";
constexpr std::string_view environment_check = "client_key_environment";

std::string first_error(const schema::validation_result& r) {
  if (r.errors.empty()) return "";
  const auto& e = r.errors.front();
  return (e.instance_pointer.empty() ? std::string() : e.instance_pointer + ": ") + e.message;
}

/// What is wrong with `e` against its operation; "" when nothing.
std::string problem_of(const traffic_exchange& e) {
  const openapi::operation& op = *e.op;
  // Parameters.
  std::map<std::string, std::vector<std::string>> query;
  for (const auto& [k, v] : e.query) query[k].push_back(v);
  for (const auto& p : op.parameters) {
    std::vector<std::string> texts;
    if (p.in == openapi::param_location::path) {
      auto it = e.path_params.find(p.name);
      if (it != e.path_params.end()) texts.push_back(it->second);
    } else if (p.in == openapi::param_location::query) {
      auto it = query.find(p.name);
      if (it != query.end()) texts = it->second;
      query.erase(p.name);
    } else if (p.in == openapi::param_location::header) {
      if (const std::string* v = e.request.find_header(p.name)) texts.push_back(*v);
    }
    if (texts.empty()) {
      if (p.required)
        return "the required " + std::string(to_string(p.in)) + " parameter " + p.name +
               " is missing";
      continue;
    }
    if (!p.schema) continue;
    const auto value = generators::from_wire(*p.schema, texts);
    const auto r = schema::validate(*p.schema, value);
    if (!r.ok()) {
      return std::string(to_string(p.in)) + " parameter " + p.name + "=" + texts.front() + ": " +
             first_error(r);
    }
  }
  for (const auto& [name, values] : query) {
    const bool ignored =
        op.paging && std::find(op.paging->ignored_params.begin(), op.paging->ignored_params.end(),
                               name) != op.paging->ignored_params.end();
    if (!ignored) return "query parameter " + name + " is not one " + op.operation_id + " takes";
  }
  // The body.
  const std::string& body = e.request.body;
  if (!op.body) {
    if (!body.empty()) return op.operation_id + " takes no body, and one was sent";
    return "";
  }
  if (body.empty()) {
    return op.body->required ? op.operation_id + " requires a body, and none was sent" : "";
  }
  const std::string media = core::media_type_of(header_or_empty(e, "Content-Type"));
  const openapi::media_type* m = op.body->find(media);
  if (!m) {
    std::string accepted;
    for (const auto& c : op.body->content) accepted += (accepted.empty() ? "" : ", ") + c.name;
    return "Content-Type '" + media + "' is not one " + op.operation_id + " accepts (" + accepted +
           ")";
  }
  if (media == "multipart/form-data" || media == "application/x-www-form-urlencoded") {
    return form_problem(media, header_or_empty(e, "Content-Type"), body, *m);
  }
  if (media.find("json") == std::string::npos || !m->schema) return "";
  boost::system::error_code ec;
  const boost::json::value json = boost::json::parse(body, ec);
  if (ec) return "the body is not JSON: " + ec.message();
  const auto r = schema::validate(*m->schema, json);
  if (!r.ok()) return "the body does not match the schema: " + first_error(r);
  return "";
}

void judge_valid(const traffic& t, traffic_judgement& j) {
  for (const auto& e : t.exchanges) {
    std::string problem;
    if (!e.op) {
      problem = std::string(http::method_name(e.request.method)) + " " + e.path +
                " is no operation of the description";
    } else {
      problem = problem_of(e);
    }
    if (problem.empty()) {
      j.held(e);
      continue;
    }
    traffic_violation v;
    v.evidence = {&e};
    v.expected = e.op ? "a request " + e.op->operation_id +
                            " documents: its parameters, media type and body valid against the "
                            "description (section 4)"
                      : "requests to operations the description documents (section 4)";
    v.seen = "request #" + std::to_string(e.seq) + ": " + problem;
    v.cause = e.op ? problem.substr(0, problem.find(':')) : "unknown operation";
    j.broken(v);
  }
}

void judge_tenant(const traffic& t, traffic_judgement& j) {
  for (const auto& e : t.exchanges) {
    // Credentials that name their tenant on every call (x-tenants: named).
    const openapi::security_scheme* scheme =
        e.credential_kind ? t.spec->find_scheme_named_by(*e.credential_kind) : nullptr;
    if (!e.op || !scheme || scheme->tenants != openapi::security_scheme::tenant_reach::named) {
      continue;
    }
    const auto& tc = e.op->tenant;
    if (tc.from != openapi::tenant_context::source::header || tc.missing_status == 0) continue;
    if (!header_or_empty(e, tc.header_name).empty()) {
      j.held(e);
      continue;
    }
    traffic_violation v;
    v.evidence = {&e};
    v.expected = "a partner-key call to " + e.op->operation_id + " names the tenant with " +
                 tc.header_name + " (" + cited(t, tenant_check, "x-tenant-context") + "), else " +
                 std::to_string(tc.missing_status) + " " + tc.missing_code;
    v.seen = "request #" + std::to_string(e.seq) + " has no " + tc.header_name;
    v.cause = "no tenant header";
    j.broken(v);
  }
}

void judge_environment(const traffic& t, traffic_judgement& j) {
  for (const auto& e : t.exchanges) {
    if (!e.credential_kind) continue;
    const openapi::security_scheme* scheme = t.spec->find_scheme_named_by(*e.credential_kind);
    if (!scheme || scheme->key_prefixes.empty()) continue;
    auto own = scheme->key_prefixes.find(t.environment);
    if (own == scheme->key_prefixes.end()) continue;
    if (e.credential_prefix == own->second) {
      j.held(e);
      continue;
    }
    std::string other;
    for (const auto& [env, prefix] : scheme->key_prefixes) {
      if (prefix == e.credential_prefix) other = env;
    }
    traffic_violation v;
    v.evidence = {&e};
    v.expected = "only " + own->second + " keys against the " + t.environment +
                 " server; sandbox and production keys are kept apart (" +
                 cited(t, environment_check, "x-key-prefixes") + ")";
    v.seen = "request #" + std::to_string(e.seq) + " sent " +
             (other.empty() ? std::string("a key with no known environment prefix")
                            : "a " + other + " key (" + e.credential_prefix + "...)");
    v.cause = other.empty() ? "key of no environment" : "key of " + other;
    j.broken(v);
  }
}

void judge_one_credential(const traffic& t, traffic_judgement& j) {
  const auto& rules = t.spec->rules;
  std::string headers;  // every scheme's header, once
  for (const auto& scheme : t.spec->schemes) {
    if (scheme->header.empty() || headers.find(scheme->header) != std::string::npos) continue;
    headers += (headers.empty() ? "" : ", ") + scheme->header;
  }
  for (const auto& e : t.exchanges) {
    if (e.credential_headers.empty()) continue;
    // Operations that take no credentials ignore credential headers.
    if (e.op && e.op->security_declared && !e.op->needs_credentials()) continue;
    if (rules.one_credential_status == 0) {
      j.not_exercised(e,
                      "the description does not say how many credential headers a request "
                      "may carry (x-one-credential)");
      continue;
    }
    if (e.credential_headers.size() == 1) {
      j.held(e);
      continue;
    }
    std::string sent;
    for (const auto& [name, value] : e.request.headers) {
      for (const auto& h : e.credential_headers) {
        if (!http::iequals(name, h)) continue;
        sent += (sent.empty() ? "" : ", ") + h + (value.empty() ? " (present but empty)" : "");
        break;
      }
    }
    traffic_violation v;
    v.evidence = {&e};
    v.expected = "exactly one credential header per request, one of " + headers +
                 " (x-one-credential; C23): a request with more, a repeated or an empty one "
                 "included, gets " +
                 std::to_string(rules.one_credential_status) + " " + rules.one_credential_code +
                 ", even when each credential is valid";
    v.seen = "request #" + std::to_string(e.seq) + " sent " +
             std::to_string(e.credential_headers.size()) + " credential headers (" + sent +
             ") and got " + (e.status ? std::to_string(e.status) : std::string("no answer"));
    v.cause = "more than one credential";
    j.broken(v);
  }
}

}  // namespace

void add_request_rules(harness::check_catalogue& catalogue) {
  catalogue.add(harness::traffic_check{
      {std::string(valid_check),
       "every request is an operation of the description with valid parameters, media type and "
       "body (the harness's validator)",
       "OpenAPI parameters and requestBody"},
      harness::rule_level::core,
      "request",
      judge_valid});
  catalogue.add(harness::traffic_check{
      {std::string(one_credential_check),
       "every request carries exactly one credential header (a repeated or empty one counts)",
       "x-one-credential; C23"},
      harness::rule_level::core,
      "request with a credential header",
      judge_one_credential});
  catalogue.add(harness::traffic_check{
      {std::string(tenant_check),
       "calls that must name a tenant carry the tenant header (x-tenant-context, x-tenants)",
       "x-tenant-context"},
      harness::rule_level::core,
      "partner-key call to a route that takes the tenant from a header",
      judge_tenant,
      {},
      [](const openapi::operation& op) { return !op.tenant.header_name.empty(); }});
  catalogue.add(harness::traffic_check{
      {std::string(environment_check),
       "every key sent carries the prefix of the server's environment (x-key-prefixes)",
       "x-key-prefixes"},
      harness::rule_level::core,
      "request with an API key",
      judge_environment});
}

}  // namespace conform::suites::client
