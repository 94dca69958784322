// What the shipped description says to tools other than Conform (issue 14):
// every response declares X-Request-Id (D1.5), every 429 Retry-After (D6.1),
// every answer an idempotent operation may replay Idempotent-Replayed (D4.2),
// and every error response an `error_code` enum that is exactly its
// `x-error-codes` (Conform's extension), so the two never disagree; and
// every operation declares each status the root extensions imply for it
// (x-errors, x-rate-limit, x-limits: issue 22), so no tool calls it undocumented.

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "openapi/loader.hpp"

namespace conform::openapi {
namespace {

class tool_facing : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    result_ = new load_result(load(std::string(CONFORM_SPEC_DIR) + "/voice-api.yaml"));
  }
  static void TearDownTestSuite() {
    delete result_;
    result_ = nullptr;
  }
  static const api_spec& spec() { return *result_->spec; }
  void SetUp() override { ASSERT_TRUE(result_->ok()) << "the shipped description does not load"; }

 private:
  static load_result* result_;
};

load_result* tool_facing::result_ = nullptr;

std::string where(const operation& op, const response& r) {
  return op.operation_id + " " + std::to_string(r.status);
}

const header_def* find_header(const response& r, std::string_view name) {
  for (const auto& h : r.headers) {
    if (h.name == name) return &h;
  }
  return nullptr;
}

/// The `enum` of property `name` wherever the schema (through $ref and
/// allOf) constrains it; nullopt when nothing does, and a test failure when
/// two places give different lists (a tool would see their intersection).
std::optional<std::vector<std::string>> property_enum(const schema::schema& s,
                                                      std::string_view name, int depth = 0) {
  if (depth > 16) return std::nullopt;
  const schema::schema& r = s.resolved();
  std::optional<std::vector<std::string>> found;
  auto take = [&](std::optional<std::vector<std::string>> e) {
    if (!e) return;
    if (found && *found != *e)
      ADD_FAILURE() << "two different enums of " << name << " in " << r.location;
    found = std::move(e);
  };
  if (const schema::schema* p = r.property(name)) {
    const schema::schema& pr = p->resolved();
    if (!pr.enum_values.empty()) {
      std::vector<std::string> values;
      for (const auto& v : pr.enum_values) {
        values.push_back(v.is_string() ? std::string(v.as_string()) : "<not a string>");
      }
      take(values);
    }
  }
  for (const schema::schema* sub : r.all_of) take(property_enum(*sub, name, depth + 1));
  return found;
}

const schema::schema* json_schema(const response& r) {
  const media_type* m = r.find("application/json");
  return m ? m->schema : nullptr;
}

TEST_F(tool_facing, every_response_declares_x_request_id) {
  int seen = 0;
  for (const auto& op : spec().operations) {
    for (const auto& r : op.responses) {
      const header_def* h = find_header(r, spec().rules.request_id_header);
      ASSERT_NE(h, nullptr) << where(op, r) << " does not declare "
                            << spec().rules.request_id_header;
      EXPECT_TRUE(h->required) << where(op, r);
      ASSERT_NE(h->schema, nullptr) << where(op, r);
      EXPECT_EQ(h->schema->resolved().pattern.value_or(""), spec().rules.request_id_pattern)
          << where(op, r) << ": the header's pattern is x-request-id's";
      ++seen;
    }
  }
  EXPECT_GT(seen, 100);
}

TEST_F(tool_facing, every_429_declares_retry_after) {
  int seen = 0;
  for (const auto& op : spec().operations) {
    for (const auto& r : op.responses) {
      if (r.status != spec().rules.rate_limited_status) continue;
      const header_def* h = find_header(r, spec().rules.retry_after_header);
      ASSERT_NE(h, nullptr) << where(op, r);
      EXPECT_TRUE(h->required) << where(op, r);
      ASSERT_NE(h->schema, nullptr) << where(op, r);
      EXPECT_TRUE(h->schema->resolved().types.only(schema::json_type::integer)) << where(op, r);
      ++seen;
    }
  }
  EXPECT_GE(seen, 17);  // every operation that takes credentials
}

