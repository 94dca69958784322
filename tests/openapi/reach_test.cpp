// What issue 23 made loadable: OpenAPI 3.2 (QUERY and additionalOperations,
// in: querystring, itemSchema, the new security fields, $self), mutualTLS
// schemes, and $ref wherever a JSON Reference stands (an operation given by
// $ref, as DigitalOcean writes it). Each with the defects the loader must
// refuse, said where they are.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "openapi/loader.hpp"
#include "tests/openapi/support.hpp"

namespace conform::openapi {
namespace {

using test_support::messages;
using test_support::says;

const std::string data_dir = std::string(CONFORM_TEST_DATA_DIR) + "/";

std::size_t count(const load_result& r, core::severity level) {
  return static_cast<std::size_t>(std::count_if(r.diagnostics.begin(), r.diagnostics.end(),
                                                [&](const auto& d) { return d.level == level; }));
}

/// A description written to a scratch folder (with `files` beside it).
class scratch {
 public:
  scratch() {
    dir_ = std::filesystem::temp_directory_path() /
           ("conform-reach-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  ~scratch() { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }

 private:
  std::filesystem::path dir_;
};

// ---------------------------------------------------------------- OpenAPI 3.2

TEST(open_api32, the_fixture_loads_with_every_feature) {
  const auto r = load(data_dir + "v32/reports.yaml");
  ASSERT_TRUE(r.ok()) << messages(r);
  const api_spec& s = *r.spec;
  EXPECT_EQ(s.openapi_version, "3.2.0");
  EXPECT_EQ(s.self_uri, "https://api.example.test/openapi/reports.yaml");

  const operation* search = s.find_operation("searchReports");
  ASSERT_NE(search, nullptr);
  EXPECT_EQ(search->method, http::verb::unknown);
  EXPECT_EQ(search->method_name(), "QUERY");
  EXPECT_EQ(search->method_path(), "QUERY /reports/search");
  EXPECT_EQ(search->access, access_kind::read);  // QUERY is safe
  ASSERT_TRUE(search->body);
  // The absolute $ref under $self is this file's Filter.
  ASSERT_NE(search->body->content.at(0).schema, nullptr);
  EXPECT_EQ(search->body->content.at(0).schema->resolved().required,
            (std::vector<std::string>{"text"}));

  const operation* link = s.find_operation("linkReport");
  ASSERT_NE(link, nullptr);
  EXPECT_EQ(link->method_name(), "LINK");
  EXPECT_EQ(link->method, http::verb::link);  // Beast's own verb when it spells it alike
  ASSERT_EQ(link->security.size(), 1u);       // named by URI
  ASSERT_EQ(link->security[0].schemes.size(), 1u);
  EXPECT_EQ(link->security[0].schemes[0].scheme, s.find_scheme("apiKey"));
  EXPECT_NE(link->find_parameter("id", param_location::path), nullptr);

  const operation* list = s.find_operation("listReports");
  ASSERT_NE(list, nullptr);
  const parameter* filter = list->find_parameter("filter", param_location::querystring);
  ASSERT_NE(filter, nullptr);
  EXPECT_TRUE(filter->required);
  EXPECT_EQ(filter->content_media, "application/x-www-form-urlencoded");
  ASSERT_NE(filter->schema, nullptr);
  ASSERT_NE(list->find_response(200), nullptr);
  const media_type& lines = list->find_response(200)->content.at(0);
  EXPECT_EQ(lines.name, "application/jsonl");
  EXPECT_EQ(lines.schema, nullptr);
  ASSERT_NE(lines.item_schema, nullptr);  // from schemas.yaml, beside it
  EXPECT_EQ(lines.item_schema->resolved().required, (std::vector<std::string>{"id", "title"}));

  const operation* import = s.find_operation("importReports");
  ASSERT_NE(import, nullptr);
  ASSERT_TRUE(import->body);
  EXPECT_NE(import->body->content.at(0).item_schema, nullptr);

  EXPECT_TRUE(s.find_scheme("legacyKey")->deprecated);
  EXPECT_FALSE(s.find_scheme("apiKey")->deprecated);
  const auto* devices = s.find_scheme("devices");
  EXPECT_EQ(devices->oauth2_metadata_url,
            "https://auth.example.test/.well-known/oauth-authorization-server");
  EXPECT_EQ(devices->flow_scopes, (std::vector<std::string>{"reports:read"}));
}

TEST(open_api32, querystring_beside_query_parameters_is_refused) {
  scratch dir;
  const auto file = dir.write("q.yaml", R"(openapi: 3.2.0
info: { title: q, version: "1" }
paths:
  /a:
    parameters:
      - { name: page, in: query, schema: { type: integer } }
    get:
      parameters:
        - name: all
          in: querystring
          content: { application/json: { schema: { type: object } } }
      responses: { '200': { description: ok } }
)");
  const auto r = load(file);
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(says(r,
                   "q.yaml:6:9: error: operation GET /a: in: query parameter 'page' beside "
                   "the in: querystring parameter 'all'"))
      << messages(r);
}

TEST(open_api32, two_querystrings_and_a_schema_on_one_are_refused) {
  scratch dir;
  const auto file = dir.write("q.yaml", R"(openapi: 3.2.0
info: { title: q, version: "1" }
paths:
  /a:
    get:
      parameters:
        - name: one
          in: querystring
          content: { application/json: { schema: { type: object } } }
        - name: two
          in: querystring
          schema: { type: string }
      responses: { '200': { description: ok } }
)");
  const auto r = load(file);
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(says(r,
                   "q.yaml:12:19: error: parameter 'two': an in: querystring parameter takes "
                   "`content` (one media type), not `schema`"))
      << messages(r);
  EXPECT_TRUE(says(r,
                   "error: operation GET /a: a second in: querystring parameter ('two' after "
                   "'one')"))
      << messages(r);
}

TEST(open_api32, querystring_is_refused_in_3_1) {
  scratch dir;
  const auto file = dir.write("q.yaml", R"(openapi: 3.1.0
info: { title: q, version: "1" }
paths:
  /a:
    get:
      parameters:
        - name: all
          in: querystring
          content: { application/json: { schema: { type: object } } }
      responses: { '200': { description: ok } }
)");
  const auto r = load(file);
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(says(r,
                   "q.yaml:8:15: error: parameter 'all': in: querystring is OpenAPI 3.2; this "
                   "description is 3.1.0"))
      << messages(r);
}

TEST(open_api32, additional_operations_may_not_repeat_a_fixed_method) {
  scratch dir;
  const auto file = dir.write("a.yaml", R"(openapi: 3.2.0
info: { title: a, version: "1" }
paths:
  /a:
    additionalOperations:
      POST:
        responses: { '200': { description: ok } }
      'BAD METHOD':
        responses: { '200': { description: ok } }
      PURGE:
        operationId: purgeA
        responses: { '204': { description: gone } }
)");
  const auto r = load(file);
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(says(r,
                   "a.yaml:6:7: error: additionalOperations: 'POST' has a field of its own in "
                   "the Path Item ('post')"))
      << messages(r);
  EXPECT_TRUE(says(r,
                   "a.yaml:8:7: error: additionalOperations: 'BAD METHOD' is not an HTTP "
                   "method name"))
      << messages(r);
}

TEST(open_api32, query_and_additional_operations_are_ignored_before_3_2) {
  scratch dir;
  const auto file = dir.write("a.yaml", R"(openapi: 3.1.0
info: { title: a, version: "1" }
paths:
  /a:
    query:
      responses: { '200': { description: ok } }
    get:
      operationId: getA
      responses: { '200': { description: ok } }
)");
  const auto r = load(file);
  ASSERT_TRUE(r.ok()) << messages(r);
  EXPECT_EQ(r.spec->operations.size(), 1u);
}

TEST(open_api32, self_with_a_fragment_is_refused_and_a_remote_ref_says_it_is_not_fetched) {
  scratch dir;
  const auto file = dir.write("s.yaml", R"(openapi: 3.2.0
$self: https://example.test/api/s.yaml#top
info: { title: s, version: "1" }
paths:
  /a:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { $ref: 'https://elsewhere.test/schemas.yaml#/Thing' }
)");
  const auto r = load(file);
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(says(r,
                   "s.yaml:2:8: error: $self 'https://example.test/api/s.yaml#top' must not "
                   "have a fragment ('#')"))
      << messages(r);
  EXPECT_TRUE(says(r,
                   "s.yaml:12:31: error: $ref 'https://elsewhere.test/schemas.yaml' names a "
                   "remote document, which Conform does not fetch"))
      << messages(r);
}

TEST(open_api32, sequential_media_without_item_schema_loads_as_before) {
  scratch dir;
  const auto file = dir.write("l.yaml", R"(openapi: 3.1.0
info: { title: l, version: "1" }
paths:
  /a:
    get:
      responses:
        '200':
          description: ok
          content:
            application/jsonl:
              itemSchema: { type: object }
)");
  const auto r = load(file);
  ASSERT_TRUE(r.ok()) << messages(r);
  // itemSchema is 3.2's: a 3.1 description's is not read.
  EXPECT_EQ(r.spec->operations.at(0).responses.at(0).content.at(0).item_schema, nullptr);
}

// ------------------------------------------------------------------ mutualTLS

TEST(mutual_tls, a_scheme_loads_as_a_client_certificate_with_a_note) {
  const auto r = load(data_dir + "generic/mtls.yaml");
  ASSERT_TRUE(r.ok()) << messages(r);
  const auto* s = r.spec->find_scheme("clientCert");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, security_scheme::type::mutual_tls);
  EXPECT_EQ(s->credential, credential_kind::mutual_tls);
  EXPECT_EQ(s->header, "");
  EXPECT_TRUE(says(r,
                   "mtls.yaml:7:13: note: security scheme 'clientCert': mutualTLS, a client "
                   "certificate presented in the TLS handshake"))
      << messages(r);
  EXPECT_EQ(count(r, core::severity::error), 0u);
}

TEST(mutual_tls, the_mega_like_documents_load_in_3_1_and_3_2) {
  for (const char* file : {"generic/mtls_mega.yaml", "v32/mega_like.yaml"}) {
    const auto r = load(data_dir + file);
    ASSERT_TRUE(r.ok()) << file << "\n" << messages(r);
    EXPECT_EQ(count(r, core::severity::error), 0u) << file;
    EXPECT_EQ(r.spec->webhooks, (std::vector<std::string>{"myWebhook"})) << file;
  }
}

TEST(mutual_tls, the_security_scheme_examples_load_in_3_1_and_3_2) {
  for (const char* file : {"generic/security_examples31.yaml", "v32/security_examples.yaml"}) {
    const auto r = load(data_dir + file);
    ASSERT_TRUE(r.ok()) << file << "\n" << messages(r);
    const api_spec& s = *r.spec;
    EXPECT_EQ(s.find_scheme("mutualTLS")->kind, security_scheme::type::mutual_tls) << file;
    EXPECT_EQ(s.find_scheme("external"), nullptr) << file;  // a remote $ref: left out
    EXPECT_TRUE(says(r,
                     "security scheme 'external': its $ref "
                     "'https://example.com/api/openapi.json#/components/securitySchemes/"
                     "ThingScheme' names a remote document, which Conform does not fetch"))
        << messages(r);
  }
  const auto r = load(data_dir + "v32/security_examples.yaml");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r.spec->find_scheme("OAuth2Old")->deprecated);
  EXPECT_EQ(r.spec->find_scheme("OAuth2")->oauth2_metadata_url,
            "https://example.com/api/oauth/metadata");
}

TEST(mutual_tls, naming_an_unfollowed_scheme_says_why) {
  scratch dir;
  const auto file = dir.write("u.yaml", R"(openapi: 3.1.0
info: { title: u, version: "1" }
security:
  - remote: []
paths: {}
components:
  securitySchemes:
    remote: { $ref: 'https://example.com/openapi.json#/components/securitySchemes/x' }
)");
  const auto r = load(file);
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(says(r,
                   "u.yaml:4:5: error: security names scheme 'remote', whose $ref Conform "
                   "could not follow"))
      << messages(r);
}

// ------------------------------------------------------- $ref where it stands

TEST(operation_ref, a_digital_ocean_style_description_loads) {
  const auto r = load(data_dir + "op_ref/openapi.yaml");
  ASSERT_TRUE(r.ok()) << messages(r);
  const api_spec& s = *r.spec;
  ASSERT_EQ(s.operations.size(), 4u) << messages(r);
  const operation* get = s.find_operation("droplets_get");
  ASSERT_NE(get, nullptr);
  EXPECT_EQ(get->method_path(), "GET /v2/droplets/{droplet_id}");
  EXPECT_NE(get->find_parameter("droplet_id", param_location::path), nullptr);
  EXPECT_EQ(get->tags, (std::vector<std::string>{"Droplets"}));
  ASSERT_NE(get->find_response(200), nullptr);
  EXPECT_NE(get->find_response(200)->content.at(0).schema, nullptr);
  const operation* list = s.find_operation("droplets_list");
  ASSERT_NE(list, nullptr);
  EXPECT_NE(list->find_parameter("per_page", param_location::query), nullptr);
  // Its own security, naming the root's scheme from another file.
  EXPECT_EQ(list->scopes_for(*s.find_scheme("bearer_auth")),
            (std::vector<std::string>{"droplet:read"}));
  const operation* create = s.find_operation("droplets_create");
  ASSERT_TRUE(create && create->body);
  // Said once, at the first such reference, not once per operation.
  const std::string m = messages(r);
  EXPECT_TRUE(says(r,
                   "openapi.yaml:13:13: note: this description uses 4 $ref(s) where OpenAPI "
                   "allows none (the first: an Operation Object (GET /v2/droplets))"))
      << m;
  EXPECT_EQ(m.find("where OpenAPI allows none"), m.rfind("where OpenAPI allows none")) << m;
}

TEST(operation_ref, an_unresolved_reference_is_said_there_and_no_symptom_follows) {
  const auto r = load(data_dir + "op_ref/broken.yaml");
  EXPECT_FALSE(r.ok());
  const std::string m = messages(r);
  EXPECT_TRUE(says(r, "broken.yaml:12:13: error: cannot read '")) << m;
  EXPECT_TRUE(says(r, "resources/droplets/no_such_file.yml': No such file or directory")) << m;
  EXPECT_TRUE(says(r, "broken.yaml:17:17: error: dangling $ref: '")) << m;
  EXPECT_TRUE(says(r, "resources/droplets/parameters.yml' has nothing at '#/no_such_parameter'"))
      << m;
  // Neither operation reports the path parameter the lost parts would have defined.
  EXPECT_EQ(m.find("has no definition"), std::string::npos) << m;
  EXPECT_EQ(count(r, core::severity::error), 2u) << m;
}

TEST(operation_ref, whole_parameter_lists_responses_and_content_may_be_references) {
  scratch dir;
  dir.write("parts.yaml", R"(params:
  - { name: id, in: path, required: true, schema: { type: integer } }
responses:
  '200':
    description: ok
    content: { $ref: '#/content' }
content:
  application/json: { schema: { type: object } }
)");
  const auto file = dir.write("w.yaml", R"(openapi: 3.0.3
info: { title: w, version: "1" }
paths:
  /a/{id}:
    get:
      operationId: getA
      parameters: { $ref: 'parts.yaml#/params' }
      responses: { $ref: 'parts.yaml#/responses' }
)");
  const auto r = load(file);
  ASSERT_TRUE(r.ok()) << messages(r);
  const operation& op = r.spec->operations.at(0);
  EXPECT_NE(op.find_parameter("id", param_location::path), nullptr);
  ASSERT_NE(op.find_response(200), nullptr);
  ASSERT_EQ(op.find_response(200)->content.size(), 1u);
  EXPECT_TRUE(says(r, "uses 3 $ref(s) where OpenAPI allows none (the first: a parameters list)"))
      << messages(r);
}

}  // namespace
}  // namespace conform::openapi
