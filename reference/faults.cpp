#include "reference/faults.hpp"

#include <array>
#include <stdexcept>

namespace conform::reference {
namespace {

constexpr std::array<std::string_view, 29> fault_names = {
    "scope_leak",
    "tenant_leak",
    "foreign_list_leak",
    "wrong_401_as_403",
    "wrong_403_as_401",
    "jwt_only_ignored",
    "expired_jwt_accepted",
    "alg_none_accepted",
    "other_env_key_accepted",
    "x_tenant_widens",
    "missing_envelope_field",
    "missing_request_id",
    "wrong_error_code",
    "page_gap",
    "page_count_off",
    "cursor_duplicate",
    "cursor_unbound",
    "replay_double_effect",
    "replay_not_marked",
    "idempotency_key_ignored",
    "invalid_transition_allowed",
    "validation_500",
    "no_405",
    "rate_limit_no_retry_after",
    "telephony_not_idempotent",
    "path_mismatch_accepted",
    "unmapped_phone_accepted",
    "unknown_column_accepted",
    "lenient_assumptions",
};

}  // namespace

std::string_view to_string(fault f) {
  return fault_names.at(static_cast<std::size_t>(f));
}

std::optional<fault> parse_fault(std::string_view name) {
  for (std::size_t i = 0; i < fault_names.size(); ++i) {
    if (fault_names[i] == name) return static_cast<fault>(i);
  }
  return std::nullopt;
}

std::vector<std::string> known_faults() {
  return {fault_names.begin(), fault_names.end()};
}

fault_set::fault_set(const std::set<std::string>& names) {
  for (const auto& n : names) {
    auto f = parse_fault(n);
    if (!f) {
      std::string known;
      for (auto k : fault_names) {
        if (!known.empty()) known += ", ";
        known += k;
      }
      throw std::invalid_argument("unknown fault '" + n + "'; known faults: " + known);
    }
    bits_ |= std::uint64_t{1} << static_cast<unsigned>(*f);
  }
}

}  // namespace conform::reference
