// The workflows scenario against the in-process reference server: the shipped
// workflow documents pass on the clean server, a fault a workflow notices is
// reported with the workflow's evidence, and documents that cannot run are
// reported as not run with where and why.
#include <gtest/gtest.h>
#include <httplib.h>

#include <boost/json.hpp>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "openapi/loader.hpp"
#include "reference/server.hpp"
#include "suites/workflows/document.hpp"
#include "suites/workflows/expression.hpp"
#include "suites/workflows/workflows.hpp"
#include "tests/support/servers.hpp"
#include "tests/suites/support.hpp"

namespace conform::suites {
namespace {

namespace fs = std::filesystem;
using testing::run_conform;

constexpr const char* check = "workflow_conformance";

/// A workflow file in a temporary directory, for `--workflows`.
class extra_workflow {
 public:
  extra_workflow(const std::string& name, const std::string& text)
      : path_(fs::temp_directory_path() /
              ("conform-workflow-" + std::to_string(::getpid()) + "-" + name)) {
    std::ofstream(path_) << text;
  }
  ~extra_workflow() { fs::remove(path_); }
  std::string path() const { return path_.string(); }

 private:
  fs::path path_;
};

const char* const header = R"(arazzo: 1.0.1
info: { title: test, version: 1.0.0 }
sourceDescriptions:
  - { name: api, url: voice-api.yaml, type: openapi }
workflows:
)";

std::string not_run_why(const testing::conform_result& r, const std::string& auth) {
  if (!r.report.contains("not_run")) return {};
  for (const auto& n : r.report.at("not_run").as_array()) {
    if (n.at("check").as_string() == check && n.at("auth_model").as_string() == auth) {
      return std::string(n.at("why").as_string());
    }
  }
  return {};
}

std::size_t curl_commands(const boost::json::object& failure) {
  const std::string curl(failure.at("curl").as_string());
  std::size_t n = 0;
  for (auto at = curl.find("curl "); at != std::string::npos; at = curl.find("curl ", at + 1)) ++n;
  return n;
}

TEST(workflows_suite, clean_reference_passes_every_shipped_workflow) {
  auto r = run_conform({"--checks", check});
  EXPECT_TRUE(r.failures(check).empty()) << boost::json::serialize(r.report.at("failures"));
  EXPECT_EQ(r.not_run_count(), 0u) << r.not_run_text();
  EXPECT_EQ(r.cells_passed(check), 4u);
  for (const char* id : {"campaignLifecycle", "launchWithoutContacts", "createdCampaignIsListed",
                         "followUpCancelledTwice"}) {
    bool found = false;
    for (const auto& c : r.report.at("cells").as_array()) {
      found = found || (c.at("auth_model").as_string() == std::string("workflow ") + id &&
                        c.at("status").as_string() == "passed");
    }
    EXPECT_TRUE(found) << id;
  }
  EXPECT_EQ(r.status, 0) << r.err;
}

TEST(workflows_suite, pause_of_a_draft_allowed_is_caught) {
  auto r = run_conform({"--checks", check, "--fault", "invalid_transition_allowed"});
  auto failures = r.failures(check);
  // Both criteria of the pause of a draft fail; nothing else does.
  ASSERT_EQ(failures.size(), 2u) << boost::json::serialize(r.report.at("failures"));
  const auto& f = failures.front();
  EXPECT_EQ(f.at("cause").as_string(), "launchWithoutContacts step pauseDraft: $statusCode == 422");
  EXPECT_EQ(f.at("expected").as_string(), "$statusCode == 422");
  EXPECT_EQ(f.at("seen").as_string(), "$statusCode = 200 (answer: 200)");
  EXPECT_EQ(f.at("auth_model").as_string(), "workflow launchWithoutContacts");
  EXPECT_EQ(f.at("operation_id").as_string(), "createCampaign");
  EXPECT_EQ(f.at("status").to_number<std::int64_t>(), 200);
  // create, launch, pauseDraft: every request of the workflow so far.
  EXPECT_EQ(curl_commands(f), 3u) << f.at("curl");
  EXPECT_EQ(failures[1].at("cause").as_string(),
            "launchWithoutContacts step pauseDraft: $response.body#/error_code == "
            "'INVALID_STATE_TRANSITION'");
  EXPECT_EQ(failures[1].at("seen").as_string(), "the response has no /error_code (answer: 200)");
  EXPECT_NE(r.status, 0);
}

TEST(workflows_suite, a_wrong_expectation_fails_with_the_criterion_and_the_answer) {
  extra_workflow doc("wrong.arazzo.yaml", std::string(header) + R"(  - workflowId: wrongCreate
    inputs: { type: object, properties: { agent_id: { type: integer } } }
    steps:
      - stepId: create
        operationId: createCampaign
        requestBody:
          contentType: application/json
          payload: { name: conform wrong expectation, agent_id: $inputs.agent_id, timezone: Asia/Kolkata }
        successCriteria:
          - condition: $statusCode == 200
          - condition: $response.body#/data/status != 'draft'
)");
  auto r = run_conform({"--workflows", doc.path(), "--checks", check});
  auto failures = r.failures(check);
  ASSERT_EQ(failures.size(), 2u) << boost::json::serialize(r.report.at("failures"));
  EXPECT_EQ(failures[0].at("cause").as_string(), "wrongCreate step create: $statusCode == 200");
  EXPECT_EQ(failures[0].at("seen").as_string(), "$statusCode = 201 (answer: 201)");
  EXPECT_EQ(failures[1].at("cause").as_string(),
            "wrongCreate step create: $response.body#/data/status != 'draft'");
  EXPECT_EQ(failures[1].at("seen").as_string(),
            "$response.body#/data/status = \"draft\" (answer: 201)");
  EXPECT_EQ(curl_commands(failures[0]), 1u);
  const std::string steps(failures[0].at("mode").as_string());
  EXPECT_NE(steps.find("ran workflow wrongCreate as tenant"), std::string::npos) << steps;
  // The shipped workflows still pass beside it.
  EXPECT_EQ(r.cells_passed(check), 4u);
}

// Plain scalars of a payload: true/false, null, 64-bit integers and numbers
// with a decimal point are typed; the rest stays text (a 20-digit id must not
// become a double, nor 1e5 a number, nor True a boolean).
TEST(workflows_document, plain_scalars_of_a_payload_are_typed_conservatively) {
  const auto spec = openapi::load(std::string(CONFORM_SPEC_DIR) + "/voice-api.yaml");
  ASSERT_TRUE(spec.ok());
  const auto doc = workflows::load_document(std::string(header) + R"(  - workflowId: typed
    steps:
      - stepId: a
        operationId: createCampaign
        requestBody:
          payload: {name: x, big: 12345678901234567890, e: 1e5, d: 1.5, t: True, b: true,
                    q: "12", n: ~, neg: -7, dot: .5}
        successCriteria: [ { condition: $statusCode == 201 } ]
)",
                                            "typed.arazzo.yaml", *spec.spec);
  ASSERT_TRUE(doc.errors.empty()) << doc.errors.front();
  ASSERT_EQ(doc.workflows.size(), 1u);
  ASSERT_TRUE(doc.workflows[0].errors.empty()) << doc.workflows[0].errors.front();
  const auto& p = doc.workflows[0].steps.at(0).body->payload.as_object();
  EXPECT_EQ(p.at("big"), boost::json::value("12345678901234567890"));
  EXPECT_EQ(p.at("e"), boost::json::value("1e5"));
  EXPECT_EQ(p.at("d"), boost::json::value(1.5));
  EXPECT_EQ(p.at("t"), boost::json::value("True"));
  EXPECT_EQ(p.at("b"), boost::json::value(true));
  EXPECT_EQ(p.at("q"), boost::json::value("12"));
  EXPECT_TRUE(p.at("n").is_null());
  EXPECT_EQ(p.at("neg"), boost::json::value(-7));
  EXPECT_EQ(p.at("dot"), boost::json::value(0.5));
}

