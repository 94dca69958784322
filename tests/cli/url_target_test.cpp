// `conform run --url` and the credentials it is given (issue 37), against a
// stub of a description with two schemes in one header (an http bearer and
// an apiKey, both in Authorization): a `Bearer ` token is the bearer
// scheme's, not the apiKey's (the run then said nothing was sent with the
// bearer scheme); --auth-scheme files a -H credential too; and the "not
// run" reasons of a --url run name the target as what it is, not "the
// profile" there is none of.
#include <gtest/gtest.h>

#include <httplib.h>

#include <boost/json.hpp>

#include <filesystem>
#include <string>

#include "cli/url_target.hpp"
#include "openapi/loader.hpp"
#include "tests/cli/support.hpp"
#include "tests/support/servers.hpp"

namespace conform::cli {
namespace {

using test_support::contains;

const std::string spec_file = std::string(CONFORM_TEST_DATA_DIR) + "/shared-authorization.yaml";

const openapi::api_spec& shared_spec() {
  static const auto loaded = openapi::load(spec_file);
  EXPECT_TRUE(loaded.ok());
  return *loaded.spec;
}

url_target_options with_header(const std::string& header, const std::string& scheme = "") {
  url_target_options o;
  o.url = "http://127.0.0.1:1";
  o.headers = {header};
  o.auth_scheme = scheme;
  return o;
}

TEST(url_target, a_bearer_token_in_a_shared_authorization_header_is_the_bearer_schemes) {
  auto t = url_target(with_header("Authorization: Bearer tok-123"), shared_spec());
  ASSERT_TRUE(t) << t.error();
  ASSERT_EQ(t->credentials.size(), 1u);
  EXPECT_EQ(t->credentials[0].scheme, "bearerAuth");
  EXPECT_EQ(t->credentials[0].value.reveal(), "tok-123");
  // The auth-scheme name is case-insensitive (RFC 9110 section 11.1).
  auto lower = url_target(with_header("Authorization: bearer tok-123"), shared_spec());
  ASSERT_TRUE(lower) << lower.error();
  EXPECT_EQ(lower->credentials[0].scheme, "bearerAuth");
  // Any other value in that header is the apiKey's, whole.
  auto key = url_target(with_header("Authorization: tok-key"), shared_spec());
  ASSERT_TRUE(key) << key.error();
  ASSERT_EQ(key->credentials.size(), 1u);
  EXPECT_EQ(key->credentials[0].scheme, "keyAuth");
  EXPECT_EQ(key->credentials[0].value.reveal(), "tok-key");
}

TEST(url_target, auth_scheme_files_a_header_credential_under_the_scheme_it_names) {
  auto t = url_target(with_header("Authorization: Bearer tok-123", "keyAuth"), shared_spec());
  ASSERT_TRUE(t) << t.error();
  ASSERT_EQ(t->credentials.size(), 1u);
  EXPECT_EQ(t->credentials[0].scheme, "keyAuth");
  EXPECT_EQ(t->credentials[0].value.reveal(), "Bearer tok-123");
  auto bearer =
      url_target(with_header("Authorization: Bearer tok-123", "bearerAuth"), shared_spec());
  ASSERT_TRUE(bearer) << bearer.error();
  EXPECT_EQ(bearer->credentials[0].scheme, "bearerAuth");
  EXPECT_EQ(bearer->credentials[0].value.reveal(), "tok-123");
  // A scheme no -H and no --auth-env uses, or one the description lacks: refused.
  auto unused = url_target(with_header("X-Other: 1", "keyAuth"), shared_spec());
  ASSERT_FALSE(unused);
  EXPECT_TRUE(contains(unused.error(), "--auth-scheme")) << unused.error();
  auto unknown = url_target(with_header("Authorization: Bearer x", "nope"), shared_spec());
  ASSERT_FALSE(unknown);
  EXPECT_TRUE(contains(unknown.error(), "no security scheme 'nope'")) << unknown.error();
}

/// A stub of the description: /me answers 200 to the bearer token tok-123,
/// /keys to the key tok-key; anything else is 401.
test_support::scripted_server shared_header_server() {
  return test_support::scripted_server([](const httplib::Request& req, httplib::Response& res) {
    const std::string auth = req.get_header_value("Authorization");
    if (req.path == "/api/v1/me" && auth == "Bearer tok-123") {
      res.set_content(R"({"name":"ada"})", "application/json");
    } else if (req.path == "/api/v1/keys" && auth == "tok-key") {
      res.set_content(R"({})", "application/json");
    } else {
      res.status = 401;
      res.set_content(R"({"message":"who are you?"})", "application/json");
    }
  });
}

boost::json::object run_json(const std::vector<std::string>& args, const std::string& file) {
  const auto r = test_support::run(args);
  EXPECT_LE(r.status, 2) << r.out << r.err;
  const std::string text = test_support::slurp(file);
  EXPECT_FALSE(text.empty()) << r.out << r.err;
  return text.empty() ? boost::json::object() : boost::json::parse(text).as_object();
}

const boost::json::object* reach_of(const boost::json::object& report, const std::string& op) {
  if (!report.contains("reach")) return nullptr;
  for (const auto& x : report.at("reach").as_array()) {
    if (x.at("operation_id").as_string() == op) return &x.as_object();
  }
  return nullptr;
}

TEST(url_target, a_run_with_a_bearer_header_reaches_the_bearer_operation) {
  auto server = shared_header_server();
  const std::string json =
      (std::filesystem::temp_directory_path() / "conform-url-target-bearer.json").string();
  const auto report = run_json({"--spec", spec_file, "--url", server.base_url(), "-H",
                                "Authorization: Bearer tok-123", "--seed", "3", "--examples", "2",
                                "--no-coverage", "--no-stateful", "--json", json, "--no-progress"},
                               json);
  std::filesystem::remove(json);
  const auto* me = reach_of(report, "getProfile");
  ASSERT_TRUE(me) << boost::json::serialize(report);
  EXPECT_TRUE(me->at("reached").as_bool()) << boost::json::serialize(*me);
  EXPECT_TRUE(contains(std::string(me->at("auth_model").as_string()), "bearerAuth"))
      << boost::json::serialize(*me);
}

TEST(url_target, not_run_reasons_of_a_url_run_name_the_url_target_not_a_profile) {
  auto server = shared_header_server();
  const std::string json =
      (std::filesystem::temp_directory_path() / "conform-url-target-words.json").string();
  const auto report = run_json({"--spec", spec_file, "--url", server.base_url(), "-H",
                                "Authorization: Bearer tok-123", "--seed", "3", "--examples", "2",
                                "--no-coverage", "--no-stateful", "--json", json, "--no-progress"},
                               json);
  std::filesystem::remove(json);
  ASSERT_TRUE(report.contains("not_run")) << boost::json::serialize(report);
  const std::string not_run = boost::json::serialize(report.at("not_run"));
  // listKeys has no keyAuth credential here: said of the --url target.
  EXPECT_TRUE(contains(not_run, "the target (--url) has no usable")) << not_run;
  EXPECT_FALSE(contains(not_run, "the profile")) << not_run;
}

}  // namespace
}  // namespace conform::cli
