// Descriptions as they are published, read as mainstream tools read them
// (issue 37): YAML merge keys sharing error responses (Swagger 2.0), `items`
// as a list (JSON Schema draft 4's tuple form), and a map of schemas given by
// `$ref` (`properties: {$ref: ...}`, as DigitalOcean writes). Each is read,
// and what it says is judged: a value the description forbids is invalid.

#include <gtest/gtest.h>

#include <unistd.h>

#include <boost/json/parse.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "openapi/loader.hpp"
#include "schema/validator.hpp"
#include "tests/openapi/support.hpp"

namespace conform::openapi {
namespace {

using test_support::messages;
using test_support::says;

/// A folder of description files, removed afterwards.
class files {
 public:
  explicit files(const std::map<std::string, std::string>& texts) {
    dir_ = std::filesystem::temp_directory_path() /
           ("conform-as-others-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
    for (const auto& [name, text] : texts) std::ofstream(dir_ / name) << text;
  }
  ~files() { std::filesystem::remove_all(dir_); }
  files(const files&) = delete;
  files& operator=(const files&) = delete;
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

 private:
  std::filesystem::path dir_;
};

const schema::schema& body_of(const api_spec& spec, const std::string& op_id, int status) {
  const operation* op = spec.find_operation(op_id);
  if (op == nullptr) throw std::runtime_error("no operation " + op_id);
  const response* r = op->find_response(status);
  if (r == nullptr) throw std::runtime_error(op_id + " has no " + std::to_string(status));
  const media_type* m = r->find("application/json");
  if (m == nullptr || m->schema == nullptr) throw std::runtime_error("no JSON body");
  return *m->schema;
}

bool valid(const schema::schema& s, const char* json) {
  return schema::is_valid(s, boost::json::parse(json));
}

// A Swagger 2.0 description as published: its error responses written once
// under an anchor and merged into each operation's `responses`.
const std::string merged_responses = R"(swagger: '2.0'
info: {title: Merge, version: '1'}
x-common-responses: &commonErrors
  '404':
    description: not found
    schema: {$ref: '#/definitions/Error'}
  '500':
    description: broken
    schema: {$ref: '#/definitions/Error'}
x-auth-responses: &authErrors
  '401': {description: who are you}
  '404': {description: hidden, schema: {type: string}}
produces: [application/json]
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        <<: *commonErrors
        '200':
          description: ok
          schema: {type: array, items: {type: string}}
        '500': {description: mine, schema: {type: integer}}
  /owners:
    get:
      operationId: listOwners
      responses:
        <<: [*commonErrors, *authErrors]
        '200': {description: ok, schema: {type: array, items: {type: string}}}
definitions:
  Error:
    type: object
    required: [code]
    properties: {code: {type: integer}}
)";

TEST(as_others_read, merge_keys_share_responses_as_yaml_loaders_read_them) {
  const files f({{"api.yaml", merged_responses}});
  const load_result r = load(f.path("api.yaml"));
  ASSERT_TRUE(r.ok()) << messages(r);
  EXPECT_FALSE(says(r, "'<<'")) << messages(r);
  const api_spec& spec = *r.spec;
  const operation& pets = *spec.find_operation("listPets");
  EXPECT_EQ(pets.responses.size(), 3u);
  // Merged: the 404 judges by the shared Error schema.
  EXPECT_TRUE(valid(body_of(spec, "listPets", 404), R"({"code": 404})"));
  EXPECT_FALSE(valid(body_of(spec, "listPets", 404), R"({"code": "missing"})"));
  // Written in the operation: its own 500 wins over the merged one.
  EXPECT_TRUE(valid(body_of(spec, "listPets", 500), "7"));
  EXPECT_FALSE(valid(body_of(spec, "listPets", 500), R"({"code": 500})"));
  // Merged from a list: the first mapping that has a status wins.
  const operation& owners = *spec.find_operation("listOwners");
  EXPECT_NE(owners.find_response(401), nullptr);
  EXPECT_TRUE(valid(body_of(spec, "listOwners", 404), R"({"code": 404})"));
  EXPECT_FALSE(valid(body_of(spec, "listOwners", 404), R"("hidden")"));
}

TEST(as_others_read, a_merge_key_of_no_mapping_is_one_error_where_it_stands) {
  std::string broken = merged_responses;
  const std::string anchor = "x-common-responses: &commonErrors";
  broken.replace(broken.find(anchor), anchor.size(), anchor + " none\nx-old:");
  const files f({{"api.yaml", broken}});
  const load_result r = load(f.path("api.yaml"));
  ASSERT_FALSE(r.ok());
  ASSERT_EQ(r.diagnostics.size(), 1u) << messages(r);
  EXPECT_TRUE(says(r,
                   "api.yaml:20:13: error: a merge key '<<' takes a mapping or a list of "
                   "mappings"))
      << messages(r);
}

const std::string tuples = R"(openapi: 3.0.3
info: {title: Tuples, version: '1'}
paths:
  /point:
    get:
      operationId: getPoint
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  closed:
                    type: array
                    items: [{type: string}, {type: integer}]
                    additionalItems: false
                  open:
                    type: array
                    items: [{type: string}]
                  typed:
                    type: array
                    additionalItems: {type: boolean}
                    items: [{type: string}]
                  plain:
                    type: array
                    items: {type: string}
                    additionalItems: false
)";

TEST(as_others_read, tuple_items_are_judged_position_by_position) {
  const files f({{"api.yaml", tuples}});
  const load_result r = load(f.path("api.yaml"));
  ASSERT_TRUE(r.ok()) << messages(r);
  // Each list of two or more schemas is said to be read as a tuple, as a
  // note (a list of the kinds an item may be was anyOf's, on PowerDNS).
  for (const auto& d : r.diagnostics) {
    EXPECT_EQ(d.level, core::severity::note) << messages(r);
    EXPECT_NE(d.message.find("items is a list: read as JSON Schema draft 4 reads it"),
              std::string::npos)
        << d.message;
  }
  EXPECT_FALSE(r.diagnostics.empty());
  const schema::schema& body = body_of(*r.spec, "getPoint", 200);
  const schema::schema& closed = body.property("closed")->resolved();
  ASSERT_EQ(closed.prefix_items.size(), 2u);
  EXPECT_TRUE(valid(closed, R"(["a", 1])"));
  EXPECT_TRUE(valid(closed, R"(["a"])"));            // positions past the array are not required
  EXPECT_FALSE(valid(closed, R"([1, "a"])"));        // each position by its own schema
  EXPECT_FALSE(valid(closed, R"(["a", 1, true])"));  // additionalItems: false
  const schema::schema& open = body.property("open")->resolved();
  EXPECT_TRUE(valid(open, R"(["a", 1, {}])"));  // no additionalItems: anything past them
  EXPECT_FALSE(valid(open, R"([1])"));
  const schema::schema& typed = body.property("typed")->resolved();
  EXPECT_TRUE(valid(typed, R"(["a", true, false])"));
  EXPECT_FALSE(valid(typed, R"(["a", true, "b"])"));
  // Beside `items` as one schema, additionalItems means nothing (draft 4).
  const schema::schema& plain = body.property("plain")->resolved();
  EXPECT_TRUE(valid(plain, R"(["a", "b", "c"])"));
  EXPECT_FALSE(valid(plain, R"(["a", 1])"));
  // The error a response would get names the position.
  const auto v = schema::validate(closed, boost::json::parse(R"(["a", "b"])"));
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.errors.front().instance_pointer, "/1");
}

