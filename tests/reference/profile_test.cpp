// The profile the server writes (user-contract format) and serve_command's
// argument handling.
#include <yaml-cpp/yaml.h>

#include <pthread.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "cli/cli.hpp"
#include "tests/reference/support.hpp"

namespace conform::reference::testing {
namespace {

class profile_test : public server_test {
 protected:
  static void SetUpTestSuite() { start(); }
};

TEST_F(profile_test, profile_lists_base_url_tenants_fixtures_and_credentials) {
  YAML::Node p = YAML::Load(srv().profile_yaml());
  EXPECT_EQ(p["base_url"].as<std::string>(), srv().base_url());
  EXPECT_EQ(p["environment"].as<std::string>(), "sandbox");
  EXPECT_EQ(p["tenants"]["t1"]["id"].as<std::string>(), "101");
  EXPECT_EQ(p["tenants"]["t2"]["id"].as<std::string>(), "102");
  EXPECT_EQ(p["tenants"]["t3"]["id"].as<std::string>(), "103");
  for (const char* f :
       {"follow_up_id", "voice_session_id", "contact_id", "agent_id", "knowledge_base_id",
        "knowledge_base_source_id", "invoice_id", "bulk_call_campaign_id", "phone_number_id",
        "call_analysis_prompt_id", "campaign_running_id", "campaign_paused_id",
        "follow_up_completed_id", "voice_session_running_id"}) {
    EXPECT_TRUE(p["tenants"]["t1"]["fixtures"][f].IsScalar()) << f;
  }
  std::set<std::string> schemes, names;
  bool expired = false, production = false, limited = false, no_scopes = false;
  for (const auto& c : p["credentials"]) {
    names.insert(c["name"].as<std::string>());
    schemes.insert(c["scheme"].as<std::string>());
    EXPECT_FALSE(c["value"].as<std::string>().empty());
    if (c["expired"]) expired = true;
    if (c["environment"] && c["environment"].as<std::string>() == "production") production = true;
    if (c["rate_limited"]) limited = true;
    if (c["scopes"] && c["scopes"].size() == 0) no_scopes = true;
    if (c["scheme"].as<std::string>() == "tenant_key") {
      EXPECT_TRUE(c["tenant"].IsScalar());
    }
    if (c["scheme"].as<std::string>() == "jwt") {
      EXPECT_TRUE(c["role"].IsScalar());
      EXPECT_TRUE(c["tenants"].IsSequence());
    }
  }
  EXPECT_EQ(schemes, (std::set<std::string>{"jwt", "tenant_key", "partner_key"}));
  EXPECT_TRUE(expired && production && limited && no_scopes);
  for (const char* n : {"jwt-admin", "jwt-member", "jwt-viewer", "jwt-two-tenants",
                        "partner-allocate", "partner-default", "t1-all", "t1-none"}) {
    EXPECT_EQ(names.count(n), 1U) << n;
  }
}

TEST_F(profile_test, every_profile_credential_behaves_as_described) {
  YAML::Node p = YAML::Load(srv().profile_yaml());
  for (const auto& c : p["credentials"]) {
    const std::string scheme = c["scheme"].as<std::string>();
    const std::string value = c["value"].as<std::string>();
    header_list h = scheme == "jwt"          ? bearer(value)
                    : scheme == "tenant_key" ? api_key(value)
                                             : partner_key(value, "101");
    if (scheme == "jwt" && c["tenants"].size() > 1) h.emplace_back("X-Tenant-Id", "101");
    auto a = http().send("GET", "/bulk_call_campaigns/capacity_preview", h);
    const bool bad = c["expired"] || c["environment"];
    if (bad) {
      EXPECT_EQ(a.status, 401) << c["name"].as<std::string>();
    } else {
      EXPECT_TRUE(a.status == 200 || a.status == 403 || a.status == 429)
          << c["name"].as<std::string>() << a.raw;
    }
  }
}

TEST_F(profile_test, keys_are_deterministic_in_the_seed) {
  server_config c;
  server other(c);
  EXPECT_EQ(other.credential("t1-all"), cred("t1-all"));
  c.seed = 7;
  server reseeded(c);
  EXPECT_NE(reseeded.credential("t1-all"), cred("t1-all"));
  EXPECT_EQ(cred("t1-all").rfind("tk_test_", 0), 0U);
  EXPECT_EQ(cred("partner-default").rfind("pk_test_", 0), 0U);
}

TEST_F(profile_test, production_server_uses_live_keys) {
  server_config c;
  c.environment = "production";
  server live(c);
  client h(live);
  EXPECT_EQ(live.credential("t1-all").rfind("tk_live_", 0), 0U);
  EXPECT_EQ(live.credential("t1-other-env").rfind("tk_test_", 0), 0U);
  EXPECT_EQ(h.send("GET", "/voice_sessions", api_key(live.credential("t1-all"))).status, 200);
  EXPECT_EQ(h.send("GET", "/voice_sessions", api_key(live.credential("t1-other-env"))).status, 401);
}

TEST_F(profile_test, scale_multiplies_campaigns_and_sessions) {
  server_config c;
  c.scale = 3;
  server big(c);
  client h(big);
  auto a = h.send("GET", "/bulk_call_campaigns", api_key(big.credential("t1-all")));
  EXPECT_EQ(a.json.at("meta").at("count"), 188);
}

TEST_F(profile_test, serve_command_refuses_bad_arguments_with_exit_2) {
  for (const std::vector<std::string>& args : {std::vector<std::string>{"--fault", "nope"},
                                               {"--port", "x"},
                                               {"--port"},
                                               {"--scale", "0"},
                                               {"--environment", "staging"},
                                               {"--bogus"},
                                               {"--profile-out", "/nonexistent-dir/p.yaml"}}) {
    std::ostringstream out, err;
    EXPECT_EQ(cli::serve_command(args, out, err), 2) << args.front();
    EXPECT_FALSE(err.str().empty());
  }
  std::ostringstream out, err;
  EXPECT_EQ(cli::serve_command({"--fault", "nope"}, out, err), 2);
  EXPECT_NE(err.str().find("scope_leak"), std::string::npos);
  std::ostringstream help, none;
  EXPECT_EQ(cli::serve_command({"--help"}, help, none), 0);
  EXPECT_NE(help.str().find("--profile-out"), std::string::npos);
}

TEST_F(profile_test, serve_command_serves_until_sigterm_and_writes_the_profile) {
  const std::string file =
      ::testing::TempDir() + "conform_ref_profile_" + std::to_string(::getpid()) + ".yaml";
  std::filesystem::remove(file);
  std::ostringstream out, err;
  int status = -1;
  std::thread serving([&] {
    status = cli::serve_command({"--profile-out", file, "--scale", "2"}, out, err);
  });
  const pthread_t handle = serving.native_handle();
  // The profile is written once the server accepts requests.
  while (!std::filesystem::exists(file) || std::filesystem::file_size(file) == 0 ||
         YAML::LoadFile(file)["credentials"].size() == 0) {
    std::this_thread::yield();
  }
  YAML::Node p = YAML::LoadFile(file);
  const std::string base = p["base_url"].as<std::string>();
  const int port = std::stoi(base.substr(base.rfind(':') + 1));
  httplib::Client cli("127.0.0.1", port);
  auto health = cli.Get("/api/v1/health");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200);
  pthread_kill(handle, SIGTERM);  // thread-directed: the serving thread waits for it
  serving.join();
  EXPECT_EQ(status, 0) << err.str();
  EXPECT_NE(out.str().find("listening on " + base), std::string::npos);
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace conform::reference::testing
