// conform certify end to end, in-process: the example partner client is
// certified with a certificate that verifies, the same seed gives the same
// adversity, and each planted defect is refused with the right rule named.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/cli.hpp"

namespace conform::cli {
namespace {

namespace fs = std::filesystem;

struct outcome {
  int status = 0;
  std::string out, err;
};

outcome conform(std::vector<std::string> args) {
  std::ostringstream out, err;
  const int status = main_command(args, out, err);
  return {status, out.str(), err.str()};
}

fs::path scratch(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("conform-certify-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::remove(dir / name);
  return dir / name;
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(certify, the_example_client_is_certified_and_its_certificate_verifies) {
  const auto key = scratch("key.pem"), pub = scratch("key.pub"), cert = scratch("c.cert");
  const auto json = scratch("c.json");
  ASSERT_EQ(conform({"certificate", "keygen", "--private-key", key, "--public-key", pub}).status,
            0);
  const auto r = conform({"certify", "--seed", "3", "--json", json, "--certificate", cert,
                          "--signing-key", key, "--", CONFORM_EXAMPLE_CLIENT});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("certified at level core"), std::string::npos);
  const auto v = conform({"certificate", "verify", cert, "--public-key", pub});
  EXPECT_EQ(v.status, 0) << v.out;
  EXPECT_NE(v.out.find("client_retry_backoff"), std::string::npos);
  EXPECT_EQ(v.out.find("PRIVATE KEY"), std::string::npos);
  const auto report = boost::json::parse(read(json)).as_object();
  EXPECT_EQ(report.at("certified"), true);
  const auto& events = report.at("adversity").at("events").as_array();
  std::set<std::string> kinds;
  for (const auto& e : events) {
    kinds.insert(std::string(e.at("kind").as_string()));
    EXPECT_EQ(e.at("survived"), true) << boost::json::serialize(e);
  }
  EXPECT_EQ(kinds,
            (std::set<std::string>{"connection_dropped", "rate_limited", "server_error", "slow"}));
  // No secret of the profile in any report.
  EXPECT_EQ(read(json).find("pk_test_"), std::string::npos);
}

TEST(certify, the_same_seed_scripts_the_same_adversity) {
  std::vector<std::string> runs;
  for (int i = 0; i < 2; ++i) {
    const auto json = scratch("seed" + std::to_string(i) + ".json");
    ASSERT_EQ(
        conform({"certify", "--seed", "11", "--json", json, "--", CONFORM_EXAMPLE_CLIENT}).status,
        0);
    std::string kinds;
    const boost::json::value report = boost::json::parse(read(json));
    for (const auto& e : report.at("adversity").at("events").as_array()) {
      kinds += std::to_string(e.at("seq").to_number<long long>()) + ":" +
               std::string(e.at("kind").as_string()) + " ";
    }
    runs.push_back(kinds);
  }
  EXPECT_EQ(runs[0], runs[1]);
}

TEST(certify, usage_and_configuration_errors_exit_2) {
  EXPECT_EQ(conform({"certify"}).status, 2);
  EXPECT_EQ(conform({"certify", "--", "/no/such/client"}).status, 2);
  EXPECT_EQ(conform({"certify", "--listen"}).status, 2);
  EXPECT_EQ(conform({"certify", "--certificate", "x", "--", "true"}).status, 2);
}

TEST(certify, a_client_that_sends_nothing_is_not_certified) {
  const auto r = conform({"certify", "--", "true"});
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("sent no request"), std::string::npos);
}

struct defect {
  const char* name;
  const char* rule;
};

class planted : public ::testing::TestWithParam<defect> {};

TEST_P(planted, defect_is_refused_with_its_rule_named) {
  const auto r = conform(
      {"certify", "--seed", "5", "--", CONFORM_EXAMPLE_CLIENT, "--defect", GetParam().name});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  const auto verdict = r.out.substr(0, r.out.find('\n'));
  EXPECT_NE(verdict.find(GetParam().rule), std::string::npos) << verdict;
  EXPECT_NE(r.out.find("FAILED " + std::string(GetParam().rule)), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(
    example_client, planted,
    ::testing::Values(defect{"no-idempotency-key", "client_idempotency_key_present"},
                      defect{"new-key-on-retry", "client_idempotency_key_on_retry"},
                      defect{"shared-key", "client_idempotency_key_per_intent"},
                      defect{"ignore-retry-after", "client_retry_after"},
                      defect{"no-backoff", "client_retry_backoff"},
                      defect{"retry-4xx", "client_no_blind_retry"},
                      defect{"cursor-change-size", "client_cursor_traversal"},
                      defect{"cursor-stop-early", "client_cursor_traversal"},
                      defect{"cursor-page-params", "client_cursor_traversal"},
                      defect{"page-past-end", "client_page_traversal"},
                      defect{"per-page-too-big", "client_page_traversal"},
                      defect{"no-tenant-header", "client_tenant_header"},
                      defect{"other-env-key", "client_key_environment"},
                      defect{"invalid-body", "client_request_valid"}),
    [](const auto& info) {
      std::string n = info.param.name;
      for (auto& c : n) c = c == '-' ? '_' : c;
      return n;
    });

}  // namespace
}  // namespace conform::cli
