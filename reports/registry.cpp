#include "reports/registry.hpp"

#include <array>

#include "reports/html.hpp"
#include "reports/json.hpp"
#include "reports/junit.hpp"
#include "reports/markdown.hpp"

namespace conform::reports {
namespace {

constexpr std::array formats{
    report_format{"junit", "JUnit XML: a testsuite per operation, a testcase per cell",
                  render_junit},
    report_format{"json", "JSON: every cell, failure and not-run (docs/report-format.md)",
                  render_json},
    report_format{"html", "HTML: one self-contained page, operations x auth models x checks",
                  render_html},
    report_format{"markdown", "Markdown: verdict, counts, failures with reproductions (CI pages)",
                  render_markdown},
};

}  // namespace

std::span<const report_format> report_formats() {
  return formats;
}

const report_format* find_report_format(std::string_view name) {
  for (const auto& f : formats) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

std::unique_ptr<file_writer> make_writer(const report_format& format, std::string path) {
  return std::make_unique<file_writer>(std::move(path), format.render);
}

}  // namespace conform::reports
