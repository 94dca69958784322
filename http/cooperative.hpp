#pragma once
// Many exchanges in flight on one thread: tasks that take turns.
//
// `run_cooperatively(n, body)` runs `body(0)` .. `body(n - 1)` on the calling
// thread, each on a stack of its own (a fiber). A task runs until it must
// wait: for its socket (every wait of a `connection`), or for time to pass
// (`pause`: the rate limiter, a Retry-After). It then steps aside, and when
// every task waits the thread makes one poll() over all of their sockets and
// resumes those whose socket is ready or whose deadline passed. So one thread
// keeps n requests in flight, and one wake-up serves every answer that came
// in meanwhile, as wrk does, instead of one thread asleep per request.
//
// The code a task runs is ordinary blocking code: a task never waits while
// it holds a lock another task of its thread might want, since waiting only
// happens inside a socket operation or `pause`.

#include <chrono>
#include <functional>

namespace conform::http {

/// Runs body(0) .. body(tasks - 1) cooperatively on this thread and returns
/// when all have returned. One task runs directly, without a fiber. An
/// exception a task throws is rethrown here once every task has finished.
void run_cooperatively(unsigned tasks, const std::function<void(unsigned task)>& body);

/// Waits for `how_long`: in a cooperative task, letting the thread's other
/// tasks run meanwhile; elsewhere, by sleeping.
void pause(std::chrono::nanoseconds how_long);

}  // namespace conform::http
