// A request body whose array is written in the tuple form of JSON Schema
// draft 4 (`items: [...]`, `additionalItems`), as Swagger 2.0 and OpenAPI
// 3.0 descriptions write it (issue 37): valid requests draw each position
// by its own schema, and invalid ones break what the tuple says.

#include "tests/generators/rc_support.hpp"

#include <unistd.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <filesystem>
#include <fstream>

#include "generators/request.hpp"
#include "openapi/loader.hpp"
#include "schema/validator.hpp"

namespace conform::generators {
namespace {

const char* const tuple_description = R"(openapi: 3.0.3
info: {title: Tuples, version: '1'}
paths:
  /points:
    post:
      operationId: addPoint
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [at]
              additionalProperties: false
              properties:
                at:
                  type: array
                  minItems: 2
                  items: [{type: string, enum: [lat, lon]}, {type: integer, minimum: 0}]
                  additionalItems: false
      responses:
        '201': {description: added}
)";

openapi::load_result load_tuples() {
  const auto file = std::filesystem::temp_directory_path() /
                    ("conform-tuples-" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(file) << tuple_description;
  openapi::load_result r = openapi::load(file);
  std::filesystem::remove(file);
  return r;
}

TEST(tuple_items, valid_requests_draw_each_position_by_its_schema) {
  const auto loaded = load_tuples();
  ASSERT_TRUE(loaded.ok());
  const openapi::operation& op = *loaded.spec->find_operation("addPoint");
  const schema::schema& body = *op.body->content.front().schema;
  const auto valid =
      valid_request(op, [](const openapi::parameter&) { return std::optional<std::string>(); });
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    const generated_request r = valid(rc::Random(seed), static_cast<int>(seed)).value();
    const auto v = boost::json::parse(r.body);
    EXPECT_TRUE(schema::is_valid(body, v)) << r.body;
    const auto& at = v.at("at").as_array();
    ASSERT_EQ(at.size(), 2u) << r.body;
    EXPECT_TRUE(at[0].is_string()) << r.body;
    EXPECT_TRUE(at[1].is_int64() || at[1].is_uint64()) << r.body;
  }
  const auto invalid =
      invalid_request(op, [](const openapi::parameter&) { return std::optional<std::string>(); });
  ASSERT_TRUE(invalid.has_value());
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    const generated_request r = (*invalid)(rc::Random(seed), 50).value();
    if (r.content_type != "application/json") continue;
    boost::system::error_code ec;
    const auto v = boost::json::parse(r.body, ec);
    if (ec) continue;  // a body that is not JSON is invalid anyway
    EXPECT_FALSE(schema::is_valid(body, v)) << r.body;
  }
}

}  // namespace
}  // namespace conform::generators
