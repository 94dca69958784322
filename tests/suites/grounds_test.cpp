// On what a failure of the data checks rests (issue 22). A failure whose
// only ground is a constraint the description marks as an assumption of its
// own is reported as contradicting that assumption, apart from the failures
// that rest on the prose or a decision. Planted exchanges, each judged by
// the catalogue's check: requests broken by an assumption alone and by a
// sourced constraint, valid values on an assumed bound and off it, answers
// breaking an assumed enum, a sourced `required`, or a response that is an
// assumption as a whole.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <string>

#include "openapi/loader.hpp"
#include "suites/registry.hpp"

namespace conform {
namespace {

class grounds : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto loaded = openapi::load(std::string(CONFORM_TEST_DATA_DIR) + "/grounds.yaml");
    for (const auto& d : loaded.diagnostics) ADD_FAILURE() << core::to_string(d);
    spec_ = new openapi::api_spec(std::move(*loaded.spec));
  }
  static void TearDownTestSuite() {
    delete spec_;
    spec_ = nullptr;
  }

  /// The verdict of `check` on a request to saveNote and its answer.
  harness::check_verdict judge(
      const std::string& check, const std::string& target, const std::string& body, unsigned status,
      const std::string& answer = "{}",
      generators::request_mutation mutation = generators::request_mutation::invalid_body) {
    static const auto catalogue = suites::builtin_checks();
    const auto* entry = catalogue.find(check);
    EXPECT_NE(entry, nullptr) << check;
    const openapi::operation& op = *spec_->find_operation("saveNote");
    harness::auth_model auth{"none", nullptr, "", ""};
    generators::request_mode mode{mutation,
                                  mutation == generators::request_mutation::none ? "" : "body",
                                  "planted", std::nullopt};
    http::request req;
    req.method = http::verb::post;
    req.target = target;
    if (!body.empty()) {
      req.body = body;
      req.add_header("Content-Type", "application/json");
    }
    http::response res;
    res.status = status;
    res.body = answer;
    res.headers.push_back({http::field::content_type, "Content-Type", "application/json"});
    http::result result{res};
    boost::system::error_code ec;
    const boost::json::value json = boost::json::parse(answer, ec);
    harness::exchange e{*spec_, op, auth, mode, req, result, ec ? nullptr : &json, ""};
    return entry->exchange->run(e);
  }

  static openapi::api_spec* spec_;
};

openapi::api_spec* grounds::spec_ = nullptr;

const std::string ok_target = "/notes/7?reason=late&mode=fast";
const std::string ok_body = R"({"title":"t","owner_id":"1"})";

