#pragma once
// The console report. While the run goes, it streams what happens: each
// phase as it starts, with its planned count; each failure as it is found,
// one short line (check, operation, cause); each "not run" as it is said.
// On a terminal the exchanges phase draws a progress line, which each
// streamed line clears and draws again below itself; elsewhere (CI, a pipe,
// --no-progress) the lines are plain, without control characters. When the
// run ends: a summary per check and operation, every failure with how to
// reproduce it, and what could not run and why.

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>

#include "harness/listener.hpp"

namespace conform::reports {

class console_writer final : public harness::listener {
 public:
  /// Writes to `out`; `interactive` draws a progress line (a terminal).
  console_writer(std::ostream& out, bool interactive);

  void run_started(const harness::event::run_started& e) override;
  void phase_started(const harness::event::phase_started& e) override;
  void exchange_done(const harness::event::exchange_done& e) override;
  void phase_finished(const harness::event::phase_finished& e) override;
  void failure_found(const harness::event::failure_found& e) override;
  void not_run(const harness::event::not_run& e) override;
  void run_finished(const harness::event::run_finished& e) override;

 private:
  /// Prints `text` as a line of its own, above the progress line if one is drawn.
  void line(const std::string& text);
  void clear_progress();
  void draw_progress();

  std::ostream& out_;
  bool interactive_;
  bool progress_on_ = false;            // the exchanges phase runs: a terminal shows its progress
  std::uint64_t coverage_planned_ = 0;  // the coverage phase's share of the exchanges
  std::uint64_t done_ = 0, planned_ = 0;
  unsigned last_percent_ = 101;
  std::size_t drawn_ = 0;  // width of the progress line on screen; 0 when none is
};

}  // namespace conform::reports
