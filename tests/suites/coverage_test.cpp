// Conform against its own reference server: clean, every check passes and
// nothing is "not run" (the reference profile has all each check needs);
// with each deliberate fault switched on, the check meant to catch it fails
// and the report names it. A fault without a check here fails the suite, so
// a new fault cannot go untested.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "reference/faults.hpp"
#include "tests/suites/support.hpp"

namespace {

using conform::suites::testing::run_conform;

/// Which check catches which fault of the reference server.
const std::map<std::string, std::string>& catching_check() {
  static const std::map<std::string, std::string> m = {
      {"scope_leak", "auth_scope_matrix"},
      {"tenant_leak", "tenant_foreign_resource"},
      {"foreign_list_leak", "tenant_list_isolation"},
      {"wrong_401_as_403", "auth_unauthenticated"},
      {"wrong_403_as_401", "auth_scope_matrix"},
      {"jwt_only_ignored", "auth_jwt_only"},
      {"expired_jwt_accepted", "auth_credential_rejected"},
      {"alg_none_accepted", "auth_jwt_tampering"},
      {"other_env_key_accepted", "auth_credential_rejected"},
      {"x_tenant_widens", "tenant_header_enforcement"},
      {"missing_envelope_field", "response_schema_conformance"},
      {"missing_request_id", "request_id_conformance"},
      {"wrong_error_code", "error_code_conformance"},
      {"page_gap", "pagination_page_walk"},
      {"page_count_off", "pagination_page_walk"},
      {"cursor_duplicate", "pagination_cursor_walk"},
      {"cursor_unbound", "pagination_cursor_integrity"},
      {"replay_double_effect", "idempotency_effect"},
      {"replay_not_marked", "idempotency_replay"},
      {"idempotency_key_ignored", "idempotency_key_reuse"},
      {"invalid_transition_allowed", "state_transitions"},
      {"validation_500", "not_a_server_error"},
      {"no_405", "method_not_allowed"},
      {"rate_limit_no_retry_after", "rate_limit_conformance"},
      {"telephony_not_idempotent", "repeat_delivery"},
      {"path_mismatch_accepted", "same_as_enforced"},
  };
  return m;
}

TEST(fault_coverage, every_fault_of_the_reference_server_has_a_check_that_catches_it) {
  for (const auto& name : conform::reference::known_faults()) {
    EXPECT_TRUE(catching_check().count(std::string(name)))
        << "fault " << name << " has no catching check in this test";
  }
  EXPECT_GE(catching_check().size(), 20u);
}

TEST(fault_coverage, the_clean_reference_passes_every_check_and_nothing_is_not_run) {
  auto r = run_conform({"--seed", "11", "--examples", "3"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(r.failures().empty()) << r.out;
  EXPECT_EQ(r.not_run_count(), 0u) << r.not_run_text();
  // Every check of every suite judged something.
  for (const auto& [fault, check] : catching_check()) {
    EXPECT_GT(r.cells_passed(check), 0u) << check << " (catches " << fault << ") judged nothing";
  }
}

class caught : public ::testing::TestWithParam<std::string> {};

TEST_P(caught, the_intended_check_fails_and_the_report_names_it) {
  const std::string fault = GetParam();
  const std::string check = catching_check().at(fault);
  // The intended check alone: the clean run above covers every check, and
  // this keeps the runs quick under the sanitizers. One random example per
  // cell: what catches a fault of one exchange is the coverage phase, which
  // tests every constraint once whatever --examples says.
  auto r = run_conform({"--seed", "11", "--examples", "1", "--checks", check, "--fault", fault});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_TRUE(r.failed_checks().count(check))
      << "fault " << fault << " was not caught by " << check << "\n"
      << r.out;
  // The console names the failing check too, for the user reading CI logs.
  EXPECT_NE(r.out.find(check), std::string::npos) << r.out;
}

INSTANTIATE_TEST_SUITE_P(every_fault, caught, ::testing::ValuesIn([] {
                           std::vector<std::string> names;
                           for (const auto& [fault, check] : catching_check()) {
                             names.push_back(fault);
                           }
                           return names;
                         }()),
                         [](const auto& info) { return info.param; });

}  // namespace
