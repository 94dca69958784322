// Scenarios in the engine, with a scenario written here against the mini
// items API: what a scenario records becomes cells, failures and not-runs of
// the report (once per cause, with every request as curl and no secret), a
// scenario that throws says "not run" for its checks, and only the enabled
// checks run.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "profile/loader.hpp"
#include "harness/engine.hpp"
#include "openapi/loader.hpp"
#include "tests/support/mini_server.hpp"

namespace conform {
namespace {

using test_support::fault;

struct fixture {
  openapi::load_result loaded = openapi::load(std::string(CONFORM_TEST_DATA_DIR) + "/mini.yaml");
  test_support::mini_server server{fault::none};
  profile::load_result profile = profile::parse_profile(server.profile_yaml(true), "mini");
  const profile::target& view = *profile.value;

  harness::run_report run(const harness::scenario& s, std::vector<std::string> enabled,
                          harness::listener* events = nullptr) {
    harness::run_config config;
    config.seed = 5;
    config.examples = 0;  // the scenario alone
    for (const auto& op : loaded.spec->operations) config.operations.push_back(&op);
    config.checks.scenarios = {&s};
    config.checks.scenario_checks = std::move(enabled);
    http::client client(profile.value->base_url, {});
    harness::listener quiet;
    return harness::run(*loaded.spec, view, config, client, events ? *events : quiet);
  }
};

/// Every event of a run, one line each, in the order they came.
struct recorder final : harness::listener {
  std::vector<std::string> lines;
  void run_started(const harness::event::run_started&) override { lines.push_back("run_started"); }
  void phase_started(const harness::event::phase_started& e) override {
    lines.push_back("phase_started " + std::string(to_string(e.which)));
  }
  void phase_finished(const harness::event::phase_finished& e) override {
    lines.push_back("phase_finished " + std::string(to_string(e.which)));
  }
  void failure_found(const harness::event::failure_found& e) override {
    lines.push_back("failure_found " + e.found.check);
  }
  void not_run(const harness::event::not_run& e) override {
    lines.push_back("not_run " + e.entry.check);
  }
  void run_finished(const harness::event::run_finished&) override {
    lines.push_back("run_finished");
  }
};

/// Sends the first operation twice with its sufficient credential: passes
/// "echo_ok" on the first answer, fails "echo_fail" twice with one cause.
harness::scenario sample_scenario() {
  harness::scenario s;
  s.name = "sample";
  s.checks = {{"echo_ok", "passes", "test"},
              {"echo_fail", "fails", "test"},
              {"echo_skip", "not run", "test"}};
  s.run = [](harness::scenario_context& ctx, harness::results_sink& results,
             const harness::check_enabled& enabled) {
    const auto& op = *ctx.operations().front();
    auto auth = ctx.credentials().sufficient_models(op).front();
    auto g = ctx.valid_request(op, auth, "sample");
    if (!g) throw std::runtime_error("no request");
    harness::probe first = ctx.send(ctx.build(op, auth, *g));
    harness::probe second = ctx.send(ctx.build(op, auth, *g));
    const std::string label = auth.model.label();
    if (enabled("echo_ok")) results.pass(op, label, "echo_ok");
    if (enabled("echo_fail")) {
      for (int i = 0; i < 2; ++i) {
        harness::scenario_failure f;
        f.expected = "something else";
        f.seen = first.summary();
        f.cause = "always";
        f.steps = "sent the request twice";
        f.evidence = {&first, &second};
        results.fail(op, label, "echo_fail", f, ctx);
      }
    }
    if (enabled("echo_skip")) results.not_run(&op, label, "echo_skip", "the profile lacks it");
  };
  return s;
}

TEST(scenarios, what_a_scenario_records_becomes_cells_failures_and_not_runs) {
  fixture fx;
  ASSERT_TRUE(fx.loaded.ok());
  const auto s = sample_scenario();
  auto r = fx.run(s, {"echo_ok", "echo_fail", "echo_skip"});
  EXPECT_EQ(r.exit_code(), 1);
  ASSERT_EQ(r.failures.size(), 1u);  // one per cause
  const auto& f = r.failures.front();
  EXPECT_EQ(f.check, "echo_fail");
  EXPECT_EQ(f.occurrences, 2u);
  EXPECT_EQ(f.seed, 5u);
  EXPECT_EQ(f.mode.to_string(), "scenario: sent the request twice");
  // Both requests, one curl command per line, the secret by its variable.
  EXPECT_EQ(std::count(f.curl.begin(), f.curl.end(), '\n'), 1) << f.curl;
  EXPECT_EQ(f.curl.find(test_support::mini_key), std::string::npos) << f.curl;
  EXPECT_NE(f.curl.find("${CONFORM_SECRET_ALL}"), std::string::npos) << f.curl;
  EXPECT_NE(f.status, 0u);

  auto cell = [&](const std::string& check) {
    auto it = std::find_if(r.tallies.begin(), r.tallies.end(),
                           [&](const harness::check_tally& t) { return t.check == check; });
    return it == r.tallies.end() ? nullptr : &*it;
  };
  ASSERT_TRUE(cell("echo_ok"));
  EXPECT_EQ(cell("echo_ok")->passed, 1u);
  ASSERT_TRUE(cell("echo_fail"));
  EXPECT_EQ(cell("echo_fail")->failed, 2u);
  ASSERT_TRUE(cell("echo_skip"));
  EXPECT_EQ(cell("echo_skip")->not_run_why, "the profile lacks it");
  ASSERT_EQ(r.not_runs.size(), 1u);
  EXPECT_EQ(r.not_runs.front().check, "echo_skip");
  EXPECT_EQ(r.counts.requests, 2u);
}

TEST(scenarios, findings_reach_the_listeners_as_they_happen_within_their_phase) {
  fixture fx;
  const auto s = sample_scenario();
  recorder events;
  fx.run(s, {"echo_ok", "echo_fail", "echo_skip"}, &events);
  // The failure (once per cause) and the not-run come while the scenario
  // runs, before its phase ends and long before the run ends.
  const std::vector<std::string> expected = {
      "run_started",
      "phase_started scenarios",
      "failure_found echo_fail",
      "not_run echo_skip",
      "phase_finished scenarios",
      "phase_started exchanges",
      "phase_finished exchanges",
      "run_finished",
  };
  EXPECT_EQ(events.lines, expected);
}

TEST(scenarios, only_the_enabled_checks_run) {
  fixture fx;
  const auto s = sample_scenario();
  auto r = fx.run(s, {"echo_ok"});
  EXPECT_EQ(r.exit_code(), 0);
  EXPECT_TRUE(r.failures.empty());
  EXPECT_TRUE(r.not_runs.empty());
  ASSERT_EQ(r.tallies.size(), 1u);
  EXPECT_EQ(r.tallies.front().check, "echo_ok");
}

TEST(scenarios, a_scenario_that_throws_says_not_run_for_each_enabled_check) {
  fixture fx;
  harness::scenario s;
  s.name = "broken";
  s.checks = {{"broken_a", "", ""}, {"broken_b", "", ""}};
  s.run = [](harness::scenario_context&, harness::results_sink&, const harness::check_enabled&) {
    throw std::runtime_error("cannot go on");
  };
  auto r = fx.run(s, {"broken_a"});
  EXPECT_EQ(r.exit_code(), 2);  // nothing judged: never a pass
  ASSERT_EQ(r.not_runs.size(), 1u);
  EXPECT_EQ(r.not_runs.front().check, "broken_a");
  EXPECT_NE(r.not_runs.front().why.find("cannot go on"), std::string::npos);
}

TEST(scenarios, a_reproduction_given_by_the_scenario_replaces_the_curl_commands_and_is_redacted) {
  fixture fx;
  harness::scenario s;
  s.name = "override";
  s.checks = {{"override_check", "", ""}};
  const std::string secret = fx.view.credentials.front().value.reveal();
  s.run = [secret](harness::scenario_context& ctx, harness::results_sink& results,
                   const harness::check_enabled&) {
    const auto& op = *ctx.operations().front();
    harness::scenario_failure f;
    f.cause = "c";
    f.reproduce = "printf x | curl -H 'X-Key: " + secret + "' --data-binary @-";
    results.fail(op, "none", "override_check", f, ctx);
  };
  auto r = fx.run(s, {"override_check"});
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures.front().curl.find(secret), std::string::npos);
  EXPECT_NE(r.failures.front().curl.find("printf x | curl"), std::string::npos);
}

}  // namespace

