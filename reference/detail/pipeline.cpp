#include "reference/detail/pipeline.hpp"

#include <algorithm>
#include <cctype>

#include "core/text.hpp"
#include "reference/detail/jwt.hpp"
#include "reference/detail/operations.hpp"
#include "reference/detail/util.hpp"
#include "reference/detail/wire.hpp"

namespace conform::reference::detail {
namespace json = boost::json;

namespace {

constexpr std::size_t max_json_body = 1024 * 1024;

bool valid_client_request_id(std::string_view v) {
  if (v.empty() || v.size() > 128) return false;
  return std::all_of(v.begin(), v.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '_' || c == '-';
  });
}

std::string make_request_id(server_state& st, const httplib::Request& req) {
  if (req.has_header("X-Request-Id")) {
    std::string v = req.get_header_value("X-Request-Id");
    if (valid_client_request_id(v)) return v;
  }
  std::uint64_t n = st.request_counter.fetch_add(1);
  std::uint64_t x = mix64(n ^ (st.seed << 1) ^ static_cast<std::uint64_t>(now_seconds()));
  static constexpr char digits[] = "0123456789abcdef";
  std::string out = "req_0000000000000000";
  for (std::size_t i = out.size(); i > 4; --i) {
    out[i - 1] = digits[x & 15];
    x >>= 4;
  }
  return out;
}

std::string serialize(const server_state& st, const reply& r, const std::string& rid) {
  if (r.raw_json) return r.body_text;
  json::object body = r.body;
  if (!r.is_error && st.fault_on(fault::missing_envelope_field)) body.erase("meta");
  body["request_id"] = rid;
  return json::serialize(body);
}

void send(const server_state& st, httplib::Response& res, int status, const std::string& body,
          const std::string& rid, const std::vector<std::pair<std::string, std::string>>& headers) {
  res.status = status;
  for (const auto& [k, v] : headers) res.set_header(k, v);
  if (!st.fault_on(fault::missing_request_id)) res.set_header("X-Request-Id", rid);
  res.set_content(body, "application/json");
}

void send_reply(const server_state& st, httplib::Response& res, const reply& r,
                const std::string& rid) {
  send(st, res, r.status, serialize(st, r, rid), rid, r.headers);
}

std::size_t declared_length(const httplib::Request& req) {
  std::size_t n = req.body.size();
  if (req.has_header("Content-Length")) {
    std::string v = req.get_header_value("Content-Length");
    if (is_digits(v) && v.size() < 18) n = std::max<std::size_t>(n, std::stoull(v));
  }
  for (const auto& [name, file] : req.files) n = std::max(n, file.content.size());
  return n;
}

/// 401, or 403 under fault wrong_401_as_403.
reply unauthorized(const server_state& st, std::string_view message) {
  if (st.fault_on(fault::wrong_401_as_403)) return error(403, "FORBIDDEN", message);
  return error(401, "UNAUTHORIZED", message);
}

/// 403 for a missing scope, or 401 under fault wrong_403_as_401.
reply missing_scope(const server_state& st, std::string_view scope) {
  json::object details{{"required_scope", scope}};
  if (st.fault_on(fault::wrong_403_as_401)) {
    return error(401, "UNAUTHORIZED", "the credential lacks the required scope", details);
  }
  return error(403, "FORBIDDEN", "the credential lacks the required scope", details);
}

reply wrong_scheme(const operation& op) {
  json::array accepted;
  if (op.jwt) accepted.emplace_back("jwt");
  if (op.tenant_key) accepted.emplace_back("tenant_key");
  if (op.partner_key) accepted.emplace_back("partner_key");
  return error(403, "FORBIDDEN", "this operation does not accept this credential type",
               json::object{{"accepted_schemes", std::move(accepted)}});
}

/// Step 4: who is calling. Returns an error reply, or fills ctx.who.
std::optional<reply> authenticate(request_ctx& ctx) {
  auto& st = ctx.state;
  const auto& req = ctx.req;
  // C23 counts every credential header sent, a repeated one again and an
  // empty one too: what cpp-httplib drops or folds, the wire shows.
  const wire_request* wire = current_wire();
  auto sent = [&](const char* name) -> std::size_t {
    if (wire) return wire->count(name);
    return req.get_header_value_count(name);
  };
  const std::size_t present = sent("Authorization") + sent("X-Api-Key") + sent("X-Partner-Api-Key");
  if (present == 0) return unauthorized(st, "credentials are missing");
  if (present > 1) return unauthorized(st, "send exactly one credential");
  if (req.has_header("Authorization")) {
    std::string v = req.get_header_value("Authorization");
    if (v.size() < 8 || core::ascii_lower(v.substr(0, 7)) != "bearer ") {
      return unauthorized(st, "the Authorization header must be 'Bearer <token>'");
    }
    std::string token = v.substr(7);
    jwt_leniency len{st.fault_on(fault::expired_jwt_accepted),
                     st.fault_on(fault::alg_none_accepted)};
    auto claims = verify_jwt(token, st.jwt_secret, now_seconds(), len);
    if (!claims) return unauthorized(st, "the bearer token is invalid or expired");
    ctx.who.kind = scheme::jwt;
    ctx.who.identity = "jwt:" + claims->sub;
    ctx.who.role = claims->role;
    for (const auto& t : claims->tenant_ids) {
      if (id_t id = parse_id(t); id != 0) ctx.who.jwt_tenants.push_back(id);
    }
    return std::nullopt;
  }
  bool partner = req.has_header("X-Partner-Api-Key");
  std::string secret = req.get_header_value(partner ? "X-Partner-Api-Key" : "X-Api-Key");
  const credential_record* key = st.credentials.find_key(secret);
  scheme want = partner ? scheme::partner_key : scheme::tenant_key;
  if (key == nullptr || key->kind != want) return unauthorized(st, "the API key is not valid");
  if (key->environment != st.environment && !st.fault_on(fault::other_env_key_accepted)) {
    return unauthorized(st, "the API key belongs to another environment");
  }
  ctx.who.kind = want;
  ctx.who.key = key;
  ctx.who.identity = "key:" + key->name;
  ctx.who.partner_id = key->partner_id;
  ctx.who.key_tenant = key->tenant_id;
  return std::nullopt;
}

/// Step 6: scheme, scope and role.
std::optional<reply> authorize(request_ctx& ctx) {
  const auto& op = *ctx.op;
  auto& st = ctx.state;
  if (ctx.who.kind == scheme::jwt) {
    if (!op.jwt) return wrong_scheme(op);
    if (op.write && ctx.who.role == "viewer") {
      return error(403, "FORBIDDEN", "the viewer role may only read",
                   json::object{{"role", ctx.who.role}});
    }
    return std::nullopt;
  }
  if (op.jwt_only && !st.fault_on(fault::jwt_only_ignored)) {
    return error(401, "JWT_REQUIRED", "this operation requires a user-session JWT");
  }
  if (op.jwt_only) return std::nullopt;  // fault jwt_only_ignored
  const auto& scopes = ctx.who.key->scopes;
  if (ctx.who.kind == scheme::tenant_key) {
    if (!op.tenant_key) return wrong_scheme(op);
    if (scopes.count(std::string(op.tenant_scope)) == 0) {
      if (st.fault_on(fault::scope_leak) && op.operation_id == "createCampaign")
        return std::nullopt;
      return missing_scope(st, op.tenant_scope);
    }
    return std::nullopt;
  }
  if (!op.partner_key) return wrong_scheme(op);
  if (scopes.count(std::string(op.partner_scope)) == 0) return missing_scope(st, op.partner_scope);
  return std::nullopt;
}

reply tenant_forbidden() {
  return error(403, "FORBIDDEN", "X-Tenant-Id names a tenant this credential cannot reach");
}

/// Step 7: the effective tenant.
std::optional<reply> resolve_tenant(request_ctx& ctx) {
  const auto& op = *ctx.op;
  auto& st = ctx.state;
  const bool has_header = ctx.req.has_header("X-Tenant-Id");
  const std::string header = ctx.req.get_header_value("X-Tenant-Id");
  const id_t named = parse_id(header);
  if (op.tenant_from == tenant_source::none) return std::nullopt;
  if (op.tenant_from == tenant_source::path) {
    id_t from_path = parse_id(ctx.params.at(0));
    if (has_header && (named == 0 || named != from_path)) {
      return error(403, "FORBIDDEN", "X-Tenant-Id disagrees with the tenant in the path");
    }
    ctx.tenant_id = from_path;
    return std::nullopt;
  }
  if (op.tenant_from == tenant_source::body) {
    if (has_header && named == 0) return tenant_forbidden();
    return std::nullopt;  // compared with the body's tenant_id by the handler
  }
  bool exists = false;
  const tenant* t = nullptr;
  {
    std::shared_lock lock(st.data.mutex);
    t = st.data.find_tenant(named);
    exists = t != nullptr;
  }
  const bool widen = st.fault_on(fault::x_tenant_widens) && exists;
  switch (ctx.who.kind) {
    case scheme::jwt: {
      const auto& m = ctx.who.jwt_tenants;
      if (has_header) {
        if (widen || (exists && std::find(m.begin(), m.end(), named) != m.end())) {
          ctx.tenant_id = named;
          return std::nullopt;
        }
        return tenant_forbidden();
      }
      if (m.size() == 1) {
        ctx.tenant_id = m.front();
        return std::nullopt;
      }
      return error(422, "TENANT_CONTEXT_REQUIRED",
                   "name the tenant in X-Tenant-Id: the token has several memberships");
    }
    case scheme::partner_key: {
      if (!has_header) {
        return error(422, "TENANT_CONTEXT_REQUIRED",
                     "a partner key must name the tenant in X-Tenant-Id");
      }
      if (widen || (exists && t->partner_id == ctx.who.partner_id)) {
        ctx.tenant_id = named;
        return std::nullopt;
      }
      return tenant_forbidden();
    }
    case scheme::tenant_key: {
      if (!has_header || named == ctx.who.key_tenant || widen) {
        ctx.tenant_id = has_header ? named : ctx.who.key_tenant;
        return std::nullopt;
      }
      return tenant_forbidden();
    }
  }
  return std::nullopt;
}

/// Step 8: media type.
std::optional<reply> check_media_type(const request_ctx& ctx) {
  const auto& op = *ctx.op;
  std::string media = core::media_type_of(ctx.req.get_header_value("Content-Type"));
  if (op.body == body_kind::multipart) {
    if (media != "multipart/form-data") {
      return error(415, "UNSUPPORTED_MEDIA_TYPE", "this operation takes multipart/form-data",
                   json::object{{"content_type", ctx.req.get_header_value("Content-Type")}});
    }
    // The server reads a multipart body into files; one it could not read
    // as multipart stays in body (reference/server.cpp, read_multipart).
    if (ctx.req.files.empty() && !ctx.req.body.empty()) {
      return error(422, "VALIDATION_ERROR", "the multipart body could not be read", nullptr,
                   json::object{{"body", json::array{"malformed multipart/form-data"}}});
    }
    return std::nullopt;
  }
  if (op.body == body_kind::json) {
    bool has_body = !ctx.req.body.empty() || !ctx.req.files.empty();
    if (has_body && media != "application/json") {
      return error(415, "UNSUPPORTED_MEDIA_TYPE", "this operation takes application/json",
                   json::object{{"content_type", ctx.req.get_header_value("Content-Type")}});
    }
  }
  return std::nullopt;
}

bool valid_idempotency_key(std::string_view k) {
  if (k.empty() || k.size() > 255) return false;
  return std::all_of(k.begin(), k.end(), [](char c) { return c >= 0x21 && c <= 0x7E; });
}

/// Step 9: Idempotency-Key presence and form (POST only; C16).
std::optional<reply> check_idempotency_key(const request_ctx& ctx) {
  if (ctx.op->method != "POST") return std::nullopt;
  if (!ctx.req.has_header("Idempotency-Key")) {
    if (ctx.op->idempotency_required) {
      return error(422, "IDEMPOTENCY_KEY_REQUIRED", "this operation requires an Idempotency-Key");
    }
    return std::nullopt;
  }
  if (!valid_idempotency_key(ctx.req.get_header_value("Idempotency-Key"))) {
    return error(422, "VALIDATION_ERROR", "the Idempotency-Key is malformed", nullptr,
                 json::object{{"Idempotency-Key",
                               json::array{"must be 1 to 255 visible ASCII characters"}}});
  }
  return std::nullopt;
}

/// Step 10: the JSON body parses to an object.
std::optional<reply> parse_body(request_ctx& ctx) {
  if (ctx.op->body != body_kind::json) return std::nullopt;
  auto bad = [&](std::string_view message) -> reply {
    if (ctx.state.fault_on(fault::validation_500)) {
      return error(500, "INTERNAL_ERROR", "unexpected error while reading the body");
    }
    return error(422, "VALIDATION_ERROR", message, nullptr,
                 json::object{{"body", json::array{json::string(message)}}});
  };
  if (ctx.req.body.empty()) return bad("a JSON object body is required");
  json::error_code ec;
  json::value v = json::parse(ctx.req.body, ec);
  if (ec) return bad("the body is not valid JSON");
  if (!v.is_object()) return bad("the body must be a JSON object");
  ctx.body = std::move(v.as_object());
  return std::nullopt;
}

std::string fingerprint(const request_ctx& ctx) {
  std::string fp = ctx.req.method + "\n" + ctx.req.path + "\n";
  for (const auto& [k, v] : ctx.req.params) fp += k + "=" + v + "&";
  fp += "\n" + ctx.req.get_header_value("X-Tenant-Id") + "\n" + ctx.req.body;
  for (const auto& [name, file] : ctx.req.files) {
    fp += "\n--" + name + ":" + file.filename + ":" + file.content_type + ":" + file.content;
  }
  return fp;
}

reply run_handler(request_ctx& ctx) {
  try {
    return ctx.op->handler(ctx);
  } catch (const std::exception& e) {
    return error(500, "INTERNAL_ERROR", "internal error");
  }
}

reply route_error(const server_state& st, const route_match& m) {
  if (m.path_known && !st.fault_on(fault::no_405)) {
    reply r = error(405, "METHOD_NOT_ALLOWED", "this method is not documented for this path",
                    json::object{{"allowed_methods", m.allowed}});
    r.headers.emplace_back("Allow", m.allowed);
    return r;
  }
  return error(404, "NOT_FOUND", "no such route");
}

}  // namespace

