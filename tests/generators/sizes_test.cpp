// Generated requests stay within what HTTP servers take (a URL of 8000
// bytes, a header field of 4096), whatever a schema allows, unless the
// schema forces more; and a request whose every value is documented says so.
#include "tests/generators/rc_support.hpp"

#include <string>

#include "core/text.hpp"
#include "generators/style.hpp"
#include "generators/wire.hpp"
#include "generators/request.hpp"

namespace conform::generators {
namespace {

using openapi::param_location;

openapi::parameter param(std::string name, param_location in, const schema::schema& s,
                         bool required = false) {
  openapi::parameter p;
  p.name = std::move(name);
  p.in = in;
  p.required = required;
  p.schema = &s;
  return p;
}

std::optional<generated_request> sample(const rc::Gen<generated_request>& g, std::uint64_t seed,
                                        int size, std::string* why = nullptr) {
  try {
    return g(rc::Random(seed), size).value();
  } catch (const std::exception& ex) {
    if (why) *why = ex.what();
    return std::nullopt;
  }
}

struct sized_api {
  testing::schemas make;
  openapi::operation op;
  sized_api() {
    op.operation_id = "echo";
    op.path = "/echo";
    op.parameters = {
        param("X-Trace", param_location::header, make(R"({"type": "string", "maxLength": 32768})")),
        param("q", param_location::query, make(R"({"type": "string", "maxLength": 100000})")),
        param("big", param_location::query,
              make(R"({"type": "string", "minLength": 5000, "maxLength": 5010})"))};
  }
};

TEST(sizes, valid_and_invalid_values_stay_within_what_servers_take_unless_forced) {
  sized_api a;
  request_options opts;
  opts.optional_param_percent = 100;
  const auto valid = valid_request(a.op, nullptr, opts);
  const auto invalid = invalid_request(a.op, nullptr, opts);
  ASSERT_TRUE(invalid.has_value());
  for (std::uint64_t seed = 1; seed <= 25; ++seed) {
    for (const auto& g : {valid, *invalid}) {
      auto r = sample(g, seed, static_cast<int>(seed * 4));
      if (!r) continue;
      for (const auto& [name, value] : r->headers) {
        EXPECT_LE(value.size(), generators::max_field_bytes) << name << " " << r->mode.key();
      }
      for (const auto& [name, value] : r->query) {
        if (name == "big") {
          // minLength 5000 forces more than a server may take: still sent,
          // valid (an invalid one may be shorter or longer).
          if (r->mode.valid()) {
            EXPECT_GE(core::code_points(value), 5000u);
          }
        } else {
          EXPECT_LE(generators::encode_query_value(value, false).size(),
                    generators::max_param_url_bytes)
              << name << " " << r->mode.key();
        }
      }
    }
  }
}

TEST(sizes, a_boundary_beyond_what_servers_take_is_not_covered_and_says_why) {
  sized_api a;
  std::map<std::string, std::string> why;
  for (const auto& c : coverage_cases(a.op, nullptr)) {
    std::string error;
    std::optional<generated_request> r;
    for (std::uint64_t seed = 0; seed < 4 && !r; ++seed) r = sample(c.gen, seed, 0, &error);
    if (!r) why[c.constraint] = error;
  }
  const auto header = why.find("boundary header X-Trace /: a string of exactly maxLength 32768");
  ASSERT_NE(header, why.end()) << "a 32 KiB header was sent";
  EXPECT_NE(header->second.find("bytes HTTP servers take in one field"), std::string::npos)
      << header->second;
  const auto query = why.find("boundary query q /: a string of exactly maxLength 100000");
  ASSERT_NE(query, why.end()) << "a 100 KB query value was sent";
  EXPECT_NE(query->second.find("RFC 9110 section 4.1"), std::string::npos) << query->second;
  // The forced parameter's boundaries are sent as they are.
  EXPECT_FALSE(why.count("boundary query big /: a string of exactly minLength 5000"));
  EXPECT_FALSE(why.count("boundary query big /: a string of exactly maxLength 5010"));
}

TEST(sizes, oversized_says_where_and_how_much) {
  using generators::oversized;
  EXPECT_FALSE(oversized(param_location::header, {{"X-A", std::string(4000, 'a')}}));
  const auto big = oversized(param_location::header, {{"X-A", std::string(5000, 'a')}});
  ASSERT_TRUE(big);
  EXPECT_EQ(big->rfind("header value of 5005 bytes", 0), 0u) << *big;
  EXPECT_FALSE(oversized(param_location::query, {{"q", std::string(3000, 'a')}}));
  EXPECT_TRUE(oversized(param_location::query, {{"q", std::string(3000, ' ')}}));  // %20 each
  EXPECT_TRUE(oversized(param_location::path, {{"id", std::string(4001, 'a')}}));
}

// A documented request: every value an example or a fixture.
TEST(documented, a_request_of_documented_values_only_is_marked) {
  testing::schemas make;
  openapi::operation op;
  op.operation_id = "create";
  op.method = http::verb::post;
  op.path = "/items/{id}";
  op.parameters = {param("id", param_location::path, make(R"({"type": "string"})"), true),
                   param("mode", param_location::query,
                         make(R"({"type": "string", "examples": ["fast"]})"), true)};
  op.parameters[0].resource = openapi::resource_ref{"item", "item_id", "ITEM_NOT_FOUND"};
  op.body = openapi::request_body{};
  op.body->required = true;
  openapi::media_type json{"application/json",
                           &make(R"({"type": "object", "properties": {"n": {"type": "integer"}}})"),
                           {},
                           {},
                           {}};
  json.examples.push_back(boost::json::parse(R"({"n": 3})"));
  op.body->content.push_back(std::move(json));
  const fixture_lookup fixtures = [](const openapi::parameter& p) -> std::optional<std::string> {
    if (p.resource) return std::string("7");
    return std::nullopt;
  };
  request_options opts;
  opts.values.example_percent = 50;
  bool documented = false, undocumented = false;
  for (std::uint64_t seed = 1; seed <= 80; ++seed) {
    auto r = sample(valid_request(op, fixtures, opts), seed, 20);
    ASSERT_TRUE(r);
    const bool all_shown =
        r->body_from_example && r->body == R"({"n":3})" && r->target() == "/items/7?mode=fast";
    EXPECT_EQ(r->documented, all_shown) << r->target() << " " << r->body;
    documented = documented || r->documented;
    undocumented = undocumented || !r->documented;
  }
  EXPECT_TRUE(documented);
  EXPECT_TRUE(undocumented);
}

}  // namespace
}  // namespace conform::generators