TEST(workflows_suite, a_malformed_document_is_not_run_with_its_position) {
  extra_workflow doc("malformed.arazzo.yaml", std::string(header) + R"(  - workflowId: broken
    steps: [ { stepId: a, operationId: listCampaigns }
)");
  auto r = run_conform({"--workflows", doc.path(), "--checks", check});
  const std::string why = not_run_why(r, "workflow " + doc.path());
  EXPECT_NE(why.find(doc.path() + ":8:1: error: invalid YAML"), std::string::npos)
      << r.not_run_text();
  EXPECT_TRUE(r.failures(check).empty());
}

TEST(workflows_suite, unknown_operations_and_expressions_are_not_run_with_their_positions) {
  extra_workflow doc("unknown.arazzo.yaml",
                     std::string(header) + R"(  - workflowId: unknownOperation
    steps:
      - stepId: a
        operationId: noSuchOperation
        successCriteria: [ { condition: $statusCode == 200 } ]
  - workflowId: badExpression
    steps:
      - stepId: a
        operationId: listCampaigns
        successCriteria:
          - condition: $response.bodyy == 1
          - condition: $steps.nope.outputs.id == 1
)");
  auto r = run_conform({"--workflows", doc.path(), "--checks", check});
  const std::string unknown = not_run_why(r, "workflow unknownOperation");
  EXPECT_NE(unknown.find(doc.path() + ":9:22: unknown operationId 'noSuchOperation'"),
            std::string::npos)
      << r.not_run_text();
  const std::string bad = not_run_why(r, "workflow badExpression");
  EXPECT_NE(bad.find(doc.path() + ":16:13: cannot evaluate runtime expression '$response.bodyy'"),
            std::string::npos)
      << bad;
  EXPECT_NE(bad.find(doc.path() + ":17:13: cannot evaluate '$steps.nope.outputs.id': no earlier "
                                  "step 'nope'"),
            std::string::npos)
      << bad;
  EXPECT_TRUE(r.failures(check).empty());
}

TEST(workflows_suite, requests_the_document_cannot_make_are_refused_at_load) {
  extra_workflow doc("requests.arazzo.yaml", std::string(header) + R"(  - workflowId: badRequests
    steps:
      - stepId: launch
        operationId: $sourceDescriptions.api.launchCampaign
        parameters:
          - { name: X-Tenant-Id, in: header, value: '101' }
          - { name: nope, in: query, value: 1 }
          - { name: id, in: path, value: $response.body#/data/id }
        onFailure: [ { name: retry, type: retry } ]
        successCriteria: [ { condition: $statusCode == 200 } ]
      - stepId: pause
        operationId: pauseCampaign
        successCriteria: [ { condition: $statusCode == 200 } ]
)");
  auto r = run_conform({"--workflows", doc.path(), "--checks", check});
  const std::string why = not_run_why(r, "workflow badRequests");
  for (const std::string expected :
       {":11:13: header 'X-Tenant-Id' is set by the harness from the profile",
        ":12:13: operation launchCampaign has no query parameter 'nope'",
        ":13:42: cannot evaluate '$response.body#/data/id': a request cannot read its own "
        "response",
        ":14:20: 'onFailure' is not supported",
        ":16:9: step 'pause' gives no value for path parameter 'id'"}) {
    EXPECT_NE(why.find(doc.path() + expected), std::string::npos) << expected << "\n"
                                                                  << r.not_run_text();
  }
  EXPECT_TRUE(r.failures(check).empty());
}

TEST(workflows_suite, nodes_of_the_wrong_kind_are_not_run_with_their_positions) {
  extra_workflow doc("kinds.arazzo.yaml", std::string(header) + R"(  - workflowId: wrongKinds
    inputs: { type: object, properties: [ agent_id ] }
    steps:
      - stepId: a
        operationId: listCampaigns
        parameters: [ page ]
        successCriteria: [ $statusCode == 200 ]
        outputs: [ x ]
  - 42
)");
  auto r = run_conform({"--workflows", doc.path(), "--checks", check});
  const std::string why = not_run_why(r, "workflow wrongKinds");
  for (const std::string expected :
       {":7:13: 'inputs' must be a JSON schema object with 'properties'",
        ":11:23: a parameter is a mapping with name, in and value",
        ":12:28: a criterion is a mapping with a 'condition'",
        ":13:18: 'outputs' must be a mapping"}) {
    EXPECT_NE(why.find(doc.path() + expected), std::string::npos) << expected << "\n"
                                                                  << r.not_run_text();
  }
  EXPECT_NE(r.not_run_text().find(":14:5: a workflow is a mapping"), std::string::npos)
      << r.not_run_text();
  EXPECT_TRUE(r.failures(check).empty());
  EXPECT_EQ(r.cells_passed(check), 4u);
}

TEST(workflows_suite, a_workflow_id_used_twice_is_not_run) {
  extra_workflow doc("duplicate.arazzo.yaml",
                     std::string(header) + R"(  - workflowId: createdCampaignIsListed
    steps:
      - stepId: a
        operationId: listCampaigns
        successCriteria: [ { condition: $statusCode == 200 } ]
)");
  auto r = run_conform({"--workflows", doc.path(), "--checks", check});
  const std::string why = not_run_why(r, "workflow createdCampaignIsListed (" + doc.path() + ")");
  EXPECT_NE(why.find(doc.path() + ":6:5: workflowId 'createdCampaignIsListed' is already used in "),
            std::string::npos)
      << r.not_run_text();
  // The shipped document, beside the description.
  EXPECT_NE(why.find("specs/workflows/campaigns.arazzo.yaml: give it another id"),
            std::string::npos)
      << r.not_run_text();
  EXPECT_EQ(r.cells_passed(check), 4u);
}

TEST(workflows_suite, a_fixture_no_tenant_has_is_not_run_with_why) {
  extra_workflow doc("fixture.arazzo.yaml", std::string(header) + R"(  - workflowId: needsAFixture
    inputs: { type: object, properties: { no_such_fixture: { type: string } } }
    steps:
      - stepId: a
        operationId: listCampaigns
        successCriteria: [ { condition: $statusCode == 200 } ]
)");
  auto r = run_conform({"--workflows", doc.path(), "--checks", check});
  const std::string why = not_run_why(r, "workflow needsAFixture");
  EXPECT_NE(why.find("tenant t1: no fixture no_such_fixture"), std::string::npos)
      << r.not_run_text();
}

TEST(workflows_suite, a_precondition_that_does_not_hold_is_not_run_never_a_failure) {
  // The shipped cancel-twice workflow run a second time in one process
  // against one server would fail without its precondition; a document that
  // needs a campaign to be running when it is a draft shows the same.
  extra_workflow doc("precondition.arazzo.yaml",
                     std::string(header) + R"(  - workflowId: needsRunning
    inputs: { type: object, properties: { campaign_draft_id: { type: string } } }
    steps:
      - stepId: isRunning
        operationId: listCampaigns
        x-conform-precondition: true
        successCriteria:
          - condition: $statusCode == 200
          - context: $response.body
            type: jsonpath
            condition: $.data.items[?(@.id == '{$inputs.campaign_draft_id}' && @.status == 'running')]
      - stepId: never
        operationId: listCampaigns
        successCriteria: [ { condition: $statusCode == 999 } ]
)");
  auto r = run_conform({"--workflows", doc.path(), "--checks", check});
  EXPECT_TRUE(r.failures(check).empty()) << boost::json::serialize(r.report.at("failures"));
  const std::string why = not_run_why(r, "workflow needsRunning");
  EXPECT_NE(why.find("precondition step isRunning does not hold"), std::string::npos)
      << r.not_run_text();
  // The shipped workflows still pass beside it.
  EXPECT_EQ(r.cells_passed(check), 4u);
}

/// A target that answers its base URL (the run's first request, to see that
/// it is there) and then either every request with 429 and "Retry-After: 0"
/// (the client's retries end at once with the rate limit still on) or, when
/// `slow`, nothing within the run's timeout.
test_support::scripted_server odd_server(bool slow) {
  return test_support::scripted_server([slow](const httplib::Request& req, httplib::Response& res) {
    if (req.path == "/api/v1/" || req.path == "/api/v1") return;
    if (slow) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1500));
      return;
    }
    res.status = 429;
    res.set_header("Retry-After", "0");
    res.set_content(R"({"error_code":"RATE_LIMITED"})", "application/json");
  });
}

