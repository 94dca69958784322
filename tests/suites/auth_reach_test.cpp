// A 404 on a made-up id never fails an authentication check (issue 37). A
// stub that answers 404 for an unknown item before it looks at credentials,
// as many servers do: the request without a credential gets 404, and so
// does the same request with one, so the resource is not known to exist and
// the cell is "not run", never a failure. The planted defect (404 without a
// credential for an item that a credential reaches) is still caught, and a
// server that answers 401 passes.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "harness/engine.hpp"
#include "openapi/loader.hpp"
#include "profile/loader.hpp"
#include "suites/registry.hpp"
#include "tests/support/servers.hpp"

namespace conform {
namespace auth_reach_stub {

enum class stub_kind {
  hides_unknown,  // unknown item: 404 before the credential; known one (1-3): 401 or 200
  answers_404,    // the planted defect: 404 without a credential, 200 with one, any item
  answers_401,    // correct: 401 without a credential, 200 with one
  fails_500,      // a 500 to a request without a credential
};

class item_server {
 public:
  explicit item_server(stub_kind kind)
      : server_([kind](test_support::raw_server::socket& s, int) {
          const std::string request = test_support::raw_server::read_request(s);
          if (request.empty()) return;
          const bool keyed = request.find("\r\nX-Key: k1\r\n") != std::string::npos ||
                             request.find("\r\nx-key: k1\r\n") != std::string::npos;
          const std::size_t at = request.find("/items/");
          const std::string id =
              at == std::string::npos ? "" : request.substr(at + 7, request.find(' ', at) - at - 7);
          const bool known = id == "1" || id == "2" || id == "3";
          int status = 200;
          if (kind == stub_kind::hides_unknown) {
            status = !known ? 404 : keyed ? 200 : 401;
          } else if (kind == stub_kind::fails_500) {
            status = keyed ? 200 : 500;
          } else if (kind == stub_kind::answers_404) {
            status = keyed ? 200 : 404;
          } else {
            status = keyed ? 200 : 401;
          }
          const std::string body = status == 200 ? "{\"id\":1}" : "{\"error\":\"no\"}";
          test_support::raw_server::write(
              s, "HTTP/1.1 " + std::to_string(status) +
                     " X\r\nContent-Type: application/json\r\nContent-Length: " +
                     std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
        }) {}
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(server_.port()); }

 private:
  test_support::raw_server server_;
};

std::optional<std::string> no_env_reach(const std::string&) {
  return std::nullopt;
}

harness::run_report run_reach(const std::string& base_url,
                              std::vector<std::string> checks = {"auth_unauthenticated"}) {
  auto loaded = openapi::load(std::string(CONFORM_TEST_DATA_DIR) + "/auth_reach.yaml");
  EXPECT_TRUE(loaded.ok());
  for (const auto& d : loaded.diagnostics) ADD_FAILURE() << core::to_string(d);
  auto p = profile::parse_profile(
      "base_url: " + base_url + "\ncredentials:\n  - { name: k, scheme: key, value: k1 }\n",
      "stub profile", no_env_reach);
  EXPECT_TRUE(p.ok());
  EXPECT_TRUE(profile::bind(*p.value, *loaded.spec).empty());
  static const auto catalogue = suites::builtin_checks();
  harness::run_config config;
  config.seed = 5;
  config.examples = 1;
  config.coverage = false;
  for (const auto& op : loaded.spec->operations) config.operations.push_back(&op);
  config.checks = *catalogue.select(checks);
  http::client_options opts;
  opts.workers = 1;
  http::client client(p.value->base_url, opts);
  harness::listener quiet;
  return harness::run(*loaded.spec, *p.value, config, client, quiet);
}

TEST(auth_reach, a_404_to_a_made_up_id_is_not_run_never_a_failure) {
  item_server server(stub_kind::hides_unknown);
  const auto r = run_reach(server.base_url());
  for (const auto& f : r.failures) ADD_FAILURE() << f.check << ": " << f.seen;
  bool said = false;
  for (const auto& n : r.not_runs) {
    said = said || (n.check == "auth_unauthenticated" &&
                    n.why.find("answered 404, and the same request with a sufficient credential "
                               "answered 404") != std::string::npos);
  }
  EXPECT_TRUE(said) << "no not-run reason for the 404";
}

TEST(auth_reach, a_404_where_a_credential_reaches_the_resource_is_a_failure) {
  item_server server(stub_kind::answers_404);
  const auto r = run_reach(server.base_url());
  bool caught = false;
  for (const auto& f : r.failures) caught = caught || f.check == "auth_unauthenticated";
  EXPECT_TRUE(caught);
}

TEST(auth_reach, a_401_passes) {
  item_server server(stub_kind::answers_401);
  const auto r = run_reach(server.base_url());
  for (const auto& f : r.failures) ADD_FAILURE() << f.check << ": " << f.seen;
  bool passed = false;
  for (const auto& t : r.tallies) {
    passed = passed || (t.check == "auth_unauthenticated" && t.passed > 0);
  }
  EXPECT_TRUE(passed);
}

TEST(auth_reach, a_500_to_a_scenario_request_is_a_failure_with_its_own_reproduction) {
  // Issue 37: a 500 met anywhere, not only in the generated phases.
  item_server server(stub_kind::fails_500);
  const auto r = run_reach(server.base_url(), {"auth_unauthenticated", "not_a_server_error"});
  const harness::failure* found = nullptr;
  for (const auto& f : r.failures) {
    if (f.check == "not_a_server_error") found = &f;
  }
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->status, 500u);
  EXPECT_EQ(found->mode.what, harness::failure_mode::kind::scenario);
  EXPECT_EQ(found->seed, 5u);
  EXPECT_NE(found->curl.find("/items/"), std::string::npos) << found->curl;
  EXPECT_EQ(found->curl.find("k1"), std::string::npos) << "a secret in the curl";
}

}  // namespace auth_reach_stub
}  // namespace conform
