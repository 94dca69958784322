// The generators over the shipped description (loaded by conform_spec):
// every operation yields valid requests, invalid ones where something can be
// broken, and response values that validate, envelope included.

#include "tests/generators/rc_support.hpp"

#include <boost/json/parse.hpp>

#include "generators/request.hpp"
#include "generators/value.hpp"
#include "schema/validator.hpp"
#include "openapi/loader.hpp"

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
