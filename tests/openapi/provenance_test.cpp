// Every constraint of a description rests on something (issue 22): a section
// of the API's own prose, a product decision, or an assumption of ours that
// says so (x-assumption). The shipped description is walked and every
// constraint must be grounded; docs/api-choices.md must list every one that
// is an assumption. Fixtures show the grounding rules (the nearest
// x-assumption covering the keyword; a property's own for its `required`; a
// parameter's for its schema and its `required`), the validator dropping
// assumed constraints, and malformed entries refused where they are written.
// Issue 32: an entry inside a subschema (not, items, prefixItems,
// additionalProperties, allOf, anyOf, oneOf; if/then/else are not judged)
// grounds what is written there, for the validator and for the failures of
// negative_data_rejection on the values the generators break it with.

#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "generators/invalid.hpp"
#include "openapi/loader.hpp"
#include "openapi/provenance.hpp"
#include "schema/validator.hpp"
#include "suites/registry.hpp"
#include "tests/openapi/support.hpp"

namespace conform::openapi {
namespace {

using test_support::messages;

const std::string provenance_data = std::string(CONFORM_TEST_DATA_DIR) + "/provenance";

api_spec load_ok(const std::string& file) {
  load_result r = load(file);
  EXPECT_TRUE(r.ok()) << messages(r);
  if (!r.spec) throw std::runtime_error("load failed: " + file + "\n" + messages(r));
  return std::move(*r.spec);
}

const constraint_ground* find(const std::vector<constraint_ground>& all, const std::string& where) {
  for (const auto& c : all) {
    if (c.where() == where) return &c;
  }
  return nullptr;
}

const schema::schema& node_at(const api_spec& spec, const std::string& location) {
  const schema::schema* found = nullptr;
  spec.arena->each([&](const schema::schema& s) {
    if (s.location == location && found == nullptr) found = &s;
  });
  if (!found) throw std::runtime_error("no schema at " + location);
  return *found;
}

// --- the shipped description -------------------------------------------------

class shipped : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    spec_ = new api_spec(load_ok(std::string(CONFORM_SPEC_DIR) + "/voice-api.yaml"));
  }
  static void TearDownTestSuite() {
    delete spec_;
    spec_ = nullptr;
  }
  static api_spec* spec_;
};

api_spec* shipped::spec_ = nullptr;

TEST_F(shipped, every_constraint_traces_to_the_prose_a_decision_or_an_assumption) {
  const auto all = constraint_grounds(*spec_);
  ASSERT_GT(all.size(), 200u) << "the walk found too few constraints to be the whole description";
  std::string missing;
  for (const auto& c : all) {
    if (!c.grounded()) missing += "  " + to_string(c.pos) + ": " + c.where() + "\n";
  }
  EXPECT_TRUE(missing.empty()) << "constraints without provenance (give each an x-assumption "
                                  "naming its section, decision or assumption):\n"
                               << missing;
}

/// The rows of the audit table of assumed constraints: "| `<where>` | ...",
/// under the heading "Constraints that are ours" (until the next heading).
std::set<std::string> audited(const std::string& doc) {
  std::set<std::string> out;
  std::istringstream in(doc);
  std::string line;
  bool in_table = false;
  while (std::getline(in, line)) {
    if (line.rfind("#", 0) == 0)
      in_table = line.find("Constraints that are ours") != std::string::npos;
    if (!in_table || line.rfind("| `#/", 0) != 0) continue;
    const auto end = line.find('`', 3);
    out.insert(line.substr(3, end - 3));
  }
  return out;
}

TEST_F(shipped, the_audit_table_lists_exactly_the_assumed_constraints) {
  std::ifstream f(std::string(CONFORM_SPEC_DIR) + "/../docs/api-choices.md");
  ASSERT_TRUE(f) << "docs/api-choices.md";
  std::stringstream text;
  text << f.rdbuf();
  const auto rows = audited(text.str());
  ASSERT_FALSE(rows.empty()) << "no audit table under the heading 'Constraints that are ours'";
  std::set<std::string> assumed;
  for (const auto& c : constraint_grounds(*spec_)) {
    if (c.assumed()) assumed.insert(c.where());
  }
  for (const auto& w : assumed) {
    EXPECT_TRUE(rows.count(w)) << "docs/api-choices.md does not list the assumed " << w;
  }
  for (const auto& w : rows) {
    EXPECT_TRUE(assumed.count(w)) << "docs/api-choices.md lists " << w
                                  << ", which is no assumed constraint of the description";
  }
}

