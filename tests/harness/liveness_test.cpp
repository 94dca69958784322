// A target that dies in the middle of a run (issue 37 item 8). The stub
// answers until a note longer than 40 characters comes in; then it closes
// that connection without an answer and stops listening, as a server that
// crashed does. The request that killed it is a failure with its own
// reproduction, and the run stops, saying why: nothing after it is filed as
// a transport failure of its own or left "not run" one cell at a time.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "harness/engine.hpp"
#include "openapi/loader.hpp"
#include "profile/loader.hpp"
#include "suites/registry.hpp"
#include "tests/support/servers.hpp"

namespace conform {
namespace liveness {

/// Answers every request until a long note arrives, then dies on it.
class dying_server {
 public:
  dying_server()
      : server_(std::make_unique<test_support::raw_server>(
            [this](test_support::raw_server::socket& s, int) { session(s); })) {}
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(server_->port()); }
  bool died() const { return died_; }

 private:
  void session(test_support::raw_server::socket& s) {
    const std::string request = test_support::raw_server::read_request(s);
    if (request.empty()) return;
    const std::size_t at = request.find("\"text\":\"");
    if (request.starts_with("POST") && at != std::string::npos) {
      const std::size_t end = request.find('"', at + 8);
      if (end != std::string::npos && end - (at + 8) > 40) {
        died_ = true;
        server_->stop_listening();  // and the connection closes unanswered
        return;
      }
    }
    const bool post = request.starts_with("POST");
    const std::string body = post ? "{\"kept\":true}" : "{\"notes\":[]}";
    test_support::raw_server::write(
        s, std::string("HTTP/1.1 ") + (post ? "201" : "200") +
               " X\r\nContent-Type: application/json\r\nContent-Length: " +
               std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
  }
  bool died_ = false;
  std::unique_ptr<test_support::raw_server> server_;
};

TEST(liveness, a_target_that_dies_fails_the_request_that_killed_it_and_the_run_stops) {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    dying_server server;
    auto loaded = openapi::load(std::string(CONFORM_TEST_DATA_DIR) + "/dying.yaml");
    ASSERT_TRUE(loaded.ok());
    auto p = profile::parse_profile("base_url: " + server.base_url() + "\n", "stub profile");
    ASSERT_TRUE(p.ok());
    static const auto catalogue = suites::builtin_checks();
    harness::run_config config;
    config.seed = seed;
    config.examples = 40;
    config.max_shrinks = 8;
    for (const auto& op : loaded.spec->operations) config.operations.push_back(&op);
    config.checks = *catalogue.select({});
    http::client_options opts;
    opts.workers = 1;
    http::client client(p.value->base_url, opts);
    harness::listener quiet;
    const auto r = harness::run(*loaded.spec, *p.value, config, client, quiet);
    ASSERT_TRUE(server.died()) << seed << ": no request killed the stub";
    EXPECT_EQ(r.exit_code(), 1);
    // The refused connections are transport failures, and counted as such.
    EXPECT_GE(r.counts.transport_errors, 1u) << seed;
    const auto stopped = std::find_if(r.failures.begin(), r.failures.end(), [](const auto& f) {
      return f.cause == "target stopped answering";
    });
    ASSERT_NE(stopped, r.failures.end()) << seed;
    EXPECT_EQ(stopped->operation_id, "addNote");
    EXPECT_NE(stopped->curl.find("-X POST"), std::string::npos) << stopped->curl;
    // Its body is the long note that killed the stub.
    const std::size_t at = stopped->curl.find("\"text\":\"");
    ASSERT_NE(at, std::string::npos) << stopped->curl;
    EXPECT_GT(stopped->curl.find('"', at + 8) - (at + 8), 40u) << stopped->curl;
    // Said once, for the run; no refused request is a failure of its own.
    const auto said = std::count_if(r.not_runs.begin(), r.not_runs.end(), [](const auto& n) {
      return n.why.find("the run stopped: the target stopped answering") != std::string::npos;
    });
    EXPECT_EQ(said, 1);
    for (const auto& f : r.failures) {
      if (f.cause == "target stopped answering") continue;
      EXPECT_EQ(f.seen.find("refused"), std::string::npos) << f.check << ": " << f.seen;
    }
  }
}

}  // namespace liveness
}  // namespace conform
