// core::node: a value that owns its children, lookups that never insert,
// and the edits the loader makes (Swagger 2.0 conversion, overlays).
#include <gtest/gtest.h>

#include "core/node.hpp"

namespace conform::core {
namespace {

TEST(node, a_default_node_is_null_and_the_undefined_one_is_not) {
  const node n;
  EXPECT_TRUE(n.defined());
  EXPECT_TRUE(n.is_null());
  EXPECT_FALSE(node::undefined().defined());
  EXPECT_EQ(node::undefined().type(), node::kind::undefined);
  EXPECT_EQ(node::undefined().size(), 0u);
  EXPECT_EQ(node::undefined().text(), "");
}

TEST(node, a_lookup_that_finds_nothing_gives_the_undefined_node_and_inserts_nothing) {
  node m = node::map();
  m.set("a", node::scalar("1", false));
  EXPECT_FALSE(m.get("b").defined());
  EXPECT_EQ(m.size(), 1u);
  EXPECT_EQ(m.find("b"), nullptr);
  EXPECT_FALSE(m.item(0).defined());  // a mapping has no items
  EXPECT_FALSE(node::scalar("x").get("x").defined());
}

TEST(node, set_replaces_in_place_and_appends_otherwise_keeping_order) {
  node m = node::map();
  m.set("b", node::scalar("1"));
  m.set("a", node::scalar("2"));
  m.set("b", node::scalar("3"));
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m.entries()[0].key, "b");
  EXPECT_EQ(m.entries()[0].value.text(), "3");
  EXPECT_EQ(m.entries()[1].key, "a");
  EXPECT_TRUE(m.remove("b"));
  EXPECT_FALSE(m.remove("b"));
  EXPECT_EQ(m.size(), 1u);
  EXPECT_EQ(m.entries()[0].key, "a");
}

TEST(node, a_null_node_becomes_the_container_it_is_filled_as) {
  node m;
  m.set("k", node());
  EXPECT_TRUE(m.is_map());
  node s;
  s.push_back(node::scalar("x"));
  EXPECT_TRUE(s.is_sequence());
  EXPECT_EQ(s.item(0).text(), "x");
}

TEST(node, clone_is_deep_and_keeps_positions) {
  node m = node::map();
  node inner = node::sequence();
  inner.push_back(node::scalar("v", false));
  inner.set_position(3, 5);
  m.set("list", std::move(inner));
  m.entries()[0].line = 2;
  node copy = m.clone();
  m.find("list")->push_back(node::scalar("w"));
  ASSERT_EQ(copy.get("list").size(), 1u);
  EXPECT_EQ(copy.get("list").line(), 3u);
  EXPECT_EQ(copy.get("list").column(), 5u);
  EXPECT_EQ(copy.entries()[0].line, 2u);
  EXPECT_FALSE(copy.get("list").item(0).quoted());
}

}  // namespace
}  // namespace conform::core
