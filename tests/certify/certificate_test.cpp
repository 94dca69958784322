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
  s.client = "./partner-client";
  s.level = "core";
  s.rules = {"client_retry_after", "client_retry_backoff"};
  s.seed = 7;
  s.date = "2026-11-23T10:00:00Z";
  s.conform_version = "0.1.0";
  return s;
}

TEST(certificate, signed_verifies_tampered_or_other_key_does_not) {
  std::string priv, pub, priv2, pub2, error;
  ASSERT_TRUE(generate_key_pair(priv, pub, error)) << error;
  ASSERT_TRUE(generate_key_pair(priv2, pub2, error)) << error;
  const auto text = sign_certificate(statement(), priv, error);
  ASSERT_TRUE(text) << error;
  EXPECT_EQ(text->find("PRIVATE"), std::string::npos);
  const auto ok = verify_certificate(*text, pub);
  ASSERT_TRUE(ok.valid) << ok.why;
  EXPECT_EQ(ok.statement.rules, statement().rules);
  EXPECT_EQ(ok.statement.seed, 7u);
  EXPECT_FALSE(verify_certificate(*text, pub2).valid);
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"\"seed\":7", "\"seed\":8"},
           {"client_retry_after\",", ""},
           {"\"level\":\"core\"", "\"level\":\"extended\""}}) {
    std::string tampered = *text;
    const auto at = tampered.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    tampered.replace(at, from.size(), to);
    EXPECT_FALSE(verify_certificate(tampered, pub).valid) << from;
  }
  EXPECT_FALSE(verify_certificate("not json", pub).valid);
  EXPECT_FALSE(sign_certificate(statement(), pub, error));  // a public key cannot sign
}

}  // namespace
}  // namespace conform::reports
