#pragma once
// A listener that holds the events it gets until it is opened, then passes
// them on in order and passes every later one straight through: the
// stateful phase runs before the plan (it teaches the plan), and its
// findings must still reach the listeners after `run_started`.

#include <atomic>
#include <functional>
#include <mutex>
#include <vector>

#include "harness/listener.hpp"
#include "harness/recorded.hpp"

namespace conform::harness::detail {

class gate final : public listener {
 public:
  explicit gate(listener& to) : to_(to) {}

  /// Passes on what was held, and from now on everything at once.
  void open() {
    std::vector<std::function<void(listener&)>> held;
    {
      std::lock_guard lock(mutex_);
      held.swap(held_);
      open_.store(true, std::memory_order_release);
    }
    for (auto& e : held) e(to_);
  }

  // Once open, an event goes straight through. Before, what it refers to is
  // copied (`held`, made only then): the emitter's objects are gone by the
  // time the gate opens. (A copy for every event cost a whole recorded
  // exchange per request with --record.)
  void run_started(const event::run_started& e) override {
    pass([&](listener& l) { l.run_started(e); },
         [&] {
           return [info = e.info, planned = e.planned](listener& l) {
             l.run_started({info, planned});
           };
         });
  }
  void phase_started(const event::phase_started& e) override {
    pass([&](listener& l) { l.phase_started(e); },
         [&] { return [e](listener& l) { l.phase_started(e); }; });
  }
  void exchange_done(const event::exchange_done& e) override {
    pass([&](listener& l) { l.exchange_done(e); },
         [&] { return [e](listener& l) { l.exchange_done(e); }; });
  }
  void phase_finished(const event::phase_finished& e) override {
    pass([&](listener& l) { l.phase_finished(e); },
         [&] { return [e](listener& l) { l.phase_finished(e); }; });
  }
  void failure_found(const event::failure_found& e) override {
    pass([&](listener& l) { l.failure_found(e); },
         [&] { return [f = e.found](listener& l) { l.failure_found({f}); }; });
  }
  void not_run(const event::not_run& e) override {
    pass([&](listener& l) { l.not_run(e); },
         [&] { return [n = e.entry](listener& l) { l.not_run({n}); }; });
  }
  void exchange_recorded(const event::exchange_recorded& e) override {
    pass([&](listener& l) { l.exchange_recorded(e); },
         [&] { return [x = e.exchange](listener& l) { l.exchange_recorded({x}); }; });
  }
  bool records_exchanges() const override { return to_.records_exchanges(); }
  void run_finished(const event::run_finished& e) override { to_.run_finished(e); }

 private:
  /// `now(to_)` when open; else keeps `held()`, a copy, for open().
  template <typename Now, typename Held>
  void pass(Now now, Held held) {
    if (!open_.load(std::memory_order_acquire)) {
      std::lock_guard lock(mutex_);
      if (!open_.load(std::memory_order_relaxed)) {
        held_.emplace_back(held());
        return;
      }
    }
    now(to_);
  }

  listener& to_;
  std::mutex mutex_;
  std::atomic<bool> open_{false};
  std::vector<std::function<void(listener&)>> held_;
};

}  // namespace conform::harness::detail
