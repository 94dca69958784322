// Every report writer, given what a server may send (a binary body, text
// that is not UTF-8, control characters) in every field that carries it:
// the output is valid UTF-8 and valid in its format (JSON that a strict
// parser reads, well-formed XML, HTML and Markdown without raw control
// characters), and the notes of a run appear in each.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <boost/property_tree/xml_parser.hpp>

#include <sstream>

#include "core/outcome.hpp"
#include "core/text.hpp"
#include "reports/console.hpp"
#include "reports/json.hpp"
#include "reports/json_read.hpp"
#include "reports/registry.hpp"

namespace conform {
namespace {

const std::string bad = std::string("caf\xe9 \xff\xfe \x1b[31m \xc3", 13);  // latin-1, junk, ESC
const std::string binary = std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\xab\xab", 18);

harness::run_report hostile_report() {
  harness::run_report r;
  r.info.tool_version = "0.1.0";
  r.info.seed = 7;
  r.info.spec_file = "framework.yaml";
  r.info.spec_title = "Framework stub";
  r.info.target = "http://127.0.0.1:1";
  r.info.checks = {"not_a_server_error", "positive_data_acceptance"};
  r.tallies = {
      {"getImage", "GET /image", "none", "not_a_server_error", 0, 1, std::nullopt, {}},
      {"listLabels", "GET /labels", "none", "positive_data_acceptance", 3, 0, std::nullopt, {}}};
  harness::failure f;
  f.check = "not_a_server_error";
  f.operation_id = "getImage";
  f.method_path = "GET /image";
  f.auth_model = "none";
  f.expected = "a status below 500";
  f.seen = "status 500 " + bad;  // a server's text, as a check may quote it
  f.cause = "status 500";
  f.status = 500;
  f.response_excerpt = binary;  // what a writer gets if no one summarised it
  f.curl = "curl -sS 'http://127.0.0.1:1/image' -H $'X-Echo: " + bad + "'";
  r.failures = {f};
  harness::note n;
  n.check = "positive_data_acceptance";
  n.operation_id = "listLabels";
  n.method_path = "GET /labels";
  n.auth_model = "none";
  n.text = "refused a schema-valid request: 400 " + bad;
  n.cause = "refused 400";
  n.status = 400;
  n.response_excerpt = bad;
  n.occurrences = 3;
  n.curl = "curl -sS 'http://127.0.0.1:1/labels?match=" + bad + "'";
  r.notes = {n};
  r.not_runs = {{"*", "getImage", "none", "the generator gave up: " + bad}};
  r.counts.requests = 4;
  r.counts.checks_passed = 3;
  r.counts.checks_failed = 1;
  r.aborted = std::nullopt;
  return r;
}

core::status no_raw_controls(const std::string& text) {
  for (unsigned char c : text) {
    if ((c < 0x20 && c != '\n' && c != '\t' && c != '\r') || c == 0x7f) {
      return core::fail("a raw control character " + std::to_string(c));
    }
  }
  return {};
}

TEST(hostile_text, every_file_format_stays_valid_utf8_and_valid_in_its_format) {
  const auto report = hostile_report();
  for (const auto& format : reports::report_formats()) {
    const std::string text = format.render(report);
    SCOPED_TRACE(std::string(format.name));
    EXPECT_TRUE(core::is_utf8(text));
    const auto controls = no_raw_controls(text);
    EXPECT_TRUE(controls) << controls.error();
    // The note, with the bytes escaped (and in JSON, the escape's backslash too).
    const std::string note = format.name == "json"
                                 ? "refused a schema-valid request: 400 caf\\\\xe9"
                                 : "refused a schema-valid request: 400 caf\\xe9";
    EXPECT_NE(text.find(note), std::string::npos) << text;
    if (format.name == "json") {
      boost::system::error_code ec;
      const auto v = boost::json::parse(text, ec);  // strict UTF-8
      ASSERT_FALSE(ec) << ec.message();
      EXPECT_EQ(v.at("notes").at(0).at("occurrences").as_int64(), 3);
    } else if (format.name == "junit") {
      std::istringstream in(text);
      boost::property_tree::ptree tree;
      EXPECT_NO_THROW(boost::property_tree::read_xml(in, tree));
    } else if (format.name == "html") {
      EXPECT_EQ(text.find("\x1b"), std::string::npos);
      EXPECT_NE(text.find("</html>"), std::string::npos);
    }
  }
}

TEST(hostile_text, the_console_stays_utf8_without_control_characters) {
  std::ostringstream out;
  reports::console_writer console(out, false);
  console.run_finished({hostile_report()});
  const std::string text = out.str();
  EXPECT_TRUE(core::is_utf8(text));
  const auto controls = no_raw_controls(text);
  EXPECT_TRUE(controls) << controls.error() << "\n" << text;  // no ESC reaches a terminal
  EXPECT_NE(text.find("Notes (worth reading; not failures)"), std::string::npos) << text;
  EXPECT_NE(text.find("1 notes"), std::string::npos) << text;
}

TEST(hostile_text, notes_and_skipped_operations_survive_the_json_round_trip) {
  auto report = hostile_report();
  report.info.skipped_operations = 2;
  const std::string path = ::testing::TempDir() + "conform-hostile-report.json";
  { std::ofstream(path, std::ios::binary) << reports::render_json(report); }
  const auto back = reports::read_json_report(path);
  ASSERT_TRUE(back) << back.error();
  ASSERT_EQ(back->notes.size(), 1u);
  EXPECT_EQ(back->notes[0].cause, "refused 400");
  EXPECT_EQ(back->notes[0].occurrences, 3u);
  EXPECT_EQ(back->info.skipped_operations, 2u);
  std::remove(path.c_str());
}

TEST(hostile_text, a_skipped_operation_makes_a_passing_run_exit_three) {
  auto report = hostile_report();
  report.failures.clear();
  EXPECT_EQ(report.exit_code(), 0);
  report.info.skipped_operations = 1;
  EXPECT_EQ(report.exit_code(), 3);
  report.counts.checks_passed = 0;
  EXPECT_EQ(report.exit_code(), 2);  // nothing proved outranks it
  report.counts.checks_passed = 3;
  report.failures = hostile_report().failures;
  EXPECT_EQ(report.exit_code(), 1);  // a failure outranks it
}

}  // namespace
}  // namespace conform
