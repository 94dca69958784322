#pragma once
// The console report: a progress bar on a terminal (plain lines otherwise),
// then a summary per operation and check, every failure with how to
// reproduce it, and what could not run and why.

#include <chrono>
#include <cstdint>
#include <ostream>

#include "harness/listener.hpp"

namespace conform::reports {

class console_writer final : public harness::listener {
 public:
  /// Writes to `out`; `interactive` draws a progress bar (a terminal).
  console_writer(std::ostream& out, bool interactive);

  void run_started(const harness::run_info& info, std::uint64_t planned) override;
  void exchange_done(std::uint64_t done, std::uint64_t planned) override;
  void run_finished(const harness::run_report& report) override;

 private:
  std::ostream& out_;
  bool interactive_;
  unsigned last_percent_ = 101;
  bool bar_drawn_ = false;
};

}  // namespace conform::reports