bool mentions(const harness::check_verdict& v, const std::string& text) {
  for (const auto& a : v.assumptions) {
    if (a.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST_F(grounds,
       an_invalid_request_accepted_rests_on_an_assumption_only_when_nothing_else_breaks_it) {
  using harness::check_verdict;
  // Broken by assumptions alone: the target drew its line elsewhere.
  auto v = judge("negative_data_rejection", ok_target,
                 R"({"title":"t","owner_id":"1","colour":"red"})", 200);
  ASSERT_EQ(v.what, check_verdict::kind::violation);
  EXPECT_TRUE(mentions(v, "C4: unknown fields are refused")) << v.cause;
  EXPECT_NE(v.cause.find("(assumption #/components/schemas/Note/additionalProperties)"),
            std::string::npos)
      << v.cause;
  v = judge("negative_data_rejection", ok_target, R"({"title":"t"})", 200);
  EXPECT_TRUE(mentions(v, "C6: an owner is named"));
  v = judge("negative_data_rejection", "/notes/7?reason=&mode=fast", ok_body, 200, "{}",
            generators::request_mutation::invalid_query_param);
  EXPECT_TRUE(mentions(v, "C1: an empty reason is refused"));
  v = judge("negative_data_rejection", "/notes/7?reason=late", ok_body, 200, "{}",
            generators::request_mutation::missing_param);
  EXPECT_TRUE(mentions(v, "C2: a mode is named"));

  // Broken by a sourced constraint, alone or beside an assumed one: a failure.
  for (const auto& [target, body] : std::vector<std::pair<std::string, std::string>>{
           {ok_target, R"({"title":5,"owner_id":"1"})"},       // type (section 2.1)
           {ok_target, R"({"owner_id":"1","colour":"red"})"},  // required title too
           {"/notes/7?mode=fast", ok_body},                    // reason (section 4.1)
           {"/notes/x7?reason=late&mode=fast", ok_body},       // the path id (D1.3)
           {ok_target, R"({"title":"t",)"},                    // not JSON
           {ok_target, ""}}) {                                 // no body (D6.4)
    v = judge("negative_data_rejection", target, body, 200);
    ASSERT_EQ(v.what, check_verdict::kind::violation) << target << " " << body;
    EXPECT_TRUE(v.assumptions.empty()) << target << " " << body << ": " << v.cause;
    EXPECT_EQ(v.cause.find("assumption"), std::string::npos) << v.cause;
  }
  // Refused: nothing to report, whatever the ground.
  EXPECT_EQ(judge("negative_data_rejection", ok_target, R"({"title":"t"})", 422).what,
            check_verdict::kind::pass);
}

// Issue 37: the note quoted "404" where the server had said why. It quotes
// the server's own reason when the body gives one, and nothing made up when
// it gives none; the note's key stays the status and code, one per cause.
TEST_F(grounds, a_note_on_a_refusal_quotes_the_servers_own_reason) {
  const std::string assumed_only = R"({"title":"t","owner_id":"1","colour":"red"})";
  const auto said = judge("negative_data_rejection", ok_target, assumed_only, 409,
                          R"({"error_code":"STATE_CONFLICT","message":"note 7 is archived"})");
  EXPECT_NE(said.note.find("409 STATE_CONFLICT (\"note 7 is archived\")"), std::string::npos)
      << said.note;
  EXPECT_EQ(said.cause.find("archived"), std::string::npos) << said.cause;
  // An empty message says nothing: the next member that does is quoted.
  const auto spring = judge("negative_data_rejection", ok_target, assumed_only, 404,
                            R"({"message":"","error":"Not Found","path":"/notes/7"})");
  EXPECT_NE(spring.note.find("404 (\"Not Found\")"), std::string::npos) << spring.note;
  const auto silent = judge("negative_data_rejection", ok_target, assumed_only, 404, "{}");
  EXPECT_NE(silent.note.find("refused with 404, which"), std::string::npos) << silent.note;
}

TEST_F(grounds, a_refusal_for_another_reason_neither_confirms_nor_contradicts_an_assumption) {
  using harness::check_verdict;
  const std::string assumed_only = R"({"title":"t","owner_id":"1","colour":"red"})";
  const std::string validation = R"({"error_code":"VALIDATION_ERROR"})";
  const std::string conflict = R"({"error_code":"STATE_CONFLICT"})";
  // Broken by an assumption alone, refused with 404 or a code that is not a
  // validation code: a pass, with a note naming what it could not observe.
  for (const auto& [status, answer] :
       std::vector<std::pair<unsigned, std::string>>{{404, "{}"}, {422, conflict}, {409, "{}"}}) {
    const auto v = judge("negative_data_rejection", ok_target, assumed_only, status, answer);
    ASSERT_EQ(v.what, check_verdict::kind::pass) << status;
    EXPECT_TRUE(mentions(v, "C4: unknown fields are refused")) << status;
    EXPECT_NE(v.note.find("not observed"), std::string::npos) << v.note;
    EXPECT_NE(v.cause.find("(assumption #/components/schemas/Note/additionalProperties)"),
              std::string::npos)
        << v.cause;
  }
  // The validation refusal, or a size refusal, confirms it: no note.
  for (const auto& [status, answer] : std::vector<std::pair<unsigned, std::string>>{
           {422, validation}, {422, "{}"}, {413, "{}"}, {431, "{}"}}) {
    const auto v = judge("negative_data_rejection", ok_target, assumed_only, status, answer);
    ASSERT_EQ(v.what, check_verdict::kind::pass) << status;
    EXPECT_TRUE(v.note.empty()) << status << ": " << v.note;
    EXPECT_TRUE(v.assumptions.empty()) << status;
  }
  // Broken by a sourced constraint: a 404 says nothing of an assumption.
  const auto v =
      judge("negative_data_rejection", ok_target, R"({"title":5,"owner_id":"1"})", 404, "{}");
  ASSERT_EQ(v.what, check_verdict::kind::pass);
  EXPECT_TRUE(v.note.empty()) << v.note;
}

TEST_F(grounds, a_valid_request_refused_on_an_assumed_bound_contradicts_that_assumption) {
  using harness::check_verdict;
  const std::string at_bound = R"({"title":")" + std::string(64, 'a') + R"(","owner_id":"1"})";
  auto v = judge("positive_data_acceptance", ok_target, at_bound, 422, "{}",
                 generators::request_mutation::none);
  ASSERT_EQ(v.what, check_verdict::kind::violation);
  EXPECT_TRUE(mentions(v, "C5: titles fit a line"));
  // Off every assumed bound, or refused as unauthorised: the failure is sourced.
  v = judge("positive_data_acceptance", ok_target, ok_body, 422, "{}",
            generators::request_mutation::none);
  ASSERT_EQ(v.what, check_verdict::kind::violation);
  EXPECT_TRUE(v.assumptions.empty());
  v = judge("positive_data_acceptance", ok_target, at_bound, 401, "{}",
            generators::request_mutation::none);
  ASSERT_EQ(v.what, check_verdict::kind::violation);
  EXPECT_TRUE(v.assumptions.empty());
  EXPECT_EQ(judge("positive_data_acceptance", ok_target, at_bound, 200, "{}",
                  generators::request_mutation::none)
                .what,
            check_verdict::kind::pass);
}

TEST_F(grounds, an_answer_breaking_only_an_assumed_constraint_contradicts_it) {
  using harness::check_verdict;
  auto v = judge("response_schema_conformance", ok_target, ok_body, 200,
                 R"({"id":"7","status":"archived"})", generators::request_mutation::none);
  ASSERT_EQ(v.what, check_verdict::kind::violation);
  EXPECT_TRUE(mentions(v, "C7: statuses"));
  // A sourced `required` broken too: a failure.
  v = judge("response_schema_conformance", ok_target, ok_body, 200, R"({"status":"archived"})",
            generators::request_mutation::none);
  ASSERT_EQ(v.what, check_verdict::kind::violation);
  EXPECT_TRUE(v.assumptions.empty());
  // A documented response that is an assumption as a whole.
  v = judge("response_schema_conformance", ok_target, ok_body, 202, R"({"queued":true})",
            generators::request_mutation::none);
  ASSERT_EQ(v.what, check_verdict::kind::violation);
  EXPECT_TRUE(mentions(v, "C3: a queued note answers its id"));
  EXPECT_EQ(judge("response_schema_conformance", ok_target, ok_body, 200,
                  R"({"id":"7","status":"saved"})", generators::request_mutation::none)
                .what,
            check_verdict::kind::pass);
}

TEST_F(grounds, a_code_of_a_response_that_is_ours_as_a_whole_contradicts_that_assumption) {
  using harness::check_verdict;
  // 503 is an assumption as a whole; 422 is D6.1's.
  auto v = judge("error_code_conformance", ok_target, ok_body, 503,
                 R"({"error_code":"MAINTENANCE"})", generators::request_mutation::none);
  ASSERT_EQ(v.what, check_verdict::kind::violation);
  EXPECT_TRUE(mentions(v, "C8: not ready is 503 NOT_READY"));
  v = judge("error_code_conformance", ok_target, ok_body, 422, R"({"error_code":"BAD"})",
            generators::request_mutation::none);
  ASSERT_EQ(v.what, check_verdict::kind::violation);
  EXPECT_TRUE(v.assumptions.empty());
  EXPECT_EQ(judge("error_code_conformance", ok_target, ok_body, 503,
                  R"({"error_code":"NOT_READY"})", generators::request_mutation::none)
                .what,
            check_verdict::kind::pass);
}

TEST_F(grounds, the_same_exchange_gets_the_same_verdict_every_time) {
  const std::string body = R"({"title":"t","owner_id":"1","colour":"red"})";
  const auto first = judge("negative_data_rejection", ok_target, body, 200);
  for (int i = 0; i < 5; ++i) {
    const auto again = judge("negative_data_rejection", ok_target, body, 200);
    EXPECT_EQ(again.cause, first.cause);
    EXPECT_EQ(again.assumptions, first.assumptions);
  }
}

}  // namespace
}  // namespace conform
