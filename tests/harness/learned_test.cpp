// What a run triggers, it judges; what it learns, every phase uses
// (issue 37). A stub keeps one project from before the run, p-17, which
// only its list names. Reading it gives a body against its schema, and
// listing its tasks a 500: faults reachable only with the learned id. The
// stateful walk reaches them and its steps are judged as any answer; the
// coverage and random phases then send the learned id too. The same stub
// without the faults gives no failure at all.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "harness/engine.hpp"
#include "harness/reach.hpp"
#include "openapi/loader.hpp"
#include "profile/loader.hpp"
#include "suites/registry.hpp"
#include "tests/support/servers.hpp"

namespace conform {
namespace learned_ids {

class project_server {
 public:
  explicit project_server(bool faulty)
      : server_([faulty](test_support::raw_server::socket& s, int) {
          const std::string request = test_support::raw_server::read_request(s);
          if (request.empty()) return;
          const std::string line = request.substr(0, request.find("\r\n"));
          const std::string method = line.substr(0, line.find(' '));
          const std::size_t from = line.find(' ') + 1;
          std::string path = line.substr(from, line.find(' ', from) - from);
          path = path.substr(0, path.find('?'));
          int status = 404;
          std::string body = "{\"error\":\"no such project\"}";
          if (method != "GET") {
            status = 405;
            body = "{\"error\":\"only GET\"}";
          } else if (path == "/projects") {
            status = 200;
            body = "{\"items\":[{\"id\":\"p-17\",\"name\":\"kept\"}]}";
          } else if (path == "/projects/p-17") {
            status = 200;
            body = faulty ? "{\"id\":\"p-17\",\"name\":17}" : "{\"id\":\"p-17\",\"name\":\"kept\"}";
          } else if (path == "/projects/p-17/tasks") {
            status = faulty ? 500 : 200;
            body = faulty ? "{\"error\":\"boom\"}" : "{\"items\":[]}";
          }
          test_support::raw_server::write(
              s, "HTTP/1.1 " + std::to_string(status) +
                     " X\r\nContent-Type: application/json\r\nContent-Length: " +
                     std::to_string(body.size()) + "\r\nAllow: GET\r\nConnection: close\r\n\r\n" +
                     body);
        }) {}
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(server_.port()); }

 private:
  test_support::raw_server server_;
};

harness::run_report run_projects(const std::string& base_url, std::uint64_t seed,
                                 std::vector<std::string> checks = {}) {
  auto loaded = openapi::load(std::string(CONFORM_TEST_DATA_DIR) + "/kept_projects.yaml");
  EXPECT_TRUE(loaded.ok());
  for (const auto& d : loaded.diagnostics) {
    if (d.level == core::severity::error) ADD_FAILURE() << core::to_string(d);
  }
  auto p = profile::parse_profile("base_url: " + base_url + "\n", "stub profile");
  EXPECT_TRUE(p.ok());
  static const auto catalogue = suites::builtin_checks();
  harness::run_config config;
  config.seed = seed;
  config.examples = 3;
  config.stateful = true;
  config.max_shrinks = 8;
  for (const auto& op : loaded.spec->operations) config.operations.push_back(&op);
  config.checks = *catalogue.select(checks);  // none named: every check
  http::client_options opts;
  opts.workers = 2;
  http::client client(p.value->base_url, opts);
  harness::listener quiet;
  return harness::run(*loaded.spec, *p.value, config, client, quiet);
}

bool found(const harness::run_report& r, const std::string& op, const std::string& check,
           bool planned) {
  return std::any_of(r.failures.begin(), r.failures.end(), [&](const harness::failure& f) {
    const bool of_plan = f.mode.what != harness::failure_mode::kind::scenario;
    return f.operation_id == op && f.check == check && of_plan == planned && !f.curl.empty();
  });
}

TEST(learned_ids, what_the_walk_triggers_is_judged_with_its_own_reproduction) {
  project_server server(/*faulty=*/true);
  for (std::uint64_t seed : {1u, 2u}) {
    const auto r = run_projects(server.base_url(), seed,
                                {"not_a_server_error", "response_schema_conformance"});
    EXPECT_TRUE(found(r, "getProject", "response_schema_conformance", false)) << seed;
    EXPECT_TRUE(found(r, "listTasks", "not_a_server_error", false)) << seed;
    for (const auto& f : r.failures) {
      if (f.mode.what != harness::failure_mode::kind::scenario) continue;
      EXPECT_NE(f.curl.find("/projects/p-17"), std::string::npos) << f.curl;
      EXPECT_EQ(f.seed, seed);
    }
  }
}

TEST(learned_ids, the_planned_phases_send_what_the_walk_learned) {
  project_server server(/*faulty=*/true);
  for (std::uint64_t seed : {1u, 2u}) {
    const auto r = run_projects(server.base_url(), seed,
                                {"not_a_server_error", "response_schema_conformance"});
    EXPECT_TRUE(found(r, "getProject", "response_schema_conformance", true)) << seed;
    EXPECT_TRUE(found(r, "listTasks", "not_a_server_error", true)) << seed;
    const bool listed =
        std::any_of(r.info.learned.begin(), r.info.learned.end(),
                    [](const std::string& n) { return n.find("p-17") != std::string::npos; });
    EXPECT_TRUE(listed) << "the run header does not list the learned id";
  }
}

TEST(learned_ids, the_same_server_without_its_faults_passes_every_check) {
  project_server server(/*faulty=*/false);
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    const auto r = run_projects(server.base_url(), seed);
    for (const auto& f : r.failures) {
      ADD_FAILURE() << seed << " " << f.operation_id << " " << f.check << ": " << f.seen << "\n"
                    << f.curl;
    }
    for (const char* op : {"listProjects", "getProject", "listTasks"}) {
      const auto it = std::find_if(r.reach.begin(), r.reach.end(),
                                   [op](const auto& x) { return x.operation_id == op; });
      ASSERT_NE(it, r.reach.end()) << op;
      EXPECT_TRUE(it->reached()) << op << ": " << it->why;
    }
  }
}

