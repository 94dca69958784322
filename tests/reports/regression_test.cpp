// Baselines and run diffs: the failure key and its normalisation, the classes
// of a diff (new, fixed, still failing, flaky) on small hand-written reports,
// reading a JSON report back with errors that say where, and the Markdown
// summary for CI pages.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <string>

#include "reports/diff.hpp"
#include "reports/json.hpp"
#include "reports/json_read.hpp"
#include "reports/markdown.hpp"

namespace conform {
namespace {

/// A one-line failure object of a JSON report.
std::string failure(const std::string& op, const std::string& cause,
                    const std::string& seen = "status 500") {
  return R"j({"check":"status_code_conformance","operation_id":")j" + op +
         R"j(","method_path":"GET /x","auth_model":"tenant_key (t1)","mode":"valid",)j"
         R"j("expected":"a documented status","seen":")j" +
         seen + R"j(","cause":")j" + cause +
         R"j(","status":500,"seed":7,"example":1,"shrink_steps":0,"occurrences":1,)j"
         R"j("curl":"curl -sS 'http://h:8080/x' -H 'X-Api-Key: '\"${KEY}\""})j";
}

std::string report_with(const std::vector<std::string>& failures) {
  std::string list;
  for (const auto& f : failures) list += (list.empty() ? "" : ",") + f;
  return R"j({"format_version":1,"run":{"seed":7,"examples":2,"spec":{"file":"s.yaml"}},)j"
         R"j("exit_code":1,"cells":[],"failures":[)j" +
         list + R"j(],"not_run":[]})j";
}

harness::run_report parse(const std::string& text) {
  auto r = reports::parse_json_report(text, "test.json");
  EXPECT_TRUE(r) << r.error();
  return r ? *r : harness::run_report{};
}

std::string parse_error(const std::string& text) {
  const auto r = reports::parse_json_report(text, "bad.json");
  EXPECT_FALSE(r.ok());
  return r.ok() ? std::string() : r.error();
}

TEST(failure_key, normalises_what_changes_between_runs) {
  EXPECT_EQ(reports::normalise_cause("status 500"), "status 500");  // HTTP statuses stay
  EXPECT_EQ(reports::normalise_cause("404 NOT_FOUND"), "404 NOT_FOUND");
  EXPECT_EQ(reports::normalise_cause("took 1234 ms, id 987"), "took <n> ms, id <n>");
  EXPECT_EQ(reports::normalise_cause("id 12"), "id 12");
  EXPECT_EQ(reports::normalise_cause("GET http://127.0.0.1:40123/api/v1 refused"),
            "GET http://127.0.0.1:<port>/api/v1 refused");
  EXPECT_EQ(reports::normalise_cause("request req_8f3a2c91 unknown"), "request req_<id> unknown");
  EXPECT_EQ(reports::normalise_cause("etag 5f3e9a0b12cd"), "etag <hex>");
  EXPECT_EQ(reports::normalise_cause("id 0x1F2E3D4C5B"), "id <hex>");
  EXPECT_EQ(reports::normalise_cause("key 123e4567-e89b-12d3-a456-426614174000 reused"),
            "key <uuid> reused");
  EXPECT_EQ(reports::normalise_cause("/data/id: type"), "/data/id: type");
  EXPECT_EQ(reports::normalise_cause("deadbeef"), "deadbeef");  // hex with no digit is a word
}

TEST(failure_key, ignores_ids_but_not_the_operation_auth_or_check) {
  const auto a = parse(report_with({failure("getA", "request req_111aaa unknown")}));
  const auto b = parse(report_with({failure("getA", "request req_222bbb unknown")}));
  EXPECT_EQ(reports::failure_key(a.failures[0]), reports::failure_key(b.failures[0]));
  EXPECT_EQ(reports::failure_key(a.failures[0]),
            "getA | tenant_key (t1) | status_code_conformance | request req_<id> unknown");
  const auto c = parse(report_with({failure("getB", "request req_111aaa unknown")}));
  EXPECT_NE(reports::failure_key(a.failures[0]), reports::failure_key(c.failures[0]));
}

