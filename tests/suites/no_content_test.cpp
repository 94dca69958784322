// 204 and 304 carry no content (RFC 9110 sections 15.3.5 and 15.4.5), even
// where the description lists JSON content for them (issue 37). A stub of a
// description that does so, on a raw socket so that the planted defect can
// be written byte for byte: a 204 that sends a JSON body anyway. Its empty
// 204s and 304s pass the content-type and schema checks; the 204 with a
// body fails no_content_is_empty, and only it.
#include <gtest/gtest.h>

#include <string>

#include "harness/engine.hpp"
#include "openapi/loader.hpp"
#include "profile/loader.hpp"
#include "suites/registry.hpp"
#include "tests/support/servers.hpp"

namespace conform {
namespace {

/// Answers every DELETE 204 and every other request 304; with `body`, the
/// 204 carries a JSON body (and says so in its Content-Length).
class no_content_server {
 public:
  explicit no_content_server(bool body)
      : server_([body](test_support::raw_server::socket& s, int) {
          const std::string request = test_support::raw_server::read_request(s);
          if (request.empty()) return;
          std::string answer;
          if (request.rfind("DELETE ", 0) == 0) {
            answer = body ? "HTTP/1.1 204 No Content\r\nContent-Type: application/json\r\n"
                            "Content-Length: 11\r\nConnection: close\r\n\r\n{\"ok\":true}"
                          : "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n";
          } else {
            answer = "HTTP/1.1 304 Not Modified\r\nETag: \"1\"\r\nConnection: close\r\n\r\n";
          }
          test_support::raw_server::write(s, answer);
        }) {}
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(server_.port()); }

 private:
  test_support::raw_server server_;
};

harness::run_report run_against(const std::string& base_url) {
  auto loaded = openapi::load(std::string(CONFORM_TEST_DATA_DIR) + "/no_content.yaml");
  EXPECT_TRUE(loaded.ok());
  for (const auto& d : loaded.diagnostics) ADD_FAILURE() << core::to_string(d);
  auto p = profile::parse_profile("base_url: " + base_url + "\n", "stub profile");
  EXPECT_TRUE(p.ok());
  static const auto catalogue = suites::builtin_checks();
  harness::run_config config;
  config.seed = 3;
  config.examples = 3;
  config.coverage = false;
  for (const auto& op : loaded.spec->operations) config.operations.push_back(&op);
  config.checks = *catalogue.select({"status_code_conformance", "content_type_conformance",
                                     "response_schema_conformance", "no_content_is_empty"});
  http::client_options opts;
  opts.workers = 1;
  http::client client(p.value->base_url, opts);
  harness::listener quiet;
  return harness::run(*loaded.spec, *p.value, config, client, quiet);
}

const harness::check_tally* cell(const harness::run_report& r, const std::string& op,
                                 const std::string& check) {
  for (const auto& t : r.tallies) {
    if (t.operation_id == op && t.check == check) return &t;
  }
  return nullptr;
}

TEST(no_content, empty_204_and_304_answers_pass_though_the_description_lists_json_content) {
  no_content_server server(/*body=*/false);
  auto r = run_against(server.base_url());
  for (const auto& f : r.failures) ADD_FAILURE() << f.check << ": " << f.seen;
  EXPECT_EQ(r.exit_code(), 0);
  for (const char* op : {"getThing", "deleteThing"}) {
    const auto* empty = cell(r, op, "no_content_is_empty");
    ASSERT_TRUE(empty) << op;
    EXPECT_GT(empty->passed, 0u) << op;
    for (const char* check : {"content_type_conformance", "response_schema_conformance"}) {
      const auto* c = cell(r, op, check);
      if (c) {
        EXPECT_EQ(c->failed, 0u) << op << " " << check;
      }
    }
  }
}

TEST(no_content, a_204_that_sends_a_body_fails_and_cites_rfc_9110) {
  no_content_server server(/*body=*/true);
  auto r = run_against(server.base_url());
  EXPECT_EQ(r.exit_code(), 1);
  ASSERT_FALSE(r.failures.empty());
  for (const auto& f : r.failures) {
    EXPECT_EQ(f.check, "no_content_is_empty") << f.seen;
    EXPECT_EQ(f.operation_id, "deleteThing");
    EXPECT_EQ(f.cause, "204 with content");
    EXPECT_NE(f.expected.find("RFC 9110 section 15.3.5"), std::string::npos) << f.expected;
    EXPECT_NE(f.seen.find("Content-Length 11"), std::string::npos) << f.seen;
  }
}

}  // namespace
}  // namespace conform
