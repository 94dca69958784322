// Profiles for descriptions other than the Voice API: no tenants, and
// credentials that name a security scheme by its key.
#include <gtest/gtest.h>

#include <fstream>

#include "openapi/loader.hpp"
#include "profile/loader.hpp"

namespace conform::profile {
namespace {

std::optional<std::string> no_env(const std::string&) {
  return std::nullopt;
}

std::string messages(const std::vector<core::diagnostic>& diags) {
  std::string out;
  for (const auto& d : diags) out += core::to_string(d) + "\n";
  return out;
}

openapi::api_spec generic_spec() {
  auto r = openapi::load(std::string(CONFORM_TEST_DATA_DIR) +
                         "/../../openapi/data/generic/schemes.yaml");
  if (!r.ok()) throw std::runtime_error(messages(r.diagnostics));
  return std::move(*r.spec);
}

TEST(profile_bind, a_profile_without_tenants_is_valid) {
  const auto r = parse_profile(
      "base_url: http://127.0.0.1:1/\ncredentials:\n  - { name: k, scheme: api_key, value: s3cr3t "
      "}\n",
      "p.yaml", no_env);
  ASSERT_TRUE(r.ok()) << messages(r.diagnostics);
  EXPECT_TRUE(r.value->tenants.empty());
  ASSERT_EQ(r.value->credentials.size(), 1u);
  EXPECT_EQ(r.value->credentials[0].home(), nullptr);
  EXPECT_EQ(r.value->credentials[0].kind, "api_key");
}

TEST(profile_bind, a_credential_names_a_scheme_by_its_key) {
  auto r = parse_profile(
      "base_url: http://127.0.0.1:1/\ncredentials:\n"
      "  - { name: a, scheme: petstore_auth, value: tok }\n"
      "  - { name: b, scheme: basicAuth, value: 'u:p' }\n",
      "p.yaml", no_env);
  ASSERT_TRUE(r.ok()) << messages(r.diagnostics);
  const auto spec = generic_spec();
  const auto diags = bind(*r.value, spec);
  ASSERT_TRUE(diags.empty()) << messages(diags);
  const auto& a = r.value->credentials[0];
  EXPECT_EQ(a.kind, "bearer");
  EXPECT_TRUE(a.fits(*spec.find_scheme("petstore_auth")));
  EXPECT_FALSE(a.fits(*spec.find_scheme("bearerOpaque")));  // same kind, other scheme
  EXPECT_EQ(r.value->credentials[1].kind, "basic");
}

TEST(profile_bind, an_unknown_scheme_is_an_error_at_its_position) {
  auto r = parse_profile(
      "base_url: http://127.0.0.1:1/\ncredentials:\n"
      "  - name: a\n    scheme: nosuch\n    value: tok\n",
      "p.yaml", no_env);
  ASSERT_TRUE(r.ok()) << messages(r.diagnostics);
  const auto diags = bind(*r.value, generic_spec());
  ASSERT_EQ(diags.size(), 1u);
  const std::string text = messages(diags);
  EXPECT_NE(text.find("p.yaml:4:13: error: credential 'a': scheme 'nosuch' names nothing in "),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("neither one of its x-credential labels (none), a kind (bearer, basic, "
                      "digest, api_key, mutual_tls) nor a key of its security schemes ("),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("tok"), std::string::npos);  // never the secret
}

}  // namespace
}  // namespace conform::profile
