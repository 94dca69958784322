// Tasks that take turns on one thread (http/cooperative.hpp): several
// requests in flight at once, a pause that lets the others run, timeouts
// and exceptions kept to the task they belong to.

#include <gtest/gtest.h>

#include <httplib.h>

#include <condition_variable>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "http/connection.hpp"
#include "http/cooperative.hpp"
#include "tests/http/support.hpp"
#include "tests/support/servers.hpp"

namespace conform::http {
namespace {

using test_support::get;
using test_support::local;

/// Answers /api/v1/together only once `expected` requests are in at the same
/// time (or after 10 s), with how many it saw; /api/v1/never not before the
/// test ends.
class together_server : public ::testing::Test {
 protected:
  static constexpr int expected = 4;
  together_server() : runner_(std::make_unique<httplib::Server>()) {
    runner_.server().Get("/api/v1/together", [this](const httplib::Request&,
                                                    httplib::Response& res) {
      std::unique_lock lock(mutex_);
      ++arrived_;
      changed_.notify_all();
      changed_.wait_for(lock, std::chrono::seconds(10), [this] { return arrived_ >= expected; });
      res.set_content(std::to_string(arrived_), "text/plain");
    });
    runner_.server().Get("/api/v1/never", [this](const httplib::Request&, httplib::Response& res) {
      never_.wait();
      res.set_content("late", "text/plain");
    });
  }
  ~together_server() override { never_.open(); }

  test_support::gate never_;
  std::mutex mutex_;
  std::condition_variable changed_;
  int arrived_ = 0;
  test_support::httplib_runner runner_;
};

TEST_F(together_server, one_thread_keeps_every_tasks_request_in_flight_at_once) {
  std::vector<connection> connections;
  for (int i = 0; i < expected; ++i) connections.emplace_back(local(runner_.port()));
  std::vector<std::string> bodies(expected);
  const auto caller = std::this_thread::get_id();
  std::vector<std::thread::id> ran_on(expected);
  run_cooperatively(expected, [&](unsigned task) {
    ran_on[task] = std::this_thread::get_id();
    const result r = connections[task].send(get("/together"));
    bodies[task] = r.ok() ? r.value().body : "error: " + r.error().message;
  });
  for (int i = 0; i < expected; ++i) {
    // Had the tasks run one after the other, the first would have seen 1.
    EXPECT_EQ(bodies[i], std::to_string(expected)) << "task " << i;
    EXPECT_EQ(ran_on[i], caller) << "task " << i;
  }
}

TEST_F(together_server, a_task_that_times_out_leaves_the_others_answered) {
  connection_options quick;
  quick.total_timeout = std::chrono::milliseconds(300);
  connection stalled(local(runner_.port()), quick);
  std::vector<connection> answered;
  for (int i = 0; i < expected; ++i) answered.emplace_back(local(runner_.port()));
  std::vector<std::optional<result>> out(expected + 1);
  run_cooperatively(expected + 1, [&](unsigned task) {
    out[task] = task == 0 ? stalled.send(get("/never")) : answered[task - 1].send(get("/together"));
  });
  ASSERT_TRUE(out[0].has_value());
  ASSERT_FALSE(out[0]->ok());
  EXPECT_EQ(out[0]->error().what, transport_error::kind::timeout) << out[0]->error().message;
  for (int i = 1; i <= expected; ++i) {
    ASSERT_TRUE(out[i]->ok()) << out[i]->error().message;
    EXPECT_EQ(out[i]->value().body, std::to_string(expected));
  }
}

TEST(cooperative, a_pausing_task_lets_the_others_run_meanwhile) {
  std::vector<std::string> order;
  run_cooperatively(2, [&](unsigned task) {
    if (task == 0) {
      order.push_back("0 before its pause");
      pause(std::chrono::milliseconds(1));
      order.push_back("0 after its pause");
    } else {
      order.push_back("1");
    }
  });
  EXPECT_EQ(order, (std::vector<std::string>{"0 before its pause", "1", "0 after its pause"}));
}

TEST(cooperative, an_exception_reaches_the_caller_once_every_task_finished) {
  std::vector<int> finished(3, 0);
  EXPECT_THROW(run_cooperatively(3,
                                 [&](unsigned task) {
                                   pause(std::chrono::microseconds(100));
                                   if (task == 1) throw std::runtime_error("task 1 broke");
                                   pause(std::chrono::microseconds(100));
                                   finished[task] = 1;
                                 }),
               std::runtime_error);
  EXPECT_EQ(finished, (std::vector<int>{1, 0, 1}));
}

TEST(cooperative, no_tasks_and_one_task_run_without_fibers) {
  int calls = 0;
  run_cooperatively(0, [&](unsigned) { ++calls; });
  EXPECT_EQ(calls, 0);
  run_cooperatively(1, [&](unsigned task) {
    EXPECT_EQ(task, 0u);
    pause(std::chrono::microseconds(10));  // sleeps: there is no one else
    ++calls;
  });
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace conform::http
