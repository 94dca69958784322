// A generic OpenAPI client against the in-process reference server (issue
// 14): what Schemathesis's example and stateful phases, or a Postman
// collection generated from the description, can do with specs/voice-api.yaml
// alone. The client below knows nothing of this API: it reads paths,
// parameters, `example`s, request bodies, security schemes, response
// headers, error_code enums and `links` from the YAML, and is handed only
// credentials, one per security scheme. It shows that
//  - every operation answers 2xx at least once, starting from the examples
//    and following the links of each 2xx answer;
//  - links alone (no parameter example) feed the operations whose ids some
//    other answer carries;
//  - every answer, 2xx or error, has the headers its response declares
//    required and an error_code within its response's enum, and the
//    one-credential rule (C23) is visible as a documented 401.
// One credential cannot reach every operation, by the description's own
// security: GET /agents takes only a JWT, GET /partner/tenants and the credit
// moves only a partner key. The fewest are two: a JWT and a partner key.

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <map>
#include <string>
#include <vector>

#include "reference/server.hpp"
#include "tests/openapi/generic_client.hpp"

namespace conform::test_support::generic {
namespace {

namespace json = boost::json;

class generic_client_test : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    root_ = new YAML::Node(YAML::LoadFile(std::string(CONFORM_SPEC_DIR) + "/voice-api.yaml"));
  }
  static void TearDownTestSuite() {
    delete root_;
    root_ = nullptr;
  }
  /// The only thing this test knows of the API: which credential to hand
  /// the client for which security scheme of the description. A user-session
  /// JWT (role admin, one tenant) and a partner key with the opt-in
  /// allocation scope: the fewest that reach every operation.
  static std::vector<std::pair<std::string, std::string>> credentials(
      const conform::reference::server& srv) {
    return {{"bearerJwt", srv.credential("jwt-admin")},
            {"partnerApiKey", srv.credential("partner-allocate")}};
  }
  static YAML::Node* root_;
};

YAML::Node* generic_client_test::root_ = nullptr;

std::string report(const std::map<std::string, std::string>& not_reached,
                   const std::vector<std::string>& problems) {
  std::string out;
  for (const auto& [op, why] : not_reached) out += "\n  not reached: " + op + ": " + why;
  for (const auto& p : problems) out += "\n  problem: " + p;
  return out;
}

TEST_F(generic_client_test, reaches_every_operation_with_a_2xx_from_examples_and_links) {
  // A fresh server: the run moves state (it launches, pauses, cancels).
  conform::reference::server srv{conform::reference::server_config{}};
  generic_client c(*root_, srv.base_url(), credentials(srv));
  std::map<std::string, std::string> not_reached;
  const auto reached = explore(c, true, not_reached);
  EXPECT_EQ(reached.size(), c.operations().size()) << report(not_reached, c.problems());
  EXPECT_EQ(c.operations().size(), 22U);
  EXPECT_TRUE(c.problems().empty()) << report({}, c.problems());
  // Links were followed, and the answers they led to were checked too.
  int fired = 0;
  for (const auto& [name, n] : c.links_fired()) fired += n;
  EXPECT_GE(fired, 15);
  EXPECT_EQ(c.headers_checked(), static_cast<int>(c.log().size()));
}

TEST_F(generic_client_test, links_alone_feed_the_operations_other_answers_name_ids_for) {
  // No parameter examples: only operations without required parameters, then
  // the values links carry (request bodies keep their examples).
  conform::reference::server srv{conform::reference::server_config{}};
  generic_client c(*root_, srv.base_url(), credentials(srv));
  std::map<std::string, std::string> not_reached;
  const auto reached = explore(c, false, not_reached);
  // Ids a list, a create or a record returns, fed to get, launch, pause and
  // the rest.
  for (const char* op : {"getVoiceSession", "launchCampaign", "pauseCampaign",
                         "updateContactMemory", "getRateChangeHistory"}) {
    EXPECT_TRUE(reached.count(op)) << op << report(not_reached, c.problems());
  }
  EXPECT_TRUE(c.problems().empty()) << report({}, c.problems());
  // What no answer of the description names an id for (it shows no list of
  // follow-ups, knowledge bases or invoices, section 4): only the examples
  // reach those.
  for (const char* op :
       {"cancelFollowUp", "getFollowUpEvents", "updateKnowledgeBaseSource", "getInvoice"}) {
    EXPECT_FALSE(reached.count(op)) << op << " reached without examples: update the docs";
  }
}

TEST_F(generic_client_test, error_answers_carry_request_ids_and_documented_codes) {
  conform::reference::server srv{conform::reference::server_config{}};
  generic_client c(*root_, srv.base_url(), credentials(srv));
  int sent = 0;
  for (std::size_t i = 0; i < c.operations().size(); ++i) {
    const operation& op = c.operations()[i];
    if (!c.credential_for(op) || c.credential_for(op)->empty()) continue;  // public
    // No credential at all: 401.
    auto none =
        c.send({i, {}, "no credential"}, true, std::vector<std::pair<std::string, std::string>>{});
    ASSERT_TRUE(none) << op.id << ": " << none.error();
    EXPECT_EQ(none->status, 401) << op.id;
    // Every security scheme's credential at once (what a tool does that sends
    // all alternatives together): 401, the one-credential rule (C23).
    std::vector<std::pair<std::string, std::string>> all;
    for (const auto& [scheme, secret] : credentials(srv))
      for (auto& h : c.scheme_headers(scheme, secret)) all.push_back(h);
    for (auto& h : c.scheme_headers("tenantApiKey", srv.credential("t1-all"))) all.push_back(h);
    auto every = c.send({i, {}, "every credential at once"}, true, all);
    ASSERT_TRUE(every) << op.id << ": " << every.error();
    EXPECT_EQ(every->status, 401) << op.id;
    // Unknown ids in the path: the operation's documented refusal.
    std::map<std::string, json::value> unknown;
    for (const auto& p : op.params) {
      if (p.in == "path") unknown[p.name] = json::string("999999999");
    }
    if (!unknown.empty()) {
      auto bad = c.send({i, unknown, "unknown ids"}, true);
      ASSERT_TRUE(bad) << op.id << ": " << bad.error();
      EXPECT_GE(bad->status, 400) << op.id;
    }
    sent += 1;
  }
  EXPECT_GE(sent, 19);
  EXPECT_TRUE(c.problems().empty()) << report({}, c.problems());
  EXPECT_GE(c.codes_checked(), 2 * 19);
}

}  // namespace
}  // namespace conform::test_support::generic
