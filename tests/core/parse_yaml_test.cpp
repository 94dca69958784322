// The YAML reader: yaml-cpp's events into core::node, with positions, and
// every bound of core/limits.hpp checked before anything past it is built.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include <string>
#include <vector>

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

// YAML 1.1 merge keys, as PyYAML, js-yaml, SnakeYAML and Go's yaml read them:
// published Swagger 2.0 descriptions share their error responses this way.
TEST(parse_yaml, a_merge_key_merges_the_mappings_it_names) {
  const auto d = parse_yaml(
      "errors: &errors\n"
      "  '400': {description: bad}\n"
      "  '500': {description: broken}\n"
      "more: &more\n"
      "  '404': {description: none}\n"
      "  '500': {description: later}\n"
      "responses:\n"
      "  <<: *errors\n"
      "  '200': {description: ok}\n"
      "  '400': {description: mine}\n"
      "listed:\n"
      "  <<: [*errors, *more]\n"
      "  x: 1\n"
      "inline: {<<: {a: 1, b: 2}, b: 3}\n"
      "quoted: {'<<': 1}\n",
      "t.yaml");
  ASSERT_FALSE(d.error.has_value()) << to_string(*d.error);
  const node& r = d.root;
  // A key written in the mapping wins over a merged one, wherever it stands.
  EXPECT_EQ(to_json(r.get("responses")),
            boost::json::parse(R"({"400":{"description":"mine"},"500":{"description":"broken"},)"
                               R"("200":{"description":"ok"}})"));
  EXPECT_FALSE(r.get("responses").get("<<").defined());
  // The merged keys stand where `<<` stood, in their own order; a key
  // written in the mapping stands where it was written.
  std::vector<std::string> keys;
  for (const node_entry& e : r.get("responses").entries()) keys.push_back(e.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"500", "200", "400"}));
  // They keep the positions of the anchored mapping they came from.
  EXPECT_EQ(r.get("responses").get("500").line(), 3u);
  // In a list, an earlier mapping wins over a later one.
  EXPECT_EQ(to_json(r.get("listed")),
            boost::json::parse(R"({"400":{"description":"bad"},"500":{"description":"broken"},)"
                               R"("404":{"description":"none"},"x":1})"));
  EXPECT_EQ(to_json(r.get("inline")), boost::json::parse(R"({"a":1,"b":3})"));
  // A quoted '<<' is a key like any other.
  EXPECT_EQ(to_json(r.get("quoted")), boost::json::parse(R"({"<<":1})"));
}

TEST(parse_yaml, a_merged_anchor_merges_what_it_merged) {
  const auto d = parse_yaml(
      "base: &base {a: 1}\nmid: &mid {<<: *base, b: 2}\ntop: {<<: *mid, c: 3}\n", "t.yaml");
  ASSERT_FALSE(d.error.has_value()) << to_string(*d.error);
  EXPECT_EQ(to_json(d.root.get("top")), boost::json::parse(R"({"a":1,"b":2,"c":3})"));
}

TEST(parse_yaml, a_merge_key_of_anything_but_mappings_is_an_error) {
  EXPECT_EQ(error_of("a: &a 1\nb: {<<: *a}\n"),
            "t.yaml:2:9: error: a merge key '<<' takes a mapping or a list of mappings (an "
            "alias '*name' of one, or '[*a, *b]'); quote it ('<<') for a key of that name");
  EXPECT_NE(error_of("a: &a {x: 1}\nb: {<<: [*a, 2]}\n").find("a merge key '<<' takes"),
            std::string::npos);
  // Written keys may still appear once only.
  EXPECT_EQ(error_of("a: &a {x: 1}\nb: {<<: *a, y: 1, y: 2}\n"),
            "t.yaml:2:19: error: duplicate key 'y' in a mapping (each key may appear once)");
}

TEST(parse_yaml, merge_keys_keep_the_bounds_of_aliases) {
  // Ten levels, each mapping ten keys to the level below beside a merge of
  // it: refused at the bound like any other alias bomb.
  std::string bomb = "l0: &l0 {a: x, b: x, c: x, d: x, e: x, f: x, g: x, h: x, i: x, j: x}\n";
  for (int i = 1; i < 10; ++i) {
    const std::string below = "*l" + std::to_string(i - 1);
    bomb += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " {<<: " + below;
    for (int k = 0; k < 10; ++k) bomb += ", k" + std::to_string(k) + ": " + below;
    bomb += "}\n";
  }
  EXPECT_NE(error_of(bomb).find("the document expands to more than"), std::string::npos)
      << error_of(bomb);
  // A merge of the same mapping many times over is as big as one: what the
  // merge leaves out no longer counts.
  std::string wide = "l0: &l0 {a: x, b: x, c: x, d: x, e: x, f: x, g: x, h: x, i: x, j: x}\n";
  for (int i = 1; i < 12; ++i) {
    const std::string below = "*l" + std::to_string(i - 1);
    wide += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " {<<: [" + below;
    for (int k = 0; k < 9; ++k) wide += ", " + below;
    wide += "]}\n";
  }
  EXPECT_EQ(error_of(wide), "no error");
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
