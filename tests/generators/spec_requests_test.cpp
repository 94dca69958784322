// The generators over the shipped description (loaded by conform_spec):
// every operation yields valid requests, invalid ones where something can be
// broken, and response values that validate, envelope included.

#include "tests/generators/rc_support.hpp"

#include <boost/json/parse.hpp>

#include "generators/request.hpp"
#include "generators/value.hpp"
#include "schema/validator.hpp"
#include "openapi/loader.hpp"
#include "tests/generators/request_support.hpp"

namespace conform::generators {
namespace {

const openapi::load_result& loaded() {
  static const openapi::load_result result =
      openapi::load(std::string(CONFORM_SPEC_DIR) + "/voice-api.yaml");
  return result;
}

const openapi::api_spec& shipped() {
  return *loaded().spec;
}

std::optional<std::string> any_fixture(const openapi::parameter& p) {
  if (p.resource) return "1001";
  return std::nullopt;
}

class shipped_spec : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!loaded().ok()) {
      std::string why;
      for (const auto& d : loaded().diagnostics) why += core::to_string(d) + "\n";
      FAIL() << "the shipped description does not load:\n" << why;
    }
  }
};

TEST_F(shipped_spec, every_operation_yields_requests) {
  const auto& api = shipped();
  ASSERT_FALSE(api.operations.empty());
  for (const auto& op : api.operations) {
    SCOPED_TRACE(op.operation_id);
    const auto valid = valid_request(op, any_fixture);
    for (std::uint64_t seed = 0; seed < 30; ++seed) {
      const generated_request r = valid(rc::Random(seed), static_cast<int>(seed * 3)).value();
      EXPECT_TRUE(r.mode.valid());
      EXPECT_EQ(r.path.find('{'), std::string::npos) << r.path;
      if (r.content_type == "application/json") {
        const auto* media = op.body->content.front().schema;
        EXPECT_TRUE(schema::is_valid(*media, boost::json::parse(r.body))) << r.body;
      }
    }
    if (const auto invalid = invalid_request(op, any_fixture)) {
      for (std::uint64_t seed = 0; seed < 30; ++seed) {
        const generated_request r = (*invalid)(rc::Random(seed), 50).value();
        EXPECT_FALSE(r.mode.valid());
        EXPECT_FALSE(r.mode.description.empty());
      }
    }
  }
}

/// The mapping's keys, and the CSV header's cells (trimmed), of an import body.
std::pair<std::vector<std::string>, std::vector<std::string>> columns_of(
    const generated_request& r) {
  std::vector<std::string> keys, header;
  for (const auto& part : testing::parse_multipart(r.body, r.content_type)) {
    if (part.name == "column_mapping") {
      const boost::json::value mapping = boost::json::parse(part.content);
      for (const auto& m : mapping.as_object()) keys.emplace_back(m.key());
    } else if (part.name == "file") {
      const std::string line = part.content.substr(0, part.content.find('\n'));
      for (auto cell : testing::split(line, ',')) {
        while (!cell.empty() && cell.front() == ' ') cell.erase(cell.begin());
        while (!cell.empty() && cell.back() == ' ') cell.pop_back();
        header.push_back(cell);
      }
    }
  }
  return {keys, header};
}

TEST_F(shipped_spec, imports_keep_their_mapped_columns_in_the_csv_header_but_one_case) {
  // x-columns-of (D5.4): every valid import maps columns its file's header
  // has; the one coverage case that breaks it maps exactly one it lacks.
  const auto& op = *shipped().find_operation("importContacts");
  const auto valid = valid_request(op, any_fixture);
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    const generated_request r = valid(rc::Random(seed), static_cast<int>(seed * 2)).value();
    const auto [keys, header] = columns_of(r);
    for (const auto& k : keys) {
      EXPECT_NE(std::find(header.begin(), header.end(), k), header.end())
          << k << " not in the header of\n"
          << r.body;
    }
  }
  int cases = 0;
  for (const auto& c : coverage_cases(op, any_fixture)) {
    if (c.keyword != "x-columns-of") continue;
    ++cases;
    for (std::uint64_t seed = 0; seed < 10; ++seed) {
      const generated_request r = c.gen(rc::Random(seed), 10).value();
      EXPECT_EQ(r.mode.mutation, request_mutation::columns_not_in_header);
      const auto [keys, header] = columns_of(r);
      int absent = 0;
      for (const auto& k : keys)
        absent += std::find(header.begin(), header.end(), k) == header.end();
      EXPECT_EQ(absent, 1) << r.body;
    }
  }
  EXPECT_EQ(cases, 1);
}

TEST_F(shipped_spec, every_pattern_is_in_the_generator_subset) {
  const auto& api = shipped();
  for (const auto& op : api.operations) {
    for (const auto& p : op.parameters) {
      if (p.schema) {
        EXPECT_EQ(unsupported_patterns(*p.schema), std::vector<std::string>{});
      }
    }
    if (op.body) {
      for (const auto& m : op.body->content) {
        if (m.schema) {
          EXPECT_EQ(unsupported_patterns(*m.schema), std::vector<std::string>{});
        }
      }
    }
  }
}

TEST_F(shipped_spec, generated_responses_conform_to_their_schema_and_envelope) {
  const auto& api = shipped();
  ASSERT_NE(api.rules.success_envelope, nullptr);
  ASSERT_NE(api.rules.error_envelope, nullptr);
  int checked = 0;
  for (const auto& op : api.operations) {
    for (const auto& resp : op.responses) {
      for (const auto& media : resp.content) {
        if (media.schema == nullptr || media.name.find("json") == std::string::npos) continue;
        SCOPED_TRACE(op.operation_id + " " + std::to_string(resp.status));
        const auto g = valid_value(*media.schema);
        const schema::schema* envelope = resp.status >= 200 && resp.status < 300
                                             ? api.rules.success_envelope
                                             : api.rules.error_envelope;
        testing::expect_success(testing::run_property(
            [&] {
              const boost::json::value v = *g;
              RC_ASSERT(schema::is_valid(*media.schema, v));
              if (v.is_object()) RC_ASSERT(schema::is_valid(*envelope, v));
            },
            20261122, 20));
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 20);
}

}  // namespace
}  // namespace conform::generators
