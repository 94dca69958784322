#include "reports/markdown.hpp"

#include "reports/detail_text.hpp"
#include "reports/reach.hpp"

namespace conform::reports {
namespace {

/// Text on one Markdown line or in inline code: no newline or backtick breaks it.
std::string cell(std::string_view raw) {
  const std::string text = detail::shown(raw);  // a server's bytes: UTF-8, no control character
  std::string out;
  for (char c : text) {
    if (c == '\n') {
      out += ' ';
    } else if (c == '`') {
      out += '\'';
    } else {
      out += c;
    }
  }
  return out;
}

void failure_block(std::string& out, const harness::failure& f, const harness::run_info& info) {
  out +=
      "#### " + cell(f.check) + ": " + cell(f.operation_id) + " as " + cell(f.auth_model) + "\n\n";
  out += "- mode: " + cell(f.mode.to_string()) + "\n";
  out += "- expected: " + cell(f.expected) + "\n";
  out += "- seen: " + cell(f.seen) + "\n";
  for (const auto& a : f.assumptions) out += "- assumption: " + cell(a) + "\n";
  out += "- key: `" + cell(failure_key(f)) + "`\n\n";
  out += "```sh\n" + detail::shown(detail::reproduce_command(f, info)) + "\n" +
         detail::shown(f.curl) + "\n```\n\n";
}

void key_list(std::string& out, const std::string& title,
              const std::vector<harness::failure>& list) {
  if (list.empty()) return;
  out += "### " + title + " (" + std::to_string(list.size()) + ")\n\n";
  for (const auto& f : list) out += "- `" + cell(failure_key(f)) + "`\n";
  out += "\n";
}

}  // namespace

std::string render_markdown(const harness::run_report& report, const run_diff* baseline) {
  const int code = baseline && report.exit_code() != 2 ? baseline->exit_code() : report.exit_code();
  std::string out = "## Conform: ";
  out += code == 0 ? "PASSED" : code == 1 ? "FAILED" : "NOTHING PROVED";
  out += " (seed " + std::to_string(report.info.seed);
  if (!report.info.shard_label().empty()) out += ", " + report.info.shard_label();
  out += ")\n\n";
  out += "Target `" + cell(report.info.target) + "`, description `" + cell(report.info.spec_title) +
         " " + cell(report.info.spec_version) + "`.\n\n";
  const auto& c = report.counts;
  out += "| requests | checks passed | checks failed | failures | not run |";
  out += c.checks_contradicted > 0 ? " contradicted an assumption |\n" : "\n";
  out += "|---:|---:|---:|---:|---:|";
  out += c.checks_contradicted > 0 ? "---:|\n" : "\n";
  out += "| " + std::to_string(c.requests) + " | " + std::to_string(c.checks_passed) + " | " +
         std::to_string(c.checks_failed) + " | " + std::to_string(report.failures.size()) + " | " +
         std::to_string(c.cells_not_run) + " |";
  out +=
      c.checks_contradicted > 0 ? " " + std::to_string(c.checks_contradicted) + " |\n\n" : "\n\n";
  if (report.aborted) out += "**Aborted:** " + cell(*report.aborted) + "\n\n";
  if (baseline) {
    out += "Against the baseline: " + std::to_string(baseline->new_failures.size()) + " new, " +
           std::to_string(baseline->still_failing.size()) + " known, " +
           std::to_string(baseline->fixed.size()) + " fixed, " +
           std::to_string(baseline->flaky.size()) + " flaky.\n\n";
    if (!baseline->new_failures.empty()) {
      out += "### New failures (" + std::to_string(baseline->new_failures.size()) + ")\n\n";
      for (const auto& f : baseline->new_failures) failure_block(out, f, report.info);
    }
    key_list(out, "Flaky (not reproduced by a re-send)", baseline->flaky);
    key_list(out, "Known", baseline->still_failing);
    key_list(out, "Fixed", baseline->fixed);
  } else if (!report.failures.empty()) {
    std::size_t sourced = 0;
    for (const auto& f : report.failures) sourced += f.contradicts_assumption() ? 0 : 1;
    if (sourced > 0) {
      out += "### Failures (" + std::to_string(sourced) + ")\n\n";
      for (const auto& f : report.failures) {
        if (!f.contradicts_assumption()) failure_block(out, f, report.info);
      }
    }
    if (sourced < report.failures.size()) {
      out += "### Contradicts an assumption of the description (" +
             std::to_string(report.failures.size() - sourced) + ")\n\n";
      out += report.info.strict_assumptions
                 ? "These fail the run (`--strict-assumptions`).\n\n"
                 : "These do not fail the run (`--strict-assumptions` makes them).\n\n";
      for (const auto& f : report.failures) {
        if (f.contradicts_assumption()) failure_block(out, f, report.info);
      }
    }
  }
  if (const auto contradicted = report.assumptions_contradicted(); !contradicted.empty()) {
    out += "### Assumptions the target contradicted (" + std::to_string(contradicted.size()) +
           ")\n\nConfirm or correct each in the description.\n\n";
    for (const auto& a : contradicted) {
      out += "- " + cell(a.text) + " (" + std::to_string(a.failures) + " failure" +
             (a.failures == 1 ? "" : "s") + ")\n";
    }
    out += "\n";
  }
  if (const auto unobserved = report.assumptions_not_observed(); !unobserved.empty()) {
    out += "### Assumptions this run could not observe (" + std::to_string(unobserved.size()) +
           ")\n\nA request breaking each alone was refused for another reason.\n\n";
    for (const auto& a : unobserved) {
      out += "- " + cell(a.text) + " (refused with " + std::to_string(a.status) + ")\n";
    }
    out += "\n";
  }
  if (!report.notes.empty()) {
    out += "### Notes (" + std::to_string(report.notes.size()) + "; not failures)\n\n";
    for (const auto& n : report.notes) {
      out += "- `" + cell(n.check) + "` " + cell(n.operation_id) + " as " + cell(n.auth_model) +
             ": " + cell(n.text) + " (seen " + std::to_string(n.occurrences) + " time(s))\n";
    }
    out += "\n";
  }
  if (!report.failures.empty()) {
    out += "Curl commands name each credential by its `${VARIABLE}`; set them before running.\n\n";
  }
  if (const std::string reach = reach_text(report); !reach.empty()) {
    out += "<details><summary>Reach</summary>\n\n```text" + reach + "```\n\n</details>\n\n";
  }
  return out;
}

std::string render_markdown(const harness::run_report& report) {
  return render_markdown(report, nullptr);
}

}  // namespace conform::reports
