// The idempotency scenarios against the reference server: a clean run passes
// every cell it judges, and each idempotency fault is caught by the check
// meant for it.
#include "tests/suites/support.hpp"

#include "reference/server.hpp"
#include "suites/idempotency/requests.hpp"

namespace conform::suites::testing {
namespace {

const std::string idempotency_checks =
    "idempotency_replay,idempotency_effect,idempotency_key_reuse,idempotency_concurrency,"
    "idempotency_key_required";

TEST(idempotency_suite, clean_reference_passes_every_check) {
  const auto r = run_conform({"--checks", idempotency_checks});
  ASSERT_FALSE(r.report.empty()) << r.err;
  EXPECT_TRUE(r.failures().empty()) << boost::json::serialize(r.report.at("failures"));
  EXPECT_GE(r.cells_passed("idempotency_replay"), 5u) << r.not_run_text();
  EXPECT_GE(r.cells_passed("idempotency_effect"), 2u) << r.not_run_text();
  EXPECT_GE(r.cells_passed("idempotency_key_reuse"), 3u) << r.not_run_text();
  EXPECT_GE(r.cells_passed("idempotency_concurrency"), 5u) << r.not_run_text();
  EXPECT_GE(r.cells_passed("idempotency_key_required"), 2u) << r.not_run_text();
  EXPECT_EQ(r.status, 0) << r.out << r.err;
}

TEST(idempotency_suite, unmarked_replay_is_caught) {
  const auto r = run_conform({"--checks", idempotency_checks, "--fault", "replay_not_marked"});
  EXPECT_EQ(r.failed_checks(), std::set<std::string>{"idempotency_replay"}) << r.err;
  EXPECT_NE(causes(r, "idempotency_replay").find("the replay is not marked"), std::string::npos)
      << causes(r, "idempotency_replay");
  // Each reproduction is the first request and its replay, credentials as variables.
  for (const auto& f : r.failures("idempotency_replay")) {
    const std::string curl(f.at("curl").as_string());
    EXPECT_NE(curl.find('\n'), std::string::npos) << curl;
    EXPECT_NE(curl.find("${"), std::string::npos) << curl;
  }
}

TEST(idempotency_suite, second_effect_of_a_replay_is_caught) {
  const auto r = run_conform({"--checks", idempotency_checks, "--fault", "replay_double_effect"});
  const auto failed = r.failed_checks();
  EXPECT_TRUE(failed.count("idempotency_effect")) << causes(r, "") << r.not_run_text();
  EXPECT_FALSE(failed.count("idempotency_replay")) << causes(r, "idempotency_replay");
  EXPECT_NE(causes(r, "idempotency_effect").find("the replay had a second effect"),
            std::string::npos);
}

TEST(idempotency_suite, ignored_key_is_caught_by_the_reuse_check) {
  const auto r =
      run_conform({"--checks", idempotency_checks, "--fault", "idempotency_key_ignored"});
  EXPECT_EQ(r.failed_checks(), std::set<std::string>{"idempotency_key_reuse"}) << r.err;
  EXPECT_NE(causes(r, "idempotency_key_reuse")
                .find("a key reused with a different request is not refused"),
            std::string::npos)
      << causes(r, "idempotency_key_reuse");
}

TEST(idempotency_suite, effect_without_its_list_operation_is_not_run_with_a_reason) {
  const auto r = run_conform({"--checks", "idempotency_effect", "--exclude", "listPartnerTenants"});
  EXPECT_EQ(r.cells_passed("idempotency_effect"), 0u);
  EXPECT_NE(r.not_run_text().find("does not cover"), std::string::npos) << r.not_run_text();
  EXPECT_TRUE(r.failures().empty());
}

TEST(idempotency_suite, effect_without_a_credential_to_read_it_is_not_run_with_the_reason) {
  reference::server srv(reference::server_config{});
  const auto profile = profile_without_scope(srv, "tenants:read", "idempotency");
  const auto r =
      run_conform({"--profile", profile, "--checks", "idempotency_effect,idempotency_replay",
                   "--include", "allocateCredits", "--include", "listPartnerTenants",
                   // a server of its own: credit moves are refused in safe mode
                   "--allow-destructive"});
  std::filesystem::remove(profile);
  ASSERT_FALSE(r.report.empty()) << r.err;
  EXPECT_TRUE(r.failures().empty());
  // The replay still runs; the effect says why it cannot be read.
  EXPECT_EQ(r.cells_passed("idempotency_replay"), 1u) << r.not_run_text();
  EXPECT_EQ(r.cells_passed("idempotency_effect"), 0u);
  EXPECT_NE(r.not_run_text().find("no credential of the profile is sufficient for "
                                  "listPartnerTenants"),
            std::string::npos)
      << r.not_run_text();
}

// D4.2: the same request is method, path, query, tenant context and body;
// credentials, the key and other headers do not make it another request.
TEST(idempotency_requests, same_request_compares_method_target_tenant_header_and_body_only) {
  openapi::operation op;
  op.tenant.from = openapi::tenant_context::source::header;
  op.tenant.name = "X-Tenant";
  http::request a;
  a.target = "/things?x=1";
  a.body = R"({"n":1})";
  a.add_header("X-Tenant", "t1").add_header("Authorization", "Bearer one");
  a.add_header("Idempotency-Key", "k1").add_header("X-Trace", "a");
  http::request b = a;
  b.set_header("Authorization", "Bearer two").set_header("X-Trace", "b");
  b.remove_header("Idempotency-Key");
  EXPECT_TRUE(idempotency::same_request(op, a, b));
  b.set_header("x-tenant", "t2");
  EXPECT_FALSE(idempotency::same_request(op, a, b));
  b.set_header("X-Tenant", "t1");
  b.body = R"({"n":2})";
  EXPECT_FALSE(idempotency::same_request(op, a, b));
  b.body = a.body;
  b.target = "/things?x=2";
  EXPECT_FALSE(idempotency::same_request(op, a, b));
  // A tenant from the path: the header still read beside it counts.
  op.tenant.from = openapi::tenant_context::source::path;
  op.tenant.name = "tenant_id";
  op.tenant.header_name = "X-Tenant";
  b.target = a.target;
  EXPECT_TRUE(idempotency::same_request(op, a, b));
  b.remove_header("X-Tenant");
  EXPECT_FALSE(idempotency::same_request(op, a, b));
}

harness::probe answered(unsigned status, std::string body = "") {
  harness::probe p;
  http::response r;
  r.status = status;
  r.body = std::move(body);
  p.result.outcome = std::move(r);
  if (!p.body().empty()) p.json = boost::json::parse(p.body());
  p.code_pointer = "/error_code";  // as the shipped description's x-error-envelope says
  return p;
}

// D6.3: 401, 403, the rate limit, the tenant context and 415 answer before
// the idempotency store, so they are never stored nor replayed.
TEST(idempotency_requests, answers_given_before_the_store_are_not_stored) {
  openapi::api_spec api;
  api.rules.rate_limited_status = 429;
  openapi::operation op;
  op.tenant.from = openapi::tenant_context::source::header;
  op.tenant.name = "X-Tenant";
  op.tenant.missing_status = 422;
  op.tenant.missing_code = "TENANT_REQUIRED";
  for (unsigned status : {200u, 201u, 404u, 409u, 422u}) {
    EXPECT_TRUE(idempotency::stored(answered(status), op, api)) << status;
  }
  for (unsigned status : {401u, 403u, 415u, 429u, 500u, 503u}) {
    EXPECT_FALSE(idempotency::stored(answered(status), op, api)) << status;
  }
  harness::probe unanswered;
  unanswered.result.outcome = core::fail(http::transport_error{});
  EXPECT_FALSE(idempotency::stored(unanswered, op, api));
  EXPECT_FALSE(idempotency::stored(answered(422, R"({"error_code":"TENANT_REQUIRED"})"), op, api));
  EXPECT_TRUE(idempotency::stored(answered(422, R"({"error_code":"INSUFFICIENT"})"), op, api));
}

}  // namespace
}  // namespace conform::suites::testing
