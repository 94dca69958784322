#pragma once
// Deliberate deviations the reference server can be switched into, so that
// the harness can be shown to catch each one (docs/reference-server.md).

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace conform::reference {

/// One deliberate deviation from the contract.
enum class fault : std::uint8_t {
  scope_leak,
  tenant_leak,
  foreign_list_leak,
  wrong_401_as_403,
  wrong_403_as_401,
  jwt_only_ignored,
  expired_jwt_accepted,
  alg_none_accepted,
  other_env_key_accepted,
  x_tenant_widens,
  missing_envelope_field,
  missing_request_id,
  wrong_error_code,
  page_gap,
  page_count_off,
  cursor_duplicate,
  cursor_unbound,
  replay_double_effect,
  replay_not_marked,
  idempotency_key_ignored,
  invalid_transition_allowed,
  validation_500,
  no_405,
  rate_limit_no_retry_after,
  telephony_not_idempotent,
  path_mismatch_accepted,
  /// D5.4: a contact import whose column_mapping maps no column to
  /// phone_e164 is accepted.
  unmapped_phone_accepted,
  /// D5.4: a contact import whose column_mapping names a column absent from
  /// the CSV header is accepted.
  unknown_column_accepted,
  /// Drops every constraint the description marks as an assumption of its
  /// own that a request can break (docs/api-choices.md): a server built from
  /// the same prose and decisions that chose otherwise. Conform must report
  /// each as contradicting an assumption, and still pass.
  lenient_assumptions,
};

/// The name of a fault as `--fault` takes it.
std::string_view to_string(fault f);
/// Parses a fault name; nullopt when unknown.
std::optional<fault> parse_fault(std::string_view name);
/// Every fault name, in declaration order.
std::vector<std::string> known_faults();

/// A set of active faults, cheap to query from any thread (immutable after start).
class fault_set {
 public:
  fault_set() = default;
  /// Builds the set from names; throws std::invalid_argument naming the unknown
  /// one and listing the known ones.
  explicit fault_set(const std::set<std::string>& names);
  /// True when the fault is switched on.
  bool has(fault f) const { return (bits_ >> static_cast<unsigned>(f)) & 1U; }
  /// True when no fault is on.
  bool empty() const { return bits_ == 0; }

 private:
  std::uint64_t bits_ = 0;
};

}  // namespace conform::reference
