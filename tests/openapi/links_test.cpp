// Response links and examples, as the stateful phase reads them: each link
// with the operation it names (operationId, a local operationRef, a $ref to
// components/links), its parameters' expressions; a link naming no operation
// is a warning and is not followed; a parameter's example and examples in
// order. The shipped description's 25 links all name operations.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "openapi/loader.hpp"
#include "tests/openapi/support.hpp"

namespace conform::openapi {
namespace {

using test_support::messages;

TEST(links, each_form_names_its_operation_and_keeps_its_expressions) {
  const auto r = load(std::string(CONFORM_TEST_DATA_DIR) + "/links/links.yaml");
  ASSERT_TRUE(r.ok()) << messages(r);
  const auto* create = r.spec->find_operation("createItem");
  ASSERT_NE(create, nullptr);
  const auto& links = create->find_response(201)->links;
  ASSERT_EQ(links.size(), 4u) << messages(r);  // "Neither" is left out
  EXPECT_EQ(links[0].name, "ById");
  EXPECT_EQ(links[0].operation_id, "getItem");
  ASSERT_EQ(links[0].parameters.size(), 1u);
  EXPECT_EQ(links[0].parameters[0],
            (std::pair<std::string, std::string>{"id", "$response.body#/id"}));
  EXPECT_EQ(links[1].operation_id, "getItem");  // from operationRef
  EXPECT_EQ(links[1].parameters[0].first, "path.id");
  EXPECT_EQ(links[2].operation_id, "getItem");  // from components/links
  EXPECT_EQ(links[2].description, "the same item");
  EXPECT_EQ(links[3].name, "Nowhere");
  EXPECT_TRUE(links[3].operation_id.empty());  // not followed
  const std::string said = messages(r);
  EXPECT_NE(said.find("link 'Nowhere' names operationId 'noSuchOperation'"), std::string::npos)
      << said;
  EXPECT_NE(said.find("link 'Neither' names neither operationId nor operationRef"),
            std::string::npos)
      << said;
}

TEST(links, a_parameters_examples_come_in_order) {
  const auto r = load(std::string(CONFORM_TEST_DATA_DIR) + "/links/links.yaml");
  ASSERT_TRUE(r.ok()) << messages(r);
  const auto* get = r.spec->find_operation("getItem");
  const auto* id = get->find_parameter("id", param_location::path);
  ASSERT_NE(id, nullptr);
  ASSERT_EQ(id->examples.size(), 3u);
  EXPECT_EQ(id->examples[0], boost::json::value("42"));
  EXPECT_EQ(id->examples[1], boost::json::value("43"));
  EXPECT_EQ(id->examples[2], boost::json::value("44"));
}

TEST(links, the_shipped_description_has_25_links_and_each_names_an_operation) {
  const auto r = load(std::string(CONFORM_SPEC_DIR) + "/voice-api.yaml");
  ASSERT_TRUE(r.ok()) << messages(r);
  std::size_t count = 0;
  for (const auto& op : r.spec->operations) {
    for (const auto& resp : op.responses) {
      for (const auto& l : resp.links) {
        ++count;
        EXPECT_NE(r.spec->find_operation(l.operation_id), nullptr)
            << op.operation_id << " " << l.name;
        EXPECT_FALSE(l.parameters.empty()) << l.name;
      }
    }
  }
  EXPECT_EQ(count, 25u);
  // The JWT scheme names the claims a token's role and tenants are read from.
  const auto* jwt = r.spec->find_scheme("bearerJwt");
  ASSERT_NE(jwt, nullptr);
  EXPECT_EQ(jwt->tenant_claim, "tenant_ids");
  EXPECT_EQ(jwt->role_claim, "role");
  // A media type's example is read (createCampaign's body).
  const auto* create = r.spec->find_operation("createCampaign");
  ASSERT_TRUE(create->body);
  EXPECT_FALSE(create->body->content.front().examples.empty());
}

}  // namespace
}  // namespace conform::openapi
