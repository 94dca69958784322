// `conform run --shard K/N` and `conform report merge`: the N shards of one
// seed together send exactly the requests of the whole run (recorded by the
// reference server's traffic recorder), and their merged report is the whole
// run's: counts add up, every shard's failures are in it and in its JUnit,
// and reports that are not of one run are refused.
#include <gtest/gtest.h>

#include <unistd.h>

#include <boost/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli.hpp"
#include "harness/engine.hpp"
#include "http/client.hpp"
#include "openapi/loader.hpp"
#include "profile/loader.hpp"
#include "reference/certification.hpp"
#include "reference/server.hpp"
#include "reports/json_read.hpp"
#include "suites/registry.hpp"
#include "suites/workflows/workflows.hpp"
#include "tests/cli/support.hpp"

namespace conform {
namespace {

using conform::test_support::command_result;
using conform::test_support::conform_cmd;
using conform::test_support::slurp;

namespace fs = std::filesystem;
using conform::cli::main_command;

const std::string spec_file = std::string(CONFORM_SPEC_DIR) + "/voice-api.yaml";

// ---- the requests the shards send ----------------------------------------

/// What one run sent, as the server received it, and the run's report.
struct recorded_run {
  std::multiset<std::string> requests;  // "METHOD target\nbody", handed-out ids replaced
  std::multiset<std::string> walk;      // of those, the stateful walk's (before the plan)
  std::size_t rate_limited = 0;         // answers 429 (retried by the client), left out
  harness::run_report report;
};

/// The reference numbers what it creates from 1000000 up (reference/detail/
/// store.hpp), in the order requests arrive; a request naming one differs
/// with the arrival order, so those numbers are replaced by "<new-id>".
std::string without_handed_out_ids(const std::string& text) {
  static const std::regex id(R"((^|[^0-9])1[0-9]{6}(?![0-9]))");
  return std::regex_replace(text, id, "$1<new-id>");
}

/// Marks where the stateful walk ends in what the server recorded: its
/// phase ends before the scenarios send their first request.
class walk_end : public harness::listener {
 public:
  explicit walk_end(const reference::traffic_recorder& r) : recorder_(r) {}
  void phase_finished(const harness::event::phase_finished& e) override {
    if (e.which == harness::phase::stateful) at = recorder_.snapshot().size();
  }
  std::size_t at = 0;

