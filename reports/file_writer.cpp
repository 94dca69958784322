#include "reports/file_writer.hpp"

#include "reports/detail_text.hpp"

namespace conform::reports {

void file_writer::run_finished(const harness::run_report& report) {
  detail::write_file(path_, render_(report), error_);
}

}  // namespace conform::reports
