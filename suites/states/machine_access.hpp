#pragma once
// How the state machine checks reach one machine's resources: requests on a
// resource named by id (the id put where the description's x-resource
// fixture goes), and reading a resource's state through the machine's
// read_operation (a list walked for the item, or a read that takes the id).

#include <deque>
#include <optional>
#include <string>
#include <string_view>

#include "core/outcome.hpp"
#include "harness/scenario.hpp"

namespace conform::suites::states {

/// The state a read found, or why none was found.
struct state_read {
  std::optional<std::string> state;
  /// The request that showed the state (or the last one sent); nullptr when
  /// nothing was sent.
  const harness::probe* evidence = nullptr;
  std::string why;  // when `state` is empty
};

/// Sends for one machine, one tenant and one credential. Keeps every probe
/// at a stable address, so that failures can point at them.
class machine_access {
 public:
  machine_access(harness::scenario_context& ctx, const openapi::state_machine& machine,
                 const profile::tenant& tenant, const profile::credential& credential,
                 const openapi::operation& read_op);

  const openapi::state_machine& machine() const { return machine_; }
  const profile::tenant& tenant() const { return tenant_; }
  /// The auth model `op` gets here (the credential acting for the tenant).
  harness::auth_choice auth(const openapi::operation& op) const;

  /// A valid request for `op` on resource `id`, or why not: the operation
  /// names no such resource or no request can be generated.
  core::outcome<http::request> request_on(const openapi::operation& op, const std::string& id,
                                          std::string_view salt);
  /// Sends `req` and keeps what came back.
  const harness::probe& send(const http::request& req);
  /// The state of resource `id` now.
  state_read read(const std::string& id);

 private:
  state_read read_from_list(const std::string& id);
  state_read read_one(const std::string& id);
  std::optional<std::string> state_of(const boost::json::value& record) const;

  harness::scenario_context& ctx_;
  const openapi::state_machine& machine_;
  const profile::tenant& tenant_;
  const profile::credential& credential_;
  const openapi::operation& read_op_;
  /// Where a single read's record sits in its body (JSON pointer), found
  /// from the 2xx response schema; nullopt when the schema does not say.
  std::optional<std::string> record_pointer_;
  std::deque<harness::probe> probes_;
  unsigned reads_ = 0;
};

/// The path parameter of `op` that names `machine`'s resource: the one its
/// x-transition names, else one whose x-resource is the machine's resource.
const openapi::parameter* resource_parameter(const openapi::operation& op,
                                             const openapi::state_machine& machine);

}  // namespace conform::suites::states
