#pragma once
// A listener that holds the events it gets until it is opened, then passes
// them on in order and passes every later one straight through: the
// stateful phase runs before the plan (it teaches the plan), and its
// findings must still reach the listeners after `run_started`.

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
      open_ = true;
    }
    for (auto& e : held) e(to_);
  }

  void run_started(const run_info& info, std::uint64_t planned) override {
    pass([=](listener& l) { l.run_started(info, planned); });
  }
  void phase_started(phase p, std::uint64_t planned) override {
    pass([=](listener& l) { l.phase_started(p, planned); });
  }
  void exchange_done(std::uint64_t done, std::uint64_t planned) override {
    pass([=](listener& l) { l.exchange_done(done, planned); });
  }
  void phase_finished(phase p) override {
    pass([=](listener& l) { l.phase_finished(p); });
  }
  void cell_finished(const check_tally& cell) override {
    pass([=](listener& l) { l.cell_finished(cell); });
  }
  void failure_found(const failure& f) override {
    pass([=](listener& l) { l.failure_found(f); });
  }
  void not_run(const harness::not_run& n) override {
    pass([=](listener& l) { l.not_run(n); });
  }
  void exchange_recorded(const recorded_exchange& e) override {
    pass([e](listener& l) { l.exchange_recorded(e); });  // held by value: the phase is short
  }
  bool records_exchanges() const override { return to_.records_exchanges(); }
  void run_finished(const run_report& report) override { to_.run_finished(report); }

 private:
  void pass(std::function<void(listener&)> e) {
    {
      std::lock_guard lock(mutex_);
      if (!open_) {
        held_.push_back(std::move(e));
        return;
      }
    }
    e(to_);
  }

  listener& to_;
  std::mutex mutex_;
  bool open_ = false;
  std::vector<std::function<void(listener&)>> held_;
};

}  // namespace conform::harness::detail