 private:
  const reference::traffic_recorder& recorder_;
};

/// Runs shard `k` of `n` (0 of 0: the whole run) of `seed` against a fresh
/// in-process reference server that records every request; with `stateful`,
/// the stateful walk first.
recorded_run run_recorded(std::uint32_t k, std::uint32_t n, std::uint64_t seed = 17,
                          bool stateful = false) {
  static const auto loaded = openapi::load(spec_file);
  static const harness::check_catalogue catalogue = suites::builtin_checks();
  EXPECT_TRUE(loaded.ok());
  reference::adversity_options calm;
  calm.enabled = false;  // record only: no scripted adversity
  reference::server_config rc;
  rc.recorder = std::make_shared<reference::traffic_recorder>(calm);
  reference::server server(rc);
  auto target = profile::parse_profile(server.profile_yaml(), "in-process reference");
  EXPECT_TRUE(target.ok());

  harness::run_config config;
  for (const auto& op : loaded.spec->operations) config.operations.push_back(&op);
  config.checks = *catalogue.select({});
  config.workflow_files = suites::shipped_workflows(spec_file);
  config.seed = seed;
  config.examples = 2;
  config.stateful = stateful;
  config.shard_index = k;
  config.shard_count = n;
  http::client_options opts;
  opts.workers = 4;
  http::client client(target.value->base_url, opts);
  walk_end quiet(*rc.recorder);

  recorded_run out;
  out.report = harness::run(*loaded.spec, *target.value, config, client, quiet);
  const auto seen = rc.recorder->snapshot();
  for (std::size_t i = 0; i < seen.size(); ++i) {
    const auto& e = seen[i];
    if (e.status == 429) {
      ++out.rate_limited;
      continue;
    }
    auto text = without_handed_out_ids(e.method + " " + e.target + "\n" + e.request_body);
    if (i < quiet.at) out.walk.insert(text);
    out.requests.insert(std::move(text));
  }
  return out;
}

std::string first_differences(const std::multiset<std::string>& a,
                              const std::multiset<std::string>& b) {
  std::vector<std::string> only_a, only_b;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(only_a));
  std::set_difference(b.begin(), b.end(), a.begin(), a.end(), std::back_inserter(only_b));
  std::string out = std::to_string(only_a.size()) + " only in the whole run, " +
                    std::to_string(only_b.size()) + " only in the shards\n";
  for (std::size_t i = 0; i < std::min<std::size_t>(5, only_a.size()); ++i) {
    out += "whole: " + only_a[i] + "\n";
  }
  for (std::size_t i = 0; i < std::min<std::size_t>(5, only_b.size()); ++i) {
    out += "shards: " + only_b[i] + "\n";
  }
  return out;
}

TEST(shards, the_shards_of_one_seed_send_exactly_the_requests_of_the_whole_run) {
  const recorded_run whole = run_recorded(0, 0);
  ASSERT_GT(whole.requests.size(), 500u);
  std::multiset<std::string> together;
  std::set<std::tuple<std::string, std::string, std::string>> cells;
  std::uint64_t reported = 0;
  for (std::uint32_t k = 1; k <= 3; ++k) {
    const recorded_run shard = run_recorded(k, 3);
    // A third of the work, give or take a scenario suite: neither empty nor all.
    EXPECT_GT(shard.requests.size(), 0u) << "shard " << k;
    EXPECT_LT(shard.requests.size(), whole.requests.size()) << "shard " << k;
    EXPECT_EQ(shard.report.info.shard_label(), "shard " + std::to_string(k) + "/3");
    together.insert(shard.requests.begin(), shard.requests.end());
    for (const auto& t : shard.report.tallies) {
      EXPECT_TRUE(cells.emplace(t.operation_id, t.auth_model, t.check).second || t.check.empty())
          << "cell in two shards: " << t.operation_id << " " << t.auth_model << " " << t.check;
    }
    reported += shard.report.counts.requests - shard.report.counts.retries_429;
  }
  EXPECT_TRUE(together == whole.requests) << first_differences(whole.requests, together);
  // The same cells, and as many requests counted. (Not as many passes per
  // cell: which exchanges get an error answer, which error_code_conformance
  // judges, follows the target's state, which the other cells' requests move
  // in whatever order the workers send them, sharded or not.)
  std::set<std::tuple<std::string, std::string, std::string>> whole_cells;
  for (const auto& t : whole.report.tallies)
    whole_cells.emplace(t.operation_id, t.auth_model, t.check);
  EXPECT_EQ(cells, whole_cells);
  EXPECT_EQ(reported, whole.report.counts.requests - whole.report.counts.retries_429);
  EXPECT_TRUE(whole.report.failures.empty());
}

/// `requests` without the pages after the first of a list read whole: how
/// many pages a list has is what the target holds when it is read, which
/// the other shards' creations move (docs/report-format.md).
std::multiset<std::string> first_pages(const std::multiset<std::string>& requests) {
  static const std::regex later_page(R"(^GET [^\n]*[?&]page=([2-9]|[1-9][0-9]+)(&|\n|$))");
  std::multiset<std::string> out;
  for (const auto& r : requests) {
    if (!std::regex_search(r, later_page)) out.insert(r);
  }
  return out;
}

/// The multiset `a` with one copy of each element of `b` taken out.
std::multiset<std::string> without(std::multiset<std::string> a,
                                   const std::multiset<std::string>& b) {
  for (const auto& x : b) {
    if (auto it = a.find(x); it != a.end()) a.erase(it);
  }
  return a;
}

// Every shard walks the target to learn it, as the whole run does; one
// shard judges the walk and the others count it as `relearned`. With that
// walk taken once, the shards send exactly the requests of the whole run,
// their cells are the whole run's, each in one shard, and the counts add up.
TEST(shards, with_the_stateful_walk_and_every_scenario_the_shards_add_up) {
  for (const std::uint64_t seed : {17u, 4u}) {
    const recorded_run whole = run_recorded(0, 0, seed, /*stateful=*/true);
    ASSERT_GT(whole.walk.size(), 10u) << seed;
    std::set<std::tuple<std::string, std::string, std::string>> whole_cells;
    for (const auto& t : whole.report.tallies)
      whole_cells.emplace(t.operation_id, t.auth_model, t.check);
    EXPECT_TRUE(whole.report.failures.empty()) << seed;
    for (const std::uint32_t n : {2u, 3u}) {
      std::multiset<std::string> together;
      std::set<std::tuple<std::string, std::string, std::string>> cells;
      std::uint64_t counted = 0;
      std::uint32_t judging = 0;
      for (std::uint32_t k = 1; k <= n; ++k) {
        const recorded_run shard = run_recorded(k, n, seed, /*stateful=*/true);
        const std::string label =
            std::to_string(seed) + " " + std::to_string(k) + "/" + std::to_string(n);
        EXPECT_TRUE(shard.walk == whole.walk) << label << "\n"
                                              << first_differences(whole.walk, shard.walk);
        together.insert(shard.requests.begin(), shard.requests.end());
        for (const auto& t : shard.report.tallies) {
          EXPECT_TRUE(cells.emplace(t.operation_id, t.auth_model, t.check).second)
              << label << ": cell in two shards: " << t.operation_id << " " << t.auth_model << " "
              << t.check;
        }
        const auto& c = shard.report.counts;
        if (c.relearned == 0) ++judging;
        counted += c.requests - c.relearned - c.retries_429;
      }
      EXPECT_EQ(judging, 1u) << seed << " of " << n << ": one shard judges the walk";
      for (std::uint32_t k = 1; k < n; ++k) together = without(together, whole.walk);
      EXPECT_TRUE(first_pages(together) == first_pages(whole.requests))
          << seed << " of " << n << ": "
          << first_differences(first_pages(whole.requests), first_pages(together));
      EXPECT_EQ(cells, whole_cells) << seed << " of " << n;
      // As many requests counted, the later pages of whole lists aside.
      const auto later = [](const std::multiset<std::string>& r) {
        return r.size() - first_pages(r).size();
      };
      EXPECT_EQ(
          counted - later(together),
          whole.report.counts.requests - whole.report.counts.retries_429 - later(whole.requests))
          << seed << " of " << n;
    }
  }
}

// ---- --shard on the command line ------------------------------------------

std::string temp(const std::string& name) {
  return (fs::temp_directory_path() / ("conform-shard-" + std::to_string(::getpid()) + "-" + name))
      .string();
}

TEST(shards, a_bad_shard_is_a_usage_error) {
  for (const std::string bad : {"0/3", "4/3", "3", "1/0", "a/b", "1/3/2", "-1/3", "1/1001"}) {
    const auto r = conform_cmd({"run", "--shard", bad});
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_EQ(r.err, "conform run: --shard takes K/N with 1 <= K <= N <= 1000 (e.g. 2/3), not '" +
                         bad + "'\n");
    EXPECT_EQ(r.out, "");
  }
}

/// A fast run of two per-exchange checks with the reference's
/// wrong_error_code fault, so that some cells fail; `shard` "" for the whole
/// run. The voice sessions' operations only: the fault lies in them alone
/// (a run of every operation fails on the same five cells), and their three
/// operations make eight (operation, auth model) pairs: each of three shards
/// holds some, an operation's auth models fall into different shards, and
/// each shard has failures of its own (seed 1).
command_result faulty_run(const std::string& shard, const std::string& json, std::uint64_t seed = 1,
                          std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"run",        "--no-progress",
                                   "--examples", "1",
                                   "--seed",     std::to_string(seed),
                                   "--checks",   "error_code_conformance,status_code_conformance",
                                   "--include",  "*voice_sessions*",
                                   "--fault",    "wrong_error_code",
                                   "--json",     json};
  if (!shard.empty()) args.insert(args.end(), {"--shard", shard});
  args.insert(args.end(), extra.begin(), extra.end());
  return conform_cmd(args);
}

