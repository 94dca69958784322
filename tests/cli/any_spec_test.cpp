// `conform run --spec <a description as published> --url BASE`, with no
// profile and no extension of ours, against a live stub written from the
// description: no false alarm on a conforming server, a finding on a planted
// deviation, and secrets given with -H never printed.
#include <gtest/gtest.h>

#include <sstream>

#include "cli/cli.hpp"
#include "tests/support/petstore_server.hpp"
#include "tests/cli/support.hpp"

namespace conform::cli {
namespace {

using conform::test_support::contains;
using conform::test_support::run;

using test_support::petstore_fault;
using test_support::petstore_server;

const std::string examples = std::string(CONFORM_OAI_EXAMPLES_DIR) + "/";
const std::string petstore = examples + "v3.0/petstore-expanded.yaml";

TEST(any_spec, petstore_runs_with_no_profile_and_no_false_alarm) {
  petstore_server server;
  const auto r = run({"--spec", petstore, "--url", server.base_url(), "--seed", "7", "--examples",
                      "5", "--no-progress"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_FALSE(contains(r.out, "FAIL")) << r.out;
}

TEST(any_spec, the_swagger2_petstore_is_converted_and_runs_with_no_false_alarm) {
  petstore_server server;
  const auto r = run({"--spec", examples + "v2.0/yaml/petstore-expanded.yaml", "--url",
                      server.base_url(), "--seed", "7", "--examples", "5", "--no-progress"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_FALSE(contains(r.out, "FAIL")) << r.out;
  // The description's notes are said before the run, where they explain it.
  EXPECT_TRUE(contains(r.err, "note: a Swagger 2.0 description, converted to OpenAPI 3.0"))
      << r.err;
}

TEST(any_spec, a_planted_deviation_is_found) {
  petstore_server server(petstore_fault::pet_id_as_text);
  // One worker: the petstore keeps state, and concurrent deletes could
  // empty the list before findPets reads it, and move the failure elsewhere.
  const auto r = run({"--spec", petstore, "--url", server.base_url(), "--seed", "7", "--examples",
                      "5", "--workers", "1", "--no-progress"});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "findPets")) << r.out;
  EXPECT_TRUE(contains(r.out, "FAIL response_schema_conformance")) << r.out;
  EXPECT_TRUE(contains(r.out, "/id")) << r.out;
}

TEST(any_spec, header_values_are_secrets) {
  petstore_server server(petstore_fault::pet_id_as_text);
  const auto r = run({"--spec", petstore, "--url", server.base_url(), "-H",
                      "X-Trace-Secret: s3cr3t-header-value", "--seed", "7", "--examples", "3",
                      "--no-progress"});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_FALSE(contains(r.out + r.err, "s3cr3t-header-value")) << r.out;
  EXPECT_TRUE(contains(r.out, "CONFORM_HEADER_X_TRACE_SECRET")) << r.out;
}

TEST(any_spec, a_bearer_token_given_with_h_is_a_credential_and_never_printed) {
  const std::string overlay = std::string(CONFORM_TEST_DATA_DIR) + "/petstore-bearer.overlay.yaml";
  petstore_server server(petstore_fault::none, "opaque-token-123");
  const auto r = run({"--spec", petstore, "--overlay", overlay, "--url", server.base_url(), "-H",
                      "Authorization: Bearer opaque-token-123", "--seed", "7", "--examples", "3",
                      "--no-progress", "--allow-destructive"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "ok   auth_unauthenticated")) << r.out;
  // An opaque bearer token is not taken for a JWT: no tampering cell.
  EXPECT_FALSE(contains(r.out, "ok   auth_jwt_tampering")) << r.out;
  EXPECT_FALSE(contains(r.out + r.err, "opaque-token-123")) << r.out;
}

TEST(any_spec, a_finding_behind_a_token_names_its_variable_in_the_rerun) {
  const std::string overlay = std::string(CONFORM_TEST_DATA_DIR) + "/petstore-bearer.overlay.yaml";
  petstore_server server(petstore_fault::pet_id_as_text, "opaque-token-123");
  const auto r = run({"--spec", petstore, "--overlay", overlay, "--url", server.base_url(), "-H",
                      "Authorization: Bearer opaque-token-123", "--seed", "7", "--examples", "3",
                      "--no-progress"});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "-H \"Authorization: Bearer ${CONFORM_HEADER_AUTHORIZATION}\""))
      << r.out;
  EXPECT_TRUE(contains(r.out, "--overlay '" + overlay + "'")) << r.out;
  EXPECT_FALSE(contains(r.out + r.err, "opaque-token-123")) << r.out;
}

TEST(any_spec, the_stateful_phase_reaches_the_pet_a_post_returned) {
  // Petstore-expanded has no links: the walk infers POST /pets -> GET and
  // DELETE /pets/{id}, so both answer 2xx with an id the run created. With
  // random ids alone (--no-stateful) both answered 404 (seed 7).
  for (const bool stateful : {true, false}) {
    petstore_server server;
    std::vector<std::string> args = {"--spec",
                                     petstore,
                                     "--url",
                                     server.base_url(),
                                     "--seed",
                                     "7",
                                     "--examples",
                                     "2",
                                     "--no-progress",
                                     "--no-coverage",
                                     "--allow-destructive"};
    if (!stateful) args.push_back("--no-stateful");
    const auto r = run(args);
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    if (stateful) {
      EXPECT_TRUE(contains(r.out, "Reach: 4 of 4 operations answered 2xx")) << r.out;
      EXPECT_TRUE(contains(r.out, "ok   stateful_created_readable")) << r.out;
      EXPECT_TRUE(contains(r.out, "ok   stateful_deleted_gone")) << r.out;
    } else {
      EXPECT_TRUE(contains(r.out, "Reach: 2 of 4 operations answered 2xx")) << r.out;
      EXPECT_TRUE(contains(r.out, "deletePet as none: no id found")) << r.out;
    }
  }
}

TEST(any_spec, another_description_without_target_is_refused) {
  const auto r = run({"--spec", petstore, "--no-progress"});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "give --url BASE or --profile FILE")) << r.err;
}

TEST(any_spec, a_webhooks_only_description_has_nothing_to_run) {
  const auto r = run({"--spec", examples + "v3.1/webhook-example.yaml", "--url",
                      "http://127.0.0.1:1", "--no-progress"});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "has no operations; nothing to run")) << r.err;
}

TEST(any_spec, url_options_are_checked_at_the_edge) {
  EXPECT_EQ(run({"--url", "http://127.0.0.1:1", "--profile", "p.yaml"}).status, 2);
  EXPECT_EQ(run({"-H", "A: b"}).status, 2);
  const auto r = run({"--spec", petstore, "--url", "http://127.0.0.1:1", "-H", "nocolon"});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "-H takes 'Name: value'")) << r.err;
}

}  // namespace
}  // namespace conform::cli