TEST_F(shipped, no_limit_that_nothing_supports_is_left) {
  // Section 8: payload and upload limits are "not shown". These were ours
  // and are gone; the reference keeps its own bounds and answers 413.
  const auto all = constraint_grounds(*spec_);
  for (const std::string where :
       {"#/components/schemas/ContactMemoryUpdate/properties/memory/maxLength",
        "#/components/schemas/ContactMemoryUpdate/properties/summary/maxLength",
        "#/components/schemas/KnowledgeBaseSourceFields/properties/title/maxLength",
        "#/components/schemas/KnowledgeBaseSourceFields/properties/raw_text_input/maxLength",
        "#/components/schemas/KnowledgeBaseSourceFields/properties/selected_urls/maxItems",
        "#/components/schemas/KnowledgeBaseSourceFields/properties/files/maxLength",
        "#/components/schemas/KnowledgeBaseSourceFields/properties/file/maxLength",
        "#/components/schemas/CampaignCreate/properties/campaign_phone_number_ids/maxItems"}) {
    EXPECT_EQ(find(all, where), nullptr) << where << " is back";
  }
}

// --- the rules, on fixtures --------------------------------------------------

TEST(provenance, the_nearest_entry_covering_the_keyword_grounds_it) {
  const api_spec spec = load_ok(provenance_data + "/grounded.yaml");
  const auto all = constraint_grounds(spec);
  auto kind_of = [&](const std::string& where) {
    const auto* c = find(all, where);
    EXPECT_NE(c, nullptr) << where;
    if (!c || !c->grounded()) return std::string("none");
    return c->assumed() ? std::string("assumed") : std::string("sourced");
  };
  const std::string reason = "#/paths/~1notes~1{id}/patch/parameters/1/schema";
  EXPECT_EQ(kind_of(reason + "/type"), "sourced");  // the parameter's section 4.1 entry
  EXPECT_EQ(kind_of(reason + "/minLength"), "assumed");
  EXPECT_EQ(kind_of(reason + "/maxLength"), "assumed");
  EXPECT_EQ(kind_of("#/paths/~1notes~1{id}/patch/parameters/2/schema/enum"), "sourced");
  EXPECT_EQ(kind_of("#/components/schemas/Id/pattern"), "sourced");
  EXPECT_EQ(kind_of("#/components/schemas/Note/additionalProperties"), "assumed");
  EXPECT_EQ(kind_of("#/components/schemas/Note/required/title"), "sourced");
  // The property's own entry speaks of `required`: that says why it is.
  EXPECT_EQ(kind_of("#/components/schemas/Note/required/owner_id"), "assumed");
  // The title's entry names maxLength only: its type is the object's.
  EXPECT_EQ(kind_of("#/components/schemas/Note/properties/title/maxLength"), "assumed");
  EXPECT_EQ(kind_of("#/components/schemas/Note/properties/title/type"), "sourced");
  // A plain "conform: ..." string covers every keyword of its node and below.
  EXPECT_EQ(kind_of("#/components/schemas/Note/properties/tags/maxItems"), "assumed");
  EXPECT_EQ(kind_of("#/components/schemas/Note/properties/tags/items/type"), "assumed");
  // A response's own entry grounds the schema written inside it.
  EXPECT_EQ(kind_of("#/paths/~1notes~1{id}/patch/responses/202/content/application~1json/"
                    "schema/required/id"),
            "assumed");

  const operation& op = *spec.find_operation("updateNote");
  EXPECT_TRUE(op.find_parameter("reason", param_location::query)->required_assumption.empty())
      << "required by section 4.1";
  EXPECT_TRUE(op.body->required_assumption.empty()) << "required by D6.4";
  const auto* c = find(all, "#/components/schemas/Note/additionalProperties");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->text(),
            "#/components/schemas/Note/additionalProperties: assumption: C2: unknown fields are "
            "refused");
}