class merge : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ::unsetenv("GITHUB_STEP_SUMMARY");
    ASSERT_EQ(faulty_run("", whole()).status, 1);
    for (int k = 1; k <= 3; ++k) {
      const auto r = faulty_run(std::to_string(k) + "/3", part(k));
      ASSERT_LE(r.status, 1) << r.out << r.err;
      ASSERT_NE(r.out.find("(shard " + std::to_string(k) + "/3)"), std::string::npos) << r.out;
    }
  }
  static void TearDownTestSuite() {
    fs::remove(whole());
    for (int k = 1; k <= 3; ++k) fs::remove(part(k));
  }
  static std::string whole() { return temp("whole.json"); }
  static std::string part(int k) { return temp("part" + std::to_string(k) + ".json"); }
  static harness::run_report read(const std::string& file) {
    auto r = reports::read_json_report(file);
    EXPECT_TRUE(r) << r.error();
    return r ? *r : harness::run_report{};
  }
};

TEST_F(merge, the_merged_report_is_the_whole_runs) {
  const std::string all = temp("all.json"), junit = temp("all.xml");
  const auto r =
      conform_cmd({"report", "merge", part(3), part(1), part(2), "-o", all, "--junit", junit});
  EXPECT_EQ(r.status, 1) << r.out << r.err;  // the merged verdict: failures
  EXPECT_NE(r.out.find("shards 1, 2, 3 of 3, merged"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("FAILED (seed 1, shards 1, 2, 3 of 3, merged)"), std::string::npos) << r.out;
  const auto merged = read(all), w = read(whole());
  EXPECT_EQ(merged.info.merged_shards, (std::vector<std::uint32_t>{1, 2, 3}));
  // The counts are the shards' added up.
  harness::run_counts sum;
  std::set<std::string> shard_failures;
  for (int k = 1; k <= 3; ++k) {
    const auto p = read(part(k));
    sum.requests += p.counts.requests - p.counts.relearned;  // a walk counted once
    sum.checks_passed += p.counts.checks_passed;
    sum.checks_failed += p.counts.checks_failed;
    sum.cells_not_run += p.counts.cells_not_run;
    for (const auto& f : p.failures) {
      shard_failures.insert(f.operation_id + "|" + f.auth_model + "|" + f.check + "|" + f.cause);
    }
  }
  EXPECT_EQ(merged.counts.requests, sum.requests);
  EXPECT_EQ(merged.counts.checks_passed, sum.checks_passed);
  EXPECT_EQ(merged.counts.checks_failed, sum.checks_failed);
  EXPECT_EQ(merged.counts.cells_not_run, sum.cells_not_run);
  // The coverage phase: each operation's constraints, covered as in the
  // whole run (an operation's auth models may run in different shards).
  ASSERT_FALSE(w.coverage.empty());
  ASSERT_EQ(merged.coverage.size(), w.coverage.size());
  for (std::size_t i = 0; i < w.coverage.size(); ++i) {
    EXPECT_EQ(merged.coverage[i].operation_id, w.coverage[i].operation_id);
    EXPECT_EQ(merged.coverage[i].constraints, w.coverage[i].constraints);
    EXPECT_EQ(merged.coverage[i].covered, w.coverage[i].covered);
  }
  // The whole run's cells, operations in its order. (Passes per cell follow
  // the target's state, which the workers move in their own order: compared
  // with the shards' sum above, not with another run.)
  std::multiset<std::string> merged_cells, whole_cells;
  std::vector<std::string> merged_ops, whole_ops;
  auto note = [](const harness::run_report& r, std::multiset<std::string>& cells,
                 std::vector<std::string>& ops) {
    for (const auto& t : r.tallies) {
      cells.insert(t.operation_id + "|" + t.auth_model + "|" + t.check);
      if (ops.empty() || ops.back() != t.operation_id) ops.push_back(t.operation_id);
    }
  };
  note(merged, merged_cells, merged_ops);
  note(w, whole_cells, whole_ops);
  EXPECT_EQ(merged_cells, whole_cells);
  EXPECT_EQ(merged_ops, whole_ops);
  std::set<std::string> merged_keys;
  for (const auto& f : merged.failures) {
    merged_keys.insert(f.operation_id + "|" + f.auth_model + "|" + f.check + "|" + f.cause);
  }
  EXPECT_EQ(merged_keys, shard_failures);
  EXPECT_EQ(merged.failures.size(), shard_failures.size());
  ASSERT_FALSE(merged.failures.empty());
  // Each shard's failures are in the merged report and its JUnit.
  const std::string xml = slurp(junit);
  EXPECT_NE(xml.find(R"(<property name="shard" value="shards 1, 2, 3 of 3, merged"/>)"),
            std::string::npos)
      << xml.substr(0, 600);
  for (const auto& f : merged.failures) {
    EXPECT_NE(xml.find("<failure type=\"" + f.check + "\""), std::string::npos);
    EXPECT_NE(xml.find("<testsuite name=\"" + f.operation_id + "\""), std::string::npos)
        << f.operation_id;
  }
  std::size_t in_xml = 0;
  for (auto at = xml.find("<failure type="); at != std::string::npos;
       at = xml.find("<failure type=", at + 1)) {
    ++in_xml;
  }
  EXPECT_EQ(in_xml, merged.failures.size());
  fs::remove(all);
  fs::remove(junit);
}

TEST_F(merge, reports_of_another_run_are_refused) {
  const std::string other = temp("other-seed.json"), all = temp("refused.json");
  ASSERT_LE(faulty_run("2/3", other, 2).status, 1);
  auto r = conform_cmd({"report", "merge", part(1), other, part(3), "-o", all});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "conform report merge: " + part(1) + " and " + other +
                       " are not of one run: the seeds differ (1 and 2)\n");
  EXPECT_FALSE(fs::exists(all));

  r = conform_cmd({"report", "merge", part(1), part(2), part(2), part(3), "-o", all});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "conform report merge: " + part(2) + " and " + part(2) + " both hold shard 2/3\n");

  r = conform_cmd({"report", "merge", part(1), part(3), "-o", all});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("no report of shard 2 of 3"), std::string::npos) << r.err;

  r = conform_cmd({"report", "merge", part(1), whole(), "-o", all});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find(whole() + " is not a shard's report"), std::string::npos) << r.err;

  ASSERT_LE(faulty_run("2/3", other, 1, {"--examples", "2"}).status, 1);
  r = conform_cmd({"report", "merge", part(1), other, part(3), "-o", all});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("the examples per cell differ (1 and 2)"), std::string::npos) << r.err;

  r = conform_cmd({"report", "merge", part(1), part(2), part(3)});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("needs -o ALL.json"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(all));
  fs::remove(other);
}

TEST_F(merge, against_a_baseline_only_new_failures_fail) {
  const std::string all = temp("baselined.json");
  // The whole run's failures are all known: the merged run passes.
  auto r =
      conform_cmd({"report", "merge", part(1), part(2), part(3), "-o", all, "--baseline", whole()});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("0 new, 0 fixed"), std::string::npos) << r.out;
  // A shard against the whole run's baseline answers for its own cells only:
  // the other shards' failures are not "fixed" by it.
  r = faulty_run("2/3", all, 1, {"--baseline", whole()});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("0 new, 0 fixed"), std::string::npos) << r.out;
  fs::remove(all);
}

}  // namespace
}  // namespace conform
