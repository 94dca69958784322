// Tasks that take turns on one thread (http/cooperative.hpp): fibers of
// Boost.Context, a round of every runnable task, then one ppoll() over the
// sockets of the tasks that wait.

#include "http/cooperative.hpp"

#include <boost/beast/core/error.hpp>
#include <boost/context/fiber.hpp>
#include <boost/context/protected_fixedsize_stack.hpp>

#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <exception>
#include <thread>
#include <vector>

#include "http/detail/wait.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define CONFORM_ASAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CONFORM_ASAN_FIBERS 1
#endif
#endif
#ifdef CONFORM_ASAN_FIBERS
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace conform::http {
namespace {

namespace ctx = boost::context;
using steady = std::chrono::steady_clock;

// A task's stack: what a thread gets by default, so that a task may recurse
// as deep as a worker thread could. Mapped, not committed: a task touches a
// few pages of it, and a guard page below turns an overflow into a fault.
constexpr std::size_t stack_bytes = 8u << 20;

// AddressSanitizer must be told when execution moves to another stack, or it
// takes the new stack for a wild one. No-ops in other builds.
void start_switch([[maybe_unused]] void** fake_stack, [[maybe_unused]] const void* bottom,
                  [[maybe_unused]] std::size_t size) {
#ifdef CONFORM_ASAN_FIBERS
  __sanitizer_start_switch_fiber(fake_stack, bottom, size);
#endif
}

void finish_switch([[maybe_unused]] void* fake_stack, [[maybe_unused]] const void** bottom_old,
                   [[maybe_unused]] std::size_t* size_old) {
#ifdef CONFORM_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(fake_stack, bottom_old, size_old);
#endif
}

struct task {
  ctx::fiber self;  // the task, while it is not running
  ctx::fiber back;  // the scheduler, while the task runs
  enum class state { runnable, waiting, done } now = state::runnable;
  int fd = -1;  // what it waits for; -1: only its deadline
  short events = 0;
  steady::time_point deadline = steady::time_point::max();
  bool timed_out = false;
  int error = 0;  // poll()'s errno, when poll itself failed
  const void* stack_bottom = nullptr;
  std::size_t stack_size = 0;
  void* fake_stack = nullptr;
};

/// What a waiting task learns when it runs again.
struct woken {
  bool timed_out = false;
  int error = 0;
};

class scheduler;
thread_local scheduler* current = nullptr;

/// Clears what AddressSanitizer remembers of a stack's memory. A fiber's
/// last frames never return (its final switch leaves them), so their
/// redzones stay marked; a later fiber's stack mapped at the same address
/// would then fault on its first large local. A no-op in other builds.
void forget_stack([[maybe_unused]] const void* bottom, [[maybe_unused]] std::size_t size) {
#ifdef CONFORM_ASAN_FIBERS
  __asan_unpoison_memory_region(bottom, size);
#endif
}

/// A stack allocator that notes where the task's stack lies (for ASan).
struct noting_stack {
  ctx::protected_fixedsize_stack inner{stack_bytes};
  task* owner = nullptr;
  ctx::stack_context allocate() {
    ctx::stack_context s = inner.allocate();
    owner->stack_bottom = static_cast<const char*>(s.sp) - s.size;
    owner->stack_size = s.size;
    forget_stack(owner->stack_bottom, s.size);
    return s;
  }
  void deallocate(ctx::stack_context& s) noexcept {
    forget_stack(static_cast<const char*>(s.sp) - s.size, s.size);
    inner.deallocate(s);
  }
};

class scheduler {
 public:
  scheduler(unsigned tasks, const std::function<void(unsigned)>& body)
      : body_(body), tasks_(tasks) {}

  void run() {
    scheduler* const outer = current;
    current = this;
    for (unsigned i = 0; i < tasks_.size(); ++i) {
      tasks_[i].self = ctx::fiber(
          std::allocator_arg, noting_stack{ctx::protected_fixedsize_stack(stack_bytes), &tasks_[i]},
          [this, i](ctx::fiber&& back) { return task_main(i, std::move(back)); });
    }
    std::size_t live = tasks_.size();
    std::vector<pollfd> fds;
    std::vector<unsigned> owners;
    while (live > 0) {
      for (unsigned i = 0; i < tasks_.size(); ++i) {
        if (tasks_[i].now != task::state::runnable) continue;
        enter(i);
        if (tasks_[i].now == task::state::done) --live;
      }
      if (live > 0) wait_for_any(fds, owners);
    }
    current = outer;
    if (error_) std::rethrow_exception(error_);
  }

  /// Called by the running task: steps aside until `fd` is ready for
  /// `events` (fd -1: never) or `deadline` passes.
  woken park(int fd, short events, steady::time_point deadline) {
    const unsigned me = running_;
    task& t = tasks_[me];
    t.now = task::state::waiting;
    t.fd = fd;
    t.events = events;
    t.deadline = deadline;
    t.timed_out = false;
    t.error = 0;
    start_switch(&t.fake_stack, main_bottom_, main_size_);
    t.back = std::move(t.back).resume();
    finish_switch(t.fake_stack, nullptr, nullptr);
    return {tasks_[me].timed_out, tasks_[me].error};
  }

 private:
  ctx::fiber task_main(unsigned i, ctx::fiber&& back) {
    // Arriving from the scheduler for the first time: learn its stack.
    finish_switch(nullptr, &main_bottom_, &main_size_);
    tasks_[i].back = std::move(back);
    try {
      body_(i);
    } catch (const ctx::detail::forced_unwind&) {
      throw;  // Boost.Context unwinding a fiber: not the task's own exception
    } catch (...) {
      if (!error_) error_ = std::current_exception();
    }
    start_switch(nullptr, main_bottom_, main_size_);  // this stack is going away
    return std::move(tasks_[i].back);
  }

  void enter(unsigned i) {
    task& t = tasks_[i];
    running_ = i;
    void* fake_stack = nullptr;
    start_switch(&fake_stack, t.stack_bottom, t.stack_size);
    t.self = std::move(t.self).resume();
    finish_switch(fake_stack, nullptr, nullptr);
    if (!t.self) t.now = task::state::done;
  }

  /// Every live task waits: one ppoll() over their sockets until the
  /// soonest deadline; those whose socket is ready or deadline passed run
  /// again.
  void wait_for_any(std::vector<pollfd>& fds, std::vector<unsigned>& owners) {
    fds.clear();
    owners.clear();
    steady::time_point soonest = steady::time_point::max();
    for (unsigned i = 0; i < tasks_.size(); ++i) {
      const task& t = tasks_[i];
      if (t.now != task::state::waiting) continue;
      if (t.fd >= 0) {
        fds.push_back({t.fd, t.events, 0});
        owners.push_back(i);
      }
      soonest = std::min(soonest, t.deadline);
    }
    timespec limit{};
    const timespec* timeout = nullptr;
    if (soonest != steady::time_point::max()) {
      const auto left = std::max(steady::duration::zero(), soonest - steady::now());
      const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(left).count();
      limit.tv_sec = static_cast<time_t>(ns / 1000000000);
      limit.tv_nsec = static_cast<long>(ns % 1000000000);
      timeout = &limit;
    }
    const int n = ::ppoll(fds.data(), fds.size(), timeout, nullptr);
    const int poll_error = n < 0 && errno != EINTR ? errno : 0;
    for (std::size_t k = 0; k < fds.size(); ++k) {
      task& t = tasks_[owners[k]];
      if (fds[k].revents != 0 || poll_error != 0) {
        t.now = task::state::runnable;
        t.error = poll_error;
      }
    }
    const auto now = steady::now();
    for (task& t : tasks_) {
      if (t.now == task::state::waiting && now >= t.deadline) {
        t.now = task::state::runnable;
        t.timed_out = true;
      }
    }
  }

  const std::function<void(unsigned)>& body_;
  std::vector<task> tasks_;  // never resized once the fibers exist
  unsigned running_ = 0;
  const void* main_bottom_ = nullptr;
  std::size_t main_size_ = 0;
  std::exception_ptr error_;
};

}  // namespace

void run_cooperatively(unsigned tasks, const std::function<void(unsigned task)>& body) {
  if (tasks == 0) return;
  if (tasks == 1) {
    body(0);
    return;
  }
  scheduler(tasks, body).run();
}

void pause(std::chrono::nanoseconds how_long) {
  if (how_long.count() <= 0) return;
  // A deadline as far off as a day at most: now + how_long must not overflow.
  how_long = std::min<std::chrono::nanoseconds>(how_long, std::chrono::hours(24));
  if (current) {
    current->park(-1, 0, steady::now() + how_long);
    return;
  }
  std::this_thread::sleep_for(how_long);
}

namespace detail {

boost::system::error_code wait_ready(int fd, bool readable,
                                     std::optional<steady::time_point> deadline) {
  const short events = readable ? POLLIN : POLLOUT;
  if (current) {
    if (deadline && steady::now() >= *deadline) return boost::beast::error::timeout;
    const woken w = current->park(fd, events, deadline.value_or(steady::time_point::max()));
    if (w.error != 0) return {w.error, boost::system::system_category()};
    if (w.timed_out) return boost::beast::error::timeout;
    return {};
  }
  pollfd p{fd, events, 0};
  for (;;) {
    int timeout_ms = -1;
    if (deadline) {
      const auto left = *deadline - steady::now();
      if (left <= steady::duration::zero()) return boost::beast::error::timeout;
      timeout_ms = static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(left).count());
    }
    const int n = ::poll(&p, 1, timeout_ms);
    if (n > 0) return {};
    // n == 0: rounding up may wake a little early or late; the next loop decides.
    if (n < 0 && errno != EINTR) return {errno, boost::system::system_category()};
  }
}

}  // namespace detail
}  // namespace conform::http
