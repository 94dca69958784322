// Whole requests from hand-built operations: valid requests are valid in
// every part as a server reads them; invalid ones have exactly one part wrong,
// the one their mode names.

#include "tests/generators/rc_support.hpp"

#include <boost/json/parse.hpp>

#include <algorithm>
#include <map>
#include <thread>

#include "generators/request.hpp"
#include "tests/generators/request_support.hpp"

namespace conform::generators {
namespace {

using boost::json::value;
using testing::api;
using testing::fixture_of;
using testing::parse_multipart;
using testing::problems;
using testing::report;
using testing::split;

TEST(request, valid_requests_are_valid_in_every_part) {
  const api a;
  for (const openapi::operation* op : a.all()) {
    SCOPED_TRACE(op->operation_id);
    const auto g = valid_request(*op, fixture_of);
    testing::expect_success(testing::run_property([&] {
      const generated_request r = *g;
      RC_ASSERT(r.mode.valid());
      RC_ASSERT(r.op == op);
      RC_ASSERT(r.method == op->method);
      const auto wrong = problems(*op, r);
      RC_ASSERT((wrong.empty() ? std::string() : report(r, wrong)) == std::string());
    }));
  }
}

TEST(request, invalid_requests_have_exactly_the_named_part_wrong) {
  const api a;
  for (const openapi::operation* op : a.all()) {
    SCOPED_TRACE(op->operation_id);
    const auto g = invalid_request(*op, fixture_of);
    if (!g) continue;
    testing::expect_success(testing::run_property([&] {
      const generated_request r = **g;
      RC_ASSERT(!r.mode.valid());
      const auto wrong = problems(*op, r);
      RC_ASSERT((wrong.size() == 1u ? std::string() : report(r, wrong)) == std::string());
      const std::string& what = wrong.front();
      switch (r.mode.mutation) {
        case request_mutation::invalid_path_param:
          RC_ASSERT(what == "invalid " + r.mode.where);
          break;
        case request_mutation::invalid_query_param:
        case request_mutation::invalid_header_param:
        case request_mutation::invalid_cookie_param:
          RC_ASSERT(what == "invalid " + r.mode.where);
          break;
        case request_mutation::missing_param:
          RC_ASSERT(what == "missing " + r.mode.where);
          break;
        case request_mutation::invalid_body:
          RC_ASSERT(what == "invalid body");
          break;
        case request_mutation::missing_body:
          RC_ASSERT(what == "missing body");
          break;
        case request_mutation::malformed_body:
          RC_ASSERT(what == "malformed body");
          break;
        case request_mutation::wrong_content_type:
          RC_ASSERT(what == "wrong content type text/plain");
          break;
        case request_mutation::same_as_mismatch:
          RC_ASSERT(what == "same_as " + r.mode.where);
          break;
        case request_mutation::columns_not_in_header:
          RC_FAIL("x-columns-of is broken by the coverage phase alone");
        case request_mutation::none:
          RC_FAIL("an invalid request in valid mode");
      }
    }));
  }
}

TEST(request, the_property_catches_a_request_checked_against_a_stricter_operation) {
  api a;
  const auto g = valid_request(a.list, fixture_of);
  openapi::operation stricter = a.list;
  stricter.parameters[0].required = true;  // page: sent only half of the time
  const auto result = testing::run_property([&] {
    const generated_request r = *g;
    RC_ASSERT(problems(stricter, r).empty());
  });
  EXPECT_TRUE(result.is<rc::detail::FailureResult>());
}

TEST(request, path_ids_come_from_fixtures) {
  const api a;
  const auto g = valid_request(a.cancel, fixture_of);
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const generated_request r = g(rc::Random(seed), 50).value();
    EXPECT_EQ(r.path, "/follow-ups/5001");
    ASSERT_EQ(r.fixtures_used.size(), 1u);
    EXPECT_EQ(r.fixtures_used[0], std::make_pair(std::string("id"), std::string("5001")));
  }
}

TEST(request, path_values_are_percent_encoded_and_never_empty) {
  const api a;
  const auto g = valid_request(a.answer, nullptr);
  bool encoded = false;
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    const generated_request r = g(rc::Random(seed), 100).value();
    const std::string provider = split(r.path, '/')[2];
    EXPECT_FALSE(provider.empty());
    EXPECT_EQ(provider.find('/'), std::string::npos);
    EXPECT_EQ(provider.find(' '), std::string::npos);
    encoded = encoded || provider.find('%') != std::string::npos;
  }
  EXPECT_TRUE(encoded);
}

TEST(request, runner_headers_are_left_to_the_runner) {
  const api a;
  request_options options;
  options.runner_headers = {"x-tenant-id"};
  const auto g = valid_request(a.list, fixture_of, options);
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const generated_request r = g(rc::Random(seed), 50).value();
    EXPECT_TRUE(r.headers.empty());
  }
  const auto kinds = request_mutations(a.list, fixture_of, options);
  EXPECT_TRUE(std::none_of(kinds.begin(), kinds.end(), [](const std::string& k) {
    return k.find("X-Tenant-Id") != std::string::npos;
  }));
  const auto with = request_mutations(a.list, fixture_of);
  EXPECT_NE(std::find(with.begin(), with.end(), "missing_param header X-Tenant-Id"), with.end());
}