TEST(provenance, a_constraint_with_nothing_above_it_is_ungrounded) {
  const api_spec spec = load_ok(provenance_data + "/ungrounded.yaml");
  std::set<std::string> ungrounded;
  for (const auto& c : constraint_grounds(spec)) {
    if (!c.grounded()) ungrounded.insert(c.where());
  }
  const std::string body = "#/paths/~1things/post/requestBody/content/application~1json/schema";
  EXPECT_EQ(ungrounded, (std::set<std::string>{"#/paths/~1things/post/parameters/0/required",
                                               "#/paths/~1things/post/parameters/0/schema/type",
                                               "#/paths/~1things/post/parameters/0/schema/maximum",
                                               body + "/type", body + "/properties/name/type",
                                               body + "/properties/name/maxLength"}));
}

TEST(provenance, plain_strings_read_as_before) {
  using k = schema::provenance::source_kind;
  EXPECT_EQ(schema::provenance_from_text("D5.3: 1..720").kind, k::decision);
  EXPECT_EQ(schema::provenance_from_text("D5.3: 1..720").source, "D5.3");
  EXPECT_EQ(schema::provenance_from_text("D1.8/D5.5: run fields").source, "D1.8");
  EXPECT_EQ(schema::provenance_from_text("D4: the reverse").kind, k::decision);
  EXPECT_EQ(schema::provenance_from_text("section 4.1: strings").kind, k::prose);
  EXPECT_EQ(schema::provenance_from_text("conform: C19: ours").kind, k::assumption);
  EXPECT_EQ(schema::provenance_from_text("conform: C19: ours").reason, "C19: ours");
  // Anything else in an x-assumption is, by its name, an assumption.
  EXPECT_EQ(schema::provenance_from_text("we think so").kind, k::assumption);
  EXPECT_EQ(schema::provenance_from_text("Decided: yes").kind, k::assumption);
  // The model's plain list keeps the strings as written.
  const api_spec spec = load_ok(provenance_data + "/grounded.yaml");
  const schema::schema& tags = node_at(spec, "#/components/schemas/Note/properties/tags");
  EXPECT_EQ(tags.assumptions, std::vector<std::string>{"conform: C5: three tags at most"});
}

TEST(provenance, malformed_entries_are_refused_where_they_are_written) {
  const load_result r = load(provenance_data + "/malformed.yaml");
  EXPECT_FALSE(r.ok());
  const std::string said = messages(r);
  EXPECT_NE(said.find("malformed.yaml:8:"), std::string::npos) << said;
  EXPECT_NE(said.find("x-assumption.source must be a section of the description"),
            std::string::npos)
      << said;
  EXPECT_NE(said.find("'colour' is not a keyword that restricts a value"), std::string::npos)
      << said;
  EXPECT_NE(said.find("an assumption needs a reason"), std::string::npos) << said;
  EXPECT_NE(said.find("unknown key 'weight'"), std::string::npos) << said;
  EXPECT_NE(said.find("x-assumption must be a string, a mapping"), std::string::npos) << said;
}

// --- the validator and the assumed constraints ------------------------------

TEST(provenance, relaxed_validation_drops_the_assumed_constraints_and_says_which) {
  const api_spec spec = load_ok(provenance_data + "/grounded.yaml");
  const schema::schema& note = node_at(spec, "#/components/schemas/Note");
  const schema::validation_options relaxed{.assumptions = schema::assumption_mode::relaxed};
  auto json = [](const char* text) { return boost::json::parse(text); };

  // Broken only by assumptions: an extra field, a long title, no owner.
  const auto extra = json(R"({"title":"t","owner_id":"1","colour":"red"})");
  EXPECT_FALSE(schema::is_valid(note, extra));
  auto r = schema::validate(note, extra, relaxed);
  EXPECT_TRUE(r.ok());
  ASSERT_EQ(r.assumed.size(), 1u);
  EXPECT_NE(r.assumed[0].message.find("C2: unknown fields are refused"), std::string::npos);

  const auto no_owner = json(R"({"title":"t"})");
  r = schema::validate(note, no_owner, relaxed);
  EXPECT_TRUE(r.ok());
  ASSERT_EQ(r.assumed.size(), 1u);
  EXPECT_NE(r.assumed[0].message.find("required/owner_id"), std::string::npos);

  // Broken by a sourced constraint too: relaxing does not save it.
  const auto no_title = json(R"({"owner_id":"1","colour":"red"})");
  EXPECT_FALSE(schema::validate(note, no_title, relaxed).ok());
  const auto bad_owner = json(R"({"title":"t","owner_id":"x1"})");
  EXPECT_FALSE(schema::validate(note, bad_owner, relaxed).ok());
  // Valid values meet nothing.
  EXPECT_TRUE(
      schema::validate(note, json(R"({"title":"t","owner_id":"1"})"), relaxed).assumed.empty());
}

