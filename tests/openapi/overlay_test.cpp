// OpenAPI Overlay 1.0 (`--overlay FILE`): the JSONPath subset, update and
// remove, errors at their position, and the Voice API's extensions moved
// into an overlay beside a generated-looking copy that loads to the same model.
#include <gtest/gtest.h>

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "core/document.hpp"
#include "core/parse.hpp"
#include "openapi/detail/overlay.hpp"
#include "openapi/loader.hpp"
#include "tests/openapi/dump.hpp"
#include "tests/openapi/support.hpp"

namespace conform::openapi {
namespace {

using test_support::messages;

namespace fs = std::filesystem;

/// A folder of this process for the files a test writes.
fs::path workspace() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("conform-overlay-" + std::to_string(::getpid()));
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

fs::path write(const std::string& name, const std::string& text) {
  const fs::path p = workspace() / name;
  std::ofstream(p) << text;
  return p;
}

std::string quoted_key(const std::string& key) {
  std::string out = "['";
  for (const char c : key) out += c == '\'' ? std::string("\\'") : std::string(1, c);
  return out + "']";
}

/// Moves every x- key of `n` (at `path`) into an action of `actions`.
void strip(YAML::Node n, const std::string& path, YAML::Node& actions) {
  if (n.IsMap()) {
    YAML::Node update(YAML::NodeType::Map);
    std::vector<std::string> gone;
    for (auto it = n.begin(); it != n.end(); ++it) {
      const std::string key = it->first.Scalar();
      if (key.rfind("x-", 0) == 0) {
        update[key] = YAML::Clone(it->second);
        gone.push_back(key);
      } else {
        strip(it->second, path + quoted_key(key), actions);
      }
    }
    for (const auto& key : gone) n.remove(key);
    if (update.size() > 0) {
      YAML::Node action;
      action["target"] = path;
      action["update"] = update;
      actions.push_back(action);
    }
  } else if (n.IsSequence()) {
    for (std::size_t i = 0; i < n.size(); ++i)
      strip(n[i], path + "[" + std::to_string(i) + "]", actions);
  }
}

std::string emit(const YAML::Node& n) {
  YAML::Emitter out;
  out << n;
  return std::string(out.c_str()) + "\n";
}

TEST(overlay, the_voice_extensions_in_an_overlay_load_to_the_same_model) {
  const fs::path shipped = fs::path(CONFORM_SPEC_DIR) / "voice-api.yaml";
  load_options opts;
  opts.permissions = fs::path(CONFORM_SPEC_DIR) / "permissions.yaml";
  const auto original = load(shipped, opts);
  ASSERT_TRUE(original.ok()) << messages(original);

  YAML::Node doc = YAML::LoadFile(shipped.string());
  YAML::Node actions(YAML::NodeType::Sequence);
  strip(doc, "$", actions);
  ASSERT_GT(actions.size(), 50u);
  const fs::path generated = write("generated.yaml", emit(doc));
  YAML::Node overlay;
  overlay["overlay"] = "1.0.0";
  overlay["info"]["title"] = "Conform's extensions of the Voice API";
  overlay["info"]["version"] = "1";
  overlay["actions"] = actions;
  const fs::path overlay_file = write("extensions.overlay.yaml", emit(overlay));

  // Without the overlay the generated copy loads too (no extension is required).
  // (The permission matrix names the labels x-credential gives, so not with it.)
  const auto bare = load(generated, load_options{});
  ASSERT_TRUE(bare.ok()) << messages(bare);
  EXPECT_NE(testing::dump(*bare.spec), testing::dump(*original.spec));

  opts.overlays = {overlay_file};
  const auto overlaid = load(generated, opts);
  ASSERT_TRUE(overlaid.ok()) << messages(overlaid);
  EXPECT_EQ(testing::dump(*overlaid.spec), testing::dump(*original.spec));
}

const char* const small_spec = R"(openapi: 3.1.0
info: { title: Small, version: "1" }
tags: [{ name: a }, { name: b }, { name: c }]
paths:
  /pets:
    get:
      operationId: listPets
      tags: [a]
      responses: { "200": { description: ok } }
    post:
      operationId: addPet
      tags: [b]
      responses: { "201": { description: created } }
  /internal:
    get:
      operationId: internalThing
      x-internal: true
      responses: { "200": { description: ok } }
)";

load_result load_with(const std::string& overlay_text) {
  const fs::path spec = write("small.yaml", small_spec);
  load_options opts;
  opts.overlays = {write("small.overlay.yaml", overlay_text)};
  return load(spec, opts);
}

TEST(overlay, filters_recursive_descent_update_and_remove) {
  const auto r = load_with(R"(overlay: 1.0.0
info: { title: t, version: "1" }
actions:
  - target: $.paths.*[?(@.x-internal == true)]
    remove: true
  - target: $..[?(@.operationId == 'addPet')]
    update: { x-family: Adoption, summary: Adopt a pet }
  - target: "$.paths['/pets'].get"
    update: { x-family: Browsing }
  - target: $.tags[1]
    remove: true
  - target: $.tags
    update: { name: d }
)");
  ASSERT_TRUE(r.ok()) << messages(r);
  EXPECT_EQ(r.spec->operations.size(), 2u);
  EXPECT_EQ(r.spec->find_operation("internalThing"), nullptr);
  ASSERT_NE(r.spec->find_operation("addPet"), nullptr);
  EXPECT_EQ(r.spec->find_operation("addPet")->family, "Adoption");
  EXPECT_EQ(r.spec->find_operation("addPet")->summary, "Adopt a pet");
  EXPECT_EQ(r.spec->find_operation("listPets")->family, "Browsing");
  EXPECT_EQ(r.spec->tags, (std::vector<std::string>{"a", "c", "d"}));
}

TEST(overlay, unsupported_syntax_is_an_error_at_the_action) {
  const auto r = load_with(R"(overlay: 1.0.0
info: { title: t, version: "1" }
actions:
  - target: $.paths[?(@.size > 1)]
    remove: true
)");
  EXPECT_FALSE(r.ok());
  const std::string text = messages(r);
  EXPECT_NE(text.find("small.overlay.yaml:4:13: error: overlay action 1: target "
                      "'$.paths[?(@.size > 1)]': unsupported JSONPath at character 18"),
            std::string::npos)
      << text;
}

TEST(overlay, a_target_that_selects_nothing_is_a_warning) {
  const auto r = load_with(R"(overlay: 1.0.0
info: { title: t, version: "1" }
actions:
  - target: $.paths['/nowhere']
    update: { summary: x }
)");
  ASSERT_TRUE(r.ok()) << messages(r);
  EXPECT_NE(messages(r).find("small.overlay.yaml:4:13: warning: overlay action 1: target "
                             "'$.paths['/nowhere']' selects nothing"),
            std::string::npos)
      << messages(r);
}

// One action selecting a node and a node below it: the update applies in
// document order, the outer one first, then the inner one on the result.
TEST(overlay, nested_matches_are_updated_in_document_order) {
  std::vector<core::diagnostic> diags;
  core::doc_reader r(diags);
  core::doc_cache docs;
  core::node root = core::parse_yaml("a: {x-n: {x-n: {level: 0}}}\n", "root.yaml").root;
  const fs::path overlay = write("nested.overlay.yaml", R"(overlay: 1.0.0
info: { title: t, version: "1" }
actions:
  - target: $..x-n
    update: { level: 9, x-n: { level: 1 } }
)");
  ASSERT_TRUE(detail::apply_overlay(overlay, root, docs, r)) << diags.size();
  const core::node& outer = root.get("a").get("x-n");
  const core::node& inner = outer.get("x-n");
  EXPECT_EQ(outer.get("level").text(), "9");
  EXPECT_EQ(inner.get("level").text(), "9");  // last: its own update, after the outer one's
  EXPECT_EQ(inner.get("x-n").get("level").text(), "1");
}

// A node an update replaced takes no later edit below it.
TEST(overlay, a_replaced_node_takes_no_edit_below_it) {
  core::doc_cache docs;
  core::node again = core::parse_yaml("a: {k: {m: {n: 1}}}\n", "root.yaml").root;
  const fs::path replace = write("replace2.overlay.yaml", R"(overlay: 1.0.0
info: { title: t, version: "1" }
actions:
  - target: $.a..*
    update: flat
)");
  std::vector<core::diagnostic> more;
  core::doc_reader r2(more);
  ASSERT_TRUE(detail::apply_overlay(replace, again, docs, r2));
  // A scalar update replaces the mapping k; m and n, selected below it, are
  // gone with it and take no edit (their index paths name nothing now).
  EXPECT_EQ(again.get("a").get("k").text(), "flat");
}

// `$..summary` with summaries inside summaries' parents: every one goes, and
// a removal never shifts a node another match of the same action names.
TEST(overlay, nested_removals_leave_nothing_behind_and_nothing_else) {
  const auto r = load_with(R"(overlay: 1.0.0
info: { title: t, version: "1" }
actions:
  - target: $.tags[*]
    remove: true
  - target: $.paths.*.*.tags
    remove: true
  - target: $.paths['/internal']
    remove: true
)");
  ASSERT_TRUE(r.ok()) << messages(r);
  EXPECT_TRUE(r.spec->tags.empty());
  EXPECT_EQ(r.spec->operations.size(), 2u);
  for (const auto& op : r.spec->operations) EXPECT_TRUE(op.tags.empty()) << op.operation_id;
}

TEST(overlay, the_description_is_not_its_own_overlay) {
  const fs::path spec = write("self.yaml", std::string(small_spec) +
                                               "overlay: 1.0.0\nactions:\n"
                                               "  - target: $.actions\n"
                                               "    remove: true\n");
  load_options opts;
  opts.overlays = {spec};
  const auto r = load(spec, opts);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(messages(r).find("the overlay is the description itself"), std::string::npos)
      << messages(r);
}

TEST(overlay, not_an_overlay_is_an_error) {
  const auto r = load_with("actions: []\n");
  EXPECT_FALSE(r.ok());
  EXPECT_NE(messages(r).find("overlay"), std::string::npos) << messages(r);
}

}  // namespace
}  // namespace conform::openapi
