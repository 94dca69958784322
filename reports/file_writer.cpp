#include "reports/file_writer.hpp"

#include <utility>

#include "core/file.hpp"

namespace conform::reports {

void file_writer::run_finished(const harness::event::run_finished& e) {
  if (auto written = core::write_file(path_, render_(e.report)); !written) {
    error_ = std::move(written).error();
  }
}

}  // namespace conform::reports
