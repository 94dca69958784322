#pragma once
// A check is a small pure function of one exchange (the request sent, what
// came back, and the context it was sent in), registered by name. The runner
// applies every enabled check to every exchange; suites/ registers them.

#include <boost/json/value.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "http/message.hpp"
#include "harness/outcome.hpp"
#include "openapi/model.hpp"

namespace conform::profile {
struct credential;
}  // namespace conform::profile

namespace conform::harness {

/// How a request was authenticated: a scheme of the operation and the
/// profile credential used for it, or none for an operation without security.
struct auth_model {
  std::string name;                                  // "jwt", "tenant_key", "partner_key", "none"
  const openapi::security_scheme* scheme = nullptr;  // nullptr for "none"
  const profile::credential* credential = nullptr;   // nullptr for "none"
  std::string credential_name;
  std::string tenant_id;  // the effective tenant, when the operation has one

  /// "tenant_key (tenant-all)", or "none".
  std::string label() const;
};

/// Whether the request was generated to conform to the description or to
/// break it in one way.
enum class request_mode : std::uint8_t { valid, invalid };

/// One request sent and what came back, with the context checks need.
struct exchange {
  const openapi::api_spec& spec;
  const openapi::operation& op;
  const auth_model& auth;
  request_mode mode;
  std::string_view mutation;  // invalid mode: what was broken, and where
  const http::request& request;
  const http::result& result;
  /// The response body parsed as JSON, or nullptr when it is not JSON (or
  /// there is no response); `json_error` says why.
  const boost::json::value* json = nullptr;
  std::string_view json_error;
};

/// A named check.
struct check {
  std::string name;         // "status_code_conformance"
  std::string description;  // one line: what it expects
  std::string rule;         // the description section or decision it enforces
  enum class applies : std::uint8_t { valid, invalid, both } to = applies::both;
  std::function<check_verdict(const exchange&)> run;
};

/// Checks by name, in registration order.
class check_registry {
 public:
  /// Adds a check; a second check of the same name replaces the first.
  void add(check c);
  const check* find(std::string_view name) const;
  const std::vector<check>& all() const { return checks_; }

 private:
  std::vector<check> checks_;
};

}  // namespace conform::harness
