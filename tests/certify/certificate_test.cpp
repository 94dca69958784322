// Certificates: Ed25519 through OpenSSL; a signed statement verifies with
// its public key only, and any change to it is refused.
#include <gtest/gtest.h>

#include "reports/certificate.hpp"

namespace conform::reports {
namespace {

certificate_statement statement() {
  certificate_statement s;
  s.description_title = "Voice AI Calling Service API";
  s.description_version = "1.0.0";
  s.description_hash = "ab12";
  s.client = "node dist/client.js";
  s.client_name = "Acme billing sync 4.2";
  s.artifacts = {{"/usr/bin/node", "aa11"}, {"dist/client.js", "bb22"}};
  s.transcript_sha256 = "cc33";
  s.level = "core";
  s.rules = {"client_retry_after", "client_retry_backoff"};
  s.seed = 7;
  s.date = "2026-11-23T10:00:00Z";
  s.conform_version = "0.1.0";
  return s;
}

TEST(certificate, signed_verifies_tampered_or_other_key_does_not) {
  const auto first = generate_key_pair();
  ASSERT_TRUE(first) << first.error();
  const auto second = generate_key_pair();
  ASSERT_TRUE(second) << second.error();
  const std::string& priv = first->private_pem;
  const std::string& pub = first->public_pem;
  const std::string& pub2 = second->public_pem;
  const auto text = sign_certificate(statement(), priv);
  ASSERT_TRUE(text) << text.error();
  EXPECT_EQ(text->find("PRIVATE"), std::string::npos);
  const auto ok = verify_certificate(*text, pub);
  ASSERT_TRUE(ok.valid) << ok.why;
  EXPECT_EQ(ok.statement.rules, statement().rules);
  EXPECT_EQ(ok.statement.seed, 7u);
  EXPECT_FALSE(verify_certificate(*text, pub2).valid);
  EXPECT_EQ(ok.statement.client_name, "Acme billing sync 4.2");
  ASSERT_EQ(ok.statement.artifacts.size(), 2u);
  EXPECT_EQ(ok.statement.artifacts[1].sha256, "bb22");
  EXPECT_EQ(ok.statement.transcript_sha256, "cc33");
  const std::string shown = describe_certificate(ok.statement);
  for (const char* line :
       {"client:       Acme billing sync 4.2", "command:      node dist/client.js",
        "artifact:     dist/client.js (sha256 bb22)", "transcript:   sha256 cc33"}) {
    EXPECT_NE(shown.find(line), std::string::npos) << shown;
  }
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"\"seed\":7", "\"seed\":8"},
           {"client_retry_after\",", ""},
           {"\"sha256\":\"bb22\"", "\"sha256\":\"bb23\""},
           {"\"transcript_sha256\":\"cc33\"", "\"transcript_sha256\":\"cc34\""},
           {"\"name\":\"Acme billing sync 4.2\"", "\"name\":\"Acme\""},
           {"\"level\":\"core\"", "\"level\":\"extended\""}}) {
    std::string tampered = *text;
    const auto at = tampered.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    tampered.replace(at, from.size(), to);
    EXPECT_FALSE(verify_certificate(tampered, pub).valid) << from;
  }
  EXPECT_FALSE(verify_certificate("not json", pub).valid);
  EXPECT_FALSE(sign_certificate(statement(), pub).ok());  // a public key cannot sign
}

TEST(certificate, a_version_1_certificate_still_verifies_and_says_what_it_lacks) {
  const auto keys = generate_key_pair();
  ASSERT_TRUE(keys) << keys.error();
  const std::string& pub = keys->public_pem;
  certificate_statement s = statement();
  s.version = 1;
  s.client = "./partner-client";
  const auto text = sign_certificate(s, keys->private_pem);
  ASSERT_TRUE(text) << text.error();
  EXPECT_NE(text->find("\"conform_certificate\":1"), std::string::npos);
  EXPECT_NE(text->find("\"client\":\"./partner-client\""), std::string::npos);
  const auto ok = verify_certificate(*text, pub);
  ASSERT_TRUE(ok.valid) << ok.why;
  EXPECT_NE(describe_certificate(ok.statement).find("version 1"), std::string::npos);
  std::string v3 = *text;
  v3.replace(v3.find("\"conform_certificate\":1"), 23, "\"conform_certificate\":3");
  EXPECT_FALSE(verify_certificate(v3, pub).valid);
}

TEST(certificate, sha256_of_bytes_and_files) {
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const auto missing = sha256_of_file("/no/such/file");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("/no/such/file"), std::string::npos);
}

}  // namespace
}  // namespace conform::reports
