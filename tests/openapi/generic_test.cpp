// Descriptions as published, with none of our x- extensions: every scheme
// type, made-up operation ids and families, Path Items by $ref, 3.1
// shapes, Swagger 2.0, and the public examples of the OpenAPI Initiative.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "openapi/loader.hpp"
#include "tests/openapi/support.hpp"

namespace conform::openapi {
namespace {

using test_support::messages;
using test_support::says;

const std::string generic_data = std::string(CONFORM_TEST_DATA_DIR) + "/generic/";
const std::string examples = std::string(CONFORM_OAI_EXAMPLES_DIR) + "/";

TEST(generic_spec, every_scheme_type_loads_with_the_kind_its_type_says) {
  const auto r = load(generic_data + "schemes.yaml");
  ASSERT_TRUE(r.ok()) << messages(r);
  const api_spec& s = *r.spec;
  using type = security_scheme::type;
  const auto* oauth = s.find_scheme("petstore_auth");
  ASSERT_NE(oauth, nullptr);
  EXPECT_EQ(oauth->kind, type::http_bearer);
  EXPECT_EQ(oauth->credential, credential_kind::bearer);
  EXPECT_FALSE(oauth->is_jwt());
  EXPECT_EQ(oauth->flow_scopes, (std::vector<std::string>{"read:pets", "write:pets", "admin"}));
  EXPECT_EQ(oauth->label(), "petstore_auth");
  EXPECT_EQ(s.find_scheme("basicAuth")->kind, type::http_basic);
  EXPECT_EQ(s.find_scheme("digestAuth")->kind, type::http_digest);
  EXPECT_EQ(s.find_scheme("queryKey")->kind, type::api_key_query);
  EXPECT_EQ(s.find_scheme("queryKey")->param, "api_key");
  EXPECT_EQ(s.find_scheme("cookieKey")->kind, type::api_key_cookie);
  EXPECT_EQ(s.find_scheme("cookieKey")->header, "Cookie");
  EXPECT_TRUE(s.find_scheme("jwtBearer")->is_jwt());  // bearerFormat: JWT says so
  EXPECT_FALSE(s.find_scheme("bearerOpaque")->is_jwt());
  EXPECT_EQ(s.find_scheme("oidc")->kind, type::http_bearer);
  EXPECT_FALSE(s.find_scheme("oidc")->is_jwt());
}

TEST(generic_spec, ids_and_families_are_made_up_when_absent_and_said) {
  const auto r = load(generic_data + "schemes.yaml");
  ASSERT_TRUE(r.ok()) << messages(r);
  const auto* pets = r.spec->find_operation("get_pets_id");
  ASSERT_NE(pets, nullptr) << messages(r);
  EXPECT_TRUE(pets->synthesised_id);
  EXPECT_EQ(pets->family, "animals");  // the first tag
  const auto* stores = r.spec->find_operation("post_stores");
  ASSERT_NE(stores, nullptr);
  EXPECT_EQ(stores->family, "stores");  // the first path segment
  EXPECT_TRUE(says(r,
                   "schemes.yaml:5:5: note: operation GET /pets/{id} has no operationId; "
                   "Conform calls it 'get_pets_id'"))
      << messages(r);
}

TEST(generic_spec, made_up_ids_are_unique_and_stable) {
  const auto r = load(generic_data + "same_ids.yaml");
  ASSERT_TRUE(r.ok()) << messages(r);
  std::vector<std::string> ids;
  for (const auto& op : r.spec->operations) ids.push_back(op.operation_id);
  EXPECT_EQ(ids, (std::vector<std::string>{"get_a_b", "get_a_b_3", "get_a_b_2"}));
  const auto again = load(generic_data + "same_ids.yaml");
  for (std::size_t i = 0; i < ids.size(); ++i) {
    EXPECT_EQ(again.spec->operations[i].operation_id, ids[i]);
  }
}

TEST(generic_spec, path_items_by_ref_are_followed_in_components_and_other_files) {
  const auto r = load(generic_data + "path_item_ref.yaml");
  ASSERT_TRUE(r.ok()) << messages(r);
  const api_spec& s = *r.spec;
  ASSERT_EQ(s.operations.size(), 3u) << messages(r);
  const auto* list = s.find_operation("listPets");
  ASSERT_NE(list, nullptr);
  EXPECT_EQ(list->path, "/pets");
  ASSERT_NE(list->find_response(200), nullptr);
  EXPECT_NE(list->find_response(200)->content.at(0).schema, nullptr);
  const auto* owner = s.find_operation("get_owners_id");
  ASSERT_NE(owner, nullptr) << messages(r);
  EXPECT_NE(owner->find_parameter("id", param_location::path), nullptr);   // path-level
  EXPECT_NE(owner->pos.file.find("other_items.yaml"), std::string::npos);  // where it is written
  // 3.1: an operation may leave `responses` out.
  const auto* del = s.find_operation("deleteOwner");
  ASSERT_NE(del, nullptr);
  EXPECT_TRUE(del->responses.empty());
}

TEST(generic_spec, a_dangling_path_item_ref_is_an_error_never_a_drop) {
  const auto r = load(generic_data + "dangling_path_item.yaml");
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(says(r, "dangling_path_item.yaml:5:11: error: dangling $ref")) << messages(r);
}

TEST(generic_spec, only_components_or_webhooks_loads_with_no_operations) {
  const auto r = load(generic_data + "components_only31.yaml");
  ASSERT_TRUE(r.ok()) << messages(r);
  EXPECT_TRUE(r.spec->operations.empty());
  EXPECT_TRUE(says(r, "note: no operations")) << messages(r);
}

TEST(generic_spec, swagger2_is_converted_on_load) {
  const auto r = load(generic_data + "swagger2.yaml");
  ASSERT_TRUE(r.ok()) << messages(r);
  EXPECT_TRUE(says(r, "swagger2.yaml:1:10: note: a Swagger 2.0 description, converted"));
  const api_spec& s = *r.spec;
  ASSERT_EQ(s.servers.size(), 1u);
  EXPECT_EQ(s.servers[0].url, "https://api.example.com/v2");
  EXPECT_EQ(s.find_scheme("basicAuth")->kind, security_scheme::type::http_basic);
  EXPECT_EQ(s.find_scheme("key")->kind, security_scheme::type::api_key_header);
  EXPECT_EQ(s.find_scheme("oauth")->flow_scopes,
            (std::vector<std::string>{"pets:read", "pets:write"}));
  const auto* list = s.find_operation("listPets");
  ASSERT_NE(list, nullptr);
  const auto* limit = list->find_parameter("limit", param_location::query);
  ASSERT_NE(limit, nullptr);  // a shared parameter, its type moved into a schema
  ASSERT_NE(limit->schema, nullptr);
  ASSERT_NE(list->find_parameter("tags", param_location::query), nullptr);
  ASSERT_NE(list->find_response(200), nullptr);
  ASSERT_EQ(list->find_response(200)->content.size(), 1u);
  EXPECT_EQ(list->find_response(200)->content[0].name, "application/json");
  EXPECT_EQ(list->find_response(200)->headers.at(0).name, "X-Rate-Limit");
  const auto* add = s.find_operation("addPet");
  ASSERT_TRUE(add->body.has_value());  // the body parameter
  EXPECT_TRUE(add->body->required);
  EXPECT_NE(add->body->find("application/json"), nullptr);
  const auto* photo = s.find_operation("uploadPhoto");
  ASSERT_TRUE(photo->body.has_value());  // formData with a file: multipart
  EXPECT_NE(photo->body->find("multipart/form-data"), nullptr);
  EXPECT_TRUE(photo->body->required);
}

/// The media types of `id`'s request body, in order.
std::vector<std::string> body_media(const api_spec& s, const std::string& id) {
  std::vector<std::string> out;
  const auto* op = s.find_operation(id);
  if (op == nullptr || !op->body) return out;
  for (const auto& m : op->body->content) out.push_back(m.name);
  return out;
}

// Swagger 2.0, Parameter Object: form parameters travel urlencoded, or as
// multipart/form-data (the only type that carries a file), as `consumes`
// says; without it, by whether a field is a file. Never as JSON.
TEST(generic_spec, swagger2_form_parameters_follow_consumes_and_file) {
  const auto r = load(generic_data + "swagger2_forms.yaml");
  ASSERT_TRUE(r.ok()) << messages(r);
  const api_spec& s = *r.spec;
  using v = std::vector<std::string>;
  EXPECT_EQ(body_media(s, "plainForm"), v{"application/x-www-form-urlencoded"});
  EXPECT_EQ(body_media(s, "fileForm"), v{"multipart/form-data"});
  EXPECT_EQ(body_media(s, "declaredForm"),
            (v{"multipart/form-data", "application/x-www-form-urlencoded"}));
  EXPECT_EQ(body_media(s, "jsonOnlyForm"), v{"application/x-www-form-urlencoded"});
  EXPECT_EQ(body_media(s, "pathLevelForm"), v{"application/x-www-form-urlencoded"});
  EXPECT_EQ(body_media(s, "sharedBody"), v{"application/json"});  // a body without consumes
  // The form's fields: its own, the shared one by $ref, and the path item's.
  const auto* plain =
      s.find_operation("plainForm")->body->find("application/x-www-form-urlencoded");
  ASSERT_NE(plain, nullptr);
  const auto& form = plain->schema->resolved();
  EXPECT_NE(form.property("name"), nullptr);
  EXPECT_NE(form.property("note"), nullptr);
  EXPECT_EQ(form.required, (std::vector<std::string>{"name"}));
  // collectionFormat multi: each item a field of its own.
  ASSERT_TRUE(plain->encoding.count("tags"));
  EXPECT_EQ(plain->encoding.at("tags").explode, std::optional<bool>(true));
  const auto* file = s.find_operation("fileForm")->body->find("multipart/form-data");
  EXPECT_EQ(file->schema->resolved().property("file")->resolved().format,
            std::optional<std::string>("binary"));
  const auto* level = s.find_operation("pathLevelForm");
  EXPECT_TRUE(level->body->required);
  EXPECT_NE(level->find_parameter("id", param_location::path), nullptr);
  EXPECT_NE(level->body->content.front().schema->resolved().property("reason"), nullptr);
  // A file answered: a binary string.
  const auto* download = s.find_operation("download")->find_response(200);
  ASSERT_NE(download, nullptr);
  EXPECT_EQ(download->content.at(0).schema->resolved().format,
            std::optional<std::string>("binary"));
}

// Overlays edit the document as given: a Swagger 2.0 description's own keys.
TEST(generic_spec, an_overlay_applies_to_a_swagger2_description_before_its_conversion) {
  load_options opts;
  opts.overlays.push_back(generic_data + "swagger2_forms.overlay.yaml");
  const auto r = load(generic_data + "swagger2_forms.yaml", opts);
  ASSERT_TRUE(r.ok()) << messages(r);
  EXPECT_FALSE(says(r, "selects nothing")) << messages(r);
  const auto& pet = r.spec->find_operation("sharedBody")->body->content.at(0).schema->resolved();
  ASSERT_NE(pet.property("tag"), nullptr);  // #/definitions/Pet, before it was moved
  EXPECT_EQ(pet.property("tag")->resolved().max_length, std::optional<std::uint64_t>(8));
  const auto& form = r.spec->find_operation("plainForm")->body->content.at(0).schema->resolved();
  EXPECT_EQ(form.property("name")->resolved().max_length, std::optional<std::uint64_t>(12));
}

// skip_invalid_operations: what the errors lie in is left out, the rest loads.
TEST(generic_spec, operations_with_errors_are_left_out_when_asked_and_said) {
  const std::string file = generic_data + "broken_parts.yaml";
  EXPECT_FALSE(load(file).ok());  // strict by default
  load_options opts;
  opts.skip_invalid_operations = true;
  const auto r = load(file, opts);
  ASSERT_TRUE(r.ok()) << messages(r);
  ASSERT_EQ(r.spec->operations.size(), 1u);
  EXPECT_EQ(r.spec->operations[0].operation_id, "good");
  std::map<std::string, std::string> why;  // what -> "line: message"
  for (const auto& p : r.skipped) {
    why[p.operation_id.empty() ? p.what : p.operation_id] =
        std::to_string(p.error.pos.line) + ": " + p.error.message;
  }
  std::string all;
  for (const auto& [k, v] : why) all += k + " -> " + v + "\n";
  // Its own error.
  EXPECT_EQ(why["ownError"].rfind("16: path parameter 'id' must have required: true", 0), 0u)
      << all;
  // A component it names through another: the component's error.
  EXPECT_EQ(why["usesBadSchema"].rfind("33: unknown type 'int'", 0), 0u) << all;
  EXPECT_EQ(why["#/components/schemas/Wrapper"].rfind("33: unknown type 'int'", 0), 0u) << all;
  EXPECT_TRUE(why.count("#/components/schemas/Bad")) << all;
  EXPECT_TRUE(why.count("#/components/schemas/Wrapper")) << all;
  // A scheme left out makes the operation that uses it fail on the next round.
  EXPECT_NE(why["usesBadScheme"].find("unknown scheme 'broken'"), std::string::npos) << all;
  EXPECT_TRUE(why.count("#/components/securitySchemes/broken")) << all;
  for (const auto& p : r.skipped) {
    EXPECT_EQ(p.operation, !p.operation_id.empty()) << p.what;
    EXPECT_EQ(p.error.pos.file, file) << p.what;
  }
}

TEST(generic_spec, an_error_outside_every_operation_still_fails_the_load) {
  const auto file = std::filesystem::temp_directory_path() / "conform-broken-root.yaml";
  {
    std::ofstream out(file);
    out << "openapi: 3.0.3\ninfo: { title: t, version: '1' }\nservers: 7\npaths:\n"
        << "  /a:\n    get:\n      parameters: [{ name: x, in: path, schema: {type: string} }]\n"
        << "      responses: { '204': { description: ok } }\n";
  }
  load_options opts;
  opts.skip_invalid_operations = true;
  const auto r = load(file, opts);
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(says(r, "servers")) << messages(r);
  std::filesystem::remove(file);
}

TEST(generic_spec, an_older_swagger_is_refused_in_one_line_saying_how_to_convert) {
  const auto r = load(generic_data + "swagger12.yaml");
  EXPECT_FALSE(r.ok());
  ASSERT_EQ(r.diagnostics.size(), 1u) << messages(r);
  EXPECT_TRUE(says(r, "this Swagger 1.2 description cannot be converted")) << messages(r);
  EXPECT_TRUE(says(r, "npx swagger2openapi")) << messages(r);
}

TEST(generic_spec, every_swagger2_example_is_converted) {
  namespace fs = std::filesystem;
  for (const auto* dir : {"v2.0/yaml", "v2.0/json"}) {
    for (const auto& e : fs::directory_iterator(examples + dir)) {
      const auto r = load(e.path());
      EXPECT_TRUE(r.ok()) << e.path() << "\n" << messages(r);
      if (!r.ok()) continue;
      // Every body travels as its `consumes` says (each example declares
      // application/json among them): JSON, never a form.
      for (const auto& op : r.spec->operations) {
        if (!op.body) continue;
        EXPECT_NE(op.body->find("application/json"), nullptr) << e.path() << " " << op.operation_id;
      }
    }
  }
  // petstore-separate $refs '../common/Error.yaml': outside the description's
  // folder, which Conform does not read unless told (docs/limits.md), and says so.
  const auto sep = load(examples + "v2.0/petstore-separate/spec/swagger.yaml");
  EXPECT_FALSE(sep.ok());
  for (const auto& d : sep.diagnostics) {
    if (d.level != core::severity::error) continue;
    EXPECT_NE(d.message.find("names a file outside the description's folder"), std::string::npos)
        << d.message;
    EXPECT_NE(d.message.find("--ref-root DIR"), std::string::npos) << d.message;
  }
  // --ref-root: the folder above both loads it whole.
  load_options wider;
  wider.ref_root = examples + "v2.0/petstore-separate";
  const auto whole = load(examples + "v2.0/petstore-separate/spec/swagger.yaml", wider);
  ASSERT_TRUE(whole.ok()) << messages(whole);
  EXPECT_FALSE(whole.spec->operations.empty());
  // NewPet requires `name`, which its allOf sibling Pet defines: no warning.
  EXPECT_FALSE(says(whole, "is not defined in properties")) << messages(whole);
  // ...and still nothing outside it.
  load_options narrow;
  narrow.ref_root = examples + "v2.0/petstore-separate/spec";
  EXPECT_FALSE(load(examples + "v2.0/petstore-separate/spec/swagger.yaml", narrow).ok());
}

TEST(generic_spec, a_required_property_an_all_of_sibling_defines_is_no_warning) {
  const auto r = load(generic_data + "all_of_required.yaml");
  ASSERT_TRUE(r.ok()) << messages(r);
  EXPECT_FALSE(says(r, "required property 'name'")) << messages(r);
  EXPECT_TRUE(says(r,
                   "all_of_required.yaml:29:22: warning: required property 'colour' is not "
                   "defined in properties"))
      << messages(r);
}

// 2.0 gives one schema for all of `produces`; 3.0 one per media type. The
// copies are made after the parse's bounds: they have a bound of their own.
TEST(generic_spec, a_swagger2_conversion_that_would_copy_too_much_is_refused) {
  std::string produces, properties;
  for (int i = 0; i < 1000; ++i) produces += (i ? ", " : "") + ("text/t" + std::to_string(i));
  for (int i = 0; i < 1100; ++i)
    properties += "              p" + std::to_string(i) + ": {type: string}\n";
  const auto file = std::filesystem::temp_directory_path() / "conform-swagger2-copies.yaml";
  {
    std::ofstream out(file);
    out << "swagger: '2.0'\ninfo: {title: t, version: '1'}\nproduces: [" << produces
        << "]\npaths:\n  /x:\n    get:\n      responses:\n        '200':\n"
        << "          description: ok\n          schema:\n            type: object\n"
        << "            properties:\n"
        << properties;
  }
  const auto r = load(file);
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(says(r, "the Swagger 2.0 conversion would copy more than 1000000 nodes"))
      << messages(r);
  std::filesystem::remove(file);
}

// Every 3.x example of the OpenAPI Initiative loads as published.
TEST(generic_spec, every_public_example_loads) {
  namespace fs = std::filesystem;
  std::size_t seen = 0;
  for (const auto* dir : {"v3.0", "v3.1"}) {
    for (const auto& e : fs::directory_iterator(examples + dir)) {
      const auto r = load(e.path());
      EXPECT_TRUE(r.ok()) << e.path() << "\n" << messages(r);
      ++seen;
    }
  }
  EXPECT_GE(seen, 14u);
  const auto hooks = load(examples + "v3.1/webhook-example.yaml");
  ASSERT_TRUE(hooks.ok());
  EXPECT_EQ(hooks.spec->webhooks, (std::vector<std::string>{"newPet"}));
  const auto pets = load(examples + "v3.0/petstore-expanded.yaml");
  ASSERT_TRUE(pets.ok());
  EXPECT_EQ(pets.spec->operations.size(), 4u);
}

}  // namespace
}  // namespace conform::openapi
