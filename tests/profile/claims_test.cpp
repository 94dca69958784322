// What a credential's own token says (read unverified where the description
// names the claims), and a target written back as a profile: secrets as
// value_env only, and the loader reads the same target back.
#include <gtest/gtest.h>

#include <map>

#include "core/base64.hpp"
#include "openapi/loader.hpp"
#include "profile/claims.hpp"
#include "profile/loader.hpp"
#include "profile/writer.hpp"

namespace conform::profile {
namespace {

std::string token(const std::string& payload) {
  return core::base64url_encode(R"({"alg":"HS256","typ":"JWT"})") + "." +
         core::base64url_encode(payload) + ".c2lnbmF0dXJl";
}

openapi::security_scheme jwt_scheme() {
  openapi::security_scheme s;
  s.name = "bearerJwt";
  s.credential = openapi::credential_kind::bearer;
  s.bearer_format = "JWT";
  s.role_claim = "role";
  s.tenant_claim = "tenant_ids";
  return s;
}

TEST(claims, the_named_claims_are_read_from_the_payload) {
  const auto s = jwt_scheme();
  auto c = read_claims(token(R"({"sub":"u","role":"viewer","tenant_ids":["101",102]})"), s);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->role, "viewer");
  EXPECT_EQ(c->tenants, (std::vector<std::string>{"101", "102"}));
  // A single tenant as a string.
  c = read_claims(token(R"({"tenant_ids":"7"})"), s);
  ASSERT_TRUE(c);
  EXPECT_FALSE(c->role);
  EXPECT_EQ(c->tenants, (std::vector<std::string>{"7"}));
}

TEST(claims, what_is_no_jwt_gives_nothing) {
  const auto s = jwt_scheme();
  for (const std::string& bad : std::vector<std::string>{"tk_test_abc", "a.b", "a.b.c.d", "x.!!!.y",
                                                         token("[1,2]"), token("not json")}) {
    EXPECT_FALSE(read_claims(bad, s)) << bad;
  }
  // No claim named: nothing read, whatever the token says.
  openapi::security_scheme plain;
  plain.credential = openapi::credential_kind::bearer;
  plain.bearer_format = "JWT";
  auto c = read_claims(token(R"({"role":"admin"})"), plain);
  ASSERT_TRUE(c);
  EXPECT_FALSE(c->role);
  EXPECT_FALSE(c->tenants_present);
}

TEST(claims, an_unstated_role_and_tenants_are_filled_with_a_note) {
  auto spec = openapi::load(std::string(CONFORM_SPEC_DIR) + "/voice-api.yaml");
  ASSERT_TRUE(spec.ok());
  target t;
  credential c;
  c.name = "$JWT";
  c.kind = "jwt";  // the Voice API's label of its JWT scheme
  c.value = secret(token(R"({"role":"admin","tenant_ids":["101"]})"), "JWT", true);
  t.credentials.push_back(c);
  credential stated = c;
  stated.name = "stated";
  stated.role = "viewer";
  t.credentials.push_back(stated);
  const auto notes = learn_from_tokens(t, *spec.spec);
  ASSERT_EQ(notes.size(), 2u);  // the second's tenants were not stated either
  EXPECT_NE(notes[0].find("role admin"), std::string::npos) << notes[0];
  EXPECT_NE(notes[0].find("not verified"), std::string::npos) << notes[0];
  EXPECT_EQ(t.credentials[0].role, "admin");
  ASSERT_EQ(t.credentials[0].tenants.size(), 1u);
  EXPECT_EQ(t.credentials[0].tenants[0]->id, "101");
  // What the profile states stays: the role; the tenant is shared, not added twice.
  EXPECT_EQ(t.credentials[1].role, "viewer");
  EXPECT_EQ(t.tenants.size(), 1u);
  EXPECT_EQ(t.credentials[1].home(), t.credentials[0].home());
  // The token itself is never in a note.
  for (const auto& n : notes) EXPECT_EQ(n.find(c.value.reveal()), std::string::npos);
}

TEST(writer, a_profile_written_is_read_back_as_the_same_target_without_its_secrets) {
  target t;
  t.base_url = *http::parse_url("https://sandbox.example.com/api/v1").value;
  tenant a{"tenant-101", "101", {{"agent_id", "11"}, {"odd \"name\"", "x: y"}}, {}};
  tenant b{"tenant-102", "102", {}, {}};
  t.tenants = {a, b};
  credential key;
  key.name = "TENANT_KEY";
  key.kind = "tenant_key";
  key.value = secret("tk_test_SECRET", "TENANT_KEY", true);
  key.tenants = {&t.tenants[0]};
  key.scopes = std::vector<std::string>{"contacts:read"};
  credential jwt;
  jwt.name = "JWT";
  jwt.kind = "jwt";
  jwt.value = secret("eyJ.SECRET.sig", "JWT", true);
  jwt.tenants = {&t.tenants[0], &t.tenants[1]};
  jwt.role = "member";
  t.credentials = {key, jwt};
  profile_comments comments;
  comments.header = {"learned: a note"};
  comments.credentials["JWT"] = {"scopes left out"};
  const std::string yaml = to_yaml(t, comments);
  EXPECT_EQ(yaml.find("SECRET"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("# learned: a note"), std::string::npos) << yaml;
  const std::map<std::string, std::string> env = {{"TENANT_KEY", "tk_test_X"}, {"JWT", "e.y.J"}};
  auto back =
      parse_profile(yaml, "written", [&env](const std::string& n) -> std::optional<std::string> {
        auto it = env.find(n);
        return it == env.end() ? std::nullopt : std::optional<std::string>(it->second);
      });
  ASSERT_TRUE(back.ok()) << yaml;
  const target& r = *back.value;
  EXPECT_EQ(r.base_url.to_string(), t.base_url.to_string());
  ASSERT_EQ(r.tenants.size(), 2u);
  EXPECT_EQ(r.tenants[0].fixtures, t.tenants[0].fixtures);
  ASSERT_EQ(r.credentials.size(), 2u);
  EXPECT_EQ(r.credentials[0].kind, "tenant_key");
  EXPECT_EQ(r.credentials[0].scopes, key.scopes);
  EXPECT_EQ(r.credentials[0].home()->id, "101");
  EXPECT_EQ(r.credentials[0].value.env_name(), "TENANT_KEY");
  EXPECT_EQ(r.credentials[1].role, "member");
  EXPECT_FALSE(r.credentials[1].scopes);
  ASSERT_EQ(r.credentials[1].tenants.size(), 2u);
  EXPECT_EQ(r.credentials[1].tenants[1]->id, "102");
}

TEST(target, adding_tenants_keeps_every_credentials_tenants) {
  target t;
  t.tenants = {tenant{"a", "1", {}, {}}};
  credential c;
  c.name = "c";
  c.tenants = {&t.tenants[0]};
  t.credentials = {c};
  for (int i = 2; i < 40; ++i)
    t.add_tenant(tenant{"t" + std::to_string(i), std::to_string(i), {}, {}});
  EXPECT_EQ(t.credentials[0].home(), &t.tenants[0]);
  target copy = t.clone();
  EXPECT_EQ(copy.credentials[0].home(), &copy.tenants[0]);
  EXPECT_EQ(&t.add_tenant(tenant{"again", "1", {}, {}}), &t.tenants[0]);  // by id
}

}  // namespace
}  // namespace conform::profile