TEST(provenance, edges_mode_names_the_assumed_bounds_a_value_sits_on) {
  const api_spec spec = load_ok(provenance_data + "/grounded.yaml");
  const schema::schema& note = node_at(spec, "#/components/schemas/Note");
  const schema::validation_options edges{.assumptions = schema::assumption_mode::edges};
  const std::string title(64, 'a');
  boost::json::object on{{"title", title}, {"owner_id", "1"}, {"tags", {"a", "b", "c"}}};
  auto r = schema::validate(note, on, edges);
  EXPECT_TRUE(r.ok());
  std::set<std::string> where;
  for (const auto& a : r.assumed) where.insert(a.schema_location);
  EXPECT_EQ(where, (std::set<std::string>{"#/components/schemas/Note/properties/title/maxLength",
                                          "#/components/schemas/Note/properties/tags/maxItems"}));
  boost::json::object inside{{"title", "short"}, {"owner_id", "1"}, {"tags", {"a"}}};
  EXPECT_TRUE(schema::validate(note, inside, edges).assumed.empty());
}

TEST(provenance, one_of_branches_that_overlap_only_when_relaxed_still_judge_one_value) {
  // The wrapped-or-flat shape: each branch refuses the other's properties by
  // an assumption. Relaxed, a wrapped body matches both; it is still valid,
  // as strictly only one branch takes it. Branches that overlap strictly do not.
  schema::schema_arena arena;
  auto object_of = [&](const char* location, const char* property,
                       bool assumed) -> schema::schema& {
    schema::schema& s = arena.make();
    s.location = location;
    s.types = schema::json_type::object;
    s.properties.emplace_back(property, &arena.make());
    s.additional_allowed = false;
    if (assumed)
      s.assumed.push_back({"additionalProperties", "", std::string(location) + ": ours"});
    return s;
  };
  schema::schema& one_of = arena.make();
  one_of.location = "#/u";
  one_of.one_of = {&object_of("#/u/0", "wrapper", true), &object_of("#/u/1", "title", true)};
  const schema::validation_options relaxed{.assumptions = schema::assumption_mode::relaxed};
  const auto wrapped = boost::json::parse(R"({"wrapper":{}})");
  EXPECT_TRUE(schema::is_valid(one_of, wrapped));
  const auto r = schema::validate(one_of, wrapped, relaxed);
  EXPECT_TRUE(r.ok());
  const auto both = boost::json::parse(R"({"wrapper":{},"title":"t"})");
  EXPECT_FALSE(schema::is_valid(one_of, both));
  EXPECT_TRUE(schema::validate(one_of, both, relaxed).ok()) << "invalid by assumptions alone";

  schema::schema& loose = arena.make();
  loose.location = "#/loose";
  schema::schema& any1 = arena.make();
  schema::schema& any2 = arena.make();
  any1.types = schema::json_type::object;
  any2.types = schema::json_type::object;
  loose.one_of = {&any1, &any2};
  EXPECT_FALSE(schema::validate(loose, wrapped, relaxed).ok()) << "a strict overlap stays";
}

TEST(provenance, under_not_nothing_is_relaxed) {
  // Dropping a constraint under `not` would tighten the schema: a value the
  // strict schema refuses for a sourced reason stays refused.
  schema::schema_arena arena;
  schema::schema& inner = arena.make();
  inner.location = "#/inner";
  inner.max_length = 3;
  inner.assumed.push_back({"maxLength", "", "#/inner/maxLength: assumption: short"});
  schema::schema& outer = arena.make();
  outer.location = "#/outer";
  outer.not_schema = &inner;
  const schema::validation_options relaxed{.assumptions = schema::assumption_mode::relaxed};
  EXPECT_FALSE(schema::validate(outer, boost::json::value("ab"), relaxed).ok());
  EXPECT_TRUE(schema::validate(outer, boost::json::value("abcdef"), relaxed).ok());
}

