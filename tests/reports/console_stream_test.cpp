// The console streams the run as it goes: each phase as it starts (with its
// planned count), each failure as it is found and each "not run" as it is
// said, one short line each, before the summary. On a terminal a streamed
// line clears the progress line and draws it again below itself; elsewhere
// the lines are plain, without a control character. The summary that ends
// the stream is the same bytes whatever was streamed before it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "reports/console.hpp"

namespace conform {
namespace {

using harness::phase;
using std::chrono::milliseconds;

harness::failure failure_of(std::string check, std::string operation, std::string cause) {
  harness::failure f;
  f.check = std::move(check);
  f.operation_id = std::move(operation);
  f.method_path = "GET /items/{id}";
  f.auth_model = "key (tenant-a)";
  f.mode = {harness::failure_mode::kind::valid, {}};
  f.expected = "a 404 with the error envelope";
  f.seen = "a 500 with an HTML page";
  f.cause = std::move(cause);
  f.seed = 7;
  f.curl = "curl -sS -g 'http://127.0.0.1:1/items/1'";
  f.status = 500;
  return f;
}

/// A run of two scenario suites and 12 generated requests (4 of coverage):
/// a scenario failure, a not-run during the exchanges, a shrunk failure.
struct sample {
  harness::run_report report;
  harness::failure scenario_failure = failure_of("tenant_isolation", "getItem",
                                                 "another "
                                                 "tenant's item");
  harness::failure shrunk = failure_of("error_code_conformance", "getItem", "500 INTERNAL");
  harness::not_run skipped{"response_schema_conformance", "listItems", "key (tenant-a)",
                           "the pattern of name is too costly to check"};

  sample() {
    report.info.tool_version = "0.1.0";
    report.info.seed = 7;
    report.info.spec_file = "items.yaml";
    report.info.spec_title = "Items";
    report.info.spec_version = "1.0.0";
    report.info.target = "http://127.0.0.1:1";
    report.info.examples = 2;
    report.info.workers = 1;
    report.info.scenarios = 2;
    report.info.coverage_planned = 4;
    report.info.checks = {"tenant_isolation", "error_code_conformance",
                          "response_schema_conformance"};
    report.tallies = {
        {"getItem", "GET /items/{id}", "key (tenant-a)", "tenant_isolation", 0, 1, std::nullopt,
         milliseconds(1)},
        {"getItem", "GET /items/{id}", "key (tenant-a)", "error_code_conformance", 5, 1,
         std::nullopt, milliseconds(1)},
        {"listItems", "GET /items", "key (tenant-a)", "response_schema_conformance", 6, 0,
         std::nullopt, milliseconds(1)},
    };
    report.failures = {scenario_failure, shrunk};
    report.not_runs = {skipped};
    report.counts = {14, 0, 11, 2, 0, 0};
    report.timings = {milliseconds(250), milliseconds(1), milliseconds(200), milliseconds(5)};
  }

