// Conform against its own reference server: clean, every check passes and
// nothing is "not run" (the reference profile has all each check needs);
// with each deliberate fault switched on, the check meant to catch it fails
// and the report names it. A fault without a check here fails the suite, so
// a new fault cannot go untested. The one fault that only drops assumptions
// of the description (lenient_assumptions) must pass, with each assumption
// it drops listed as contradicted, or as not observed where a request
// breaking it alone was refused for another reason.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <set>
#include <string>

#include "openapi/loader.hpp"
#include "openapi/provenance.hpp"
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
      {"unmapped_phone_accepted", "negative_data_rejection"},
      {"unknown_column_accepted", "columns_in_header"},
  };
  return m;
}

/// Faults that deviate only from assumptions of the description: no check
/// fails on them; each deviation is reported as contradicting an assumption.
const std::set<std::string> assumption_faults = {"lenient_assumptions"};

TEST(fault_coverage, every_fault_of_the_reference_server_has_a_check_that_catches_it) {
  for (const auto& name : conform::reference::known_faults()) {
    EXPECT_TRUE(catching_check().count(std::string(name)) ||
                assumption_faults.count(std::string(name)))
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
  // tests every constraint once whatever --examples says. No stateful walk:
  // it judges none of these checks (the profile's fixtures give the suites
  // their ids), and it was two thirds of a scenario fault's requests; the
  // clean run above has it, and every check judges something there.
  auto r = run_conform(
      {"--seed", "11", "--examples", "1", "--checks", check, "--fault", fault, "--no-stateful"});
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

namespace {

/// Every assumed constraint a request can break: those of the schemas the
/// operations' parameters and bodies reach, and the assumed `required` of
/// parameters and bodies; as openapi::constraint_ground::where() names them.
std::set<std::string> assumed_request_constraints(const conform::openapi::api_spec& spec) {
  using conform::schema::schema;
  std::set<const schema*> reached;
  std::function<void(const schema*)> walk = [&](const schema* s) {
    if (s == nullptr || !reached.insert(s).second) return;
    walk(s->ref);
    for (const auto& [name, p] : s->properties) walk(p);
    walk(s->items);
    walk(s->additional_properties);
    for (const auto* list : {&s->all_of, &s->any_of, &s->one_of, &s->prefix_items}) {
      for (const auto* b : *list) walk(b);
    }
  };
  std::set<std::string> out;
  for (const auto& op : spec.operations) {
    for (const auto& p : op.parameters) {
      walk(p.schema);
      if (!p.required_assumption.empty()) out.insert(p.location.substr(p.location.find('#')));
    }
    if (op.body) {
      for (const auto& m : op.body->content) walk(m.schema);
    }
  }
  for (const auto* s : reached) {
    for (const auto& a : s->assumed) out.insert(a.text.substr(0, a.text.find(": ")));
  }
  return out;
}

}  // namespace

TEST(fault_coverage, dropping_every_assumption_passes_and_lists_each_one_dropped) {
  // A server built from the same prose and decisions, choosing otherwise
  // wherever the description only assumes: the run passes (exit 0), no
  // sourced failure, and every assumption the fault drops is listed.
  auto r = run_conform({"--seed", "11", "--examples", "1", "--fault", "lenient_assumptions"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  std::set<std::string> listed;
  ASSERT_TRUE(r.report.contains("assumptions_contradicted")) << r.out;
  for (const auto& a : r.report.at("assumptions_contradicted").as_array()) {
    const std::string text(a.at("assumption").as_string());
    listed.insert(text.substr(0, text.find(": ")));
    EXPECT_NE(r.out.find(text), std::string::npos) << "the console does not list " << text;
  }
  for (const auto& f : r.failures()) {
    EXPECT_EQ(f.at("ground").as_string(), "assumption")
        << "a sourced failure against lenient_assumptions: " << boost::json::serialize(f);
  }
  const auto loaded = conform::openapi::load(std::string(CONFORM_SPEC_DIR) + "/voice-api.yaml");
  ASSERT_TRUE(loaded.ok());
  // What a request breaking it alone was refused for another reason. The
  // cancel's empty reason is judged only on a cancellable follow-up: when a
  // valid cancel of another worker came first, the state check answers 422
  // INVALID_STATE_TRANSITION (no validation code) and the assumption is not
  // observed; when the empty reason came first, the lenient server cancels
  // and the assumption is contradicted. Either is listed, never neither.
  const std::string reason = "#/paths/~1follow-ups~1{id}/delete/parameters/1/schema/minLength";
  std::set<std::string> unobserved;
  if (r.report.contains("assumptions_not_observed")) {
    for (const auto& a : r.report.at("assumptions_not_observed").as_array()) {
      const std::string text(a.at("assumption").as_string());
      unobserved.insert(text.substr(0, text.find(": ")));
      EXPECT_NE(r.out.find(text), std::string::npos) << "the console does not list " << text;
    }
  }
  EXPECT_TRUE(unobserved.empty() || unobserved == std::set<std::string>{reason}) << r.out;
  EXPECT_NE(listed.count(reason) + unobserved.count(reason), 0u) << r.out;
  // What the fault cannot change: an id below 1 names no resource, so the
  // lenient server refuses it as invalid too (422 VALIDATION_ERROR); those
  // are in the whole list, among the assumptions not contradicted.
  const std::set<std::string> held = {
      "#/components/schemas/CampaignCreate/properties/agent_id/minimum",
      "#/components/schemas/CampaignCreate/properties/campaign_phone_number_ids/items/minimum",
      "#/components/schemas/CreditMove/properties/tenant_id/minimum"};
  std::set<std::string> all;
  for (const auto& a : r.report.at("assumptions").as_array()) {
    const std::string text(a.as_string());
    all.insert(text.substr(0, text.find(": ")));
  }
  const auto expected = assumed_request_constraints(*loaded.spec);
  EXPECT_GE(expected.size(), 10u);
  for (const auto& where : expected) {
    EXPECT_TRUE(all.count(where)) << where << " is missing from the report's assumptions";
    if (held.count(where)) {
      EXPECT_FALSE(listed.count(where) || unobserved.count(where)) << where;
      continue;
    }
    EXPECT_TRUE(listed.count(where) || unobserved.count(where))
        << "lenient_assumptions drops " << where << ", and the run does not list it\n"
        << r.out;
  }
  for (const auto& where : listed) {
    EXPECT_TRUE(expected.count(where))
        << where << " is listed but is no assumed request constraint";
  }
  EXPECT_NE(r.out.find("assumptions were not contradicted by this run"), std::string::npos);
}

TEST(fault_coverage, strict_assumptions_makes_the_same_run_fail) {
  // Two of the four operations where this seed's run of every operation
  // contradicts an assumption: whether a run fails on a contradicted
  // assumption turns on --strict-assumptions alone, and one shows it.
  auto r = run_conform({"--seed", "11", "--examples", "1", "--fault", "lenient_assumptions",
                        "--checks", "negative_data_rejection", "--strict-assumptions", "--include",
                        "createCampaign", "--include", "runVoiceSessionAnalysis"});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_TRUE(r.failed_checks().count("negative_data_rejection")) << r.out;
  for (const auto& f : r.failures()) {
    EXPECT_EQ(f.at("ground").as_string(), "assumption") << boost::json::serialize(f);
  }
  EXPECT_EQ(r.report.at("run").at("strict_assumptions"), true);
}