// --- entries inside subschemas (issue 32) -----------------------------------

/// The positions of subschemas, each a schema of subschemas.yaml with a
/// sourced `type` at its root and one assumed constraint inside.
struct planted {
  std::string position;  // the schema's name, and the operation's path
  std::string assumed;   // where() of the assumed constraint inside
  std::string breaks;    // a value that breaks it alone
  std::string reason;    // the planted reason, as its failure names it
  std::string obeys;     // a value that breaks nothing
};

const std::vector<planted>& positions() {
  static const std::vector<planted> all = {
      {"not", "#/components/schemas/not/not", R"({"secret":1})", "P-not: no secret is sent",
       R"({"public":1})"},
      {"items", "#/components/schemas/items/items/maxLength", R"(["a","abcd"])",
       "P-items: short names", R"(["a","abc"])"},
      {"prefixItems", "#/components/schemas/prefixItems/prefixItems/0/maximum", R"([10,"x"])",
       "P-prefixItems: one digit", R"([9,"x"])"},
      {"additionalProperties",
       "#/components/schemas/additionalProperties/additionalProperties/enum", R"({"a":"dim"})",
       "P-additionalProperties: two states", R"({"a":"on"})"},
      {"allOf", "#/components/schemas/allOf/allOf/0/required/name", R"({"title":"t"})",
       "P-allOf: a name is given", R"({"name":"n"})"},
      {"anyOf", "#/components/schemas/anyOf/anyOf/0/required/name", R"({"other":1})",
       "P-anyOf: a name", R"({"title":"t"})"},
      {"oneOf", "#/components/schemas/oneOf/oneOf/1/required/title", R"({"other":1})",
       "P-oneOf: ", R"({"name":"n"})"},
  };
  return all;
}

TEST(provenance, an_entry_inside_each_subschema_grounds_the_constraints_written_there) {
  const api_spec spec = load_ok(provenance_data + "/subschemas.yaml");
  const auto all = constraint_grounds(spec);
  for (const auto& p : positions()) {
    SCOPED_TRACE(p.position);
    const auto* inside = find(all, p.assumed);
    ASSERT_NE(inside, nullptr) << p.assumed;
    EXPECT_TRUE(inside->assumed()) << inside->text();
    EXPECT_NE(inside->text().find(p.reason), std::string::npos) << inside->text();
    const auto* root = find(all, "#/components/schemas/" + p.position + "/type");
    ASSERT_NE(root, nullptr);
    EXPECT_FALSE(root->assumed()) << "the root's type is section 9.1's";
  }
  // The `not`'s own `required` is the entry's too.
  const auto* secret = find(all, "#/components/schemas/not/not/required/secret");
  ASSERT_NE(secret, nullptr);
  EXPECT_TRUE(secret->assumed());
  // if/then/else are not judged: nothing under them is a constraint.
  for (const auto& c : all) {
    EXPECT_EQ(c.location.find("/schemas/if/"), std::string::npos) << c.where();
  }
}

TEST(provenance, a_not_is_grounded_by_what_grounds_the_constraints_under_it) {
  // Sourced inside: the `not` is sourced, as the shipped description's
  // KnowledgeBaseSourceFields (section 4.1: the wrapper key is never a field).
  const api_spec shipped_spec = load_ok(std::string(CONFORM_SPEC_DIR) + "/voice-api.yaml");
  const auto shipped_all = constraint_grounds(shipped_spec);
  const auto* wrapper = find(shipped_all, "#/components/schemas/KnowledgeBaseSourceFields/not");
  ASSERT_NE(wrapper, nullptr);
  EXPECT_TRUE(wrapper->grounded());
  EXPECT_FALSE(wrapper->assumed()) << wrapper->text();
  EXPECT_NE(wrapper->text().find("section 4.1"), std::string::npos) << wrapper->text();
  // Assumed inside: the `not` is assumed, and marked on its node.
  const api_spec spec = load_ok(provenance_data + "/subschemas.yaml");
  const schema::schema& node = node_at(spec, "#/components/schemas/not");
  const auto* a = node.assumption_for("not");
  ASSERT_NE(a, nullptr);
  EXPECT_NE(a->text.find("P-not: no secret is sent"), std::string::npos) << a->text;
}

