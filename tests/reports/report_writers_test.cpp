// Golden-file tests of the report writers: a fixed report in, the approved
// text out (tests/reports/data/*.approved.*). Regenerate with
// CONFORM_APPROVE=1 after reviewing a deliberate change.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "reports/console.hpp"
#include "reports/json.hpp"
#include "reports/junit.hpp"

namespace conform {
namespace {

using std::chrono::milliseconds;

harness::run_report sample_report() {
  harness::run_report r;
  r.info = {"0.1.0",
            42,
            "specs/voice-api.yaml",
            "Voice AI Calling Service API",
            "1.0.0",
            "abc123",
            "http://127.0.0.1:8080/api/v1",
            false,
            "ci-target.yaml",
            "",
            5,
            2,
            {"status_code_conformance", "error_code_conformance"},
            "2026-11-22T19:00:00Z"};
  r.tallies = {
      {"getVoiceSession", "GET /voice_sessions/{id}", "tenant_key (tenant-all)",
       "status_code_conformance", 10, 0, std::nullopt, milliseconds(3)},
      {"getVoiceSession", "GET /voice_sessions/{id}", "tenant_key (tenant-all)",
       "error_code_conformance", 8, 2, std::nullopt, milliseconds(1)},
      {"getVoiceSession", "GET /voice_sessions/{id}", "partner_key", "status_code_conformance", 0,
       0,
       std::string(
           "the profile has no usable partner_key credential with scope voice_sessions:read"),
       milliseconds(0)},
      {"getVoiceSession", "GET /voice_sessions/{id}", "tenant_key (tenant-all)",
       "negative_data_rejection", 0, 0, std::nullopt, milliseconds(0), true},
  };
  harness::failure f;
  f.check = "error_code_conformance";
  f.operation_id = "getVoiceSession";
  f.method_path = "GET /voice_sessions/{id}";
  f.auth_model = "tenant_key (tenant-all)";
  f.mode = {harness::failure_mode::kind::valid, {}};
  f.expected = "error_code for 404 one of SESSION_NOT_FOUND";
  f.seen = "error_code NOT_FOUND";
  f.cause = "404 NOT_FOUND";
  f.seed = 42;
  f.example = 3;
  f.curl =
      "curl -sS -g -X GET 'http://127.0.0.1:8080/api/v1/voice_sessions/9' -H \"X-Api-Key: "
      "${CONFORM_TENANT_ALL}\"";
  f.status = 404;
  f.response_excerpt = R"({"error":"not found <&>","error_code":"NOT_FOUND"})";
  f.shrink_steps = 2;
  f.occurrences = 2;
  r.failures = {f};
  r.not_runs = {
      {"*", "getVoiceSession", "partner_key",
       "the profile has no usable partner_key credential with scope voice_sessions:read"}};
  r.coverage = {{"getVoiceSession",
                 "GET /voice_sessions/{id}",
                 3,
                 2,
                 {"invalid_query_param query expand /: a value outside the enum: no value could be "
                  "made: gave up"},
                 {{"type", 2, 2}, {"enum", 1, 0}}}};
  r.counts = {20, 0, 18, 2, 1, 0};
  r.timings = {milliseconds(1500), milliseconds(10), milliseconds(900), milliseconds(20)};
  return r;
}

std::string approved_path(const std::string& name) {
  return std::string(CONFORM_TEST_DATA_DIR) + "/" + name;
}

void expect_approved(const std::string& name, const std::string& actual) {
  const std::string path = approved_path(name);
  if (std::getenv("CONFORM_APPROVE")) {
    std::ofstream(path, std::ios::binary) << actual;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << "missing approved file " << path;
  std::stringstream expected;
  expected << in.rdbuf();
  EXPECT_EQ(expected.str(), actual) << "output differs from " << path;
}

TEST(reports, junit_matches_approved) {
  std::ostringstream out;
  reports::write_junit(sample_report(), out);
  expect_approved("report.approved.xml", out.str());
}

TEST(reports, json_matches_approved_and_parses) {
  const auto value = reports::to_json(sample_report());
  const std::string text = boost::json::serialize(value);
  expect_approved("report.approved.json", text + "\n");
  const auto& obj = value.as_object();
  EXPECT_EQ(obj.at("exit_code").as_int64(), 1);
  EXPECT_EQ(obj.at("run").at("seed").as_uint64(), 42u);
  EXPECT_EQ(obj.at("cells").as_array().size(), 4u);
  EXPECT_EQ(obj.at("cells").as_array()[3].at("status").as_string(), "nothing_judged");
  EXPECT_EQ(obj.at("cells").as_array()[2].at("status").as_string(), "not_run");
}

TEST(reports, console_matches_approved) {
  std::ostringstream out;
  reports::console_writer writer(out, /*interactive=*/false);
  const auto report = sample_report();
  writer.run_started({report.info, 20});
  writer.exchange_done({10, 20});  // no progress bar when not interactive
  writer.run_finished({report});
  expect_approved("report.approved.txt", out.str());
}

// A check whose cells passed but that also could not judge some exchanges
// (a not-run entry of its own) is not shown as plainly "ok".
TEST(reports, console_says_when_a_passing_check_was_not_run_in_part) {
  harness::run_report r;
  r.info.checks = {"response_schema_conformance"};
  r.info.scenarios = 3;
  r.tallies = {{"getItem", "GET /items/{id}", "none", "response_schema_conformance", 4, 0,
                std::nullopt, milliseconds(1)}};
  r.not_runs = {{"response_schema_conformance", "getItem", "none", "pattern too costly"}};
  r.counts.checks_passed = 4;
  std::ostringstream out;
  reports::console_writer writer(out, /*interactive=*/false);
  writer.run_started({r.info, 7});
  writer.run_finished({r});
  const std::string text = out.str();
  EXPECT_NE(text.find("7 generated requests planned, and 3 scenario suites"), std::string::npos)
      << text;
  EXPECT_NE(text.find("part response_schema_conformance"), std::string::npos) << text;
  EXPECT_NE(text.find("1 not run in part (see Not run)"), std::string::npos) << text;
  EXPECT_EQ(text.find("ok   response_schema_conformance"), std::string::npos) << text;
}

// An API of many operations that safe mode never sends (etcd's 28 POST
// actions) made one "Needing a look" row each, every one "0/19 checks
// passed, 19 not run": past a few, such rows are counted in one line, while
// rows that failed or ran in part are still listed.
TEST(reports, console_counts_many_rows_where_no_check_ran_in_one_line) {
  for (const int idle : {3, 12}) {
    harness::run_report r;
    r.info.checks = {"status_code_conformance"};
    for (int k = 0; k < idle; ++k) {
      const std::string op = "action" + std::to_string(k);
      r.tallies.push_back({op, "POST /" + op, "none", "status_code_conformance", 0, 0,
                           std::string("safe mode: never sent"), milliseconds(0)});
      r.not_runs.push_back({"*", op, "none", "safe mode: never sent"});
    }
    r.tallies.push_back({"getItem", "GET /items/{id}", "none", "status_code_conformance", 3, 1,
                         std::nullopt, milliseconds(1)});
    std::ostringstream out;
    reports::console_writer writer(out, /*interactive=*/false);
    writer.run_finished({r});
    const std::string text = out.str();
    const std::string needing = text.substr(text.find("Needing a look"));
    EXPECT_NE(needing.find("FAIL getItem"), std::string::npos) << text;
    const bool listed = needing.find("SKIP action0 ") != std::string::npos;
    const bool counted = needing.find("SKIP " + std::to_string(idle) +
                                      " (operation, auth model) rows where no "
                                      "check ran (see Not run for why)") != std::string::npos;
    EXPECT_EQ(listed, idle == 3) << text;
    EXPECT_EQ(counted, idle == 12) << text;
  }
}

TEST(reports, console_progress_bar_only_when_interactive) {
  std::ostringstream out;
  reports::console_writer writer(out, /*interactive=*/true);
  writer.phase_started({harness::phase::exchanges, 10});
  writer.exchange_done({5, 10});
  EXPECT_NE(out.str().find("50%"), std::string::npos);
}

TEST(reports, exit_codes) {
  harness::run_report r;
  EXPECT_EQ(r.exit_code(), 2) << "a run that judged nothing proved nothing";
  r.counts.checks_passed = 1;
  EXPECT_EQ(r.exit_code(), 0);
  r.failures.emplace_back();
  EXPECT_EQ(r.exit_code(), 1);
  r.aborted = "target unreachable";
  EXPECT_EQ(r.exit_code(), 2);
}

TEST(reports, junit_writer_reports_an_unwritable_path) {
  reports::junit_writer writer("/nonexistent-dir/x/report.xml");
  writer.run_finished({sample_report()});
  EXPECT_NE(writer.error().find("/nonexistent-dir/x/report.xml"), std::string::npos);
}

}  // namespace
}  // namespace conform