void handle_request(server_state& st, const httplib::Request& req, httplib::Response& res) {
  const std::string rid = make_request_id(st, req);
  // Steps 1-2: route and method.
  route_match m = match_route(req.path, req.method);
  if (m.op == nullptr) return send_reply(st, res, route_error(st, m), rid);
  request_ctx ctx{st, req, m.op, std::move(m.params), rid, {}, 0, {}};
  // Step 3: body size.
  std::size_t limit = ctx.op->body == body_kind::multipart ? 10 * max_json_body : max_json_body;
  if (declared_length(req) > limit) {
    return send_reply(st, res,
                      error(413, "PAYLOAD_TOO_LARGE", "the body is too large",
                            json::object{{"max_bytes", limit}}),
                      rid);
  }
  if (ctx.op->authenticated) {
    // Step 4: credentials.
    if (auto r = authenticate(ctx)) return send_reply(st, res, *r, rid);
    // Step 5: rate limit.
    if (ctx.who.key != nullptr && ctx.who.key->rate_limited &&
        !st.limiter.allow(ctx.who.identity)) {
      reply r = error(429, "RATE_LIMITED", "too many requests for this credential",
                      json::object{{"retry_after_seconds", 1}});
      if (!st.fault_on(fault::rate_limit_no_retry_after))
        r.headers.emplace_back("Retry-After", "1");
      return send_reply(st, res, r, rid);
    }
    // Steps 6-7: scheme, scope, role; tenant context.
    if (auto r = authorize(ctx)) return send_reply(st, res, *r, rid);
    if (auto r = resolve_tenant(ctx)) return send_reply(st, res, *r, rid);
  }
  // Steps 8-10: media type, Idempotency-Key form, body parse.
  if (auto r = check_media_type(ctx)) return send_reply(st, res, *r, rid);
  if (auto r = check_idempotency_key(ctx)) return send_reply(st, res, *r, rid);
  if (auto r = parse_body(ctx)) return send_reply(st, res, *r, rid);
  // Step 11: the idempotency store; then the handler (steps 12-15).
  const bool keyed = ctx.op->method == "POST" && req.has_header("Idempotency-Key");
  if (!keyed) return send_reply(st, res, run_handler(ctx), rid);
  const std::string scoped = ctx.who.identity + "\x1f" + req.get_header_value("Idempotency-Key");
  auto begun = st.idempotency.begin(scoped, fingerprint(ctx), now_seconds());
  switch (begun.outcome) {
    case idempotency_outcome::replay: {
      if (st.fault_on(fault::replay_double_effect)) (void)run_handler(ctx);
      std::vector<std::pair<std::string, std::string>> headers;
      if (!st.fault_on(fault::replay_not_marked))
        headers.emplace_back("Idempotent-Replayed", "true");
      return send(st, res, begun.response.status, begun.response.body, begun.response.request_id,
                  headers);
    }
    case idempotency_outcome::conflict:
      return send_reply(st, res,
                        error(409, "IDEMPOTENCY_CONFLICT",
                              "a request with this Idempotency-Key is still in flight"),
                        rid);
    case idempotency_outcome::mismatch:
      if (st.fault_on(fault::idempotency_key_ignored))
        return send_reply(st, res, run_handler(ctx), rid);
      return send_reply(st, res,
                        error(422, "IDEMPOTENCY_KEY_REUSED",
                              "this Idempotency-Key was used for a different request"),
                        rid);
    case idempotency_outcome::proceed:
      break;
  }
  reply r = run_handler(ctx);
  std::string body = serialize(st, r, rid);
  st.idempotency.complete(scoped, stored_response{r.status, body, rid});
  send(st, res, r.status, body, rid, r.headers);
}