TEST(learned_ids, reach_counts_only_what_checks_judged) {
  project_server server(/*faulty=*/false);
  // A check that judges no answer: the walk's steps are not judged, and
  // their 2xx answers are shown apart, never as reach.
  const auto r = run_projects(server.base_url(), 1, {"negative_data_rejection"});
  const auto it = std::find_if(r.reach.begin(), r.reach.end(),
                               [](const auto& x) { return x.operation_id == "listTasks"; });
  ASSERT_NE(it, r.reach.end());
  EXPECT_GT(it->unjudged_succeeded, 0u);
}

}  // namespace learned_ids
}  // namespace conform

namespace conform {
namespace resend_judged {

/// Answers a request with `n` it has seen before with 500, any other with
/// a body against its schema (`n` a number, not a string), or 400 without `n`.
class repeat_fails_server {
 public:
  repeat_fails_server()
      : server_([this](test_support::raw_server::socket& s, int) {
          const std::string request = test_support::raw_server::read_request(s);
          if (request.empty()) return;
          const std::string line = request.substr(0, request.find("\r\n"));
          const bool seen = !seen_.insert(line).second;
          const std::size_t at = line.find("n=");
          int status = 200;
          std::string body;
          if (seen && at != std::string::npos) {
            status = 500;
            body = "{\"error\":\"seen\"}";
          } else if (at == std::string::npos) {
            status = 400;
            body = "{}";
          } else {
            body = "{\"n\":" + std::to_string(std::atoll(line.c_str() + at + 2)) + "}";
          }
          test_support::raw_server::write(
              s, "HTTP/1.1 " + std::to_string(status) +
                     " X\r\nContent-Type: application/json\r\nContent-Length: " +
                     std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
        }) {}
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(server_.port()); }

 private:
  std::set<std::string> seen_;  // one connection at a time: no lock
  test_support::raw_server server_;
};

TEST(resend_judged, a_500_met_while_shrinking_is_a_failure_with_its_own_reproduction) {
  for (std::uint64_t seed : {1u, 2u}) {
    repeat_fails_server server;
    auto loaded = openapi::load(std::string(CONFORM_TEST_DATA_DIR) + "/resend.yaml");
    ASSERT_TRUE(loaded.ok());
    auto p = profile::parse_profile("base_url: " + server.base_url() + "\n", "stub profile");
    ASSERT_TRUE(p.ok());
    static const auto catalogue = suites::builtin_checks();
    harness::run_config config;
    config.seed = seed;
    config.examples = 3;
    config.coverage = false;
    config.max_shrinks = 4;
    config.stateful = false;  // its steps would repeat a request too
    for (const auto& op : loaded.spec->operations) config.operations.push_back(&op);
    config.checks = *catalogue.select({"response_schema_conformance", "not_a_server_error"});
    http::client_options opts;
    opts.workers = 1;
    http::client client(p.value->base_url, opts);
    harness::listener quiet;
    const auto r = harness::run(*loaded.spec, *p.value, config, client, quiet);
    const auto it = std::find_if(r.failures.begin(), r.failures.end(),
                                 [](const auto& f) { return f.check == "not_a_server_error"; });
    ASSERT_NE(it, r.failures.end()) << seed;
    EXPECT_EQ(it->status, 500u);
    EXPECT_NE(it->mode.detail.find("re-sent while shrinking a response_schema_conformance"),
              std::string::npos)
        << it->mode.detail;
    EXPECT_NE(it->curl.find("/count?n="), std::string::npos) << it->curl;
    // The failure being shrunk is still reported, as first seen.
    EXPECT_TRUE(std::any_of(r.failures.begin(), r.failures.end(), [](const auto& f) {
      return f.check == "response_schema_conformance";
    }));
  }
}

}  // namespace resend_judged
namespace reach_why {

// Finding B of docs/real-servers.md: an operation whose requests got 404s
// and 422s was explained as "every id sent answered 404". The reason now
// counts each kind of refusal; an all-404 operation reads as before.
TEST(reach_why, a_mix_of_404s_and_refusals_is_counted_not_called_all_404) {
  auto loaded = openapi::load(std::string(CONFORM_TEST_DATA_DIR) + "/mini.yaml");
  ASSERT_TRUE(loaded.ok());
  const auto* op = loaded.spec->find_operation("getItem");
  ASSERT_NE(op, nullptr);
  harness::auth_model auth;
  auth.name = "none";
  harness::reach_tracker mixed(*loaded.spec);
  for (unsigned status : {404u, 422u, 422u, 404u, 422u}) mixed.record(*op, auth, status, "");
  const auto m = mixed.fold({op});
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].why, "no id found: 2 of 5 answered 404, 3 refused as invalid (400/415/422)");
  harness::reach_tracker all(*loaded.spec);
  for (int k = 0; k < 3; ++k) all.record(*op, auth, 404, "");
  EXPECT_EQ(all.fold({op}).at(0).why, "no id found: every id sent answered 404");
}

}  // namespace reach_why
}  // namespace conform