namespace {

TEST(redaction, a_credential_and_the_signature_of_a_token_are_named_not_shown) {
  conform::profile::target target;
  const std::string token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1In0.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg";
  conform::profile::credential key;
  key.value = conform::profile::secret("tk_test_0123456789abcdef", "CONFORM_KEY", true);
  conform::profile::credential jwt;
  jwt.value = conform::profile::secret(token, "CONFORM_JWT", true);
  target.credentials = {key, jwt};
  // A server that echoes the key, the token, and a forged token that kept
  // the real signature.
  const std::string echoed = "key tk_test_0123456789abcdef token " + token +
                             " forged eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9." +
                             "c2lnbmF0dXJlLW9mLXRoZS10b2tlbg";
  const std::string shown = conform::harness::redact_credentials(target, echoed);
  EXPECT_EQ(shown.find("0123456789abcdef"), std::string::npos) << shown;
  EXPECT_EQ(shown.find("c2lnbmF0dXJlLW9mLXRoZS10b2tlbg"), std::string::npos) << shown;
  EXPECT_NE(shown.find("${CONFORM_KEY}"), std::string::npos) << shown;
  EXPECT_NE(shown.find("${CONFORM_JWT}"), std::string::npos) << shown;
  EXPECT_NE(shown.find("SIGNATURE-OF-CONFORM_JWT"), std::string::npos) << shown;
}

TEST(redaction, curl_lines_name_every_credential_of_the_target_by_its_variable) {
  auto p = conform::profile::parse_profile(
      "base_url: http://127.0.0.1:9/api\nenvironment: sandbox\ntenants: {t1: {id: '1'}}\n"
      "credentials:\n"
      "  - {name: viewer, scheme: jwt, value_env: CONFORM_JWT_VIEWER, tenants: [t1]}\n"
      "  - {name: partner, scheme: partner_key, value: pk_test_inline, tenants: [t1]}\n",
      "inline", [](const std::string&) { return std::optional<std::string>("jwt-secret-value"); });
  ASSERT_TRUE(p.ok());
  conform::http::request req;
  req.target = "/x";
  req.add_header("Authorization", "Bearer jwt-secret-value");
  req.add_header("X-Partner-Key", "pk_test_inline");
  const std::string line =
      conform::http::to_curl(req, p.value->base_url, conform::harness::make_redactor(*p.value));
  EXPECT_EQ(line.find("jwt-secret-value"), std::string::npos) << line;
  EXPECT_EQ(line.find("pk_test_inline"), std::string::npos) << line;
  EXPECT_NE(line.find("${CONFORM_JWT_VIEWER}"), std::string::npos) << line;
  EXPECT_NE(line.find("${CONFORM_SECRET_PARTNER}"), std::string::npos) << line;
}

}  // namespace
}  // namespace conform