TEST(request, mutations_list_what_can_be_broken) {
  const api a;
  const auto create = request_mutations(a.create, fixture_of);
  for (const char* expected :
       {"invalid_header_param header Idempotency-Key", "invalid_body body", "malformed_body body",
        "missing_body body", "wrong_content_type body"}) {
    EXPECT_NE(std::find(create.begin(), create.end(), expected), create.end()) << expected;
  }
  const auto list = request_mutations(a.list, fixture_of);
  for (const char* expected :
       {"invalid_query_param query page", "invalid_query_param query per_page",
        "invalid_query_param query status", "invalid_query_param query ids",
        "missing_param query ids"}) {
    EXPECT_NE(std::find(list.begin(), list.end(), expected), list.end()) << expected;
  }
  // The fixture-filled id is still broken on purpose (its schema constrains it);
  // an unconstrained path string is not.
  const auto cancel = request_mutations(a.cancel, fixture_of);
  EXPECT_NE(std::find(cancel.begin(), cancel.end(), "invalid_path_param path id"), cancel.end());
  const auto answer = request_mutations(a.answer, fixture_of);
  EXPECT_EQ(std::find(answer.begin(), answer.end(), "invalid_path_param path provider"),
            answer.end());
  EXPECT_FALSE(invalid_request(a.health, fixture_of).has_value());
}

TEST(request, multipart_bodies_use_encoding_and_examples) {
  const api a;
  const auto g = valid_request(a.import, fixture_of);
  int examples = 0, generated = 0;
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    const generated_request r = g(rc::Random(seed), 50).value();
    ASSERT_EQ(r.content_type.rfind("multipart/form-data; boundary=conform-", 0), 0u);
    const auto parts = parse_multipart(r.body, r.content_type);
    std::map<std::string, generators::form_part> by_name;
    for (const auto& p : parts) by_name[p.name] = p;
    ASSERT_TRUE(by_name.count("file"));
    ASSERT_TRUE(by_name.count("column_mapping"));
    EXPECT_EQ(by_name["file"].content_type, "text/csv");
    EXPECT_NE(r.body.find("filename=\"file.csv\""), std::string::npos);
    EXPECT_EQ(by_name["column_mapping"].content_type, "application/json");
    EXPECT_NE(by_name["file"].content.find('\n'), std::string::npos);  // a header row at least
    (r.body_from_example ? examples : generated)++;
  }
  EXPECT_GT(examples, 0);
  EXPECT_GT(generated, 0);
}

TEST(request, body_fixtures_come_from_the_value_options) {
  const api a;
  request_options options;
  options.values.fixture = [](std::string_view name) -> std::optional<std::string> {
    return name == "agent_id" ? std::optional<std::string>("11") : std::nullopt;
  };
  const auto g = valid_request(a.create, fixture_of, options);
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    const auto r = g(rc::Random(seed), 50).value();
    EXPECT_EQ(boost::json::parse(r.body).at("agent_id"), value(11));
  }
}

TEST(request, generation_from_several_threads_matches_one_thread) {
  const api a;
  const auto valid = valid_request(a.import, fixture_of);
  const auto invalid = invalid_request(a.create, fixture_of);
  ASSERT_TRUE(invalid.has_value());
  auto render = [&](std::uint64_t seed) {
    const auto v = valid(rc::Random(seed), 50).value();
    const auto i = (*invalid)(rc::Random(seed), 50).value();
    return v.target() + v.body + "|" + i.target() + i.body + i.mode.description;
  };
  constexpr std::uint64_t n = 40;
  std::vector<std::string> expected;
  for (std::uint64_t seed = 0; seed < n; ++seed) expected.push_back(render(seed));
  std::vector<std::vector<std::string>> got(4);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < got.size(); ++t) {
    threads.emplace_back([&, t] {
      for (std::uint64_t seed = 0; seed < n; ++seed) got[t].push_back(render(seed));
    });
  }
  for (auto& th : threads) th.join();
  for (const auto& g : got) EXPECT_EQ(g, expected);
}

TEST(same_as, valid_requests_keep_the_body_id_equal_to_the_path) {
  const api a;
  const auto g = valid_request(a.memory, fixture_of);
  int carried = 0;
  for (std::uint64_t seed = 0; seed < 60; ++seed) {
    const auto r = g(rc::Random(seed), 30).value();
    const value body = boost::json::parse(r.body);
    if (const auto* id = body.as_object().if_contains("contact_id")) {
      ++carried;
      EXPECT_EQ(*id,
                value(r.path.substr(std::string("/contacts/").size(), r.path.find("/memory") - 10)))
          << r.path << " " << r.body;
    }
  }
  EXPECT_GT(carried, 0);
}

TEST(same_as, the_mismatch_is_a_site_of_its_own_and_the_only_thing_wrong) {
  const api a;
  // A case of the coverage phase, not a random site (request_mutations).
  const auto sites = request_mutations(a.memory, fixture_of);
  EXPECT_EQ(std::find(sites.begin(), sites.end(), "same_as_mismatch body /contact_id"),
            sites.end());
  bool found = false;
  for (const auto& c : coverage_cases(a.memory, fixture_of)) {
    if (c.constraint.rfind("same_as_mismatch", 0) != 0) continue;
    found = true;
    const auto r = testing::first_sample(c);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(problems(a.memory, *r), std::vector<std::string>{"same_as body /contact_id"});
  }
  EXPECT_TRUE(found);
}

TEST(request, query_encoding) {
  EXPECT_EQ(encode_query({{"a", "1"}, {"b c", "x y&z=/é"}}), "a=1&b%20c=x%20y%26z%3D%2F%C3%A9");
  generated_request r;
  r.path = "/x";
  EXPECT_EQ(r.target(), "/x");
  r.query = {{"page", "2"}};
  EXPECT_EQ(r.target(), "/x?page=2");
  EXPECT_EQ(to_string(request_mutation::wrong_content_type), "wrong_content_type");
}

}  // namespace
}  // namespace conform::generators
