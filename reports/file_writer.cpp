#include "reports/file_writer.hpp"

#include "reports/detail_text.hpp"

namespace conform::reports {

void file_writer::run_finished(const harness::event::run_finished& e) {
  detail::write_file(path_, render_(e.report), error_);
}

}  // namespace conform::reports
