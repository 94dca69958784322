// How a credential goes on a request for every scheme type, how it is chosen
// for a scheme named by key, and that every form of it is redacted.
#include <gtest/gtest.h>

#include "harness/auth.hpp"
#include "http/curl.hpp"
#include "openapi/loader.hpp"
#include "profile/loader.hpp"

namespace conform::harness {
namespace {

std::optional<std::string> no_env(const std::string&) {
  return std::nullopt;
}

struct fixture {
  openapi::api_spec spec;
  profile::target target;
};

fixture make() {
  auto s = openapi::load(std::string(CONFORM_TEST_DATA_DIR) +
                         "/../../openapi/data/generic/schemes.yaml");
  EXPECT_TRUE(s.ok());
  auto p = profile::parse_profile(
      "base_url: http://127.0.0.1:1/\ncredentials:\n"
      "  - { name: oauth, scheme: petstore_auth, value: oauth-token-1, scopes: ['read:pets'] }\n"
      "  - { name: basic, scheme: basicAuth, value: 'ann:pa ss' }\n"
      "  - { name: query, scheme: queryKey, value: 'q k/1' }\n"
      "  - { name: cookie, scheme: cookieKey, value: cookie-secret }\n",
      "p.yaml", no_env);
  EXPECT_TRUE(p.ok());
  fixture f{std::move(*s.spec), std::move(*p.value)};
  EXPECT_TRUE(profile::bind(f.target, f.spec).empty());
  return f;
}

const profile::credential& named(const profile::target& t, const std::string& name) {
  for (const auto& c : t.credentials) {
    if (c.name == name) return c;
  }
  throw std::out_of_range(name);
}

TEST(auth_kinds, each_scheme_type_carries_its_credential_its_own_way) {
  const fixture f = make();
  http::request req;
  req.target = "/pets/1";
  apply_credential(req, *f.spec.find_scheme("petstore_auth"), named(f.target, "oauth"));
  apply_credential(req, *f.spec.find_scheme("basicAuth"), named(f.target, "basic"));
  apply_credential(req, *f.spec.find_scheme("queryKey"), named(f.target, "query"));
  apply_credential(req, *f.spec.find_scheme("cookieKey"), named(f.target, "cookie"));
  EXPECT_EQ(req.target, "/pets/1?api_key=q%20k%2F1");
  std::vector<std::string> auth;
  for (const auto& h : req.headers) {
    if (h.first == "Authorization") auth.push_back(h.second);
  }
  EXPECT_EQ(auth, (std::vector<std::string>{"Bearer oauth-token-1", "Basic YW5uOnBhIHNz"}));
  ASSERT_NE(req.find_header("Cookie"), nullptr);
  EXPECT_EQ(*req.find_header("Cookie"), "session=cookie-secret");
}

TEST(auth_kinds, no_form_of_a_secret_is_printed) {
  const fixture f = make();
  http::request req;
  req.target = "/pets/1";
  apply_credential(req, *f.spec.find_scheme("basicAuth"), named(f.target, "basic"));
  apply_credential(req, *f.spec.find_scheme("queryKey"), named(f.target, "query"));
  const std::string curl = http::to_curl(req, f.target.base_url, make_redactor(f.target));
  EXPECT_EQ(curl.find("YW5uOnBhIHNz"), std::string::npos) << curl;
  EXPECT_EQ(curl.find("q%20k"), std::string::npos) << curl;
  const std::string echoed = redact_credentials(f.target, "bad YW5uOnBhIHNz and q%20k%2F1");
  EXPECT_EQ(echoed.find("YW5u"), std::string::npos) << echoed;
  EXPECT_EQ(echoed.find("q%20k"), std::string::npos) << echoed;
}

TEST(auth_kinds, a_credential_naming_a_scheme_is_chosen_for_it_only) {
  const fixture f = make();
  const credential_selector selector(f.spec, f.target);
  const auto* op = f.spec.find_operation("get_pets_id");
  ASSERT_NE(op, nullptr);
  const auto models = selector.auth_models(*op);
  ASSERT_EQ(models.size(), 3u);
  EXPECT_EQ(models[0].model.name, "petstore_auth");
  EXPECT_EQ(models[0].model.credential_name, "oauth");
  EXPECT_EQ(models[1].model.credential_name, "basic");
  EXPECT_EQ(models[2].model.credential_name, "query");
  // Digest needs a challenge round trip: said, never guessed.
  const auto stores = selector.auth_models(*f.spec.find_operation("post_stores"));
  ASSERT_EQ(stores.size(), 5u);
  EXPECT_EQ(stores[0].model.credential_name, "cookie");
  EXPECT_EQ(stores[4].model.name, "digestAuth");
  ASSERT_TRUE(stores[4].not_run_why.has_value());
  EXPECT_NE(stores[4].not_run_why->find("http digest"), std::string::npos);
}

}  // namespace
}  // namespace conform::harness
