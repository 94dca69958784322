#pragma once
// A report writer that renders the finished run into a file: the shared part
// of the JUnit and JSON writers.

#include <string>

#include "harness/listener.hpp"

namespace conform::reports {

class file_writer : public harness::listener {
 public:
  /// Renders a finished run as the file's whole content.
  using render_fn = std::string (*)(const harness::run_report&);

  file_writer(std::string path, render_fn render) : path_(std::move(path)), render_(render) {}
  void run_finished(const harness::event::run_finished& e) override;
  /// Empty, or why the file could not be written.
  const std::string& error() const { return error_; }

 private:
  std::string path_;
  render_fn render_;
  std::string error_;
};

}  // namespace conform::reports
