// The class "contradicts an assumption of the description" in every report
// (issue 22): a failure whose only ground is an assumption carries its texts,
// is shown apart in the console, JSON, JUnit, HTML and Markdown, does not
// fail the run unless --strict-assumptions, and the run's summary lists
// every assumption contradicted. The JSON reader, baselines, diffs and
// merges keep it.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <sstream>
#include <string>

#include "reports/console.hpp"
#include "reports/diff.hpp"
#include "reports/html.hpp"
#include "reports/json.hpp"
#include "reports/json_read.hpp"
#include "reports/junit.hpp"
#include "reports/markdown.hpp"
#include "reports/merge.hpp"

namespace conform {
namespace {

const std::string assumed_text =
    "#/components/schemas/Note/properties/title/minLength: assumption: C19: an empty title is "
    "refused";

harness::failure assumed_failure() {
  harness::failure f;
  f.check = "negative_data_rejection";
  f.operation_id = "updateNote";
  f.method_path = "PATCH /notes/{id}";
  f.auth_model = "tenant_key (t1)";
  f.mode = {harness::failure_mode::kind::invalid, "body /title: a string of 0 characters"};
  f.expected = "a 4xx refusal of the invalid request (invalid_body body)";
  f.seen = "status 200";
  f.cause =
      "accepted invalid: invalid_body body (assumption "
      "#/components/schemas/Note/properties/title/minLength)";
  f.seed = 5;
  f.curl = "curl -sS -X PATCH 'http://h/notes/1'";
  f.status = 200;
  f.assumptions = {assumed_text};
  return f;
}

harness::failure sourced_failure() {
  harness::failure f = assumed_failure();
  f.check = "not_a_server_error";
  f.cause = "status 500";
  f.seen = "status 500";
  f.status = 500;
  f.assumptions.clear();
  return f;
}

/// A run whose only failure contradicts an assumption.
harness::run_report assumed_only(bool strict = false) {
  harness::run_report r;
  r.info.tool_version = "0.1.0";
  r.info.seed = 5;
  r.info.examples = 1;
  r.info.spec_file = "notes.yaml";
  r.info.checks = {"negative_data_rejection", "not_a_server_error"};
  r.info.strict_assumptions = strict;
  harness::check_tally t;
  t.operation_id = "updateNote";
  t.method_path = "PATCH /notes/{id}";
  t.auth_model = "tenant_key (t1)";
  t.check = "negative_data_rejection";
  t.passed = 7;
  t.contradicted = 2;
  r.tallies = {t};
  t.check = "not_a_server_error";
  t.passed = 9;
  t.contradicted = 0;
  r.tallies.push_back(t);
  r.failures = {assumed_failure()};
  r.counts.requests = 9;
  r.counts.checks_passed = 16;
  r.counts.checks_contradicted = 2;
  return r;
}

TEST(assumption_class, a_run_whose_failures_all_contradict_assumptions_passes_unless_strict) {
  EXPECT_EQ(assumed_only().exit_code(), 0);
  EXPECT_EQ(assumed_only(true).exit_code(), 1);
  auto mixed = assumed_only();
  mixed.failures.push_back(sourced_failure());
  EXPECT_EQ(mixed.exit_code(), 1);
  const auto listed = assumed_only().assumptions_contradicted();
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].text, assumed_text);
  EXPECT_EQ(listed[0].failures, 1u);
}

TEST(assumption_class, json_carries_it_and_reads_it_back) {
  const auto report = assumed_only(true);
  const auto value = reports::to_json(report);
  const auto& o = value.as_object();
  const auto& f = o.at("failures").as_array()[0].as_object();
  EXPECT_EQ(f.at("ground").as_string(), "assumption");
  EXPECT_EQ(f.at("assumptions").as_array()[0].as_string(), assumed_text);
  EXPECT_EQ(o.at("counts").at("checks_contradicted").as_uint64(), 2u);
  EXPECT_EQ(o.at("cells").as_array()[0].at("contradicted").as_uint64(), 2u);
  EXPECT_EQ(o.at("run").at("strict_assumptions"), true);
  EXPECT_EQ(o.at("assumptions_contradicted").as_array()[0].at("assumption").as_string(),
            assumed_text);
  const auto back = reports::parse_json_report(boost::json::serialize(value), "r.json");
  ASSERT_TRUE(back) << back.error();
  ASSERT_EQ(back->failures.size(), 1u);
  EXPECT_EQ(back->failures[0].assumptions, std::vector<std::string>{assumed_text});
  EXPECT_EQ(back->tallies[0].contradicted, 2u);
  EXPECT_EQ(back->counts.checks_contradicted, 2u);
  EXPECT_TRUE(back->info.strict_assumptions);
  EXPECT_EQ(back->exit_code(), 1);
  // Written again, it is the same report.
  EXPECT_EQ(boost::json::serialize(reports::to_json(*back)), boost::json::serialize(value));
  // A sourced failure has none of these fields.
  auto plain = assumed_only();
  plain.failures = {sourced_failure()};
  plain.counts.checks_contradicted = 0;
  plain.tallies[0].contradicted = 0;
  const auto p = reports::to_json(plain).as_object();
  EXPECT_FALSE(p.at("failures").as_array()[0].as_object().contains("ground"));
  EXPECT_FALSE(p.contains("assumptions_contradicted"));
  EXPECT_FALSE(p.at("counts").as_object().contains("checks_contradicted"));
}

