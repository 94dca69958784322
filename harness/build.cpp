#include "harness/build.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace conform::harness {
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

/// The text of an example value as a parameter carries it.
std::optional<std::string> example_text(const boost::json::value& v) {
  if (v.is_string()) return std::string(v.get_string());
  if (v.is_int64()) return std::to_string(v.get_int64());
  if (v.is_uint64()) return std::to_string(v.get_uint64());
  return std::nullopt;
}

generators::fixture_lookup lookup_for(const openapi::operation& op, const auth_choice& auth,
                                      const pinned_values* pinned = nullptr) {
  const profile::tenant* tenant = auth.tenant;
  const openapi::tenant_context* context = &op.tenant;
  std::optional<pinned_values> pins;
  if (pinned) pins = *pinned;
  return [tenant, context, &op,
          pinned = std::move(pins)](const openapi::parameter& p) -> std::optional<std::string> {
    if (pinned) {
      for (const auto& [in, name, value] : pinned->params) {
        if (in == p.in && name == p.name) return value;
      }
    }
    if (p.in != openapi::param_location::path) return std::nullopt;
    if (tenant && context->from == openapi::tenant_context::source::path &&
        p.name == context->name) {
      return tenant->id;
    }
    if (tenant) {
      auto it = tenant->fixtures.find(fixture_name_for(op, p));
      if (it != tenant->fixtures.end()) return it->second;
    }
    // A stateful step without an id for this parameter tries the description's example.
    if (pinned && pinned->examples) {
      for (const auto& e : p.examples) {
        if (auto text = example_text(e)) return text;
      }
    }
    return std::nullopt;
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
                              const auth_choice& auth, request_kind kind,
                              const pinned_values* pinned) {
  made_generator out;
  auto options = options_for(spec, op, auth);
  if (pinned) {
    options.body_values = pinned->body;
    if (pinned->examples) options.example_body_percent = 100;
    if (pinned->optional_param_percent >= 0) {
      options.optional_param_percent = pinned->optional_param_percent;
    }
  }
  const auto fixtures = lookup_for(op, auth, pinned);
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
  // A content negotiation case names its own Accept, or none ("").
  const std::string accept = g.accept ? *g.accept : accept_for(op);
  if (!accept.empty()) req.add_header("Accept", accept);
  if (!g.cookies.empty()) {
    std::string cookie;
    for (const auto& [name, value] : g.cookies) {
      cookie += (cookie.empty() ? "" : "; ") + name + "=" + value;
    }
    req.add_header("Cookie", cookie);
  }
  req.body = g.body;
  // A credential of one tenant names none (x-tenants: one); the others name
  // the tenant they act for.
  if (auth.credential && auth.tenant && op.tenant.from == openapi::tenant_context::source::header &&
      !(auth.model.scheme &&
        auth.model.scheme->tenants == openapi::security_scheme::tenant_reach::one)) {
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

std::optional<std::string> claim_lost(const generators::generated_request& g,
                                      const http::request& sent) {
  using generators::request_mutation;
  const auto& mode = g.mode;
  auto headers_named = [&sent](std::string_view name) {
    std::vector<const std::string*> out;
    for (const auto& [n, v] : sent.headers) {
      if (http::iequals(n, name)) out.push_back(&v);
    }
    return out;
  };
  if (g.accept) {
    const auto values = headers_named("Accept");
    const bool kept =
        g.accept->empty() ? values.empty() : values.size() == 1 && *values.front() == *g.accept;
    if (!kept) {
      return "the Accept header is set by the target (-H), so the request would not go out " +
             std::string(g.accept->empty() ? "without one" : "with Accept: " + *g.accept);
    }
  }
  if (mode.valid()) return std::nullopt;
  // "query per_page" -> ("query", "per_page")
  const std::string in = mode.where.substr(0, mode.where.find(' '));
  const std::string name =
      mode.where.find(' ') == std::string::npos ? "" : mode.where.substr(mode.where.find(' ') + 1);
  const std::string generated_target = g.target();
  switch (mode.mutation) {
    case request_mutation::none:
      return std::nullopt;
    case request_mutation::invalid_path_param:
    case request_mutation::invalid_query_param:
      // The engine only appends (a query credential): the generated path
      // and query must lead the target unchanged.
      if (sent.target.rfind(generated_target, 0) != 0) {
        return "the " + mode.where + " broken is not what is sent (" + sent.target + ")";
      }
      return std::nullopt;
    case request_mutation::invalid_header_param: {
      const auto values = headers_named(name);
      std::string broken;
      for (const auto& [n, v] : g.headers) {
        if (http::iequals(n, name)) broken = v;
      }
      if (values.size() != 1 || *values.front() != broken) {
        return "header " + name +
               " is set by the target or the credential too (-H, a scheme's header), so the "
               "broken value would not be the one the server reads";
      }
      return std::nullopt;
    }
    case request_mutation::invalid_cookie_param: {
      std::string line;
      for (const auto& [n, v] : g.cookies) line += (line.empty() ? "" : "; ") + n + "=" + v;
      const auto values = headers_named("Cookie");
      if (std::none_of(values.begin(), values.end(),
                       [&line](const std::string* v) { return *v == line; })) {
        return "the Cookie header is set by the target too (-H), so the broken cookie " + name +
               " would not be sent";
      }
      return std::nullopt;
    }
    case request_mutation::missing_param:
      if (in == "header" && !headers_named(name).empty()) {
        return "header " + name +
               " is added by the target or the credential (-H, a scheme's header), so it is "
               "not left out";
      }
      if (in == "query" && sent.target.rfind(generated_target, 0) != 0) {
        return "the query sent is not the one generated (" + sent.target + ")";
      }
      return std::nullopt;
    case request_mutation::invalid_body:
    case request_mutation::malformed_body:
    case request_mutation::missing_body:
    case request_mutation::wrong_content_type:
    case request_mutation::same_as_mismatch:
    case request_mutation::columns_not_in_header: {
      const auto types = headers_named("Content-Type");
      const bool type_kept = g.content_type.empty()
                                 ? types.empty()
                                 : types.size() == 1 && *types.front() == g.content_type;
      if (sent.body != g.body || !type_kept) {
        return "the body or its Content-Type is set by the target too (-H), so the body sent "
               "is not the one broken";
      }
      if (mode.mutation == request_mutation::wrong_content_type && g.body.empty()) {
        return "an empty body has no type: sent as text/plain it is the body left out";
      }
      return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace conform::harness
