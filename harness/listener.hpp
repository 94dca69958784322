#pragma once
// One event stream for a run. The engine and both kinds of checks emit the
// same events, in the order things happen; the console streams them, and the
// file writers (JUnit, JSON, ...) render the folded report that ends the
// stream. Every event has a no-op default, so a listener overrides only what
// it needs. Events reach a listener one at a time (event_stream serialises
// them), never concurrently.

#include <cstdint>
#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

#include "harness/outcome.hpp"
#include "harness/recorded.hpp"

namespace conform::harness {

/// The phases of a run, in the order they run.
enum class phase : std::uint8_t {
  stateful,   // chains along the description's links, learning ids (before the plan)
  scenarios,  // checks of several exchanges, one scenario after another
  coverage,   // one generated request per constraint, deterministic, before the random ones
  exchanges,  // generated requests, each judged by the per-exchange checks
  shrinking,  // failures of generated requests reduced to a minimal request
};

/// "stateful", "scenarios", "coverage", "exchanges" or "shrinking".
std::string_view to_string(phase p);

class listener {
 public:
  virtual ~listener() = default;
  /// The run starts; `planned` generated exchanges are planned (before shrinking).
  virtual void run_started(const run_info& /*info*/, std::uint64_t /*planned*/) {}
  /// A phase starts; `planned` is its unit count (scenarios, exchanges or failures to shrink).
  virtual void phase_started(phase /*p*/, std::uint64_t /*planned*/) {}
  /// One more generated exchange was judged (progress of the exchanges phase).
  virtual void exchange_done(std::uint64_t /*done*/, std::uint64_t /*planned*/) {}
  /// A phase ended.
  virtual void phase_finished(phase /*p*/) {}
  /// An (operation, auth model, check) cell will record nothing more.
  virtual void cell_finished(const check_tally& /*cell*/) {}
  /// A failure with a new cause was found (shrunk already, for generated requests).
  virtual void failure_found(const failure& /*f*/) {}
  /// A check, or a group of them, could not run.
  virtual void not_run(const harness::not_run& /*n*/) {}
  /// The run ended; `report` is the fold of every event before it.
  virtual void run_finished(const run_report& /*report*/) {}
  /// A request was sent and judged, redacted (`--record`). Emitted only
  /// when some listener's records_exchanges() is true: building one costs
  /// a copy of the exchange.
  virtual void exchange_recorded(const recorded_exchange& /*e*/) {}
  /// True for a listener that wants exchange_recorded.
  virtual bool records_exchanges() const { return false; }
};

/// Forwards every event to each listener in turn, one event at a time: the
/// engine's workers and scenarios may emit from several threads.
class event_stream final : public listener {
 public:
  event_stream() = default;
  /// A stream that starts with `first` (not owned).
  explicit event_stream(listener& first) { all_.push_back(&first); }
  /// Adds a listener the stream owns.
  void add(std::unique_ptr<listener> l);
  /// Adds a listener the stream does not own; it must outlive the stream's use.
  void add(listener& l) { all_.push_back(&l); }

  void run_started(const run_info& info, std::uint64_t planned) override;
  void phase_started(phase p, std::uint64_t planned) override;
  void exchange_done(std::uint64_t done, std::uint64_t planned) override;
  void phase_finished(phase p) override;
  void cell_finished(const check_tally& cell) override;
  void failure_found(const failure& f) override;
  void not_run(const harness::not_run& n) override;
  void run_finished(const run_report& report) override;
  void exchange_recorded(const recorded_exchange& e) override;
  bool records_exchanges() const override;

 private:
  template <typename F>
  void each(F&& f);

  std::mutex mutex_;
  std::vector<std::unique_ptr<listener>> owned_;
  std::vector<listener*> all_;  // every listener, owned or not, in the order added
};

}  // namespace conform::harness