TEST(assumption_class, the_reader_refuses_malformed_assumptions_with_their_pointer) {
  std::string text = boost::json::serialize(reports::to_json(assumed_only()));
  const auto at = text.find("\"assumptions\":[");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, std::string("\"assumptions\":[").size(), "\"assumptions\":[7,");
  const auto bad = reports::parse_json_report(text, "bad.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "bad.json: /failures/0/assumptions/0: expected a non-empty string");
}

TEST(assumption_class, console_shows_it_apart_and_lists_the_assumptions) {
  std::ostringstream out;
  reports::console_writer(out, false).run_finished({assumed_only()});
  const std::string text = out.str();
  EXPECT_NE(text.find("ASMP negative_data_rejection"), std::string::npos) << text;
  EXPECT_NE(text.find("Contradicts an assumption of the description (not failing the run"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("ASSUMPTION negative_data_rejection: updateNote"), std::string::npos);
  EXPECT_NE(text.find("  assumption: " + assumed_text), std::string::npos);
  EXPECT_NE(text.find("Assumptions of the description the target contradicted (1;"),
            std::string::npos);
  EXPECT_NE(text.find("2 contradicted an assumption of the description (1 distinct)"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("\nFailures\n"), std::string::npos) << "no sourced failure to list";
  EXPECT_NE(text.find("PASSED"), std::string::npos);
  std::ostringstream strict;
  reports::console_writer(strict, false).run_finished({assumed_only(true)});
  EXPECT_NE(strict.str().find("FAIL negative_data_rejection"), std::string::npos);
  EXPECT_NE(strict.str().find("FAILED"), std::string::npos);
}

TEST(assumption_class, junit_keeps_it_out_of_the_failures_unless_strict) {
  const std::string lenient = reports::render_junit(assumed_only());
  EXPECT_EQ(lenient.find("<failure"), std::string::npos) << lenient;
  EXPECT_NE(lenient.find("failures=\"0\""), std::string::npos);
  EXPECT_NE(lenient.find("<system-err>contradicts an assumption of the description"),
            std::string::npos)
      << lenient;
  EXPECT_NE(lenient.find("<property name=\"assumption_contradicted\""), std::string::npos);
  EXPECT_NE(lenient.find("2 contradicted an assumption of the description"), std::string::npos);
  const std::string strict = reports::render_junit(assumed_only(true));
  EXPECT_NE(strict.find("<failure type=\"contradicts an assumption: negative_data_rejection\""),
            std::string::npos)
      << strict;
  EXPECT_NE(strict.find("<property name=\"strict_assumptions\" value=\"true\"/>"),
            std::string::npos);
}

TEST(assumption_class, html_and_markdown_show_it_apart) {
  const std::string html = reports::render_html(assumed_only());
  EXPECT_NE(html.find("<section id=\"assumptions\"><h2>Contradicts an assumption of the "
                      "description (1)</h2>"),
            std::string::npos);
  EXPECT_NE(html.find("<h2>Failures (0)</h2>"), std::string::npos);
  EXPECT_NE(html.find("Assumptions the target contradicted (1)"), std::string::npos);
  EXPECT_NE(html.find("every check passed (1 contradicting an assumption of the description)"),
            std::string::npos);
  const std::string md = reports::render_markdown(assumed_only());
  EXPECT_NE(md.find("## Conform: PASSED"), std::string::npos) << md;
  EXPECT_NE(md.find("### Contradicts an assumption of the description (1)"), std::string::npos);
  EXPECT_NE(md.find("- assumption: " + assumed_text), std::string::npos);
  EXPECT_NE(md.find("### Assumptions the target contradicted (1)"), std::string::npos);
  EXPECT_EQ(md.find("### Failures"), std::string::npos);
}

/// assumed_only(), with the description's three assumptions: one the
/// failure contradicts, one a refusal for another reason left unobserved,
/// and one nothing contradicted.
harness::run_report with_unobserved() {
  auto r = assumed_only();
  const std::string unobserved = "#/paths/~1notes/delete/parameters/0/schema/minLength: C2";
  r.assumptions = {unobserved, assumed_text, "#/components/schemas/Note/minProperties: C3"};
  harness::note n;
  n.check = "negative_data_rejection";
  n.operation_id = "deleteNote";
  n.auth_model = "tenant_key (t1)";
  n.text = "not observed: ... refused with 409, which does not say its content was invalid";
  n.cause = "assumption not observed: 409 (assumption #/paths/~1notes/delete/parameters/0)";
  n.status = 409;
  n.assumptions = {unobserved};
  r.notes = {n};
  n.cause = "assumption not observed: 404 (assumption #/components/schemas/Note/...)";
  n.status = 404;
  n.assumptions = {assumed_text};  // contradicted elsewhere: observed after all
  r.notes.push_back(n);
  return r;
}

TEST(assumption_class, assumptions_a_refusal_left_unobserved_are_listed_apart) {
  const auto r = with_unobserved();
  const auto unobserved = r.assumptions_not_observed();
  ASSERT_EQ(unobserved.size(), 1u);
  EXPECT_EQ(unobserved[0].text, r.assumptions[0]);
  EXPECT_EQ(unobserved[0].status, 409u);
  EXPECT_EQ(r.assumptions_not_contradicted(), std::vector<std::string>{r.assumptions[2]});
  EXPECT_EQ(r.exit_code(), 0);

  const auto value = reports::to_json(r);
  const auto& o = value.as_object();
  EXPECT_EQ(o.at("assumptions").as_array().size(), 3u);
  EXPECT_EQ(o.at("assumptions_not_observed").as_array()[0].at("assumption").as_string(),
            r.assumptions[0]);
  EXPECT_EQ(o.at("notes").as_array()[0].at("assumptions").as_array()[0].as_string(),
            r.assumptions[0]);
  const auto back = reports::parse_json_report(boost::json::serialize(value), "r.json");
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->assumptions, r.assumptions);
  EXPECT_EQ(back->notes[0].assumptions, r.notes[0].assumptions);
  EXPECT_EQ(boost::json::serialize(reports::to_json(*back)), boost::json::serialize(value));

  std::ostringstream out;
  reports::console_writer(out, false).run_finished({r});
  const std::string text = out.str();
  EXPECT_NE(text.find("Assumptions of the description this run could not observe (1;"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  " + r.assumptions[0] + " (refused with 409)"), std::string::npos);
  EXPECT_NE(text.find("1 of the description's 3 assumptions were not contradicted"),
            std::string::npos);
  const std::string md = reports::render_markdown(r);
  EXPECT_NE(md.find("### Assumptions this run could not observe (1)"), std::string::npos) << md;
  const std::string html = reports::render_html(r);
  EXPECT_NE(html.find("Assumptions this run could not observe (1)"), std::string::npos);
  const std::string junit = reports::render_junit(r);
  EXPECT_NE(junit.find("<property name=\"assumption_not_observed\""), std::string::npos);
  // Without notes or a description's list, none of it is written.
  const auto plain = reports::to_json(assumed_only()).as_object();
  EXPECT_FALSE(plain.contains("assumptions"));
  EXPECT_FALSE(plain.contains("assumptions_not_observed"));
}

TEST(assumption_class, a_new_contradiction_does_not_fail_a_baseline_comparison_unless_strict) {
  harness::run_report old_run = assumed_only();
  old_run.failures.clear();
  auto d = reports::compare(old_run, assumed_only());
  ASSERT_EQ(d.new_failures.size(), 1u);
  EXPECT_EQ(d.failing_new(), 0u);
  EXPECT_EQ(d.exit_code(), 0);
  EXPECT_NE(reports::render_diff_text(d).find("[contradicts an assumption of the description]"),
            std::string::npos);
  EXPECT_EQ(reports::diff_json(d).at("new").as_array()[0].at("assumptions").as_array()[0],
            boost::json::value(assumed_text));
  EXPECT_EQ(reports::compare(old_run, assumed_only(true)).exit_code(), 1);
  auto sourced = assumed_only();
  sourced.failures = {sourced_failure()};
  EXPECT_EQ(reports::compare(old_run, sourced).exit_code(), 1);
}

TEST(assumption_class, shards_merge_their_contradictions_and_refuse_mixed_strictness) {
  auto shard = [](std::uint32_t k, bool strict) {
    auto r = assumed_only(strict);
    r.info.shard_index = k;
    r.info.shard_count = 2;
    if (k == 2) r.failures.clear();
    return reports::named_report{"s" + std::to_string(k) + ".json", r};
  };
  const auto merged = reports::merge_reports({shard(1, false), shard(2, false)}, {});
  ASSERT_TRUE(merged) << merged.error();
  EXPECT_EQ(merged->tallies[0].contradicted, 4u);
  EXPECT_EQ(merged->counts.checks_contradicted, 4u);
  ASSERT_EQ(merged->failures.size(), 1u);
  EXPECT_EQ(merged->failures[0].assumptions, std::vector<std::string>{assumed_text});
  EXPECT_EQ(merged->exit_code(), 0);
  const auto mixed = reports::merge_reports({shard(1, false), shard(2, true)}, {});
  ASSERT_FALSE(mixed.ok());
  EXPECT_NE(mixed.error().find("one ran with --strict-assumptions and the other without"),
            std::string::npos)
      << mixed.error();
}

}  // namespace
}  // namespace conform
