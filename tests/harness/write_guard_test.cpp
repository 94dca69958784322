// The write guard (harness/write_guard.hpp) on the CRUD description
// (data/crud.yaml): in safe mode a write reaches only what a 2xx create of
// the run named (by Location or by the record id of its body) or a fixture
// the profile marks writable; a DELETE on the collection never goes; a
// destructive run lets everything through.
#include <gtest/gtest.h>

#include <string>

#include "harness/write_guard.hpp"
#include "openapi/loader.hpp"

namespace conform::harness {
namespace {

const openapi::api_spec& crud() {
  static const auto loaded = openapi::load(std::string(CONFORM_TEST_DATA_DIR) + "/crud.yaml");
  EXPECT_TRUE(loaded.ok());
  return *loaded.spec;
}

http::request req(http::verb v, std::string target) {
  http::request r;
  r.method = v;
  r.target = std::move(target);
  return r;
}

http::result answer(unsigned status, std::string body, std::string location = "") {
  http::response res;
  res.status = status;
  res.body = std::move(body);
  if (!location.empty()) res.headers.push_back({http::field::location, "Location", location});
  http::result out;
  out.outcome = std::move(res);
  return out;
}

// Found on etcd: every operation is a POST action, and safe mode sent them
// all (one deleted the seeded keys, one switched authentication off). A POST
// goes in safe mode only where the description says it creates: x-creates, a
// 201, a Location on a success, or an item path below its own.
TEST(write_guard, a_post_not_documented_to_create_is_refused_in_safe_mode) {
  static const auto loaded = openapi::load(std::string(CONFORM_TEST_DATA_DIR) + "/actions.yaml");
  ASSERT_TRUE(loaded.ok());
  write_guard g(*loaded.spec, write_mode::safe);
  for (const char* action : {"/kv/deleterange", "/auth/disable"}) {
    const auto why = g.refusal(nullptr, req(http::verb::post, action));
    ASSERT_TRUE(why) << action;
    EXPECT_NE(why->find("is not documented to create"), std::string::npos) << *why;
  }
  for (const char* create : {"/leases", "/jobs", "/notes", "/imports"}) {
    EXPECT_FALSE(g.refusal(nullptr, req(http::verb::post, create))) << create;
  }
  write_guard d(*loaded.spec, write_mode::destructive);
  EXPECT_FALSE(d.refusal(nullptr, req(http::verb::post, "/kv/deleterange")));
  // What the user says only reads (--read-only) goes, by its own method only.
  write_guard told(*loaded.spec, write_mode::safe);
  told.read_only({&loaded.spec->operations.front()});
  ASSERT_EQ(loaded.spec->operations.front().operation_id, "deleteRange");
  EXPECT_FALSE(told.refusal(nullptr, req(http::verb::post, "/kv/deleterange")));
  EXPECT_TRUE(told.refusal(nullptr, req(http::verb::put, "/kv/deleterange")));
  EXPECT_TRUE(told.refusal(nullptr, req(http::verb::post, "/auth/disable")));
}

TEST(write_guard, reads_always_go_and_writes_only_to_what_the_run_created) {
  write_guard g(crud(), write_mode::safe, "/api/v1");
  EXPECT_FALSE(g.refusal(nullptr, req(http::verb::get, "/items/1")));
  const auto put = g.refusal(nullptr, req(http::verb::put, "/items/1"));
  ASSERT_TRUE(put);
  EXPECT_NE(put->find("safe mode: no resource created in this run to PUT"), std::string::npos)
      << *put;
  EXPECT_TRUE(g.refusal(nullptr, req(http::verb::delete_, "/items/1")));
  // A create is allowed; its answer's record id makes /items/100 the run's.
  EXPECT_FALSE(g.refusal(nullptr, req(http::verb::post, "/items")));
  g.learn(nullptr, req(http::verb::post, "/items"), answer(201, R"({"id":100,"name":"a"})"));
  EXPECT_FALSE(g.refusal(nullptr, req(http::verb::put, "/items/100")));
  EXPECT_FALSE(g.refusal(nullptr, req(http::verb::delete_, "/items/100?why=done")));
  EXPECT_TRUE(g.refusal(nullptr, req(http::verb::put, "/items/1")));
  // A Location (with the base path, or absolute) names what was created too.
  g.learn(nullptr, req(http::verb::post, "/items"), answer(201, "", "/api/v1/items/7"));
  g.learn(nullptr, req(http::verb::post, "/items"),
          answer(201, "", "http://127.0.0.1:9/api/v1/items/8"));
  EXPECT_FALSE(g.refusal(nullptr, req(http::verb::put, "/items/7")));
  EXPECT_FALSE(g.refusal(nullptr, req(http::verb::put, "/items/8")));
  // Refused creates teach nothing.
  g.learn(nullptr, req(http::verb::post, "/items"), answer(400, R"({"id":9})"));
  EXPECT_TRUE(g.refusal(nullptr, req(http::verb::put, "/items/9")));
}

TEST(write_guard, a_delete_that_could_match_many_never_goes_in_safe_mode) {
  write_guard g(crud(), write_mode::safe);
  const auto all = g.refusal(nullptr, req(http::verb::delete_, "/items"));
  ASSERT_TRUE(all);
  EXPECT_NE(all->find("collection path"), std::string::npos) << *all;
  const auto filtered = g.refusal(nullptr, req(http::verb::delete_, "/items?name=a"));
  ASSERT_TRUE(filtered);
  EXPECT_NE(filtered->find("with query filters"), std::string::npos) << *filtered;
  // A path the description does not have: what it writes to is unknown.
  EXPECT_TRUE(g.refusal(nullptr, req(http::verb::post, "/nowhere/1")));
}

TEST(write_guard, writable_fixtures_and_destructive_runs_let_writes_through) {
  write_guard safe(crud(), write_mode::safe, "", {"1"});
  EXPECT_FALSE(safe.refusal(nullptr, req(http::verb::put, "/items/1")));
  EXPECT_TRUE(safe.refusal(nullptr, req(http::verb::put, "/items/2")));
  write_guard destructive(crud(), write_mode::destructive);
  EXPECT_FALSE(destructive.refusal(nullptr, req(http::verb::put, "/items/2")));
  EXPECT_FALSE(destructive.refusal(nullptr, req(http::verb::delete_, "/items")));
}

TEST(write_guard, a_body_that_names_an_existing_resource_by_x_writes_is_refused) {
  // The shipped description: a contact import adds contacts to the campaign
  // its bulk_call_campaign_id names (x-writes), so a safe run may name only
  // a campaign it created; JSON and multipart bodies alike.
  static const auto loaded = openapi::load(std::string(CONFORM_SPEC_DIR) + "/voice-api.yaml", {});
  ASSERT_TRUE(loaded.ok());
  write_guard g(*loaded.spec, write_mode::safe, "/api/v1", {"4006"});
  auto import = [](const std::string& campaign) {
    http::request r;
    r.method = http::verb::post;
    r.target = "/contacts/import";
    r.add_header("Content-Type", "multipart/form-data; boundary=B");
    r.body =
        "--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"c.csv\"\r\n\r\n"
        "phone\n+14155550100\n\r\n--B\r\nContent-Disposition: form-data; "
        "name=\"bulk_call_campaign_id\"\r\n\r\n" +
        campaign + "\r\n--B--\r\n";
    return r;
  };
  const auto seeded = g.refusal(nullptr, import("4001"));
  ASSERT_TRUE(seeded);
  EXPECT_NE(seeded->find("bulk_call_campaign_id names (4001, x-writes)"), std::string::npos)
      << *seeded;
  EXPECT_FALSE(g.refusal(nullptr, import("4006")));  // writable in the profile
  http::request none = import("4001");
  none.body =
      "--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"c.csv\"\r\n\r\n"
      "phone\n+14155550100\n\r\n--B--\r\n";
  EXPECT_FALSE(g.refusal(nullptr, none));  // an import into no campaign creates contacts
  // A campaign this run created may be named.
  http::request create = req(http::verb::post, "/bulk_call_campaigns");
  g.learn(nullptr, create, answer(201, R"({"data":{"id":"1000001"}})"));
  EXPECT_FALSE(g.refusal(nullptr, import("1000001"))) << g.created().size();
  // Destructive: anything goes.
  write_guard d(*loaded.spec, write_mode::destructive, "/api/v1");
  EXPECT_FALSE(d.refusal(nullptr, import("4001")));
}

}  // namespace
}  // namespace conform::harness
