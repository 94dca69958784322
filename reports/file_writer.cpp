#include "reports/file_writer.hpp"

#include <utility>

#include "reports/detail_text.hpp"

namespace conform::reports {

void file_writer::run_finished(const harness::run_report& report) {
  if (auto written = detail::write_file(path_, render_(report)); !written) {
    error_ = std::move(written).error();
  }
}

}  // namespace conform::reports
