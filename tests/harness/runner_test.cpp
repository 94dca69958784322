// The runner against the mini items API: a correct server passes every
// check; each deliberate fault fails the check meant to catch it, with a
// curl command that reproduces it and never contains the secret.
#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

#include "profile/loader.hpp"
#include "harness/engine.hpp"
#include "openapi/loader.hpp"
#include "tests/support/mini_server.hpp"
#include "suites/registry.hpp"

namespace conform {
namespace {

using test_support::fault;

struct run_result {
  harness::run_report report;
};

harness::run_report run_against(fault f, std::uint64_t seed = 7, unsigned workers = 2,
                                std::uint32_t examples = 12, bool with_fixture = true,
                                unsigned threads = 0, harness::listener* events = nullptr) {
  auto loaded = openapi::load(std::string(CONFORM_TEST_DATA_DIR) + "/mini.yaml");
  EXPECT_TRUE(loaded.ok());
  for (const auto& d : loaded.diagnostics) ADD_FAILURE() << core::to_string(d);
  test_support::mini_server server(f);
  auto p = profile::parse_profile(server.profile_yaml(with_fixture), "mini profile");
  EXPECT_TRUE(p.ok());
  const profile::target& view = *p.value;
  static const auto catalogue = suites::builtin_checks();
  harness::run_config config;
  config.seed = seed;
  config.examples = examples;
  config.max_shrinks = 16;
  config.threads = threads;
  for (const auto& op : loaded.spec->operations) config.operations.push_back(&op);
  for (const auto& c : catalogue.all()) {
    if (c.exchange) config.checks.exchange.push_back(c.exchange);  // the per-exchange checks only
  }
  http::client_options opts;
  opts.workers = workers;
  http::client client(p.value->base_url, opts);
  harness::listener quiet;
  return harness::run(*loaded.spec, view, config, client, events ? *events : quiet);
}

/// The generated requests of a run (coverage and random), as sent: method,
/// target, body and headers, but for the idempotency key each send makes
/// afresh (a run-wide nonce and a counter).
class sent_requests final : public harness::listener {
 public:
  void exchange_recorded(const harness::event::exchange_recorded& e) override {
    const auto& x = e.exchange;
    if (x.phase != "coverage" && x.phase != "exchanges") return;
    std::string line = std::string(http::method_name(x.request)) + " " + x.request.target;
    for (const auto& [name, value] : x.request.headers) {
      if (value.rfind("conform-", 0) != 0) line += "\n" + name + ": " + value;
    }
    line += "\n\n" + x.request.body;
    std::lock_guard lock(mutex_);
    requests_.insert(std::move(line));
  }
  bool records_exchanges() const override { return true; }
  const std::multiset<std::string>& requests() const { return requests_; }