const std::string fields_by_ref = R"(openapi: 3.0.3
info: {title: Fields, version: '1'}
paths:
  /droplets:
    get:
      operationId: getDroplet
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/droplet'}
  /volumes:
    get:
      operationId: getVolume
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                required: [size]
                properties:
                  $ref: '#/components/x-volume-fields'
                  size: {type: integer, minimum: 1}
  /images:
    get:
      operationId: getImage
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: 'schemas.yml#/image'}
components:
  x-volume-fields:
    name: {type: string}
    size: {type: string}
  schemas:
    droplet:
      type: object
      required: [id]
      properties:
        $ref: './fields.yml'
)";

const std::string fields_file = R"(id: {type: integer}
name: {type: string, maxLength: 8}
)";

const std::string schemas_file = R"(image:
  type: object
  properties: {$ref: '#/fields'}
fields:
  slug: {type: string, pattern: '^[a-z]+$'}
)";

TEST(as_others_read, a_map_of_schemas_given_by_ref_is_read_where_it_points) {
  const files f(
      {{"api.yaml", fields_by_ref}, {"fields.yml", fields_file}, {"schemas.yml", schemas_file}});
  const load_result r = load(f.path("api.yaml"));
  ASSERT_TRUE(r.ok()) << messages(r);
  // Followed as bundlers do, and said once: other tools may not.
  EXPECT_TRUE(says(r,
                   "$ref(s) where OpenAPI allows none (the first: the properties of "
                   "#/components/schemas/droplet)"))
      << messages(r);
  const schema::schema& droplet = body_of(*r.spec, "getDroplet", 200).resolved();
  ASSERT_EQ(droplet.properties.size(), 2u);
  EXPECT_TRUE(valid(droplet, R"({"id": 1, "name": "web"})"));
  EXPECT_FALSE(valid(droplet, R"({"id": "one"})"));
  EXPECT_FALSE(valid(droplet, R"({"id": 1, "name": "far-too-long"})"));
  EXPECT_FALSE(valid(droplet, R"({"name": "web"})"));  // required id
  // In the same file; a property written beside the $ref wins over its own.
  const schema::schema& volume = body_of(*r.spec, "getVolume", 200).resolved();
  EXPECT_TRUE(valid(volume, R"({"name": "v", "size": 3})"));
  EXPECT_FALSE(valid(volume, R"({"name": "v", "size": "3"})"));
  EXPECT_FALSE(valid(volume, R"({"name": 1, "size": 3})"));
  // In a file a $ref led to, relative to that file.
  const schema::schema& image = body_of(*r.spec, "getImage", 200).resolved();
  EXPECT_TRUE(valid(image, R"({"slug": "ubuntu"})"));
  EXPECT_FALSE(valid(image, R"({"slug": "Ubuntu 22"})"));
}