TEST(run_diff, classifies_new_fixed_still_failing_and_flaky) {
  const auto old_report =
      parse(report_with({failure("getA", "status 500"), failure("getB", "status 500"),
                         failure("getC", "status 418")}));
  const auto new_report = parse(
      report_with({failure("getA", "status 500"), failure("getD", "status 503"),
                   failure("getE", "status 502",
                           "status 502 (not reproduced by a re-send, which got status 200)")}));
  const auto d = reports::compare(old_report.failures, new_report.failures);
  ASSERT_EQ(d.new_failures.size(), 1u);
  EXPECT_EQ(d.new_failures[0].operation_id, "getD");
  ASSERT_EQ(d.fixed.size(), 2u);
  EXPECT_EQ(d.fixed[0].operation_id, "getB");
  EXPECT_EQ(d.fixed[1].operation_id, "getC");
  ASSERT_EQ(d.still_failing.size(), 1u);
  EXPECT_EQ(d.still_failing[0].operation_id, "getA");
  ASSERT_EQ(d.flaky.size(), 1u);
  EXPECT_EQ(d.flaky[0].operation_id, "getE");
  EXPECT_EQ(d.exit_code(), 1);

  const std::string text = reports::render_diff_text(d);
  EXPECT_NE(text.find("new (1)\n  getD | tenant_key (t1) | status_code_conformance | status 503"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("1 new, 2 fixed, 1 still failing, 1 flaky"), std::string::npos) << text;
  const auto json = reports::diff_json(d).as_object();
  EXPECT_EQ(json.at("counts").at("fixed").as_uint64(), 2u);
  EXPECT_EQ(json.at("exit_code").as_int64(), 1);
}

TEST(run_diff, nothing_new_exits_zero) {
  const auto r = parse(report_with({failure("getA", "status 500")}));
  const auto d = reports::compare(r.failures, r.failures);
  EXPECT_EQ(d.exit_code(), 0);
  EXPECT_EQ(d.still_failing.size(), 1u);
  EXPECT_NE(reports::render_diff_text(d, true).find("known (1)"), std::string::npos);
}

TEST(json_read, reads_back_what_the_json_writer_wrote) {
  auto r = parse(report_with({failure("getA", "status 500")}));
  r.tallies.push_back({"getA",
                       "GET /x",
                       "tenant_key (t1)",
                       "status_code_conformance",
                       0,
                       0,
                       std::string("no credential"),
                       {}});
  r.coverage.push_back({"getA", "GET /x", 3, 2, {"c: why"}, {{"type", 2, 2}, {"enum", 1, 0}}});
  const auto again = parse(reports::render_json(r));
  ASSERT_EQ(again.coverage.size(), 1u);
  EXPECT_EQ(again.coverage[0].by_keyword, r.coverage[0].by_keyword);
  ASSERT_EQ(again.failures.size(), 1u);
  EXPECT_EQ(again.failures[0].curl, r.failures[0].curl);
  EXPECT_EQ(again.failures[0].status, 500u);
  EXPECT_EQ(again.info.examples, 2u);
  ASSERT_EQ(again.tallies.size(), 1u);
  EXPECT_EQ(again.tallies[0].not_run_why, std::optional<std::string>("no credential"));
}

TEST(json_read, bad_input_says_what_and_where) {
  EXPECT_NE(parse_error("{not json").find("bad.json: not JSON"), std::string::npos);
  EXPECT_EQ(parse_error("[]"), "bad.json: /: expected an object");
  EXPECT_EQ(parse_error(R"j({"run":{}})j"),
            "bad.json: /format_version: missing: not a conform run report");
  EXPECT_NE(parse_error(R"j({"format_version":2,"run":{}})j").find("/format_version: unsupported"),
            std::string::npos);
  EXPECT_EQ(parse_error(R"j({"format_version":1,"run":{},"cells":[]})j"),
            "bad.json: /failures: missing");
  EXPECT_EQ(parse_error(R"j({"format_version":1,"run":{},"cells":[],"failures":[{"check":"c"}]})j"),
            "bad.json: /failures/0/operation_id: missing");
  EXPECT_EQ(parse_error(R"j({"format_version":1,"run":{"seed":-1},"cells":[],"failures":[]})j"),
            "bad.json: /run/seed: expected a non-negative integer");
  EXPECT_EQ(parse_error(R"j({"format_version":1,"kind":"certification","run":{}})j"),
            "bad.json: /kind: a certification report, not a run report");
  const auto missing = reports::read_json_report("/nonexistent/conform.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error(), "cannot read '/nonexistent/conform.json': No such file or directory");
}

TEST(markdown, summary_has_verdict_counts_and_reproductions) {
  auto r = parse(report_with({failure("getA", "status 500")}));
  r.counts.requests = 12;
  const std::string md = reports::render_markdown(r);
  EXPECT_NE(md.find("## Conform: FAILED (seed 7)"), std::string::npos) << md;
  EXPECT_NE(md.find("| 12 |"), std::string::npos) << md;
  EXPECT_NE(md.find("conform run --seed 7 --include getA --checks status_code_conformance "
                    "--examples 2"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("'\"${KEY}\""), std::string::npos) << md;  // the secret by its variable

  const auto d = reports::compare(r.failures, r.failures);
  const std::string known = reports::render_markdown(r, &d);
  EXPECT_NE(known.find("## Conform: PASSED"), std::string::npos) << known;
  EXPECT_NE(known.find("0 new, 1 known, 0 fixed"), std::string::npos) << known;
  EXPECT_EQ(known.find("### New failures"), std::string::npos) << known;
  EXPECT_NE(known.find("### Known (1)"), std::string::npos) << known;

  const auto none = parse(report_with({}));
  const auto d2 = reports::compare(none.failures, r.failures);
  const std::string fresh = reports::render_markdown(r, &d2);
  EXPECT_NE(fresh.find("### New failures (1)"), std::string::npos) << fresh;
  EXPECT_NE(fresh.find("```sh\nconform run --seed 7"), std::string::npos) << fresh;
}

}  // namespace
}  // namespace conform