/// The reference server's profile with its base_url on 127.0.0.1:`port`.
std::string profile_on_port(int port) {
  reference::server srv(reference::server_config{});
  std::string text = srv.profile_yaml();
  const auto end = text.find('\n');
  EXPECT_EQ(text.rfind("base_url: ", 0), 0u);
  text.replace(0, end, "base_url: http://127.0.0.1:" + std::to_string(port) + "/api/v1");
  return text;
}

// A step that got no answer, or a 429 past the client's retries, says
// nothing about the workflow: not run with why, never a failure.
TEST(workflows_suite, a_step_with_no_answer_or_rate_limited_is_not_run_never_a_failure) {
  for (const bool slow : {false, true}) {
    const std::string why =
        slow ? "the target did not answer" : "the target refused the request as rate-limited";
    SCOPED_TRACE(why);
    auto odd = odd_server(slow);
    extra_workflow profile("profile-" + std::to_string(odd.port()) + ".yaml",
                           profile_on_port(odd.port()));
    // No stateful walk: it judges none of the workflow checks, and against
    // this target each of its requests would wait out the timeout too.
    auto r = run_conform(
        {"--checks", check, "--profile", profile.path(), "--timeout", "0.3", "--no-stateful"});
    ASSERT_TRUE(r.report.contains("failures")) << r.err;
    EXPECT_TRUE(r.failures(check).empty()) << boost::json::serialize(r.report.at("failures"));
    EXPECT_EQ(r.cells_passed(check), 0u);
    for (const char* id : {"campaignLifecycle", "launchWithoutContacts", "createdCampaignIsListed",
                           "followUpCancelledTwice"}) {
      const std::string seen = not_run_why(r, std::string("workflow ") + id);
      EXPECT_NE(seen.find("could not be judged: " + why), std::string::npos)
          << id << ": " << r.not_run_text();
    }
  }
}

