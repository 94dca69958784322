// `conform run --url` against a stub that answers as web-framework services
// answer (tests/support/framework_server.hpp, a Swagger 2.0 description with
// none of our extensions): schema-valid but meaningless input refused with a
// documented 4xx is a note, not a failure; form parameters travel as forms;
// sizes stay within what servers take; a slow endpoint's timeouts are not
// re-sent; binary and non-UTF-8 answers leave every report valid; a broken
// operation is skipped when asked, and said, by `run` and `profile discover`.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <boost/property_tree/xml_parser.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "cli/cli.hpp"
#include "core/outcome.hpp"
#include "core/text.hpp"
#include "tests/support/framework_server.hpp"
#include "tests/cli/support.hpp"

namespace conform::cli {
namespace {

using conform::test_support::contains;
using conform::test_support::run;

using test_support::framework_fault;
using test_support::framework_server;

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// A scratch folder for report files, removed afterwards.
struct scratch {
  std::filesystem::path dir;
  scratch() {
    dir =
        std::filesystem::temp_directory_path() /
        ("conform-framework-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir);
  }
  ~scratch() { std::filesystem::remove_all(dir); }
  std::string file(const std::string& name) const { return (dir / name).string(); }
};

boost::json::value json_report(const std::string& path) {
  boost::system::error_code ec;
  auto v = boost::json::parse(read(path), ec);  // strict: refuses text that is not UTF-8
  EXPECT_FALSE(ec) << path << ": " << ec.message();
  return v;
}

std::vector<std::string> args_for(const framework_server& server, const std::string& seed,
                                  std::vector<std::string> more = {}) {
  std::vector<std::string> args = {"--spec", test_support::framework_description(), "--url",
                                   server.base_url(), "--seed", seed, "--examples", "8",
                                   "--no-progress",
                                   // The stub's POSTs document no create (no 201):
                                   // safe mode would send none of them.
                                   "--allow-destructive"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// Done when: "a run against a stub that refuses schema-valid but meaningless
// input with its documented 400 reports 0 failures".
TEST(framework_stub, refusals_of_meaningless_input_are_notes_and_the_run_passes) {
  framework_server server;
  scratch files;
  const auto r = run(args_for(server, "3", {"--json", files.file("r.json")}));
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_FALSE(contains(r.out, "FAIL")) << r.out;
  // The refusals happened, and each is said once per cause, with its message.
  EXPECT_GT(server.hits("GET /labels"), server.accepted("GET /labels"));
  EXPECT_GT(server.hits("GET /range"), server.accepted("GET /range"));
  const auto report = json_report(files.file("r.json"));
  ASSERT_TRUE(report.as_object().contains("notes")) << r.out;
  std::map<std::string, std::string> noted;  // "operation cause" -> text
  for (const auto& n : report.at("notes").as_array()) {
    const auto& o = n.as_object();
    EXPECT_EQ(o.at("check").as_string(), "positive_data_acceptance");
    noted[std::string(o.at("operation_id").as_string()) + " " +
          std::string(o.at("cause").as_string())] = std::string(o.at("text").as_string());
    EXPECT_TRUE(contains(std::string(o.at("curl").as_string()), "curl ")) << n;
    EXPECT_GE(o.at("occurrences").as_int64(), 1);
  }
  const std::string all = boost::json::serialize(report.at("notes"));
  ASSERT_TRUE(noted.count("listLabels refused 400")) << all;
  EXPECT_EQ(noted["listLabels refused 400"].rfind(
                "refused a schema-valid request: 400 malformed filter '", 0),
            0u)
      << all;  // the body's "message"
  ASSERT_TRUE(noted.count("queryRange refused 422")) << all;
  const std::string& range = noted["queryRange refused 422"];
  EXPECT_TRUE(contains(range, "422 start must not follow end") ||
              contains(range, "422 value is not a valid integer"))
      << range;  // FastAPI's detail[0].msg
  EXPECT_TRUE(contains(r.out, "Notes (worth reading; not failures)")) << r.out;
  EXPECT_TRUE(contains(r.out, "note positive_data_acceptance: listLabels as")) << r.out;
}

// Swagger 2.0 formData without consumes: urlencoded, multipart with a file.
TEST(framework_stub, form_parameters_travel_as_forms_and_a_file_as_multipart) {
  framework_server server;
  const auto r = run(args_for(server, "5", {"--include", "postForm", "--include", "upload"}));
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_GT(server.accepted("POST /forms"), 0u) << r.out;
  EXPECT_GT(server.accepted("POST /upload"), 0u) << r.out;
  // The only 415s are the invalid requests' (a body sent as text/plain).
  EXPECT_FALSE(contains(r.out, "415 Unsupported")) << r.out;
}

// An overlay written against the 2.0 document as given (its `definitions`)
// applies: the rule the server enforces, written in, leaves nothing to refuse.
TEST(framework_stub, an_overlay_on_the_swagger2_description_applies) {
  framework_server server;
  scratch files;
  const std::string overlay =
      std::string(CONFORM_OAI_EXAMPLES_DIR) + "/../framework/label_rule.overlay.yaml";
  auto count_notes = [&](const std::vector<std::string>& more) {
    auto args = args_for(server, "6", {"--include", "createLabel", "--json", files.file("r.json")});
    args.insert(args.end(), more.begin(), more.end());
    const auto r = run(args);
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    const auto report = json_report(files.file("r.json"));
    return report.as_object().contains("notes") ? report.at("notes").as_array().size() : 0u;
  };
  EXPECT_EQ(count_notes({}), 1u);  // names the server finds meaningless: refused, noted
  EXPECT_EQ(count_notes({"--overlay", overlay}), 0u);
}

// A documented example request (a 2xx documented) is a promise: refused, it fails.
TEST(framework_stub, a_refused_documented_example_fails) {
  framework_server server(framework_fault::rejects_example);
  const auto r = run(args_for(server, "3", {"--include", "createLabel"}));
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "FAIL positive_data_acceptance: createLabel")) << r.out;
}

// Generated header values and URLs stay within what servers take: a schema
// that allows 32 KiB headers and 100 KB query values gets neither.
TEST(framework_stub, sizes_stay_within_what_servers_take) {
  framework_server server;
  scratch files;
  const auto r =
      run(args_for(server, "9", {"--include", "echoHeaders", "--json", files.file("r.json")}));
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(server.hits("GET /headers"), server.accepted("GET /headers")) << r.out;
  // The boundary that would not fit is said as not covered, with why.
  const auto report = json_report(files.file("r.json"));
  std::string uncovered;
  for (const auto& c : report.at("coverage").as_array()) {
    for (const auto& u : c.at("uncovered").as_array())
      uncovered += std::string(u.as_string()) + "\n";
  }
  EXPECT_TRUE(contains(uncovered, "bytes HTTP servers take in one field")) << uncovered;
  EXPECT_TRUE(contains(uncovered, "bytes HTTP servers take in one (RFC 9110 section 4.1"))
      << uncovered;
}

// 414 and 431 are refusals any server may give: never a failure.
TEST(framework_stub, a_431_is_a_refusal_not_a_failure) {
  framework_server server(framework_fault::refuses_sizes);
  const auto r = run(args_for(server, "9", {"--include", "echoHeaders"}));
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "refused a schema-valid request: 431")) << r.out;
}

// A slow endpoint: its timeouts are reported as first seen, never re-sent
// (each re-send would wait the whole timeout again).
TEST(framework_stub, a_timeout_is_neither_re_sent_nor_shrunk) {
  framework_server server(framework_fault::slow_image);
  scratch files;
  const auto r = run(args_for(server, "4",
                              {"--include", "getImage", "--no-stateful", "--timeout", "0.2",
                               "--examples", "3", "--json", files.file("r.json")}));
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  const auto report = json_report(files.file("r.json"));
  const auto& failures = report.at("failures").as_array();
  ASSERT_FALSE(failures.empty());
  for (const auto& f : failures) {
    EXPECT_EQ(f.at("check").as_string(), "response_received") << f;
    EXPECT_EQ(f.at("shrink_steps").as_int64(), 0) << f;
  }
  // Every request was one the run planned: three coverage cases (the valid
  // request, then with Accept: */* and with none) and 3 examples.
  EXPECT_EQ(report.at("counts").at("requests").as_int64(), 6) << r.out;
}

core::status well_formed_xml(const std::string& text) {
  std::istringstream in(text);
  boost::property_tree::ptree tree;
  try {
    boost::property_tree::read_xml(in, tree);
  } catch (const std::exception& ex) {
    return core::fail(std::string(ex.what()));
  }
  for (unsigned char c : text) {
    if (c < 0x20 && c != '\n' && c != '\r' && c != '\t') {
      return core::fail("a control character XML 1.0 forbids");
    }
  }
  return {};
}

// Every report stays valid UTF-8 and valid in its format, whatever the
// server sent: a binary body, text that is not UTF-8.
TEST(framework_stub, every_report_stays_valid_with_binary_and_non_utf8_answers) {
  for (const auto fault : {framework_fault::binary_500, framework_fault::invalid_utf8_500}) {
    framework_server server(fault);
    scratch files;
    const auto r =
        run(args_for(server, "2",
                     {"--include", fault == framework_fault::binary_500 ? "getImage" : "listLabels",
                      "--json", files.file("r.json"), "--junit", files.file("r.xml"), "--html",
                      files.file("r.html"), "--report", "markdown=" + files.file("r.md")}));
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_TRUE(core::is_utf8(r.out)) << r.out;
    for (const char* name : {"r.json", "r.xml", "r.html", "r.md"}) {
      const std::string text = read(files.file(name));
      EXPECT_FALSE(text.empty()) << name;
      EXPECT_TRUE(core::is_utf8(text)) << name;
    }
    const auto report = json_report(files.file("r.json"));
    const auto& failures = report.at("failures").as_array();
    ASSERT_FALSE(failures.empty()) << r.out;
    const std::string excerpt(failures.front().at("response_excerpt").as_string());
    if (fault == framework_fault::binary_500) {
      EXPECT_EQ(excerpt, "1,234 bytes of image/png");
    } else {
      EXPECT_EQ(excerpt, "caf\\xe9 \\xff\\xfe broken \\xc3");
    }
    const auto xml = well_formed_xml(read(files.file("r.xml")));
    EXPECT_TRUE(xml) << xml.error();
    EXPECT_TRUE(contains(read(files.file("r.html")), "</html>"));
  }
}

// Done when: "a description with one broken operation" runs the rest.
TEST(framework_stub, a_broken_operation_is_skipped_and_said_when_asked) {
  framework_server server;
  scratch files;
  const std::string spec = test_support::framework_broken_description();
  const std::vector<std::string> base = {"--spec",          spec,     "--url",
                                         server.base_url(), "--seed", "1",
                                         "--examples",      "3",      "--no-progress"};
  // Without the option: nothing is sent.
  const auto strict = run(base);
  EXPECT_EQ(strict.status, 2) << strict.out << strict.err;
  EXPECT_TRUE(contains(strict.err, "has errors; nothing was run")) << strict.err;
  EXPECT_EQ(server.hits("GET /labels"), 0u);
  // With it: the valid operations run, the broken one is "not run" with its error.
  auto args = base;
  for (const char* a : {"--skip-invalid-operations", "--json"}) args.emplace_back(a);
  args.push_back(files.file("r.json"));
  const auto r = run(args);
  EXPECT_EQ(r.status, 3) << r.out << r.err;  // everything that ran passed, but not everything ran
  EXPECT_GT(server.hits("GET /labels"), 0u);
  EXPECT_GT(server.hits("GET /image"), 0u);
  EXPECT_TRUE(contains(r.err, "not run: GET /labels/{name}: the description's error at " +
                                  std::filesystem::path(spec).lexically_normal().string() +
                                  ":21:11"))
      << r.err;
  const auto report = json_report(files.file("r.json"));
  EXPECT_EQ(report.at("exit_code").as_int64(), 3);
  EXPECT_EQ(report.at("run").at("skipped_operations").as_int64(), 1);
  bool said = false;
  for (const auto& n : report.at("not_run").as_array()) {
    said = said || (n.at("operation_id").as_string() == "getLabel" &&
                    contains(std::string(n.at("why").as_string()), "the description's error at"));
  }
  EXPECT_TRUE(said) << boost::json::serialize(report.at("not_run"));
  for (const auto& c : report.at("cells").as_array()) {
    EXPECT_NE(c.at("operation_id").as_string(), "getLabel");
  }
  // `spec lint` stays strict.
  std::ostringstream out, err;
  EXPECT_EQ(lint_command({spec}, out, err), 2) << out.str() << err.str();
}

// `profile discover` takes --skip-invalid-operations as `run` does (issue 37).
TEST(framework_stub, discover_walks_what_is_valid_when_asked) {
  framework_server server;
  scratch files;
  const std::string spec = test_support::framework_broken_description();
  const std::vector<std::string> base = {"profile", "discover",          "--spec", spec,
                                         "--url",   server.base_url(),   "--seed", "1",
                                         "-o",      files.file("p.yaml")};
  const auto strict = test_support::conform_cmd(base);
  EXPECT_EQ(strict.status, 2) << strict.out << strict.err;
  EXPECT_TRUE(contains(strict.err, "has errors")) << strict.err;
  EXPECT_EQ(server.hits("GET /labels"), 0u);
  auto args = base;
  args.emplace_back("--skip-invalid-operations");
  const auto r = test_support::conform_cmd(args);
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  const std::string said = "left out: GET /labels/{name}: the description's error at " +
                           std::filesystem::path(spec).lexically_normal().string() + ":21:11";
  EXPECT_TRUE(contains(r.err, said)) << r.err;
  EXPECT_GT(server.hits("GET /labels"), 0u);
  // The profile says what it learned nothing from.
  EXPECT_TRUE(contains(read(files.file("p.yaml")), said)) << read(files.file("p.yaml"));
}

}  // namespace
}  // namespace conform::cli
