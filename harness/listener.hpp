#pragma once
// One listener interface for the run's events, fanned out to every report
// writer (console, JUnit, JSON). Every event has a no-op default, so a writer
// overrides only what it needs.

#include <cstdint>
#include <memory>
#include <vector>

#include "harness/outcome.hpp"

namespace conform::harness {

class listener {
 public:
  virtual ~listener() = default;
  /// The run starts; `planned` exchanges are planned (before shrinking).
  virtual void run_started(const run_info& /*info*/, std::uint64_t /*planned*/) {}
  /// One more exchange finished (called from worker threads, serialised by the runner).
  virtual void exchange_done(std::uint64_t /*done*/, std::uint64_t /*planned*/) {}
  /// A new failure was found (before the run ends; shrunk already).
  virtual void failure_found(const failure& /*f*/) {}
  /// The run ended; the report is complete.
  virtual void run_finished(const run_report& /*report*/) {}
};

/// Forwards every event to each listener in turn.
class multi_listener final : public listener {
 public:
  void add(std::unique_ptr<listener> l) { listeners_.push_back(std::move(l)); }
  void run_started(const run_info& info, std::uint64_t planned) override;
  void exchange_done(std::uint64_t done, std::uint64_t planned) override;
  void failure_found(const failure& f) override;
  void run_finished(const run_report& report) override;

 private:
  std::vector<std::unique_ptr<listener>> listeners_;
};

}  // namespace conform::harness
