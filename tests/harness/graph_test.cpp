// The producer-consumer graph: the description's links, each with the
// operation it feeds and how (or why it cannot be followed), and the edges
// inferred where no link feeds an id: a create's or a read's id feeds the
// operations on the same resource path, a list feeds its items' ids, a
// `<resource>_id` body member is fed from that resource's collection.
#include <gtest/gtest.h>

#include <algorithm>

#include "harness/stateful/graph.hpp"
#include "openapi/loader.hpp"

namespace conform::harness::stateful {
namespace {

struct loaded {
  openapi::load_result r;
  std::vector<const openapi::operation*> ops;
  graph g;
};

loaded build(const std::string& file) {
  loaded out{openapi::load(file), {}, {}};
  EXPECT_TRUE(out.r.ok()) << file;
  if (!out.r.ok()) return out;
  for (const auto& op : out.r.spec->operations) out.ops.push_back(&op);
  out.g = build_graph(*out.r.spec, out.ops);
  return out;
}

const edge* find_edge(const graph& g, const std::string& from, const std::string& to,
                      bool inferred) {
  for (const auto& e : g.edges) {
    if (e.producer->operation_id == from && e.consumer->operation_id == to &&
        e.inferred() == inferred) {
      return &e;
    }
  }
  return nullptr;
}

TEST(graph, every_link_of_the_shipped_description_is_an_edge) {
  auto l = build(std::string(CONFORM_SPEC_DIR) + "/voice-api.yaml");
  ASSERT_EQ(l.g.links.size(), 25u);
  for (const auto& use : l.g.links) EXPECT_TRUE(use.why.empty()) << use.name << ": " << use.why;
  const std::size_t link_edges = std::count_if(l.g.edges.begin(), l.g.edges.end(),
                                               [](const edge& e) { return !e.inferred(); });
  EXPECT_EQ(link_edges, 25u);
  const auto* launch = find_edge(l.g, "createCampaign", "launchCampaign", false);
  ASSERT_NE(launch, nullptr);
  ASSERT_EQ(launch->values.size(), 1u);
  EXPECT_EQ(launch->values[0].first.name, "id");
  EXPECT_EQ(launch->values[0].second.key, "/data/id");
  EXPECT_EQ(launch->status, 201);
}

TEST(graph, ids_no_link_feeds_are_inferred) {
  auto l = build(std::string(CONFORM_SPEC_DIR) + "/voice-api.yaml");
  // A created campaign's id feeds the import's body member bulk_call_campaign_id.
  const auto* import = find_edge(l.g, "createCampaign", "importContacts", true);
  ASSERT_NE(import, nullptr);
  EXPECT_TRUE(import->values[0].first.body);
  EXPECT_EQ(import->values[0].first.name, "/bulk_call_campaign_id");
  EXPECT_EQ(import->values[0].second.key, "/data/id");
  // The agents list feeds agent_id, each item's.
  const auto* agent = find_edge(l.g, "listAgents", "createCampaign", true);
  ASSERT_NE(agent, nullptr);
  EXPECT_TRUE(agent->values[0].second.each_item);
  EXPECT_EQ(agent->values[0].second.items, "/data/items");
  // A parameter a link feeds gets no inferred edge.
  EXPECT_EQ(find_edge(l.g, "listCampaigns", "launchCampaign", true), nullptr);
  // Nothing names an invoice: no edge into getInvoice (its example is what runs).
  EXPECT_TRUE(std::none_of(l.g.edges.begin(), l.g.edges.end(),
                           [](const edge& e) { return e.consumer->operation_id == "getInvoice"; }));
}

TEST(graph, a_published_description_without_links_gets_its_crud_edges) {
  auto l = build(std::string(CONFORM_OAI_EXAMPLES_DIR) + "/v3.0/petstore-expanded.yaml");
  EXPECT_TRUE(l.g.links.empty());
  for (const char* consumer : {"find pet by id", "deletePet"}) {
    EXPECT_NE(find_edge(l.g, "addPet", consumer, true), nullptr) << consumer;
    EXPECT_NE(find_edge(l.g, "findPets", consumer, true), nullptr) << consumer;
  }
  EXPECT_EQ(record_id_pointer(*l.r.spec->find_operation("addPet")), "/id");
  auto shape = list_of(*l.r.spec->find_operation("findPets"));
  ASSERT_TRUE(shape);
  EXPECT_EQ(shape->items, "");
  EXPECT_EQ(shape->item_id, "/id");
}

TEST(graph, expressions_that_cannot_be_evaluated_say_so) {
  EXPECT_TRUE(parse_expression("$response.body#/a/0/b").ok());
  EXPECT_TRUE(parse_expression("$request.path.id").ok());
  EXPECT_TRUE(parse_expression("a constant").ok());
  const auto url = parse_expression("$url");
  ASSERT_FALSE(url.ok());
  EXPECT_NE(url.error().find("$url"), std::string::npos);
  EXPECT_FALSE(parse_expression("$response.bodyx").ok());
}

}  // namespace
}  // namespace conform::harness::stateful
