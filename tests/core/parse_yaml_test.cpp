// The YAML reader: yaml-cpp's events into core::node, with positions, and
// every bound of core/limits.hpp checked before anything past it is built.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include <string>

using namespace std::string_literals;

#include "core/limits.hpp"
#include "core/parse.hpp"
#include "core/document.hpp"

namespace conform::core {
namespace {

std::string error_of(const std::string& text) {
  const parsed_document d = parse_yaml(text, "t.yaml");
  return d.error ? to_string(*d.error) : std::string("no error");
}

TEST(parse_yaml, scalars_keep_how_they_were_written) {
  const auto d = parse_yaml("a: 12\nb: '12'\nc: !!str 12\nd: ~\ne:\nf: true\n", "t.yaml");
  ASSERT_FALSE(d.error.has_value()) << to_string(*d.error);
  const node& r = d.root;
  EXPECT_EQ(classify(r.get("a")), scalar_kind::integer);
  EXPECT_EQ(classify(r.get("b")), scalar_kind::string);
  EXPECT_EQ(classify(r.get("c")), scalar_kind::string);
  EXPECT_EQ(classify(r.get("d")), scalar_kind::null);
  EXPECT_EQ(classify(r.get("e")), scalar_kind::null);
  EXPECT_EQ(classify(r.get("f")), scalar_kind::boolean);
  EXPECT_EQ(to_json(r),
            boost::json::parse(R"({"a":12,"b":"12","c":"12","d":null,"e":null,"f":true})"));
}

TEST(parse_yaml, nodes_and_keys_keep_their_positions) {
  const auto d = parse_yaml("paths:\n  /pets:\n    get: {operationId: x}\n", "t.yaml");
  ASSERT_FALSE(d.error.has_value());
  const node& paths = d.root.get("paths");
  EXPECT_EQ(paths.line(), 2u);
  EXPECT_EQ(paths.column(), 3u);
  ASSERT_EQ(paths.entries().size(), 1u);
  EXPECT_EQ(paths.entries()[0].line, 2u);
  EXPECT_EQ(paths.entries()[0].column, 3u);
  const node& get = paths.get("/pets").get("get");
  EXPECT_EQ(get.line(), 3u);
  EXPECT_EQ(get.column(), 10u);
  EXPECT_EQ(get.get("operationId").column(), 24u);
}

TEST(parse_yaml, an_alias_is_a_copy_of_its_anchor) {
  const auto d = parse_yaml("a: &x {k: [1, 2]}\nb: *x\n", "t.yaml");
  ASSERT_FALSE(d.error.has_value());
  EXPECT_EQ(to_json(d.root.get("b")), to_json(d.root.get("a")));
  EXPECT_EQ(d.root.get("b").get("k").size(), 2u);
}

TEST(parse_yaml, every_bound_is_an_error_at_its_position) {
  EXPECT_EQ(error_of("a: 1\nb: 2\na: 3\n"),
            "t.yaml:3:1: error: duplicate key 'a' in a mapping (each key may appear once)");
  EXPECT_EQ(error_of("a: 1\n---\nb: 2\n"),
            "t.yaml:2:1: error: a second YAML document: a description is exactly one document");
  EXPECT_EQ(error_of("? [a, b]\n: 1\n"),
            "t.yaml:1:3: error: a mapping key must be a scalar, not a mapping or a sequence");
  EXPECT_EQ(error_of("a: &x [1, *x]\n"),
            "t.yaml:1:11: error: an alias inside the node its anchor names (a cycle)");
  std::string deep;
  for (std::size_t i = 0; i <= limits::max_depth; ++i) deep += std::string(i * 2, ' ') + "k:\n";
  EXPECT_NE(error_of(deep + std::string((limits::max_depth + 1) * 2, ' ') + "v: 1\n")
                .find("nesting deeper than 64 levels"),
            std::string::npos);
  // Ten levels of ten aliases: 10^10 nodes once expanded, refused at the bound.
  std::string bomb = "l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 10; ++i) {
    bomb += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " [";
    for (int k = 0; k < 10; ++k) bomb += std::string(k ? ", " : "") + "*l" + std::to_string(i - 1);
    bomb += "]\n";
  }
  EXPECT_NE(error_of(bomb).find("expands to more than"), std::string::npos) << error_of(bomb);
  // Anchors inside anchors: each keeps a copy of what it names, and the
  // copies count (a small text would otherwise hold gigabytes of copies).
  std::string items;
  for (int i = 0; i < 1000; ++i) items += i ? ", 0" : "0";
  std::string nested = "x: &x [" + items + "]\ny: ";
  for (int i = 1; i <= 60; ++i) nested += "&a" + std::to_string(i) + " [";
  for (int i = 0; i < 100; ++i) nested += i ? ", *x" : "*x";
  nested += std::string(60, ']') + "\n";
  EXPECT_NE(error_of(nested).find("expands to more than"), std::string::npos) << error_of(nested);
  // An alias pastes its node's depth where it is used.
  const std::string l0 = "l0: &l0 " + std::string(40, '[') + std::string(40, ']') + "\n";
  const std::string tower =
      l0 + "l1: " + std::string(30, '[') + "*l0" + std::string(30, ']') + "\n";
  EXPECT_NE(error_of(tower).find("an alias whose node, pasted here, nests deeper than 64"),
            std::string::npos)
      << error_of(tower);
  EXPECT_EQ(error_of(l0 + "l1: " + std::string(20, '[') + "*l0" + std::string(20, ']') + "\n"),
            "no error");
  EXPECT_EQ(
      error_of("a: \"x\0y\"\n"s),
      "t.yaml:1:6: error: control character U+0000 (NUL) is not allowed in YAML or JSON text");
  EXPECT_EQ(error_of("a: [1, 2\n"),
            "t.yaml:2:1: error: invalid YAML: end of sequence flow not found");
}

}  // namespace
}  // namespace conform::core
