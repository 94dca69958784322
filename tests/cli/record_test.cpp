// `conform run --record FILE` and `conform replay FILE`: a recorded run
// replays against the in-process reference with no difference, and against
// a faulty reference with each changed answer reported (the set of changed
// answers known independently, from a recording of the faulty reference
// itself); the recording holds no secret, and a replay takes them from the
// target or the environment.
#include <gtest/gtest.h>

#include <unistd.h>

#include <boost/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "cli/cli.hpp"
#include "tests/support/mini_server.hpp"
#include "tests/cli/support.hpp"

namespace {

using conform::test_support::command_result;
using conform::test_support::conform_cmd;
using conform::test_support::contains;
using conform::test_support::slurp;

namespace fs = std::filesystem;
using conform::cli::main_command;

class record : public ::testing::Test {
 protected:
  record() {
    dir_ = fs::temp_directory_path() /
           ("conform-record-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  ~record() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

/// The operations matching `include`, one worker (the recorded order is the
/// order the server saw), per-exchange checks only: no scenario, so that the
/// same seed sends the same requests whatever the server answers.
std::vector<std::string> fault_run(const std::string& record, const std::string& fault,
                                   const std::string& include) {
  std::vector<std::string> args = {
      "run",
      "--no-progress",
      "--seed",
      "11",
      "--examples",
      "3",
      "--workers",
      "1",
      "--include",
      include,
      "--max-shrinks",
      "0",
      "--no-stateful",  // its walk follows the answers: a fault would change its length
      "--checks",
      "response_received,status_code_conformance,error_code_conformance,"
      "response_schema_conformance,negative_data_rejection,positive_data_acceptance",
      "--record",
      record};
  if (!fault.empty()) args.insert(args.end(), {"--fault", fault});
  return args;
}

struct answer {
  unsigned status = 0;
  std::string code;    // error_code, "" when none
  std::string schema;  // the recorded verdict of response_schema_conformance
};

/// The answers of the coverage and exchanges phases, in order.
std::vector<answer> answers_of(const std::string& har) {
  std::vector<answer> out;
  const auto v = boost::json::parse(slurp(har));
  for (const auto& e : v.at("log").at("entries").as_array()) {
    const auto& c = e.at("_conform");
    const std::string phase(c.at("phase").as_string());
    if (phase != "coverage" && phase != "exchanges") continue;
    answer a;
    a.status = e.at("response").at("status").to_number<unsigned>();
    const auto& content = e.at("response").at("content").as_object();
    if (const auto* text = content.if_contains("text")) {
      boost::system::error_code ec;
      auto body = boost::json::parse(text->as_string(), ec);
      if (!ec && body.is_object()) {
        if (const auto* code = body.as_object().if_contains("error_code");
            code && code->is_string())
          a.code = std::string(code->as_string());
      }
    }
    for (const auto& verdict : c.at("verdicts").as_array()) {
      if (verdict.at("check") == "response_schema_conformance") {
        a.schema = std::string(verdict.at("verdict").as_string());
      }
    }
    out.push_back(std::move(a));
  }
  return out;
}

TEST_F(record, a_recorded_run_replays_against_the_reference_with_no_difference) {
  // The whole run, its scenarios too.
  const auto har = path("all.har");
  const auto rec = conform_cmd({"run", "--no-progress", "--seed", "3", "--examples", "2",
                                "--workers", "1", "--include", "*contacts*", "--record", har});
  ASSERT_EQ(rec.status, 0) << rec.out << rec.err;
  const auto v = boost::json::parse(slurp(har));
  EXPECT_EQ(v.at("log").at("version"), "1.2");
  const auto& entries = v.at("log").at("entries").as_array();
  EXPECT_TRUE(contains(rec.out, std::to_string(entries.size()) + " requests")) << rec.out;
  std::set<std::string> phases;
  for (const auto& e : entries)
    phases.insert(std::string(e.at("_conform").at("phase").as_string()));
  EXPECT_EQ(phases, (std::set<std::string>{"stateful", "scenarios", "coverage", "exchanges"}));

  const auto again = conform_cmd({"replay", har, "--differences", path("d.jsonl")});
  EXPECT_EQ(again.status, 0) << again.out << again.err;
  EXPECT_TRUE(contains(again.out, "every answer as recorded")) << again.out;
  // The console names the recorded run's seed, not a made-up one.
  EXPECT_TRUE(contains(again.out, "PASSED (seed 3)")) << again.out;
  EXPECT_EQ(slurp(path("d.jsonl")), "");
}

TEST_F(record, against_a_faulty_reference_every_changed_answer_is_reported) {
  const std::pair<const char*, const char*> faults[] = {{"validation_500", "*contacts*"},
                                                        {"missing_envelope_field", "*contacts*"},
                                                        {"wrong_error_code", "*voice_sessions*"}};
  // The clean reference's recording of the operations matching an include,
  // made once: the same seed, one worker and a fresh server send the same
  // requests and get the same answers, whichever fault is compared with it.
  std::map<std::string, std::string> clean;
  for (const auto& [fault, include] : faults) {
    SCOPED_TRACE(fault);
    auto [at, fresh] =
        clean.emplace(include, path("good-" + std::to_string(clean.size()) + ".har"));
    const auto& good = at->second;
    if (fresh) {
      ASSERT_EQ(conform_cmd(fault_run(good, "", include)).status, 0);
    }
    const auto bad = path(std::string("bad-") + fault + ".har");
    ASSERT_NE(conform_cmd(fault_run(bad, fault, include)).status, 2);
    // What changed, known from the faulty reference's own recording.
    const auto was = answers_of(good), now = answers_of(bad);
    ASSERT_EQ(was.size(), now.size());
    std::set<std::string> expected;
    for (std::size_t i = 0; i < was.size(); ++i) {
      const std::string at = "#" + std::to_string(i) + " ";
      if (was[i].status == 429 || now[i].status == 429) continue;
      if (was[i].status != now[i].status) {
        expected.insert(at + "status");
        continue;
      }
      if (was[i].code != now[i].code) expected.insert(at + "error code");
      if ((was[i].schema == "violation") != (now[i].schema == "violation")) {
        expected.insert(at + "schema");
      }
    }
    ASSERT_FALSE(expected.empty()) << "the fault changes no answer of this run";

    const auto differences = path(std::string("d-") + fault + ".jsonl");
    const auto replay =
        conform_cmd({"replay", good, "--fault", fault, "--differences", differences});
    EXPECT_EQ(replay.status, 1) << replay.out << replay.err;
    std::set<std::string> reported;
    std::istringstream lines(slurp(differences));
    for (std::string line; std::getline(lines, line);) {
      const auto d = boost::json::parse(line);
      reported.insert("#" + std::to_string(d.at("seq").to_number<std::uint64_t>()) + " " +
                      std::string(d.at("aspect").as_string()));
    }
    EXPECT_EQ(reported, expected);
  }
}

TEST_F(record, the_recording_holds_no_secret) {
  using conform::test_support::fault;
  conform::test_support::mini_server server(fault::echoes_key);
  const auto profile = path("p.yaml");
  std::ofstream(profile) << server.profile_yaml();
  const auto har = path("mini.har");
  const auto r =
      conform_cmd({"run", "--no-progress", "--spec",
                   std::string(CONFORM_TEST_DATA_DIR) + "/../../harness/data/mini.yaml",
                   "--profile", profile, "--seed", "2", "--examples", "3", "--record", har});
  ASSERT_NE(r.status, 2) << r.out << r.err;
  const std::string text = slurp(har);
  EXPECT_FALSE(contains(text, conform::test_support::mini_key));
  // Named as the reports name it, in the request and in the echoed body.
  EXPECT_TRUE(contains(text, R"({"name":"X-Api-Key","value":"${CONFORM_SECRET_ALL}"})"));
  EXPECT_TRUE(contains(text, "bad key ${CONFORM_SECRET_ALL}"));
  const auto v = boost::json::parse(text);
  for (const auto& e : v.at("log").at("entries").as_array()) {
    const auto& secrets = e.at("_conform").at("secrets").as_array();
    if (secrets.empty()) continue;
    EXPECT_EQ(secrets.at(0), "CONFORM_SECRET_ALL");
  }
}

TEST_F(record, a_replay_takes_secrets_from_the_environment_and_says_when_it_cannot) {
  using conform::test_support::fault;
  conform::test_support::mini_server server(fault::none);
  const auto profile = path("p.yaml");
  std::ofstream(profile) << server.profile_yaml();
  const std::string mini = std::string(CONFORM_TEST_DATA_DIR) + "/../../harness/data/mini.yaml";
  const auto har = path("mini.har");
  ASSERT_EQ(conform_cmd({"run", "--no-progress", "--spec", mini, "--profile", profile, "--seed",
                         "4", "--examples", "2", "--checks", "status_code_conformance", "--workers",
                         "1", "--record", har})
                .status,
            0);
  // A target given by --url holds no credential: the key must come from the environment.
  ::unsetenv("CONFORM_SECRET_ALL");
  const auto without =
      conform_cmd({"replay", har, "--spec", mini, "--url",
                   "http://127.0.0.1:" + std::to_string(server.port()) + "/api/v1"});
  EXPECT_EQ(without.status, 2) << without.out << without.err;
  EXPECT_TRUE(contains(without.out, "not resent: ${CONFORM_SECRET_ALL} is held by no credential"))
      << without.out;
  ::setenv("CONFORM_SECRET_ALL", conform::test_support::mini_key, 1);
  const auto with = conform_cmd({"replay", har, "--spec", mini, "--url",
                                 "http://127.0.0.1:" + std::to_string(server.port()) + "/api/v1"});
  ::unsetenv("CONFORM_SECRET_ALL");
  EXPECT_EQ(with.status, 0) << with.out << with.err;
  EXPECT_TRUE(contains(with.out, "every answer as recorded")) << with.out;
}

TEST_F(record, bad_recordings_and_options_exit_two_with_one_line) {
  std::ofstream(path("bad.har"))
      << R"({"log":{"version":"1.2","entries":[{"request":{"method":7},"response":{}}]}})";
  auto r = conform_cmd({"replay", path("bad.har")});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "bad.har: entry 0: /request/method: expected a string")) << r.err;
  r = conform_cmd({"replay", path("none.har")});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "cannot read")) << r.err;
  r = conform_cmd({"replay"});
  EXPECT_EQ(r.status, 2);
  r = conform_cmd({"replay", path("bad.har"), "--url", "http://127.0.0.1:1", "--fault", "x"});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "--fault applies to the in-process reference only")) << r.err;
  r = conform_cmd({"run", "--no-progress", "--record", path("no/such/dir/x.har")});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "--record: cannot write")) << r.err;
}

}  // namespace
