#include <gtest/gtest.h>

#include <httplib.h>

#include <atomic>
#include <thread>
#include <vector>

#include "http/client.hpp"
#include "tests/support/servers.hpp"

namespace conform::http {
namespace {

using std::chrono::milliseconds;

/// A server whose /limited answers 429 `limited_times` times, then 200.
class throttled_server : public ::testing::Test {
 protected:
  throttled_server() : runner_(std::make_unique<httplib::Server>()) {
    runner_.server().Get("/api/v1/limited", [this](const httplib::Request&,
                                                   httplib::Response& res) {
      ++calls_;
      if (limited_left_.fetch_sub(1) > 0) {
        res.status = 429;
        res.set_header("Retry-After", retry_after_);
        res.set_content(R"({"error":"slow down","error_code":"RATE_LIMITED"})", "application/json");
      } else {
        res.set_content(R"({"data":{}})", "application/json");
      }
    });
    runner_.server().Get("/api/v1/count", [this](const httplib::Request&, httplib::Response& res) {
      ++calls_;
      res.set_content("{}", "application/json");
    });
  }

  url base() {
    return *parse_url("http://127.0.0.1:" + std::to_string(runner_.port()) + "/api/v1").value;
  }
  static request get(std::string target) {
    request r;
    r.target = std::move(target);
    return r;
  }

  std::string retry_after_ = "0";
  std::atomic<int> limited_left_{1};
  std::atomic<int> calls_{0};
  test_support::httplib_runner runner_;
};

TEST_F(throttled_server, retries_429_after_retry_after) {
  client c(base());
  const result r = c.send(0, get("/limited"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r.value().status, 200u);
  EXPECT_EQ(r.retries_429, 1u);
  EXPECT_EQ(r.waited_429, milliseconds(0));
  EXPECT_EQ(calls_.load(), 2);
}

TEST_F(throttled_server, wait_is_capped) {
  retry_after_ = "120";
  limited_left_ = 2;
  std::vector<milliseconds> waits;
  client_options opts;
  opts.retry.max_wait = milliseconds(50);
  opts.sleep = [&](milliseconds d) { waits.push_back(d); };
  client c(base(), opts);
  const result r = c.send(0, get("/limited"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r.value().status, 200u);
  EXPECT_EQ(waits, (std::vector<milliseconds>{milliseconds(50), milliseconds(50)}));
  EXPECT_EQ(r.retries_429, 2u);
  EXPECT_EQ(r.waited_429, milliseconds(100));
}

TEST_F(throttled_server, http_date_retry_after_is_understood) {
  retry_after_ = "Sun, 06 Nov 1994 08:49:37 GMT";  // in the past: retry at once
  std::vector<milliseconds> waits;
  client_options opts;
  opts.sleep = [&](milliseconds d) { waits.push_back(d); };
  client c(base(), opts);
  const result r = c.send(0, get("/limited"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value().status, 200u);
  EXPECT_TRUE(waits.empty());
}

TEST_F(throttled_server, the_last_429_is_returned_as_is) {
  limited_left_ = 100;
  client_options opts;
  opts.retry.max_retries = 2;
  client c(base(), opts);
  const result r = c.send(0, get("/limited"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value().status, 429u);
  EXPECT_EQ(*r.value().find(field::retry_after), "0");
  EXPECT_EQ(r.retries_429, 2u);
  EXPECT_EQ(calls_.load(), 3);
}

TEST_F(throttled_server, retry_can_be_switched_off_to_see_the_first_429) {
  client_options opts;
  opts.retry.retry_429 = false;
  client c(base(), opts);
  const result r = c.send(0, get("/limited"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value().status, 429u);
  EXPECT_EQ(r.retries_429, 0u);
  EXPECT_EQ(calls_.load(), 1);
  // send_once never retries either.
  limited_left_ = 1;
  client plain(base());
  EXPECT_EQ(plain.send_once(0, get("/limited")).value().status, 429u);
}

TEST_F(throttled_server, workers_have_their_own_connections) {
  client_options opts;
  opts.workers = 3;
  client c(base(), opts);
  ASSERT_EQ(c.workers(), 3u);
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (unsigned w = 0; w < 3; ++w) {
    threads.emplace_back([&, w] {
      for (int i = 0; i < 4; ++i) ok += c.send(w, get("/count")).ok() ? 1 : 0;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok.load(), 12);
  EXPECT_EQ(calls_.load(), 12);
  for (unsigned w = 0; w < 3; ++w) EXPECT_EQ(c.for_worker(w).connects(), 1u);
  EXPECT_THROW(c.for_worker(3), std::out_of_range);
}

}  // namespace
}  // namespace conform::http
