// The one check catalogue: both kinds of checks under one namespace of
// names, a duplicate refused loudly, and the selection --checks makes.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <fstream>
#include <iterator>
#include <stdexcept>

#include "harness/catalogue.hpp"
#include "openapi/loader.hpp"
#include "suites/registry.hpp"

namespace conform::harness {
namespace {

exchange_check exchange_named(std::string name) {
  return {{std::move(name), "d", "r"}, applies_to::both, [](const exchange&) {
            return check_verdict::pass();
          }};
}

scenario scenario_named(std::string name, std::vector<std::string> checks) {
  scenario s;
  s.name = std::move(name);
  for (auto& c : checks) s.checks.push_back({std::move(c), "d", "r"});
  s.run = [](scenario_context&, results_sink&, const check_enabled&) {};
  return s;
}

TEST(catalogue, holds_both_kinds_in_the_order_added) {
  check_catalogue c;
  c.add(exchange_named("a"));
  c.add(scenario_named("s", {"b", "c"}));
  ASSERT_EQ(c.all().size(), 3u);
  EXPECT_EQ(c.all()[0].info->name, "a");
  EXPECT_EQ(c.all()[0].kind, check_kind::per_exchange);
  EXPECT_EQ(c.all()[2].info->name, "c");
  EXPECT_EQ(c.all()[2].kind, check_kind::scenario);
  EXPECT_EQ(c.find("b")->procedure, c.find("c")->procedure);
  EXPECT_EQ(c.find("nope"), nullptr);
}

TEST(catalogue, refuses_a_second_check_of_the_same_name_whatever_its_kind) {
  check_catalogue c;
  c.add(exchange_named("a"));
  EXPECT_THROW(c.add(exchange_named("a")), std::logic_error);
  EXPECT_THROW(c.add(scenario_named("s", {"a"})), std::logic_error);
  EXPECT_THROW(c.add(scenario_named("t", {"x", "x"})), std::logic_error);
}

TEST(catalogue, selects_every_check_or_those_named_and_refuses_an_unknown_name) {
  check_catalogue c;
  c.add(exchange_named("a"));
  c.add(scenario_named("first", {"b"}));
  c.add(scenario_named("second", {"c", "d"}));
  auto all = c.select({});
  ASSERT_TRUE(all);
  EXPECT_EQ(all->names(), (std::vector<std::string>{"a", "b", "c", "d"}));
  EXPECT_EQ(all->scenarios.size(), 2u);

  // Scenarios run in catalogue order, whatever order they were named in.
  auto some = c.select({"d", "b"});
  ASSERT_TRUE(some);
  EXPECT_TRUE(some->exchange.empty());
  ASSERT_EQ(some->scenarios.size(), 2u);
  EXPECT_EQ(some->scenarios[0]->name, "first");
  EXPECT_TRUE(some->enabled("d"));
  EXPECT_FALSE(some->enabled("c"));

  const auto unknown = c.select({"a", "zzz"});
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error(), "zzz");
}

TEST(catalogue, the_builtin_checks_have_distinct_names_descriptions_and_rules) {
  const auto c = suites::builtin_checks();  // would throw on a duplicate
  ASSERT_FALSE(c.all().empty());
  for (const auto& e : c.all()) {
    EXPECT_FALSE(e.info->description.empty()) << e.info->name;
    EXPECT_FALSE(e.info->rule.empty()) << e.info->name;
  }
}

}  // namespace
}  // namespace conform::harness

namespace conform::harness {
namespace {

// A pattern the engine cannot judge within its limits makes the schema check
// say "not run: why" for that exchange: never a pass, never a failure.
TEST(verdicts, a_pattern_too_costly_to_judge_is_not_run) {
  const std::string file = ::testing::TempDir() + "/costly.yaml";
  {
    std::string text;
    std::ifstream in(std::string(CONFORM_TEST_DATA_DIR) + "/mini.yaml");
    text.assign(std::istreambuf_iterator<char>(in), {});
    const std::string plain = "name: { type: string }";
    text.replace(text.find(plain), plain.size(), R"(name: { type: string, pattern: '^(a*)*\1$' })");
    std::ofstream(file) << text;
  }
  auto loaded = openapi::load(file);
  ASSERT_TRUE(loaded.ok());
  const auto& op = *loaded.spec->find_operation("getItem");
  const auto catalogue = suites::builtin_checks();
  const auto* check = catalogue.find("response_schema_conformance");
  ASSERT_TRUE(check && check->exchange);

  http::response answer;
  answer.status = 200;
  answer.body = R"({"data":{"id":"7","name":")" + std::string(100000, 'a') +
                R"(b"},"message":null,"meta":null,"request_id":"r1"})";
  answer.headers.push_back({http::field::content_type, "Content-Type", "application/json"});
  http::result result;
  result.outcome = answer;
  const auto json = boost::json::parse(answer.body);
  const auth_model none{"none", nullptr, {}, {}};
  const generators::request_mode valid;
  const http::request request;
  const exchange e{*loaded.spec, op, none, valid, request, result, &json, {}};

  const check_verdict v = check->exchange->run(e);
  EXPECT_EQ(v.what, check_verdict::kind::not_run) << v.seen;
  EXPECT_NE(v.seen.find("pattern"), std::string::npos) << v.seen;
}

}  // namespace
}  // namespace conform::harness
