#include "harness/detail/build.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace conform::harness::detail {
namespace {

generators::request_options options_for(const openapi::api_spec& spec, const openapi::operation& op,
                                        const auth_choice& auth) {
  generators::request_options o;
  const profile::tenant* tenant = auth.tenant;
  const std::string& own_id = spec.rules.tenant_id_fixture;
  o.values.fixture = [tenant, &own_id](std::string_view name) -> std::optional<std::string> {
    if (!tenant) return std::nullopt;
    if (!own_id.empty() && name == own_id) return tenant->id;
    auto it = tenant->fixtures.find(std::string(name));
    if (it == tenant->fixtures.end()) return std::nullopt;
    return it->second;
  };
  o.values.example_percent = 50;
  if (spec.rules.max_body_bytes > 0) o.max_body_bytes = spec.rules.max_body_bytes;
  // Headers the engine owns: credentials, tenant context, idempotency, request id.
  for (const auto& scheme : spec.schemes) o.runner_headers.push_back(scheme->header);
  if (!op.tenant.name.empty() && op.tenant.from == openapi::tenant_context::source::header) {
    o.runner_headers.push_back(op.tenant.name);
  }
  if (!op.tenant.header_name.empty()) o.runner_headers.push_back(op.tenant.header_name);
  if (op.idempotent) o.runner_headers.push_back(op.idempotent->header);
  if (!spec.rules.request_id_header.empty())
    o.runner_headers.push_back(spec.rules.request_id_header);
  return o;
}

generators::fixture_lookup lookup_for(const openapi::operation& op, const auth_choice& auth) {
  const profile::tenant* tenant = auth.tenant;
  const openapi::tenant_context* context = &op.tenant;
  return [tenant, context](const openapi::parameter& p) -> std::optional<std::string> {
    if (!tenant) return std::nullopt;
    if (context->from == openapi::tenant_context::source::path && p.name == context->name) {
      return tenant->id;
    }
    if (!p.resource) return std::nullopt;
    auto it = tenant->fixtures.find(p.resource->fixture);
    if (it == tenant->fixtures.end()) return std::nullopt;
    return it->second;
  };
}

/// The Accept header for `op`: the media types its success answers
/// document (application/json alone when it is one of them), else those of
/// any answer, else `*/*`. Never a type the operation does not produce.
std::string accept_for(const openapi::operation& op) {
  auto collect = [&op](bool success_only) {
    std::vector<std::string> types;
    for (const auto& r : op.responses) {
      const bool success = r.status == 2 || (r.status >= 200 && r.status < 300);
      if (success_only && !success) continue;
      for (const auto& m : r.content) {
        if (std::find(types.begin(), types.end(), m.name) == types.end()) types.push_back(m.name);
      }
    }
    return types;
  };
  std::vector<std::string> types = collect(true);
  if (types.empty()) types = collect(false);
  if (types.empty()) return "*/*";
  if (std::find(types.begin(), types.end(), "application/json") != types.end())
    return "application/json";
  std::string out;
  for (const auto& t : types) out += (out.empty() ? "" : ", ") + t;
  return out;
}

}  // namespace

made_generator make_generator(const openapi::api_spec& spec, const openapi::operation& op,
                              const auth_choice& auth, request_kind kind) {
  made_generator out;
  const auto options = options_for(spec, op, auth);
  const auto fixtures = lookup_for(op, auth);
  if (kind == request_kind::valid) {
    out.gen = generators::valid_request(op, fixtures, options);
    return out;
  }
  // No generator and no reason: nothing the operation takes can be made
  // invalid, so the invalid-mode checks do not apply (no cell, not "not run").
  if (auto gen = generators::invalid_request(op, fixtures, options)) out.gen = std::move(*gen);
  return out;
}

std::vector<generators::coverage_case> make_coverage(const openapi::api_spec& spec,
                                                     const openapi::operation& op,
                                                     const auth_choice& auth) {
  return generators::coverage_cases(op, lookup_for(op, auth), options_for(spec, op, auth));
}

http::request to_http_request(const openapi::api_spec& spec, const openapi::operation& op,
                              const auth_choice& auth, const generators::generated_request& g,
                              std::string_view idempotency_key) {
  http::request req;
  req.method = g.method;
  if (g.method == http::verb::unknown) req.method_text = op.method_text;
  req.target = g.target();
  req.headers.reserve(g.headers.size() + 5);
  for (const auto& [name, value] : g.headers) req.add_header(name, value);
  if (!g.content_type.empty()) req.add_header("Content-Type", g.content_type);
  req.add_header("Accept", accept_for(op));
  if (!g.cookies.empty()) {
    std::string cookie;
    for (const auto& [name, value] : g.cookies) {
      cookie += (cookie.empty() ? "" : "; ") + name + "=" + value;
    }
    req.add_header("Cookie", cookie);
  }
  req.body = g.body;
  if (auth.credential && auth.tenant && op.tenant.from == openapi::tenant_context::source::header &&
      auth.credential->kind != openapi::credential_kind::tenant_key) {
    req.add_header(op.tenant.name, auth.tenant->id);
  }
  if (op.idempotent) req.add_header(op.idempotent->header, std::string(idempotency_key));
  if (auth.credential && auth.model.scheme) {
    apply_credential(req, *auth.model.scheme, *auth.credential);
  }
  if (auth.certificate) req.client_identity = auth.certificate->name;
  (void)spec;
  return req;
}

}  // namespace conform::harness::detail