TEST(as_others_read, a_map_of_schemas_by_a_dangling_ref_is_an_error_at_the_ref) {
  std::string broken = fields_by_ref;
  broken.replace(broken.find("./fields.yml"), 12, "./fields.yml#/nothing");
  const files f({{"api.yaml", broken}, {"fields.yml", fields_file}, {"schemas.yml", schemas_file}});
  const load_result r = load(f.path("api.yaml"));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(says(r, "api.yaml:45:15: error: dangling $ref: '")) << messages(r);
  EXPECT_TRUE(says(r, "fields.yml' has nothing at '#/nothing'")) << messages(r);
  EXPECT_FALSE(says(r, "must be a mapping")) << messages(r);
}

// `components.schemas` itself in another file: its schemas are read there,
// and `#/components/schemas/X` leads there too.
TEST(as_others_read, components_schemas_given_by_ref_are_read_where_they_are) {
  const std::string api = R"(openapi: 3.0.3
info: {title: Split, version: '1'}
paths:
  /pets:
    get:
      operationId: getPet
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Pet'}
components:
  schemas: {$ref: 'all.yml'}
)";
  const std::string all = R"(Pet:
  type: object
  required: [id]
  properties: {id: {type: integer}}
Unused: {type: string, minLength: 3}
)";
  const files f({{"api.yaml", api}, {"all.yml", all}});
  const load_result r = load(f.path("api.yaml"));
  ASSERT_TRUE(r.ok()) << messages(r);
  EXPECT_TRUE(says(r, "the first: components.schemas")) << messages(r);
  const schema::schema& pet = body_of(*r.spec, "getPet", 200).resolved();
  EXPECT_TRUE(valid(pet, R"({"id": 1})"));
  EXPECT_FALSE(valid(pet, R"({"id": "1"})"));
  EXPECT_EQ(pet.pos.file.substr(pet.pos.file.size() - 7), "all.yml");
}

// What the model does not keep is a limitation, said once, and blames
// nothing else: beside patternProperties, additionalProperties: false would
// call a property a pattern admits "additional".
TEST(as_others_read, a_keyword_not_judged_is_a_note_and_blames_nothing_else) {
  const std::string api = R"(openapi: 3.0.3
info: {title: Labels, version: '1'}
paths:
  /labels:
    get:
      operationId: getLabels
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties: {count: {type: integer}}
                patternProperties: {'^x-': {type: string}}
                additionalProperties: false
                propertyNames: {maxLength: 20}
  /closed:
    get:
      operationId: getClosed
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties: {count: {type: integer}}
                additionalProperties: false
)";
  const files f({{"api.yaml", api}});
  const load_result r = load(f.path("api.yaml"));
  ASSERT_TRUE(r.ok()) << messages(r);
  EXPECT_TRUE(says(r,
                   "api.yaml:15:17: note: 'patternProperties' is not judged (a limitation of "
                   "Conform; 1 schema(s) use it, the first here)"))
      << messages(r);
  EXPECT_TRUE(says(r, "beside it, additionalProperties is not judged either")) << messages(r);
  EXPECT_TRUE(says(r, "api.yaml:17:17: note: 'propertyNames' is not judged")) << messages(r);
  const schema::schema& labels = body_of(*r.spec, "getLabels", 200).resolved();
  EXPECT_TRUE(valid(labels, R"({"count": 1, "x-team": "voice"})"));
  EXPECT_FALSE(valid(labels, R"({"count": "one"})"));  // what is kept is still judged
  // Without patternProperties, additionalProperties: false holds.
  const schema::schema& closed = body_of(*r.spec, "getClosed", 200).resolved();
  EXPECT_FALSE(valid(closed, R"({"count": 1, "x-team": "voice"})"));
}

}  // namespace
}  // namespace conform::openapi
