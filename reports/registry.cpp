#include "reports/registry.hpp"

#include <algorithm>
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

std::string report_format_names() {
  std::string out;
  for (const auto& f : formats) out += (out.empty() ? "" : ", ") + std::string(f.name);
  return out;
}

std::string report_format_lines() {
  std::size_t width = 0;
  for (const auto& f : formats) width = std::max(width, f.name.size());
  std::string out;
  for (const auto& f : formats) {
    out += "  " + std::string(f.name) + std::string(width + 2 - f.name.size(), ' ') +
           std::string(f.description) + "\n";
  }
  return out;
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
