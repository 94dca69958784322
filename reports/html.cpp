// The HTML report of `conform run --html FILE`: the verdict, the matrix of
// operations x auth models (each cell the checks that passed, failed, did
// not run), every check's totals, each failure with its reproduction, and
// what did not run. One self-contained file.
#include "reports/html.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "reports/detail_text.hpp"
#include "reports/html_page.hpp"
#include "reports/reach.hpp"

namespace conform::reports {

namespace {

using html::badge;
using html::escape;

struct counts {
  std::uint64_t passed = 0, failed = 0, not_run = 0, nothing = 0;
  std::uint64_t assumed = 0;  // only contradicted assumptions of the description
};

void add(counts& c, const harness::check_tally& t, bool strict) {
  if (t.not_run_why) {
    ++c.not_run;
  } else if (t.failed > 0 || (strict && t.contradicted > 0)) {
    ++c.failed;
  } else if (t.contradicted > 0) {
    ++c.assumed;
  } else if (t.nothing_judged) {
    ++c.nothing;
  } else {
    ++c.passed;
  }
}

std::string cell_html(const counts& c) {
  std::string out;
  if (c.passed)
    out +=
        "<span class=\"cell pass\" title=\"checks passed\">" + std::to_string(c.passed) + "</span>";
  if (c.failed)
    out +=
        "<span class=\"cell fail\" title=\"checks failed\">" + std::to_string(c.failed) + "</span>";
  if (c.assumed)
    out +=
        "<span class=\"cell assumed\" title=\"checks that contradicted an assumption of the "
        "description\">" +
        std::to_string(c.assumed) + "</span>";
  if (c.not_run)
    out += "<span class=\"cell skip\" title=\"checks not run\">" + std::to_string(c.not_run) +
           "</span>";
  if (c.nothing)
    out += "<span class=\"cell none\" title=\"nothing judged\">" + std::to_string(c.nothing) +
           "</span>";
  return out.empty() ? "<span class=\"muted\">-</span>" : out;
}

// How many failures fail the run (the others contradict an assumption of
// the description alone, and do not without --strict-assumptions).
std::size_t run_failing(const harness::run_report& report) {
  std::size_t failing = 0;
  for (const auto& f : report.failures) failing += report.fails_run(f) ? 1 : 0;
  return failing;
}

// The verdict, coloured by the exit status, and what was tested against what.
std::string run_verdict_html(const harness::run_report& report, std::size_t failing) {
  const auto& info = report.info;
  const int code = report.exit_code();
  const char* kind = code == 0 ? "pass" : code == 1 ? "fail" : "neutral";
  return std::string("<header class=\"") + kind + "\"><h1>Conform run: " +
         (code == 0 ? "every check passed" +
                          (failing < report.failures.size()
                               ? " (" + std::to_string(report.failures.size() - failing) +
                                     " contradicting an assumption of the description)"
                               : std::string())
          : code == 1 ? std::to_string(failing) + " failure(s)"
                      : "nothing proved (exit 2)") +
         "</h1><p>" + escape(info.spec_title) + " " + escape(info.spec_version) + " against " +
         escape(info.target) + "</p></header>\n";
}

// The run's facts: seed, description, target, counts.
std::string run_facts_html(const harness::run_report& report) {
  const auto& info = report.info;
  std::string body = "<section><h2>Run</h2><dl class=\"facts\">";
  auto fact = [&](std::string_view k, const std::string& v) {
    body += "<dt>" + escape(k) + "</dt><dd>" + escape(v) + "</dd>";
  };
  fact("Seed", std::to_string(info.seed));
  fact("Description", info.spec_file + " (sha256 " + info.spec_hash + ")");
  fact("Target", info.target + (info.in_process_reference ? " (in-process reference)" : ""));
  if (!info.shard_label().empty()) fact("Shard", info.shard_label());
  fact("Started", info.started_at);
  fact("Conform", info.tool_version);
  fact("Exit status", std::to_string(report.exit_code()));
  fact("Requests", std::to_string(report.counts.requests));
  fact("Checks", std::to_string(report.counts.checks_passed) + " passed, " +
                     std::to_string(report.counts.checks_failed) + " failed, " +
                     (report.counts.checks_contradicted > 0
                          ? std::to_string(report.counts.checks_contradicted) +
                                " contradicted an assumption of the description, "
                          : std::string()) +
                     std::to_string(report.counts.cells_not_run) + " cells not run");
  if (report.aborted) fact("Aborted", *report.aborted);
  body += "</dl></section>\n";
  return body;
}

// The matrix of operations x auth models, then each check's totals.
std::string run_matrix_html(const harness::run_report& report) {
  const bool strict = report.info.strict_assumptions;
  std::vector<std::string> auths;
  std::vector<std::pair<std::string, std::string>> ops;  // id, method path
  std::map<std::pair<std::string, std::string>, counts> matrix;
  std::map<std::string, counts> per_check;
  for (const auto& t : report.tallies) {
    if (std::find(auths.begin(), auths.end(), t.auth_model) == auths.end()) {
      auths.push_back(t.auth_model);
    }
    if (std::find_if(ops.begin(), ops.end(),
                     [&](const auto& o) { return o.first == t.operation_id; }) == ops.end()) {
      ops.emplace_back(t.operation_id, t.method_path);
    }
    add(matrix[{t.operation_id, t.auth_model}], t, strict);
    add(per_check[t.check], t, strict);
  }
  std::string body =
      "<section><h2>Operations &times; auth models</h2><p class=\"muted\">Each cell counts "
      "the checks of that operation and auth model: " +
      badge("pass", "passed") + " " + badge("fail", "failed") + " " +
      badge("info", "contradicted an assumption") + " " + badge("skip", "not run") +
      "</p><table class=\"matrix\"><tr><th>operation</th>";
  for (const auto& a : auths) body += "<th>" + escape(a.empty() ? "(any)" : a) + "</th>";
  body += "</tr>\n";
  for (const auto& [id, mp] : ops) {
    body += "<tr><td><code>" + escape(id.empty() ? "(run-wide)" : id) +
            "</code><br><span class=\"muted\">" + escape(mp) + "</span></td>";
    for (const auto& a : auths) {
      auto it = matrix.find({id, a});
      body += "<td>" +
              (it == matrix.end() ? std::string("<span class=\"muted\">-</span>")
                                  : cell_html(it->second)) +
              "</td>";
    }
    body += "</tr>\n";
  }
  body += "</table></section>\n";

  body +=
      "<section><h2>Checks</h2><table><tr><th>check</th><th class=\"num\">cells passed</th>"
      "<th class=\"num\">failed</th><th class=\"num\">contradicted an assumption</th><th "
      "class=\"num\">not run</th><th class=\"num\">nothing judged</th></tr>";
  for (const auto& [check, c] : per_check) {
    body += "<tr><td><code>" + escape(check) + "</code></td><td class=\"num\">" +
            std::to_string(c.passed) + "</td><td class=\"num\">" + std::to_string(c.failed) +
            "</td><td class=\"num\">" + std::to_string(c.assumed) + "</td><td class=\"num\">" +
            std::to_string(c.not_run) + "</td><td class=\"num\">" + std::to_string(c.nothing) +
            "</td></tr>";
  }
  body += "</table></section>\n";
  return body;
}

// One failure: what was expected and seen, its assumptions, evidence,
// reproduction and the response.
std::string run_failure_html(const harness::run_report& report, const harness::failure& f) {
  const bool assumed = !report.fails_run(f);
  std::string body = std::string("<div class=\"failure") + (assumed ? " assumed" : "") + "\"><p>" +
                     badge(assumed ? "info" : "fail", f.check) + " <code>" +
                     escape(f.operation_id) + "</code> " + escape(f.method_path) + " &middot; " +
                     escape(f.auth_model) + " &middot; " + escape(f.mode.to_string()) + "</p>";
  body += "<p><b>Expected:</b> " + escape(f.expected) + "<br><b>Seen:</b> " + escape(f.seen) +
          (f.occurrences > 1
               ? "<br><span class=\"muted\">seen " + std::to_string(f.occurrences) + " times</span>"
               : "") +
          "</p>";
  for (const auto& a : f.assumptions) {
    body += "<p><b>Assumption:</b> " + escape(a) + "</p>";
  }
  if (!f.evidence.empty()) {
    std::string lines;
    for (const auto& l : f.evidence) lines += l + "\n";
    body += "<pre>" + escape(lines) + "</pre>";
  }
  if (!f.curl.empty()) {
    body += "<p class=\"muted\">Reproduce (seed " + std::to_string(f.seed) +
            "): <code>conform run --seed " + std::to_string(f.seed) + " --include " +
            escape(f.operation_id) + " --checks " + escape(f.check) + "</code></p><pre>" +
            escape(f.curl) + "</pre>";
  }
  if (!f.response_excerpt.empty()) {
    body += "<p class=\"muted\">Response " + std::to_string(f.status) + ":</p><pre>" +
            escape(f.response_excerpt) + "</pre>";
  }
  body += "</div>\n";
  return body;
}

// Failures that fail the run, then those that contradict an assumption of
// the description alone (they do not, without --strict-assumptions), and
// the assumptions the target contradicted or the run could not observe.
std::string run_failures_html(const harness::run_report& report, std::size_t failing) {
  std::string body = "<section id=\"failures\"><h2>Failures (" + std::to_string(failing) + ")</h2>";
  if (failing == 0) body += "<p class=\"muted\">None.</p>";
  for (const auto& f : report.failures) {
    if (report.fails_run(f)) body += run_failure_html(report, f);
  }
  body += "</section>\n";
  const auto contradicted = report.assumptions_contradicted();
  if (!contradicted.empty()) {
    if (failing < report.failures.size()) {
      body += "<section id=\"assumptions\"><h2>Contradicts an assumption of the description (" +
              std::to_string(report.failures.size() - failing) +
              ")</h2><p class=\"muted\">These do not fail the run; "
              "<code>--strict-assumptions</code> makes them.</p>";
      for (const auto& f : report.failures) {
        if (!report.fails_run(f)) body += run_failure_html(report, f);
      }
      body += "</section>\n";
    }
    body += "<section id=\"contradicted\"><h2>Assumptions the target contradicted (" +
            std::to_string(contradicted.size()) +
            ")</h2><p class=\"muted\">Confirm or correct each in the description.</p><ul>";
    for (const auto& a : contradicted) {
      body += "<li>" + escape(a.text) + " <span class=\"muted\">(" + std::to_string(a.failures) +
              " failure" + (a.failures == 1 ? "" : "s") + ")</span></li>";
    }
    body += "</ul></section>\n";
  }
  if (const auto unobserved = report.assumptions_not_observed(); !unobserved.empty()) {
    body += "<section id=\"not-observed\"><h2>Assumptions this run could not observe (" +
            std::to_string(unobserved.size()) +
            ")</h2><p class=\"muted\">A request breaking each alone was refused for another "
            "reason.</p><ul>";
    for (const auto& a : unobserved) {
      body += "<li>" + escape(a.text) + " <span class=\"muted\">(refused with " +
              std::to_string(a.status) + ")</span></li>";
    }
    body += "</ul></section>\n";
  }
  return body;
}

// The notes: worth reading, no failures.
std::string run_notes_html(const harness::run_report& report) {
  if (report.notes.empty()) return {};
  std::string body = "<section id=\"notes\"><h2>Notes (" + std::to_string(report.notes.size()) +
                     ")</h2><p class=\"muted\">Worth reading; not failures.</p>";
  for (const auto& n : report.notes) {
    body += "<div class=\"note\"><p>" + badge("info", n.check) + " <code>" +
            escape(n.operation_id) + "</code> " + escape(n.method_path) + " &middot; " +
            escape(n.auth_model) + "</p><p>" + escape(n.text) + " <span class=\"muted\">(seen " +
            std::to_string(n.occurrences) + " time(s))</span></p><pre>" + escape(n.curl) +
            "</pre></div>\n";
  }
  body += "</section>\n";
  return body;
}

// What did not run, and why.
std::string run_not_runs_html(const harness::run_report& report) {
  std::string body = "<section><h2>Not run (" + std::to_string(report.not_runs.size()) + ")</h2>";
  if (report.not_runs.empty())
    body += "<p class=\"muted\">None.</p>";
  else
    body += "<table><tr><th>check</th><th>operation</th><th>auth model</th><th>why</th></tr>";
  for (const auto& n : report.not_runs) {
    body += "<tr><td><code>" + escape(n.check) + "</code></td><td>" + escape(n.operation_id) +
            "</td><td>" + escape(n.auth_model) + "</td><td>" + escape(n.why) + "</td></tr>";
  }
  if (!report.not_runs.empty()) body += "</table>";
  body += "</section>\n";
  return body;
}

}  // namespace

std::string render_html(const harness::run_report& report) {
  const std::size_t failing = run_failing(report);
  std::string body = run_verdict_html(report, failing) + "<main>\n";
  body += run_facts_html(report);
  body += run_matrix_html(report);
  body += run_failures_html(report, failing);
  body += run_notes_html(report);
  body += run_not_runs_html(report);
  body += reach_html(report);
  body += "</main>";
  return html::page("Conform run report", body);
}

}  // namespace conform::reports
