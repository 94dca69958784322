#pragma once
// The operation table: the 22 operations, their paths, accepted schemes,
// scopes (D2.4), tenant context (C4), body kind, and handler.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "reference/detail/context.hpp"

namespace conform::reference::detail {

/// Where an operation takes its effective tenant from (C4).
enum class tenant_source : std::uint8_t { none, header, path, body };
/// What request body an operation takes.
enum class body_kind : std::uint8_t { none, json, multipart };

using handler_fn = reply (*)(request_ctx&);

struct operation {
  std::string_view operation_id;
  std::string_view method;  // "GET", ...
  std::string_view path;    // "/follow-ups/{id}" under /api/v1
  bool authenticated = true;
  bool jwt = true, tenant_key = true, partner_key = true;
  bool jwt_only = false;
  std::string_view tenant_scope;   // empty: tenant key not accepted
  std::string_view partner_scope;  // empty: partner key not accepted
  bool write = false;
  tenant_source tenant_from = tenant_source::header;
  body_kind body = body_kind::none;
  bool idempotency_required = false;
  handler_fn handler = nullptr;
  std::string_view not_found_code;  // code of the path's resource
};

/// The table, in a fixed order.
const std::vector<operation>& operations();

/// The result of matching a path and method.
struct route_match {
  const operation* op = nullptr;  // set when path and method match
  std::vector<std::string> params;
  bool path_known = false;  // some operation has this path
  std::string allowed;      // "GET, POST" when path_known
};

/// Matches a request path (with the /api/v1 prefix) and method.
route_match match_route(std::string_view path, std::string_view method);

}  // namespace conform::reference::detail
