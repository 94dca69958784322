// The stateful phase against stubs written from their descriptions alone:
// a CRUD service whose planted defects ("created but not readable",
// "deleted but still readable") the stateful checks find, with the failing
// chain shrunk; the correct service passes; and the shape of a Swagger 2.0
// Go service (issue 25) whose single-resource GET and DELETE the phase
// reaches with the id its create returned, without a false alarm on a
// delete that expires rather than removes. A resource named by two path
// parameters is read back, after its delete, with both (issue 37).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>

#include "harness/engine.hpp"
#include "openapi/loader.hpp"
#include "profile/loader.hpp"
#include "suites/registry.hpp"
#include "suites/stateful/checks.hpp"
#include "tests/support/crud_server.hpp"
#include "tests/support/nested_crud_server.hpp"
#include "tests/support/silences_server.hpp"

namespace conform {
namespace {

struct outcome {
  harness::run_report report;
};

/// Runs the stateful phase (and the per-exchange checks, so that reach
/// counts the random phase too) of `spec_file` against `base_url`.
harness::run_report run_stateful(const std::string& spec_file, const std::string& base_url,
                                 std::uint64_t seed = 11) {
  auto loaded = openapi::load(std::string(CONFORM_TEST_DATA_DIR) + "/" + spec_file);
  EXPECT_TRUE(loaded.ok());
  for (const auto& d : loaded.diagnostics) {
    if (d.level == core::severity::error) ADD_FAILURE() << core::to_string(d);
  }
  auto p = profile::parse_profile("base_url: " + base_url + "\n", "stub profile");
  EXPECT_TRUE(p.ok());
  static const auto catalogue = suites::builtin_checks();
  harness::run_config config;
  config.seed = seed;
  config.examples = 4;
  config.coverage = false;
  config.stateful = true;
  config.max_shrinks = 32;
  for (const auto& op : loaded.spec->operations) config.operations.push_back(&op);
  std::vector<std::string> names;
  for (const auto& c : catalogue.all()) {
    if (c.procedure && c.procedure->stateful()) names.push_back(c.info->name);
  }
  names.push_back("response_schema_conformance");
  config.checks = *catalogue.select(names);
  http::client_options opts;
  opts.workers = 2;
  http::client client(p.value->base_url, opts);
  harness::listener quiet;
  return harness::run(*loaded.spec, *p.value, config, client, quiet);
}

const harness::check_tally* cell(const harness::run_report& r, const std::string& op,
                                 std::string_view check) {
  for (const auto& t : r.tallies) {
    if (t.operation_id == op && t.check == check) return &t;
  }
  return nullptr;
}

const harness::operation_reach* reach(const harness::run_report& r, const std::string& op) {
  for (const auto& x : r.reach) {
    if (x.operation_id == op) return &x;
  }
  return nullptr;
}

TEST(stateful, a_correct_crud_service_passes_every_stateful_check) {
  test_support::crud_server server;
  auto r = run_stateful("crud.yaml", server.base_url());
  for (const auto& f : r.failures) ADD_FAILURE() << f.check << ": " << f.seen << "\n" << f.curl;
  EXPECT_EQ(r.exit_code(), 0);
  for (std::string_view check :
       {suites::stateful::created_readable_check, suites::stateful::created_listed_check}) {
    const auto* c = cell(r, "createItem", check);
    ASSERT_TRUE(c) << check;
    EXPECT_GT(c->passed, 0u) << check;
  }
  const auto* gone = cell(r, "deleteItem", suites::stateful::deleted_gone_check);
  ASSERT_TRUE(gone);
  EXPECT_GT(gone->passed, 0u);
  // Every operation answered 2xx, and both links were followed.
  for (const char* op : {"listItems", "createItem", "getItem", "updateItem", "deleteItem"}) {
    const auto* x = reach(r, op);
    ASSERT_TRUE(x) << op;
    EXPECT_TRUE(x->reached()) << op << ": " << x->why;
  }
  ASSERT_EQ(r.links.size(), 2u);
  for (const auto& l : r.links) EXPECT_GT(l.followed, 0u) << l.name << ": " << l.why;
}

TEST(stateful, created_but_not_readable_is_found_and_its_chain_shrinks) {
  test_support::crud_server server(test_support::crud_fault::created_not_readable);
  auto r = run_stateful("crud.yaml", server.base_url());
  EXPECT_EQ(r.exit_code(), 1);
  auto it = std::find_if(r.failures.begin(), r.failures.end(), [](const harness::failure& f) {
    return f.check == suites::stateful::created_readable_check;
  });
  ASSERT_NE(it, r.failures.end());
  EXPECT_EQ(it->operation_id, "createItem");
  EXPECT_EQ(it->status, 404u);
  // The walk reached the read through the links create -> update -> read;
  // the update is not needed to show the defect: shrunk to create -> read.
  EXPECT_NE(it->mode.detail.find("chain createItem -> getItem"), std::string::npos)
      << it->mode.detail;
  EXPECT_NE(it->mode.detail.find("shrunk from 3 steps to 2"), std::string::npos) << it->mode.detail;
  EXPECT_EQ(std::count(it->curl.begin(), it->curl.end(), '\n'), 1) << it->curl;
  // Nothing else is reported: the deletes still remove.
  for (const auto& f : r.failures) {
    EXPECT_EQ(f.check, suites::stateful::created_readable_check) << f.seen;
  }
}

TEST(stateful, deleted_but_still_readable_is_found) {
  test_support::crud_server server(test_support::crud_fault::deleted_still_readable);
  auto r = run_stateful("crud.yaml", server.base_url());
  EXPECT_EQ(r.exit_code(), 1);
  auto it = std::find_if(r.failures.begin(), r.failures.end(), [](const harness::failure& f) {
    return f.check == suites::stateful::deleted_gone_check;
  });
  ASSERT_NE(it, r.failures.end());
  EXPECT_EQ(it->operation_id, "deleteItem");
  EXPECT_EQ(it->cause, "deleted resource still readable");
  EXPECT_EQ(it->status, 200u);
  for (const auto& f : r.failures)
    EXPECT_EQ(f.check, suites::stateful::deleted_gone_check) << f.seen;
}

TEST(stateful, the_same_seed_gives_the_same_verdicts) {
  for (auto fault : {test_support::crud_fault::created_not_readable,
                     test_support::crud_fault::deleted_still_readable}) {
    test_support::crud_server a(fault), b(fault);
    auto first = run_stateful("crud.yaml", a.base_url(), 5);
    auto second = run_stateful("crud.yaml", b.base_url(), 5);
    ASSERT_EQ(first.failures.size(), second.failures.size());
    for (std::size_t i = 0; i < first.failures.size(); ++i) {
      EXPECT_EQ(first.failures[i].check, second.failures[i].check);
      EXPECT_EQ(first.failures[i].cause, second.failures[i].cause);
      EXPECT_EQ(first.failures[i].mode.detail, second.failures[i].mode.detail);
    }
  }
}

TEST(stateful, the_single_silence_of_a_swagger2_service_is_reached_with_the_created_id) {
  test_support::silences_server server;
  auto r = run_stateful("silences.swagger.yaml", server.base_url());
  for (const auto& f : r.failures) ADD_FAILURE() << f.check << ": " << f.seen << "\n" << f.curl;
  for (const char* op : {"postSilences", "getSilence", "deleteSilence", "getSilences"}) {
    const auto* x = reach(r, op);
    ASSERT_TRUE(x) << op;
    EXPECT_TRUE(x->reached()) << op << ": " << x->why;
  }
  // The create answered only `silenceID`: the read by it is judged...
  const auto* readable = cell(r, "postSilences", suites::stateful::created_readable_check);
  ASSERT_TRUE(readable);
  EXPECT_GT(readable->passed, 0u);
  // ...and a delete that expires (the record keeps a state) is no failure:
  // the description names no final state, so the cell says why it cannot judge.
  const auto* gone = cell(r, "deleteSilence", suites::stateful::deleted_gone_check);
  ASSERT_TRUE(gone);
  EXPECT_EQ(gone->failed, 0u);
  EXPECT_TRUE(gone->not_run_why) << "passed " << gone->passed;
}

// Seen: `DELETE /workspaces/1H/connections/h` then `GET
// /workspaces/B/connections/h`, a read of another workspace that answers
// 404 whatever the delete did. The read after a delete names every path
// parameter of the deleted connection.
TEST(stateful, a_delete_is_read_back_with_every_path_parameter_of_the_deleted_resource) {
  test_support::nested_crud_server correct;
  auto r = run_stateful("nested_crud.yaml", correct.base_url());
  for (const auto& f : r.failures) ADD_FAILURE() << f.check << ": " << f.seen << "\n" << f.curl;
  const auto* gone = cell(r, "deleteConnection", suites::stateful::deleted_gone_check);
  ASSERT_TRUE(gone);
  EXPECT_GT(gone->passed, 0u);
  EXPECT_EQ(gone->failed, 0u);
}

TEST(stateful, a_nested_delete_that_keeps_the_resource_is_found) {
  test_support::nested_crud_server keeps(/*delete_keeps=*/true);
  auto r = run_stateful("nested_crud.yaml", keeps.base_url());
  EXPECT_EQ(r.exit_code(), 1);
  auto it = std::find_if(r.failures.begin(), r.failures.end(), [](const harness::failure& f) {
    return f.check == suites::stateful::deleted_gone_check;
  });
  ASSERT_NE(it, r.failures.end());
  EXPECT_EQ(it->operation_id, "deleteConnection");
  EXPECT_EQ(it->status, 200u);
  // The read names the workspace the delete named: the curl of the chain
  // shows the same path twice, once deleted and once read.
  const auto del = it->curl.find("-X DELETE");
  ASSERT_NE(del, std::string::npos) << it->curl;
  const auto path_at = it->curl.find("/workspaces/", del);
  ASSERT_NE(path_at, std::string::npos) << it->curl;
  const std::string path =
      it->curl.substr(path_at, it->curl.find_first_of("' \n", path_at) - path_at);
  EXPECT_NE(it->curl.find(path, path_at + path.size()), std::string::npos)
      << path << " read back?\n"
      << it->curl;
}

}  // namespace
}  // namespace conform