  /// The run's events, in the order the engine emits them.
  void stream(harness::listener& l) const {
    l.run_started({report.info, 12});
    l.phase_started({phase::scenarios, 2});
    l.failure_found({scenario_failure});
    l.phase_finished({phase::scenarios});
    l.phase_started({phase::coverage, 4});
    l.phase_started({phase::exchanges, 12});
    for (std::uint64_t done = 1; done <= 12; ++done) {
      l.exchange_done({done, 12});
      if (done == 6) l.not_run({skipped});
    }
    l.phase_finished({phase::coverage});
    l.phase_finished({phase::exchanges});
    l.phase_started({phase::shrinking, 1});
    l.failure_found({shrunk});
    l.phase_finished({phase::shrinking});
    l.run_finished({report});
  }
};

std::string streamed(bool interactive) {
  std::ostringstream out;
  reports::console_writer writer(out, interactive);
  sample().stream(writer);
  return out.str();
}

/// What the console prints for the run's start and end alone.
std::string summary_alone() {
  const sample s;
  std::ostringstream out;
  reports::console_writer writer(out, false);
  writer.run_started({s.report.info, 12});
  writer.run_finished({s.report});
  return out.str();
}

void expect_approved(const std::string& name, const std::string& actual) {
  const std::string path = std::string(CONFORM_TEST_DATA_DIR) + "/" + name;
  if (std::getenv("CONFORM_APPROVE")) std::ofstream(path, std::ios::binary) << actual;
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << "missing approved file " << path;
  std::stringstream expected;
  expected << in.rdbuf();
  EXPECT_EQ(expected.str(), actual) << "output differs from " << path;
}

std::size_t at(const std::string& text, const std::string& part) {
  const auto i = text.find(part);
  EXPECT_NE(i, std::string::npos) << "no '" << part << "' in:\n" << text;
  return i;
}

TEST(console_stream, plain_lines_in_the_order_things_happen_then_the_summary) {
  const std::string text = streamed(false);
  expect_approved("console_stream.approved.txt", text);
  const std::size_t summary = at(text, "\nChecks (cells");
  // Each as it happened: in the phase it happened in, before the summary.
  const std::size_t scenarios = at(text, "phase scenarios: 2 scenario suites\n");
  const std::size_t found =
      at(text, "  FAIL tenant_isolation: getItem as key (tenant-a): another tenant's item\n");
  const std::size_t coverage = at(text, "phase coverage: 4 requests, one per constraint\n");
  const std::size_t exchanges =
      at(text, "phase exchanges: 8 random requests (after the coverage's 4)\n");
  const std::size_t skipped = at(text,
                                 "  not run: response_schema_conformance of listItems as key "
                                 "(tenant-a): the pattern of name is too costly to check\n");
  const std::size_t shrinking = at(text, "phase shrinking: 1 failure to shrink\n");
  const std::size_t shrunk =
      at(text, "  FAIL error_code_conformance: getItem as key (tenant-a): 500 INTERNAL\n");
  EXPECT_LT(scenarios, found);
  EXPECT_LT(found, coverage);
  EXPECT_LT(coverage, exchanges);
  EXPECT_LT(exchanges, skipped);
  EXPECT_LT(skipped, shrinking);
  EXPECT_LT(shrinking, shrunk);
  EXPECT_LT(shrunk, summary);
  // Plain: no carriage return, no escape, no progress bar.
  EXPECT_EQ(text.find('\r'), std::string::npos);
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  EXPECT_EQ(text.find("%"), std::string::npos);
}

TEST(console_stream, the_summary_is_the_same_bytes_whatever_was_streamed) {
  const std::string text = streamed(false);
  const std::string alone = summary_alone();
  // The header, then the streamed lines, then the summary of a run that streamed nothing.
  const std::size_t header_end = at(alone, "\n\nChecks") + 1;
  EXPECT_EQ(text.substr(0, header_end), alone.substr(0, header_end));
  const std::size_t summary = at(text, "\nChecks (cells");
  EXPECT_EQ(text.substr(summary), alone.substr(header_end));
  const std::string terminal = streamed(true);
  EXPECT_EQ(terminal.substr(terminal.find("\nChecks (cells")), alone.substr(header_end));
}

TEST(console_stream, on_a_terminal_a_line_clears_the_progress_line_and_draws_it_again) {
  const std::string text = streamed(true);
  // The not-run came at 6 of 12: the bar at 50% is cleared, the line printed
  // at the start of a clean line, and the bar drawn again below it.
  const std::string bar = "[" + std::string(20, '#') + std::string(20, ' ') + "] 50% 6/12";
  const std::string clear = "\r" + std::string(bar.size(), ' ') + "\r";
  const std::string line =
      "  not run: response_schema_conformance of listItems as key (tenant-a): the pattern of "
      "name is too costly to check\n";
  EXPECT_NE(text.find("\r" + bar + clear + line + "\r" + bar), std::string::npos) << text;
  // The progress goes with the exchanges phase: cleared when it ends, not
  // drawn again under the shrinking phase's lines.
  const std::size_t shrinking = at(text, "phase shrinking: 1 failure to shrink\n");
  const std::string full = "[" + std::string(40, '#') + "] 100% 12/12";
  EXPECT_NE(text.find("\r" + full + "\r" + std::string(full.size(), ' ') + "\rphase shrinking"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find('\r', shrinking), std::string::npos) << text.substr(shrinking);
  // Lines before the exchanges phase have no bar to clear.
  const std::size_t exchanges = at(text, "phase exchanges:");
  EXPECT_EQ(text.substr(0, exchanges).find('\r'), std::string::npos);
}

TEST(console_stream, the_progress_never_goes_back_when_workers_report_out_of_order) {
  std::ostringstream out;
  reports::console_writer writer(out, /*interactive=*/true);
  writer.phase_started({phase::exchanges, 4});
  writer.exchange_done({2, 4});
  writer.exchange_done({1, 4});  // counted first, reported second
  harness::not_run n{"a_check", "getItem", "", "why"};
  writer.not_run({n});
  const std::string text = out.str();
  const std::string half = "[" + std::string(20, '#') + std::string(20, ' ') + "] 50% 2/4";
  EXPECT_EQ(text.find("25%"), std::string::npos) << text;
  EXPECT_NE(text.find("  not run: a_check of getItem: why\n\r" + half), std::string::npos) << text;
}

TEST(console_stream, a_streamed_line_is_one_short_line_whatever_a_server_said) {
  std::ostringstream out;
  reports::console_writer writer(out, false);
  const harness::failure f =
      failure_of("error_code_conformance", "getItem",
                 "500 \x1b[31mred\x1b[0m\nsecond line\t" + std::string(300, 'x') + "\xc3\xa9");
  writer.failure_found({f});
  harness::not_run n{"*", "", "", "the description has\nno server\x07"};
  writer.not_run({n});
  const std::string text = out.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2) << text;
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
  EXPECT_EQ(text.find('\x07'), std::string::npos) << text;
  EXPECT_NE(text.find("500 \\x1b[31mred\\x1b[0m second line xxx"), std::string::npos) << text;
  EXPECT_NE(text.find("xxx...\n"), std::string::npos) << text;
  EXPECT_LT(text.find('\n'), 200u) << "one short line";
  EXPECT_NE(text.find("  not run: all checks: the description has no server\\x07\n"),
            std::string::npos)
      << text;
}

TEST(console_stream, a_failure_without_a_cause_shows_what_was_seen_and_an_assumption_says_so) {
  std::ostringstream out;
  reports::console_writer writer(out, false);
  harness::failure f = failure_of("response_schema_conformance", "getItem", "");
  writer.failure_found({f});
  f.assumptions = {"name is at most 64 characters (x-assumption)"};
  f.cause = "maxLength";
  writer.failure_found({f});
  EXPECT_EQ(out.str(),
            "  FAIL response_schema_conformance: getItem as key (tenant-a): a 500 with an HTML "
            "page\n"
            "  ASSUMPTION response_schema_conformance: getItem as key (tenant-a): maxLength\n");
}

TEST(console_stream, every_phase_says_what_it_plans) {
  std::ostringstream out;
  reports::console_writer writer(out, false);
  writer.phase_started({phase::stateful, 1});
  writer.phase_started({phase::scenarios, 1});
  writer.phase_started({phase::exchanges, 30});  // no coverage phase before it
  writer.phase_started({phase::shrinking, 3});
  writer.phase_started({phase::exchanges, 0});  // a replay does not know its count ahead
  EXPECT_EQ(out.str(),
            "phase stateful: chains along the description's links, under every auth model\n"
            "phase scenarios: 1 scenario suite\n"
            "phase exchanges: 30 generated requests\n"
            "phase shrinking: 3 failures to shrink\n"
            "phase exchanges\n");
}

}  // namespace
}  // namespace conform
