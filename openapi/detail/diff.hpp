#pragma once
// Private to openapi/diff.cpp: where the changes of one operation are
// collected, and the comparisons split out of diff.cpp (schemas; security
// and the x- extensions of an operation).

#include <string>
#include <string_view>
#include <vector>

#include "openapi/diff.hpp"
#include "openapi/model.hpp"

namespace conform::openapi::detail {

/// Which way a schema's values travel: a client sends request values (the
/// server narrowing them breaks it) and reads response values (the server
/// widening them may break it).
enum class direction : std::uint8_t { request, response };

/// The changes found so far, and the operation they belong to.
struct diff_sink {
  std::vector<spec_change>& out;
  std::string operation;
  std::string operation_id;

  void add(change_level level, std::string rule, std::string where, std::string what) {
    out.push_back(
        {level, std::move(rule), operation, operation_id, std::move(where), std::move(what)});
  }
};

/// Compares one schema travelling in `dir`. `where` names its place ("query
/// parameter 'limit'"); `subject` starts its rule ids ("request-parameter",
/// "request-body", "response-body", "response-header"); properties below it
/// are "request-property" / "response-property". Cycle-safe.
void diff_schema(diff_sink& sink, direction dir, const schema::schema* old_schema,
                 const schema::schema* new_schema, const std::string& where,
                 const std::string& subject);

/// Security alternatives, scopes, x-jwt-only and x-access of one operation.
void diff_security(diff_sink& sink, const operation& o, const operation& n);

/// x-tenant-context, x-pagination, x-idempotency and x-repeatable of one operation.
void diff_operation_extensions(diff_sink& sink, const operation& o, const operation& n);

/// The root: security schemes (header, credential, key prefixes, roles) and
/// the x- rules every operation follows (request id, limits, rate limiting).
void diff_root(diff_sink& sink, const api_spec& o, const api_spec& n);

}  // namespace conform::openapi::detail