httplib::Server::HandlerResponse handle_transport_error(server_state& st,
                                                        const httplib::Request& req,
                                                        httplib::Response& res) {
  if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
  const std::string rid = make_request_id(st, req);
  reply r;
  if (res.status == 413) {
    r = error(413, "PAYLOAD_TOO_LARGE", "the body is too large");
  } else if (res.status == 404 ||
             (res.status == 400 && !req.method.empty() && req.method != "GET" &&
              req.method != "POST" && req.method != "PUT" && req.method != "PATCH" &&
              req.method != "DELETE" && req.method != "OPTIONS" && req.method != "HEAD")) {
    r = route_error(st, match_route(req.path, req.method));
  } else if (res.status == 400 && req.path.find("/contacts/import") != std::string::npos) {
    r = error(422, "VALIDATION_ERROR", "the multipart body could not be read", nullptr,
              json::object{{"body", json::array{"malformed multipart/form-data"}}});
  } else if (res.status >= 500) {
    r = error(500, "INTERNAL_ERROR", "internal error");
  } else {
    r = error(res.status, res.status == 414 ? "URI_TOO_LONG" : "BAD_REQUEST",
              "the request could not be read");
  }
  send_reply(st, res, r, rid);
  return httplib::Server::HandlerResponse::Handled;
}

void handle_exception(server_state& st, const httplib::Request& req, httplib::Response& res,
                      std::exception_ptr) {
  const std::string rid = make_request_id(st, req);
  send_reply(st, res, error(500, "INTERNAL_ERROR", "internal error"), rid);
}

reply ok(json::value data, json::value meta, int status) {
  reply r;
  r.status = status;
  r.body = json::object{{"data", std::move(data)}, {"message", nullptr}, {"meta", std::move(meta)}};
  return r;
}

reply error(int status, std::string_view code, std::string_view message, json::value details,
            json::value errors) {
  reply r;
  r.status = status;
  r.is_error = true;
  r.body = json::object{{"error", message}, {"error_code", code}};
  if (!details.is_null()) r.body["details"] = std::move(details);
  if (!errors.is_null()) r.body["errors"] = std::move(errors);
  return r;
}

reply validation_error(std::string_view field, std::string_view message) {
  return error(422, "VALIDATION_ERROR", std::string(field) + ": " + std::string(message), nullptr,
               json::object{{field, json::array{json::string(message)}}});
}

}  // namespace conform::reference::detail
