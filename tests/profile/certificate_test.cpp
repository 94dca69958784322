// A credential's client certificate and key (mutual TLS): from files beside
// the profile or from ${ENV}; the key is a secret, never in a message; and
// what is missing or not PEM is said where it is written.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "openapi/loader.hpp"
#include "profile/loader.hpp"

namespace conform::profile {
namespace {

namespace fs = std::filesystem;

// Test-only PEM blocks: shapes, not keys (nothing here is parsed as a certificate).
const std::string cert_pem =
    "-----BEGIN CERTIFICATE-----\nTUlJQyB0ZXN0\n-----END CERTIFICATE-----\n";
const std::string key_pem =
    "-----BEGIN PRIVATE KEY-----\nVEVTVC1PTkxZLU5PVC1BLUtFWQ==\n-----END PRIVATE KEY-----\n";

class certificates : public ::testing::Test {
 protected:
  certificates() {
    dir_ = fs::temp_directory_path() /
           ("conform-cert-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    std::ofstream(dir_ / "client.pem") << cert_pem;
    std::ofstream(dir_ / "client.key") << key_pem;
  }
  ~certificates() override { fs::remove_all(dir_); }
  load_result load(const std::string& credentials,
                   const std::map<std::string, std::string>& env = {}) {
    std::ofstream(dir_ / "p.yaml") << "base_url: https://127.0.0.1:1/api\nenvironment: sandbox\n"
                                      "credentials:\n" +
                                          credentials;
    return load_profile(dir_ / "p.yaml",
                        [env](const std::string& name) -> std::optional<std::string> {
                          auto it = env.find(name);
                          if (it == env.end()) return std::nullopt;
                          return it->second;
                        });
  }
  static std::string messages(const load_result& r) {
    std::string out;
    for (const auto& d : r.diagnostics) out += core::to_string(d) + "\n";
    return out;
  }

  fs::path dir_;
};

TEST_F(certificates, a_mutual_tls_credential_reads_its_files_beside_the_profile) {
  const auto r = load(
      "  - name: bank\n    scheme: mutual_tls\n    certificate: client.pem\n"
      "    key: client.key\n");
  ASSERT_TRUE(r.ok()) << messages(r);
  const credential& c = r.value->credentials.at(0);
  EXPECT_EQ(c.kind, "mutual_tls");
  EXPECT_TRUE(c.has_certificate());
  EXPECT_EQ(c.certificate_pem, cert_pem);
  EXPECT_EQ(c.key.reveal(), key_pem);
  EXPECT_EQ(c.key.env_name(), "CONFORM_SECRET_BANK_KEY");
  EXPECT_TRUE(c.value.empty());
  const auto ids = client_identities(*r.value);
  ASSERT_EQ(ids.size(), 1u);
  EXPECT_EQ(ids[0].name, "bank");
}

TEST_F(certificates, pem_text_or_a_path_may_come_from_the_environment) {
  const auto r = load(
      "  - name: bank\n    scheme: api_key\n    value: k1\n"
      "    certificate: ${CERT_PATH}\n    key: ${KEY_PEM}\n",
      {{"CERT_PATH", (dir_ / "client.pem").string()}, {"KEY_PEM", key_pem}});
  ASSERT_TRUE(r.ok()) << messages(r);
  const credential& c = r.value->credentials.at(0);
  EXPECT_EQ(c.kind, "api_key");  // a key, and a certificate too
  EXPECT_EQ(c.certificate_pem, cert_pem);
  EXPECT_EQ(c.key.env_name(), "KEY_PEM");
  EXPECT_TRUE(c.key.from_env());
}

TEST_F(certificates, what_is_missing_or_not_pem_is_said_where_it_is_written) {
  auto r = load("  - name: a\n    scheme: mutual_tls\n    certificate: client.pem\n");
  EXPECT_FALSE(r.ok());
  EXPECT_NE(messages(r).find("p.yaml:6:18: error: credentials[0] (a): give both certificate and "
                             "key"),
            std::string::npos)
      << messages(r);
  r = load("  - name: b\n    scheme: mutual_tls\n");
  EXPECT_FALSE(r.ok());
  EXPECT_NE(messages(r).find("a mutual_tls credential needs certificate and key"),
            std::string::npos)
      << messages(r);
  r = load(
      "  - name: c\n    scheme: mutual_tls\n    certificate: client.key\n    key: client.key\n");
  EXPECT_FALSE(r.ok());
  EXPECT_NE(messages(r).find("certificate: no PEM block 'CERTIFICATE' in 'client.key'"),
            std::string::npos)
      << messages(r);
  r = load("  - name: d\n    scheme: mutual_tls\n    certificate: client.pem\n    key: ${NOPE}\n");
  EXPECT_FALSE(r.ok());
  EXPECT_NE(messages(r).find("key: environment variable NOPE is not set"), std::string::npos)
      << messages(r);
  r = load("  - name: e\n    scheme: mutual_tls\n    certificate: client.pem\n    key: ${KEY}\n",
           {{"KEY", "not a key " + key_pem.substr(40)}});
  EXPECT_FALSE(r.ok());
  // Never the text of what was given as a key.
  EXPECT_EQ(messages(r).find("VEVTVC1PTkx"), std::string::npos) << messages(r);
  r = load(
      "  - name: f\n    scheme: mutual_tls\n    certificate: nowhere.pem\n    key: client.key\n");
  EXPECT_FALSE(r.ok());
  EXPECT_NE(messages(r).find("nowhere.pem': No such file or directory"), std::string::npos)
      << messages(r);
}

TEST_F(certificates, a_credential_naming_a_mutual_tls_scheme_binds_to_it) {
  std::ofstream(dir_ / "d.yaml") << R"(openapi: 3.1.0
info: { title: d, version: "1" }
paths: {}
components:
  securitySchemes:
    clientCert: { type: mutualTLS }
    key: { type: apiKey, in: header, name: X-Key }
)";
  const auto spec = openapi::load(dir_ / "d.yaml");
  ASSERT_TRUE(spec.ok());
  auto r = load(
      "  - name: bank\n    scheme: clientCert\n    certificate: client.pem\n"
      "    key: client.key\n  - name: bare\n    scheme: clientCert\n    value: x\n");
  ASSERT_TRUE(r.ok()) << messages(r);
  const auto bound = bind(*r.value, *spec.spec);
  ASSERT_EQ(bound.size(), 1u);
  EXPECT_NE(bound[0].message.find("credential 'bare': scheme 'clientCert' is mutualTLS, so the "
                                  "credential needs certificate and key"),
            std::string::npos);
  EXPECT_EQ(r.value->credentials[0].kind, "mutual_tls");  // bound to the scheme
  EXPECT_TRUE(r.value->credentials[0].fits(*spec.spec->find_scheme("clientCert")));
  EXPECT_FALSE(r.value->credentials[0].fits(*spec.spec->find_scheme("key")));
}

}  // namespace
}  // namespace conform::profile