 private:
  std::mutex mutex_;
  std::multiset<std::string> requests_;
};

std::set<std::string> failed_checks(const harness::run_report& r) {
  std::set<std::string> out;
  for (const auto& f : r.failures) out.insert(f.check);
  return out;
}

void expect_reproducible(const harness::run_report& r) {
  for (const auto& f : r.failures) {
    EXPECT_NE(f.curl.find("curl "), std::string::npos);
    EXPECT_NE(f.curl.find("/api/v1/items"), std::string::npos) << f.curl;
    EXPECT_EQ(f.curl.find(test_support::mini_key), std::string::npos) << "secret in " << f.curl;
    EXPECT_NE(f.curl.find("${CONFORM_SECRET_ALL}"), std::string::npos) << f.curl;
    EXPECT_EQ(f.seed, 7u);
  }
}

TEST(runner, a_conforming_server_passes_every_check) {
  auto r = run_against(fault::none);
  for (const auto& f : r.failures) ADD_FAILURE() << f.check << ": " << f.seen << "\n" << f.curl;
  EXPECT_EQ(r.exit_code(), 0);
  EXPECT_TRUE(r.not_runs.empty());
  EXPECT_GT(r.counts.checks_passed, 100u);
  // Every (operation, check) cell ran: both operations, one auth model each.
  for (const auto& t : r.tallies) EXPECT_FALSE(t.not_run_why) << t.operation_id << " " << t.check;
}

struct fault_case {
  const char* name;
  fault f;
  const char* check;
};

// What ctest's listing and test names show of a case: its name, not the
// struct's bytes (a pointer, which differs from run to run).
void PrintTo(const fault_case& c, std::ostream* os) {
  *os << c.name;
}

class runner_fault : public ::testing::TestWithParam<fault_case> {};

TEST_P(runner_fault, the_intended_check_fails_with_a_reproduction) {
  auto r = run_against(GetParam().f);
  EXPECT_EQ(r.exit_code(), 1);
  EXPECT_TRUE(failed_checks(r).count(GetParam().check)) << "expected " << GetParam().check;
  expect_reproducible(r);
}

INSTANTIATE_TEST_SUITE_P(
    faults, runner_fault,
    ::testing::Values(
        fault_case{"undocumented_status", fault::undocumented_status, "status_code_conformance"},
        fault_case{"wrong_error_code", fault::wrong_error_code, "error_code_conformance"},
        fault_case{"wrong_content_type", fault::wrong_content_type, "content_type_conformance"},
        fault_case{"bad_schema", fault::bad_schema, "response_schema_conformance"},
        fault_case{"missing_request_id", fault::missing_request_id, "request_id_conformance"},
        fault_case{"server_error", fault::server_error, "not_a_server_error"},
        fault_case{"accepts_invalid", fault::accepts_invalid, "negative_data_rejection"},
        fault_case{"rejects_valid", fault::rejects_valid, "positive_data_acceptance"},
        fault_case{"unauthorized_always", fault::unauthorized_always, "positive_data_acceptance"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(runner, a_failure_is_reported_once_per_cause_and_shrunk) {
  auto r = run_against(fault::server_error);
  std::set<std::tuple<std::string, std::string, std::string>> keys;
  for (const auto& f : r.failures) {
    EXPECT_TRUE(keys.insert({f.operation_id, f.check, f.cause}).second) << "duplicate " << f.cause;
  }
  auto it = std::find_if(r.failures.begin(), r.failures.end(),
                         [](const harness::failure& f) { return f.check == "not_a_server_error"; });
  ASSERT_NE(it, r.failures.end());
  EXPECT_GT(it->occurrences, 1u);
  EXPECT_EQ(it->status, 500u);
  // Shrinking reaches the smallest valid body the generator offers.
  EXPECT_NE(it->curl.find("--data-binary"), std::string::npos);
}

// docs/checks.md: coverage cases are drawn small with fixed seeds and never
// shrunk. With no random examples, every failure is a coverage case's, and
// none went through shrinking.
TEST(runner, coverage_cases_are_never_shrunk) {
  const auto r = run_against(fault::accepts_invalid, 7, 2, 0);
  ASSERT_FALSE(r.failures.empty()) << "the coverage phase found nothing to judge the rule on";
  for (const auto& f : r.failures) {
    EXPECT_EQ(f.shrink_steps, 0u) << f.check << ": " << f.cause;
  }
}

TEST(runner, a_profile_without_credentials_runs_nothing_and_says_why) {
  auto loaded = openapi::load(std::string(CONFORM_TEST_DATA_DIR) + "/mini.yaml");
  ASSERT_TRUE(loaded.ok());
  int port = 0;
  {
    test_support::mini_server gone(fault::none);
    port = gone.port();
  }
  auto p =
      profile::parse_profile("base_url: http://127.0.0.1:" + std::to_string(port) +
                                 "/api/v1\nenvironment: sandbox\ntenants: {}\ncredentials: []\n",
                             "gone");
  ASSERT_TRUE(p.ok());
  const profile::target& view = *p.value;
  const auto catalogue = suites::builtin_checks();
  harness::run_config config;
  config.examples = 2;
  for (const auto& op : loaded.spec->operations) config.operations.push_back(&op);
  for (const auto& c : catalogue.all()) {
    if (c.exchange) config.checks.exchange.push_back(c.exchange);  // the per-exchange checks only
  }
  http::client client(p.value->base_url, {});
  harness::listener quiet;
  auto r = harness::run(*loaded.spec, view, config, client, quiet);
  // No credential in the profile: every cell says why it did not run, and a
  // run that judged nothing is not a pass.
  EXPECT_EQ(r.exit_code(), 2);
  EXPECT_EQ(r.counts.requests, 0u);
  ASSERT_FALSE(r.not_runs.empty());
  EXPECT_NE(r.not_runs.front().why.find("no usable tenant_key credential"), std::string::npos);
  for (const auto& t : r.tallies) EXPECT_TRUE(t.not_run_why.has_value());
}

TEST(runner, the_same_seed_sends_the_same_requests_whatever_the_workers) {
  auto one = run_against(fault::server_error, 99, 1);
  auto four = run_against(fault::server_error, 99, 4);
  // The two servers listen on different ports; everything else is the same.
  auto without_port = [](std::string curl) {
    auto colon = curl.find("127.0.0.1:");
    auto slash = curl.find('/', colon + 10);
    return curl.erase(colon, slash - colon);
  };
  ASSERT_EQ(one.failures.size(), four.failures.size());
  for (std::size_t i = 0; i < one.failures.size(); ++i) {
    EXPECT_EQ(without_port(one.failures[i].curl), without_port(four.failures[i].curl));
    EXPECT_EQ(one.failures[i].occurrences, four.failures[i].occurrences);
  }
  EXPECT_EQ(one.counts.requests, four.counts.requests);
}

// Workers are connections, and threads drive them (each thread keeping its
// share of them in flight at once): neither count changes which requests a
// seed sends, only who sends them and when.
TEST(runner, a_seed_sends_the_same_requests_whatever_the_connections_and_threads) {
  std::vector<std::multiset<std::string>> seen;
  for (const auto& [workers, threads] : std::vector<std::pair<unsigned, unsigned>>{
           {1, 1}, {4, 1}, {8, 1}, {8, 2}, {3, 2}}) {  // the server serves 8 connections at once
    sent_requests events;
    const auto r = run_against(fault::none, 41, workers, 12, true, threads, &events);
    EXPECT_TRUE(r.failures.empty()) << workers << "/" << threads;
    seen.push_back(events.requests());
  }
  ASSERT_GT(seen.front().size(), 50u);
  for (std::size_t i = 1; i < seen.size(); ++i) EXPECT_TRUE(seen[i] == seen.front()) << i;
}

TEST(runner, a_key_the_server_echoes_never_reaches_the_report) {
  auto r = run_against(fault::echoes_key);
  ASSERT_FALSE(r.failures.empty());
  for (const auto& f : r.failures) {
    for (const std::string* text : {&f.seen, &f.response_excerpt, &f.curl, &f.expected}) {
      EXPECT_EQ(text->find(test_support::mini_key), std::string::npos) << *text;
    }
  }
  const auto with_excerpt = std::find_if(r.failures.begin(), r.failures.end(), [](const auto& f) {
    return f.response_excerpt.find("${CONFORM_SECRET_ALL}") != std::string::npos;
  });
  EXPECT_NE(with_excerpt, r.failures.end()) << "the echoed key shows as its variable";
}

TEST(runner, an_operation_whose_fixture_is_missing_is_sent_and_judged_without_a_false_alarm) {
  auto r = run_against(fault::none, 7, 2, 4, /*with_fixture=*/false);
  // The requests go out with made-up ids: what comes back is judged (status,
  // schema, error code, ...), but a refusal of an id nobody knew proves
  // nothing, so positive_data_acceptance says why it cannot judge.
  for (const auto& f : r.failures) ADD_FAILURE() << f.check << ": " << f.seen;
  EXPECT_EQ(r.exit_code(), 0);
  bool acceptance_said = false, schema_judged = false;
  for (const auto& n : r.not_runs) {
    acceptance_said =
        acceptance_said || (n.operation_id == "getItem" && n.check == "positive_data_acceptance" &&
                            n.why.find("item_id") != std::string::npos);
  }
  for (const auto& t : r.tallies) {
    if (t.operation_id == "getItem" && t.check == "status_code_conformance") {
      schema_judged = t.passed > 0;
    }
  }
  EXPECT_TRUE(acceptance_said);
  EXPECT_TRUE(schema_judged);
  // The reach counts what was sent (a made-up id may exist by chance: "7").
  auto it = std::find_if(r.reach.begin(), r.reach.end(), [](const harness::operation_reach& x) {
    return x.operation_id == "getItem";
  });
  ASSERT_NE(it, r.reach.end());
  EXPECT_GT(it->sent, 0u);
  EXPECT_GT(it->not_found, 0u);
}

TEST(runner, example_seeds_depend_on_every_part_of_the_identity) {
  using harness::example_seed;
  using harness::request_kind;
  const auto base = example_seed(1, "op", "jwt", request_kind::valid, 0);
  EXPECT_EQ(base, example_seed(1, "op", "jwt", request_kind::valid, 0));
  EXPECT_NE(base, example_seed(2, "op", "jwt", request_kind::valid, 0));
  EXPECT_NE(base, example_seed(1, "op2", "jwt", request_kind::valid, 0));
  EXPECT_NE(base, example_seed(1, "op", "tenant_key", request_kind::valid, 0));
  EXPECT_NE(base, example_seed(1, "op", "jwt", request_kind::invalid, 0));
  EXPECT_NE(base, example_seed(1, "op", "jwt", request_kind::valid, 1));
}

}  // namespace
}  // namespace conform
