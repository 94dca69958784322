// Idempotency (D4): replay byte for byte, reuse with another request,
// in-flight conflict, required keys, one effect under concurrency.
#include <atomic>
#include <thread>

#include "tests/reference/support.hpp"

namespace conform::reference::testing {
namespace {
namespace json = boost::json;

class idempotency_test : public server_test {
 protected:
  static void SetUpTestSuite() { start(); }

  static header_list allocator(const std::string& key) {
    auto h = partner_key(cred("partner-allocate"));
    h.emplace_back("Idempotency-Key", key);
    return h;
  }

  static std::string balance_of(const std::string& tenant) {
    auto a =
        http().send("GET", "/partner/tenants?per_page=100", partner_key(cred("partner-allocate")));
    for (const auto& t : a.data().at("items").as_array()) {
      if (str(t.at("id")) == tenant) return str(t.at("balance_major"));
    }
    return "";
  }
};

TEST_F(idempotency_test, replay_is_byte_for_byte_with_the_header_and_no_second_effect) {
  const std::string before = balance_of("101");
  auto first = http().send("POST", "/billing/allocate-credits", allocator("replay-1"),
                           R"({"tenant_id":101,"amount_major":5})");
  ASSERT_EQ(first.status, 200) << first.raw;
  EXPECT_TRUE(first.header("Idempotent-Replayed").empty());
  auto second = http().send("POST", "/billing/allocate-credits", allocator("replay-1"),
                            R"({"tenant_id":101,"amount_major":5})");
  EXPECT_EQ(second.status, 200);
  EXPECT_EQ(second.raw, first.raw);
  EXPECT_EQ(second.header("Idempotent-Replayed"), "true");
  EXPECT_EQ(second.header("X-Request-Id"), first.header("X-Request-Id"));
  const std::string after = balance_of("101");
  EXPECT_EQ(std::stod(after) - std::stod(before), 5.0);
}

TEST_F(idempotency_test, errors_below_500_are_replayed_too) {
  auto first = http().send("POST", "/billing/allocate-credits", allocator("replay-err"),
                           R"({"tenant_id":103,"amount_major":5})");
  EXPECT_EQ(first.status, 404);
  EXPECT_EQ(first.code(), "TENANT_NOT_FOUND");
  auto second = http().send("POST", "/billing/allocate-credits", allocator("replay-err"),
                            R"({"tenant_id":103,"amount_major":5})");
  EXPECT_EQ(second.raw, first.raw);
  EXPECT_EQ(second.header("Idempotent-Replayed"), "true");
}

TEST_F(idempotency_test, reuse_with_another_request_is_422) {
  ASSERT_EQ(http()
                .send("POST", "/billing/allocate-credits", allocator("reuse-1"),
                      R"({"tenant_id":101,"amount_major":1})")
                .status,
            200);
  auto other_body = http().send("POST", "/billing/allocate-credits", allocator("reuse-1"),
                                R"({"tenant_id":101,"amount_major":2})");
  EXPECT_EQ(other_body.status, 422);
  EXPECT_EQ(other_body.code(), "IDEMPOTENCY_KEY_REUSED");
  auto h = allocator("reuse-1");
  h.emplace_back("X-Tenant-Id", "101");
  auto other_header =
      http().send("POST", "/billing/allocate-credits", h, R"({"tenant_id":101,"amount_major":1})");
  EXPECT_EQ(other_header.code(), "IDEMPOTENCY_KEY_REUSED");
  auto other_path = http().send("POST", "/billing/allocate-credits?x=1", allocator("reuse-1"),
                                R"({"tenant_id":101,"amount_major":1})");
  EXPECT_EQ(other_path.code(), "IDEMPOTENCY_KEY_REUSED");
}

TEST_F(idempotency_test, keys_are_scoped_to_the_credential) {
  auto a = http().send("POST", "/billing/allocate-credits", allocator("shared-key"),
                       R"({"tenant_id":101,"amount_major":1})");
  auto h = partner_key(cred("partner2-allocate"));
  h.emplace_back("Idempotency-Key", "shared-key");
  auto b =
      http().send("POST", "/billing/allocate-credits", h, R"({"tenant_id":103,"amount_major":1})");
  EXPECT_EQ(a.status, 200);
  EXPECT_EQ(b.status, 200) << b.raw;
  EXPECT_TRUE(b.header("Idempotent-Replayed").empty());
}

TEST_F(idempotency_test, key_required_and_well_formed) {
  auto missing =
      http().send("POST", "/billing/allocate-credits", partner_key(cred("partner-allocate")),
                  R"({"tenant_id":101,"amount_major":1})");
  EXPECT_EQ(missing.status, 422);
  EXPECT_EQ(missing.code(), "IDEMPOTENCY_KEY_REQUIRED");
  auto dmissing =
      http().send("POST", "/billing/deallocate-credits", partner_key(cred("partner-allocate")),
                  R"({"tenant_id":101,"amount_major":1})");
  EXPECT_EQ(dmissing.code(), "IDEMPOTENCY_KEY_REQUIRED");
  for (const std::string& bad :
       {std::string(256, 'k'), std::string("has space"), std::string("tab\tkey")}) {
    auto a = http().send("POST", "/billing/allocate-credits", allocator(bad),
                         R"({"tenant_id":101,"amount_major":1})");
    EXPECT_EQ(a.status, 422) << bad;
    EXPECT_EQ(a.code(), "VALIDATION_ERROR") << bad;
  }
  auto longest = http().send("POST", "/billing/allocate-credits", allocator(std::string(255, 'k')),
                             R"({"tenant_id":101,"amount_major":1})");
  EXPECT_EQ(longest.status, 200);
}

TEST_F(idempotency_test, optional_key_on_campaign_create_replays) {
  auto h = api_key(cred("t2-all"));
  h.emplace_back("Idempotency-Key", "create-1");
  const std::string body =
      R"({"name":"Once","agent_id":)" + fx("t2", "agent_id") + R"(,"timezone":"UTC"})";
  auto a = http().send("POST", "/bulk_call_campaigns", h, body);
  auto b = http().send("POST", "/bulk_call_campaigns", h, body);
  EXPECT_EQ(a.status, 201);
  EXPECT_EQ(b.status, 201);
  EXPECT_EQ(a.raw, b.raw);
  EXPECT_EQ(b.header("Idempotent-Replayed"), "true");
}

TEST_F(idempotency_test, concurrent_same_key_requests_have_exactly_one_effect) {
  const std::string before = balance_of("102");
  constexpr int threads = 8;
  std::vector<answer> answers(threads);
  std::vector<std::thread> pool;
  std::atomic<int> ready{0};
  for (int i = 0; i < threads; ++i) {
    pool.emplace_back([&, i] {
      ready.fetch_add(1);
      while (ready.load() < threads) std::this_thread::yield();
      answers[static_cast<std::size_t>(i)] =
          http().send("POST", "/billing/allocate-credits", allocator("concurrent-1"),
                      R"({"tenant_id":102,"amount_major":3})");
    });
  }
  for (auto& t : pool) t.join();
  int first = 0;
  for (const auto& a : answers) {
    if (a.status == 200 && a.header("Idempotent-Replayed").empty())
      ++first;
    else if (a.status == 200)
      EXPECT_EQ(a.header("Idempotent-Replayed"), "true");
    else {
      EXPECT_EQ(a.status, 409) << a.raw;
      EXPECT_EQ(a.code(), "IDEMPOTENCY_CONFLICT");
    }
  }
  EXPECT_EQ(first, 1);
  EXPECT_EQ(std::stod(balance_of("102")) - std::stod(before), 3.0);
}

TEST_F(idempotency_test, concurrent_distinct_keys_each_apply_once) {
  const std::string before = balance_of("101");
  constexpr int threads = 6, per_thread = 10;
  std::vector<std::thread> pool;
  std::atomic<int> ok{0};
  for (int i = 0; i < threads; ++i) {
    pool.emplace_back([&, i] {
      for (int j = 0; j < per_thread; ++j) {
        auto a = http().send("POST", "/billing/allocate-credits",
                             allocator("many-" + std::to_string(i) + "-" + std::to_string(j)),
                             R"({"tenant_id":101,"amount_major":0.25})");
        if (a.status == 200) ok.fetch_add(1);
      }
    });
  }
  for (auto& t : pool) t.join();
  EXPECT_EQ(ok.load(), threads * per_thread);
  EXPECT_DOUBLE_EQ(std::stod(balance_of("101")) - std::stod(before), threads * per_thread * 0.25);
}

TEST_F(idempotency_test, amounts_and_funds) {
  for (const char* body :
       {R"({"tenant_id":101,"amount_major":0})", R"({"tenant_id":101,"amount_major":-1})",
        R"({"tenant_id":101,"amount_major":1.234})",
        R"({"tenant_id":101,"amount_major":10000000.01})",
        R"({"tenant_id":101,"amount_major":"5"})", R"({"tenant_id":"101","amount_major":5})",
        R"({"amount_major":5})", R"({"tenant_id":101})"}) {
    auto a = http().send("POST", "/billing/allocate-credits", allocator(std::string("bad-") + body),
                         body);
    EXPECT_EQ(a.status, 422) << body;
    EXPECT_EQ(a.code(), "VALIDATION_ERROR") << body;
    EXPECT_TRUE(a.json.at("errors").is_object());
  }
  auto poor = http().send("POST", "/billing/deallocate-credits", allocator("poor-1"),
                          R"({"tenant_id":104,"amount_major":1000})");
  EXPECT_EQ(poor.status, 422);
  EXPECT_EQ(poor.code(), "INSUFFICIENT_FUNDS");
  auto rich = http().send("POST", "/billing/allocate-credits", allocator("rich-1"),
                          R"({"tenant_id":104,"amount_major":10000000})");
  EXPECT_EQ(rich.code(), "INSUFFICIENT_FUNDS");
  auto foreign = http().send("POST", "/billing/allocate-credits", allocator("foreign-1"),
                             R"({"tenant_id":103,"amount_major":1})");
  EXPECT_EQ(foreign.code(), "TENANT_NOT_FOUND");
}

}  // namespace
}  // namespace conform::reference::testing
