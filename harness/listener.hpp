#pragma once
// One event stream for a run. The engine and both kinds of checks emit the
// same events, in the order things happen; the console streams them (the
// phases, each failure and each "not run" as it comes, the progress), the
// HAR writer writes each recorded exchange, and the file writers (JUnit,
// JSON, ...) render the folded report that ends the stream. Every event has a no-op default, so a
// listener overrides only what it needs. Events reach a listener one at a time (event_stream
// serialises them), never concurrently.

#include <cstdint>
#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

#include "harness/run_report.hpp"
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

/// What each event carries, one struct per event, as Catch2's reporters and
/// Schemathesis's handlers get theirs: an event can carry one more field
/// without changing the signature of every listener. The references live as
/// long as the call; a listener that keeps anything copies it.
namespace event {

/// The run starts; `planned` generated exchanges are planned (before shrinking).
struct run_started {
  const run_info& info;
  std::uint64_t planned = 0;
};
/// A phase starts; `planned` is its unit count (scenario suites, exchanges or
/// failures to shrink; 1 for the stateful phase; 0 when not known ahead, as
/// in a replay).
struct phase_started {
  phase which;
  std::uint64_t planned = 0;
};
/// One more generated exchange was judged (progress of the exchanges phase,
/// coverage included): `done` of `planned`.
struct exchange_done {
  std::uint64_t done = 0;
  std::uint64_t planned = 0;
};
/// A phase ended.
struct phase_finished {
  phase which;
};
/// A failure with a new cause was found (shrunk already, for generated requests).
struct failure_found {
  const failure& found;
};
/// A check, or a group of them, could not run.
struct not_run {
  const harness::not_run& entry;
};
/// The run ended; `report` is the fold of every event before it.
struct run_finished {
  const run_report& report;
};
/// A request was sent and judged, redacted (`--record`).
struct exchange_recorded {
  const recorded_exchange& exchange;
};

}  // namespace event

class listener {
 public:
  virtual ~listener() = default;
  virtual void run_started(const event::run_started& /*e*/) {}
  virtual void phase_started(const event::phase_started& /*e*/) {}
  virtual void exchange_done(const event::exchange_done& /*e*/) {}
  virtual void phase_finished(const event::phase_finished& /*e*/) {}
  virtual void failure_found(const event::failure_found& /*e*/) {}
  virtual void not_run(const event::not_run& /*e*/) {}
  virtual void run_finished(const event::run_finished& /*e*/) {}
  /// Emitted only when some listener's records_exchanges() is true:
  /// building one costs a copy of the exchange.
  virtual void exchange_recorded(const event::exchange_recorded& /*e*/) {}
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

  void run_started(const event::run_started& e) override;
  void phase_started(const event::phase_started& e) override;
  void exchange_done(const event::exchange_done& e) override;
  void phase_finished(const event::phase_finished& e) override;
  void failure_found(const event::failure_found& e) override;
  void not_run(const event::not_run& e) override;
  void run_finished(const event::run_finished& e) override;
  void exchange_recorded(const event::exchange_recorded& e) override;
  bool records_exchanges() const override;

 private:
  template <typename F>
  void each(F&& f);

  std::mutex mutex_;
  std::vector<std::unique_ptr<listener>> owned_;
  std::vector<listener*> all_;  // every listener, owned or not, in the order added
};

}  // namespace conform::harness