TEST(workflows_suite, a_precondition_flag_that_is_not_a_boolean_is_refused_at_load) {
  extra_workflow doc("badflag.arazzo.yaml", std::string(header) + R"(  - workflowId: badFlag
    steps:
      - stepId: a
        operationId: listCampaigns
        x-conform-precondition: sometimes
        successCriteria: [ { condition: $statusCode == 200 } ]
)");
  auto r = run_conform({"--workflows", doc.path(), "--checks", check});
  EXPECT_NE(r.not_run_text().find("'x-conform-precondition' must be true or false"),
            std::string::npos)
      << r.not_run_text();
}

TEST(workflows_expressions, criteria_hold_on_the_answer) {
  using namespace workflows;
  harness::probe p;
  http::response resp;
  resp.status = 200;
  resp.body = R"({"data":{"items":[{"id":"7","status":"paused"},{"id":"8","status":"running"}]}})";
  p.result.outcome = resp;
  p.json = boost::json::parse(resp.body);
  std::map<std::string, boost::json::value> inputs{{"id", "8"}};
  scope s{&p, &inputs, nullptr};
  std::string seen;
  auto c = parse_criterion("$.data.items[?(@.id == '{$inputs.id}' && @.status == 'running')]",
                           "jsonpath", "$response.body");
  ASSERT_TRUE(c) << c.error();
  EXPECT_TRUE(holds(*c, s, &seen)) << seen;
  c = parse_criterion("$.data.items[?(@.id == '7' && @.status == 'running')]", "jsonpath",
                      "$response.body");
  ASSERT_TRUE(c) << c.error();
  EXPECT_FALSE(holds(*c, s, &seen));
  EXPECT_EQ(seen,
            "no item of $.data.items (2 items) matches; the item with id = \"7\" has status = "
            "\"paused\"");
  c = parse_criterion("$statusCode == 200 && $response.body#/data/items/0/id == '7'", "", "");
  ASSERT_TRUE(c) << c.error();
  EXPECT_TRUE(holds(*c, s, &seen)) << seen;
  c = parse_criterion("$response.body#/data/missing == 1", "", "");
  ASSERT_TRUE(c) << c.error();
  EXPECT_FALSE(holds(*c, s, &seen));
  EXPECT_EQ(seen, "the response has no /data/missing");
  // Odd answers are data: a body that is not JSON, or no answer at all.
  harness::probe text;
  http::response plain;
  plain.status = 502;
  plain.body = "<html>bad gateway</html>";
  text.result.outcome = plain;
  c = parse_criterion("$response.body#/data/status == 'running'", "", "");
  ASSERT_TRUE(c) << c.error();
  EXPECT_FALSE(holds(*c, scope{&text, &inputs, nullptr}, &seen));
  EXPECT_EQ(seen, "the response body is not JSON");
  harness::probe none;
  none.result.outcome =
      core::fail(http::transport_error{http::transport_error::kind::closed, "closed"});
  c = parse_criterion("$statusCode == 200", "", "");
  ASSERT_TRUE(c) << c.error();
  EXPECT_FALSE(holds(*c, scope{&none, &inputs, nullptr}, &seen));
  EXPECT_EQ(seen, "no response");
  EXPECT_FALSE(parse_criterion("$statusCode == 200 || $statusCode == 201", "", "").ok());
  const auto unquoted = parse_criterion("$statusCode == running", "", "");
  ASSERT_FALSE(unquoted.ok());
  EXPECT_NE(unquoted.error().find("strings take single quotes"), std::string::npos)
      << unquoted.error();
}

}  // namespace
}  // namespace conform::suites
