// `conform run` end to end: against the in-process reference server every
// check passes and the reports list every operation under every auth model
// the description allows; configuration errors exit 2 with one clear line.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "cli/cli.hpp"
#include "openapi/loader.hpp"

namespace {

namespace fs = std::filesystem;
using conform::cli::main_command;

const std::string spec_file = std::string(CONFORM_SPEC_DIR) + "/voice-api.yaml";

struct cli_result {
  int status;
  std::string out, err;
};

cli_result run_cli(std::vector<std::string> args) {
  std::ostringstream out, err;
  int status = main_command(args, out, err);
  return {status, out.str(), err.str()};
}

fs::path temp_file(const std::string& name) {
  return fs::temp_directory_path() / ("conform-test-" + std::to_string(::getpid()) + "-" + name);
}

TEST(conform_run, the_reference_server_passes_every_check_under_every_auth_model) {
  const auto junit = temp_file("junit.xml"), json = temp_file("report.json");
  auto r = run_cli({"run", "--spec", spec_file, "--seed", "3", "--examples", "2", "--no-progress",
                    "--junit", junit.string(), "--json", json.string()});
  EXPECT_EQ(r.status, 0) << r.out << r.err;

  std::ifstream in(json);
  std::stringstream text;
  text << in.rdbuf();
  const auto report = boost::json::parse(text.str()).as_object();
  EXPECT_EQ(report.at("exit_code").as_int64(), 0);
  EXPECT_TRUE(report.at("failures").as_array().empty());
  EXPECT_TRUE(report.at("not_run").as_array().empty())
      << boost::json::serialize(report.at("not_run"));

  // Every operation under every scheme it accepts (or "none"), in the report.
  auto loaded = conform::openapi::load(spec_file);
  ASSERT_TRUE(loaded.ok());
  std::set<std::string> seen;
  for (const auto& cell : report.at("cells").as_array()) {
    // The per-exchange cells: scenarios add their own auth models (a
    // credential per cell of the scope matrix, "workflow <id>").
    if (cell.at("check").as_string() != "status_code_conformance") continue;
    const std::string auth(cell.at("auth_model").as_string());
    // What the scenarios and the stateful walk sent, judged as any answer.
    if (auth.starts_with("scenario ") || auth == "stateful") continue;
    seen.insert(std::string(cell.at("operation_id").as_string()) + "|" +
                auth.substr(0, auth.find(' ')));
  }
  std::size_t expected = 0;
  for (const auto& op : loaded.spec->operations) {
    if (!op.needs_credentials()) {
      EXPECT_TRUE(seen.count(op.operation_id + "|none")) << op.operation_id;
      ++expected;
    }
    for (const auto* scheme : op.accepted_schemes()) {
      const std::string key = op.operation_id + "|" + scheme->label();
      EXPECT_TRUE(seen.count(key)) << key;
      ++expected;
    }
  }
  EXPECT_EQ(seen.size(), expected);

  // Content negotiation (issue 37): every operation was also asked with
  // `Accept: */*` and with no Accept, and the reference answered each with
  // a documented type (no failure above).
  std::set<std::string> negotiated;
  for (const auto& c : report.at("coverage").as_array()) {
    for (const auto& k : c.at("by_keyword").as_array()) {
      if (k.at("keyword").as_string() != "Accept") continue;
      EXPECT_EQ(k.at("constraints").as_int64(), 2) << c;
      EXPECT_EQ(k.at("covered").as_int64(), 2) << c;
      negotiated.insert(std::string(c.at("operation_id").as_string()));
    }
  }
  EXPECT_EQ(negotiated.size(), loaded.spec->operations.size());

  std::ifstream xml(junit);
  std::stringstream xml_text;
  xml_text << xml.rdbuf();
  for (const auto& op : loaded.spec->operations) {
    EXPECT_NE(xml_text.str().find("<testsuite name=\"" + op.operation_id + "\""), std::string::npos)
        << op.operation_id;
  }
  fs::remove(junit);
  fs::remove(json);
}

TEST(conform_run, usage_errors_exit_2_with_one_line) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"run", "--examples", "zero"},
           {"run", "--bogus"},
           {"run", "--rate-limit", "fast"},
           {"run", "--spec", spec_file, "--checks", "no_such_check"},
           {"run", "--spec", spec_file, "--include", "noSuchOperation"},
           {"run", "--spec", spec_file, "--read-only", "noSuchOperation"},
           {"frobnicate"}}) {
    auto r = run_cli(args);
    EXPECT_EQ(r.status, 2) << args.back();
    EXPECT_FALSE(r.err.empty()) << args.back();
  }
}

TEST(conform_run, a_bad_description_exits_2_with_its_position) {
  const auto bad = temp_file("bad.yaml");
  std::ofstream(bad) << "openapi: 3.1.0\ninfo: { title: x, version: '1' }\npaths:\n  /a:\n    "
                        "get:\n      responses: [\n";
  auto r = run_cli({"run", "--spec", bad.string()});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find(bad.string() + ":"), std::string::npos) << r.err;
  fs::remove(bad);
}

TEST(conform_run, a_bad_profile_exits_2_and_an_unreachable_target_too) {
  const auto bad = temp_file("profile.yaml");
  std::ofstream(bad) << "base_url: 12\ncredentials: nope\n";
  auto r = run_cli({"run", "--spec", spec_file, "--profile", bad.string()});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find(bad.string()), std::string::npos) << r.err;

  const auto closed = temp_file("closed.yaml");
  std::ofstream(closed) << "base_url: http://127.0.0.1:1/api/v1\nenvironment: sandbox\n"
                           "tenants: {}\ncredentials: []\n";
  r = run_cli({"run", "--spec", spec_file, "--profile", closed.string()});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("unreachable"), std::string::npos) << r.err;
  fs::remove(bad);
  fs::remove(closed);
}

TEST(conform_run, lists_its_checks_and_lints_the_shipped_description) {
  auto r = run_cli({"run", "--list-checks"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("negative_data_rejection"), std::string::npos);
  r = run_cli({"spec", "lint", spec_file});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("22 operations"), std::string::npos);
}

}  // namespace