TEST(provenance, relaxed_validation_drops_an_assumed_constraint_inside_each_subschema) {
  const api_spec spec = load_ok(provenance_data + "/subschemas.yaml");
  const schema::validation_options relaxed{.assumptions = schema::assumption_mode::relaxed};
  for (const auto& p : positions()) {
    SCOPED_TRACE(p.position);
    const schema::schema& s = node_at(spec, "#/components/schemas/" + p.position);
    const auto breaks = boost::json::parse(p.breaks);
    EXPECT_FALSE(schema::is_valid(s, breaks)) << p.breaks;
    const auto r = schema::validate(s, breaks, relaxed);
    EXPECT_TRUE(r.ok()) << p.breaks;
    std::string named;
    for (const auto& h : r.assumed) named += h.message + "\n";
    EXPECT_NE(named.find(p.reason), std::string::npos) << named;
    EXPECT_TRUE(schema::validate(s, boost::json::parse(p.obeys), relaxed).assumed.empty())
        << p.obeys;
    // The sourced type is kept.
    EXPECT_FALSE(schema::validate(s, boost::json::value("text"), relaxed).ok());
  }
  // Not judged: a value that breaks `then` is valid, and nothing is named.
  const schema::schema& cond = node_at(spec, "#/components/schemas/if");
  const auto r = schema::validate(cond, boost::json::parse(R"({"name":"n"})"), relaxed);
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(r.assumed.empty());
}

/// negative_data_rejection's verdict on `body` sent to `op` and accepted.
harness::check_verdict accepted(const api_spec& spec, const operation& op,
                                const std::string& body) {
  static const auto catalogue = suites::builtin_checks();
  const auto* entry = catalogue.find("negative_data_rejection");
  EXPECT_NE(entry, nullptr);
  harness::auth_model auth{"none", nullptr, "", ""};
  generators::request_mode mode{generators::request_mutation::invalid_body, "body", "planted",
                                std::nullopt};
  http::request req;
  req.method = http::verb::post;
  req.target = op.path;
  req.body = body;
  req.add_header("Content-Type", "application/json");
  http::response res;
  res.status = 200;
  res.body = "{}";
  http::result result{res};
  const boost::json::value json = boost::json::parse(res.body);
  harness::exchange e{spec, op, auth, mode, req, result, &json, ""};
  return entry->exchange->run(e);
}

TEST(provenance, an_invalid_value_that_breaks_an_assumption_inside_a_subschema_names_it) {
  // The generators break each constraint; a server that accepts the value
  // fails negative_data_rejection, and the failure names the planted
  // assumption exactly when the broken part is the one inside.
  const api_spec spec = load_ok(provenance_data + "/subschemas.yaml");
  for (const auto& p : positions()) {
    SCOPED_TRACE(p.position);
    const operation& op = *spec.find_operation("post_" + p.position);
    const auto gen = generators::invalid_values(*op.body->content.front().schema);
    ASSERT_TRUE(gen.has_value());
    int inside = 0;
    for (int i = 0; i < 60; ++i) {
      const auto v = (*gen)(rc::Random(static_cast<std::uint64_t>(i) + 1), 20).value();
      ASSERT_TRUE(v.json.has_value());
      const auto verdict = accepted(spec, op, v.body());
      ASSERT_EQ(verdict.what, harness::check_verdict::kind::violation) << v.description;
      const auto body_schema_says =
          schema::validate(*op.body->content.front().schema, *v.json,
                           {.assumptions = schema::assumption_mode::relaxed});
      if (body_schema_says.ok()) {
        ++inside;
        std::string named;
        for (const auto& a : verdict.assumptions) named += a + "\n";
        EXPECT_NE(named.find(p.reason), std::string::npos) << v.description << ": " << v.body();
      } else {
        EXPECT_TRUE(verdict.assumptions.empty()) << v.description << ": " << v.body();
      }
    }
    EXPECT_GT(inside, 0) << "no value broke the constraint inside";
  }
}

}  // namespace
}  // namespace conform::openapi
