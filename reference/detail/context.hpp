#pragma once
// What a handler sees: the server's shared state, the request and the caller
// resolved by the pipeline, and the reply it builds.

#include <boost/json.hpp>
#include <httplib.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "reference/detail/credentials.hpp"
#include "reference/detail/idempotency.hpp"
#include "reference/detail/rate_limiter.hpp"
#include "reference/detail/store.hpp"
#include "reference/faults.hpp"

namespace conform::reference::detail {

struct operation;

/// Everything the server owns, shared by every request.
struct server_state {
  std::string environment;
  std::string jwt_secret;
  std::string cursor_key;
  fault_set faults;
  store data;
  credential_registry credentials;
  idempotency_store idempotency;
  rate_limiter limiter;
  std::atomic<std::uint64_t> request_counter{0};
  std::uint64_t seed = 0;

  server_state(std::string env, std::string secret, std::uint64_t seed_value, fault_set f,
               int rate_per_second);
  /// True when fault `f` is on.
  bool fault_on(fault f) const { return faults.has(f); }
};

/// The authenticated caller.
struct caller {
  scheme kind = scheme::jwt;
  std::string identity;                    // rate-limit and idempotency scope
  const credential_record* key = nullptr;  // keys only
  std::vector<id_t> jwt_tenants;           // jwt memberships
  std::string role;                        // jwt
  id_t partner_id = 0;                     // partner key
  id_t key_tenant = 0;                     // tenant key
};

/// A response before serialization: status, envelope pieces or a raw JSON body.
struct reply {
  int status = 200;
  boost::json::object body;  // request_id is added when written
  bool is_error = false;
  bool raw_json = false;  // telephony: body_text is the whole JSON body
  std::string body_text;
  std::vector<std::pair<std::string, std::string>> headers;
};

/// One request as it moves through the pipeline.
struct request_ctx {
  server_state& state;
  const httplib::Request& req;
  const operation* op = nullptr;
  std::vector<std::string> params;  // path parameters in order
  std::string request_id;
  caller who;
  id_t tenant_id = 0;        // effective tenant (0: none yet)
  boost::json::object body;  // parsed JSON body (json operations)
};

/// A success envelope (D1.1): data, message, meta (request_id added when written).
reply ok(boost::json::value data, boost::json::value meta = nullptr, int status = 200);
/// An error envelope (2.2) with optional details and per-field errors.
reply error(int status, std::string_view code, std::string_view message,
            boost::json::value details = nullptr, boost::json::value errors = nullptr);
/// 422 VALIDATION_ERROR with errors = {field: [message]}.
reply validation_error(std::string_view field, std::string_view message);

}  // namespace conform::reference::detail