TEST_F(tool_facing, answers_an_idempotent_operation_may_replay_declare_the_replay_header) {
  int seen = 0;
  for (const auto& op : spec().operations) {
    if (!op.idempotent) continue;
    const std::string& name = op.idempotent->replayed_header;
    for (const auto& r : op.responses) {
      // Stored and replayed (D4.2, D6.3): answers decided after the
      // idempotency store, i.e. the success, the path's or body's resource
      // 404 and the body's 422.
      const bool replayable =
          (r.status >= 200 && r.status < 300) || r.status == 404 || r.status == 422;
      const header_def* h = find_header(r, name);
      if (!replayable) continue;
      ASSERT_NE(h, nullptr) << where(op, r) << " does not declare " << name;
      EXPECT_FALSE(h->required) << where(op, r) << ": a first answer has no " << name;
      ASSERT_NE(h->schema, nullptr) << where(op, r);
      ASSERT_EQ(h->schema->resolved().enum_values.size(), 1U) << where(op, r);
      EXPECT_EQ(h->schema->resolved().enum_values.front(), boost::json::value("true"))
          << where(op, r);
      ++seen;
    }
  }
  EXPECT_GE(seen, 7 * 2);
}

TEST_F(tool_facing, error_code_enums_and_x_error_codes_never_disagree) {
  int seen = 0;
  for (const auto& op : spec().operations) {
    for (const auto& r : op.responses) {
      if (r.status < 400) continue;
      const schema::schema* s = json_schema(r);
      ASSERT_NE(s, nullptr) << where(op, r) << " has no JSON body";
      EXPECT_FALSE(r.error_codes.empty()) << where(op, r) << " has no x-error-codes";
      const auto values = property_enum(*s, "error_code");
      ASSERT_TRUE(values.has_value()) << where(op, r) << ": error_code has no enum";
      EXPECT_EQ(*values, r.error_codes) << where(op, r) << ": the enum and x-error-codes differ";
      const std::set<std::string> unique(values->begin(), values->end());
      EXPECT_EQ(unique.size(), values->size()) << where(op, r) << ": a code listed twice";
      ++seen;
    }
  }
  EXPECT_GT(seen, 80);
}

/// The statuses the root extensions say an operation may answer: each x-errors
/// entry that is not route-level, the x-rate-limit status when it takes
/// credentials, and 413 when it takes a body and x-limits bounds bodies;
/// each with the code the extension names.
std::vector<std::pair<int, std::string>> implied_statuses(const api_spec& spec,
                                                          const operation& op) {
  std::vector<std::pair<int, std::string>> out;
  for (const auto& g : spec.rules.generic_errors) {
    if (!g.route_level) out.emplace_back(g.status, g.code);
  }
  if (spec.rules.rate_limited_status != 0 && op.needs_credentials()) {
    out.emplace_back(spec.rules.rate_limited_status, spec.rules.rate_limited_code);
  }
  const bool limited = spec.rules.max_body_bytes > 0 || spec.rules.max_multipart_bytes > 0;
  if (limited && op.body) {
    for (const auto& g : spec.rules.generic_errors) {
      if (g.status == 413) out.emplace_back(413, g.code);
    }
  }
  return out;
}

TEST_F(tool_facing, every_status_the_root_extensions_imply_is_declared_where_it_applies) {
  // Issue 22: Prism flagged 413 as undocumented where only the root x-errors
  // named it. Every operation declares each status x-errors, x-rate-limit
  // and x-limits imply for it, with the code they name.
  int seen = 0;
  for (const auto& op : spec().operations) {
    for (const auto& [status, code] : implied_statuses(spec(), op)) {
      const response* r = op.find_response(status);
      ASSERT_NE(r, nullptr) << op.operation_id << " does not declare " << status << " (" << code
                            << "), which the root extensions imply";
      EXPECT_NE(std::find(r->error_codes.begin(), r->error_codes.end(), code), r->error_codes.end())
          << op.operation_id << " " << status << " does not list " << code;
      ++seen;
    }
  }
  EXPECT_GE(seen, 22 * 2 + 17);  // 413 and 500 everywhere, 429 where credentials are needed
}

TEST_F(tool_facing, the_consistency_check_catches_a_missing_status) {
  // The rule above on a planted defect: an operation whose 413 is left out.
  load_result copy = load(std::string(CONFORM_SPEC_DIR) + "/voice-api.yaml");
  ASSERT_TRUE(copy.ok());
  operation& op = copy.spec->operations.front();
  std::erase_if(op.responses, [](const response& r) { return r.status == 413; });
  bool missing = false;
  for (const auto& [status, code] : implied_statuses(*copy.spec, op)) {
    missing = missing || op.find_response(status) == nullptr;
  }
  EXPECT_TRUE(missing);
}

TEST_F(tool_facing, the_generic_envelope_still_takes_any_code) {
  // Answers no operation documents (x-errors: 404 NOT_FOUND, 405, 413, 500)
  // are checked against the plain envelope, whose error_code is any string.
  ASSERT_NE(spec().rules.error_envelope, nullptr);
  EXPECT_FALSE(property_enum(*spec().rules.error_envelope, "error_code").has_value());
}

}  // namespace
}  // namespace conform::openapi
