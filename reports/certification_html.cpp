// The certification report as one self-contained HTML page: the verdict,
// the coverage matrix, each rule with its evidence, and the adversity
// timeline.
#include <algorithm>
#include <cstdio>
#include <map>

#include "reports/certification.hpp"

#include "core/text.hpp"
#include "reports/html_page.hpp"

namespace conform::reports {

namespace {

using harness::rule_verdict;
using html::badge;
using html::escape;

std::string seconds_text(std::chrono::microseconds d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f s", static_cast<double>(d.count()) / 1e6);
  return buf;
}

std::string status_badge(rule_verdict::status s) {
  switch (s) {
    case rule_verdict::status::passed:
      return badge("pass", "passed");
    case rule_verdict::status::failed:
      return badge("fail", "failed");
    case rule_verdict::status::not_exercised:
      return badge("skip", "not exercised");
    case rule_verdict::status::not_applicable:
      return badge("none", "not applicable");  // grey: nothing to do, not a warning
  }
  return "";
}

// The banner says everything red below it: no failed rule, adversity not
// survived or client that did not complete hides under it.
std::string certification_verdict_html(const harness::certification_report& r) {
  std::string body = std::string("<header class=\"") + (r.certified ? "pass" : "fail") +
                     "\" id=\"verdict\">" + "<h1>" + (r.certified ? "Certified" : "Not certified") +
                     "</h1>";
  if (r.causes.empty()) {
    body += "<p>" + escape(r.verdict) + "</p>";
  } else {
    body += "<ol id=\"causes\">";
    for (const auto& c : r.causes) body += "<li>" + escape(c) + "</li>";
    body += "</ol>";
  }
  body += "</header>\n";
  return body;
}

// What was certified: the client, the description, the level, the scope.
std::string certification_facts_html(const harness::certification_report& r) {
  const auto& info = r.run.info;
  std::string body = "<section><h2>Certification</h2><dl class=\"facts\">";
  auto fact = [&](std::string_view k, const std::string& v) {
    body += "<dt>" + escape(k) + "</dt><dd>" + escape(v) + "</dd>";
  };
  fact("Client", (r.client_name.empty() ? r.client_command : r.client_name) +
                     (r.client_exit.empty() ? "" : " (" + r.client_exit + ")"));
  if (!r.client_name.empty() && r.client_name != r.client_command)
    fact("Command", r.client_command);
  for (const auto& [file, digest] : r.client_artifacts)
    fact("Artifact", file + " (sha256 " + digest + ")");
  if (!r.transcript.empty())
    fact("Transcript", r.transcript + " (sha256 " + r.transcript_sha256 + ")");
  fact("Description",
       info.spec_title + " " + info.spec_version + " (sha256 " + info.spec_hash + ")");
  fact("Level", std::string(harness::to_string(r.level)));
  fact("Seed", std::to_string(info.seed) + " (conform certify --seed " + std::to_string(info.seed) +
                   " reproduces the adversity)");
  fact("Server", info.target + " (" + r.environment + ")");
  fact("Requests", std::to_string(r.requests));
  if (!r.scope.operations.empty() || !r.scope.source.empty()) {
    fact("Scope", std::to_string(r.scope.operations.size()) + " operations (" + r.scope.source +
                      "): " + core::join(r.scope.operations));
    fact("Rules judged", core::join(r.scope.rules_judged));
    if (!r.scope.rules_not_applicable.empty())
      fact("Not applicable", core::join(r.scope.rules_not_applicable));
  }
  fact("Started", info.started_at);
  fact("Conform", info.tool_version);
  body += "</dl></section>\n";
  return body;
}

// The plan's passes, each with its own verdict.
std::string certification_passes_html(const harness::certification_report& r) {
  if (r.passes.empty()) return {};
  std::string body =
      "<section id=\"passes\"><h2>Passes</h2><table><tr><th>pass</th><th>adversity</th>"
      "<th>client</th><th>requests</th><th>what was held against the client</th></tr>";
  for (const auto& p : r.passes) {
    body += "<tr data-pass=\"" + escape(p.name) + "\"><td><code>" + escape(p.name) +
            "</code></td><td>" + escape(p.adversity) + "</td>";
    if (!p.run) {
      body += "<td colspan=\"3\" class=\"muted\">" + escape(p.not_run_why) + "</td></tr>";
      continue;
    }
    std::string held = p.certified ? std::string("nothing") : core::join(p.causes, "; ");
    body += "<td>" + escape(p.client_exit) +
            (p.completion_judged ? std::string()
                                 : "<br><span class=\"muted\">not judged: an outage</span>") +
            "</td><td class=\"num\">" + std::to_string(p.requests) + "</td><td>" + escape(held) +
            "</td></tr>";
  }
  body += "</table></section>\n";
  return body;
}

// The rules, then the broken ones with their evidence.
std::string certification_rules_html(const harness::certification_report& r) {
  std::string body =
      "<section id=\"rules\"><h2>Client rules</h2><table><tr><th>rule</th><th>status</th>"
      "<th>level</th><th>enforces</th><th class=\"num\">held</th><th class=\"num\">broken</th>"
      "</tr>";
  for (const auto& v : r.rules) {
    body += "<tr data-rule=\"" + escape(v.check) + "\" data-status=\"" +
            std::string(harness::to_string(v.what)) + "\"><td><code>" + escape(v.check) +
            "</code><br><span class=\"muted\">" + escape(v.description) + "</span>" +
            (v.not_exercised_why.empty()
                 ? std::string()
                 : "<br><span class=\"muted\">" + escape(v.not_exercised_why) + "</span>") +
            "</td><td>" + status_badge(v.what) + "</td><td>" + escape(harness::to_string(v.level)) +
            "</td><td>" + escape(v.rule) + "</td><td class=\"num\">" + std::to_string(v.judged) +
            "</td><td class=\"num\">" + std::to_string(v.broken) + "</td></tr>";
  }
  body += "</table></section>\n";

  if (!r.run.failures.empty()) {
    body += "<section id=\"failures\"><h2>Rules broken</h2>";
    for (const auto& f : r.run.failures) {
      std::string lines;
      for (const auto& l : f.evidence) lines += l + "\n";
      body += "<div class=\"failure\"><p>" + badge("fail", f.check) + " " + escape(f.auth_model) +
              "</p><p><b>" +
              (f.check == harness::completed_rule
                   ? "The certification programme requires (docs/certification.md):"
                   : "The description says:") +
              "</b> " + escape(f.expected) + "<br><b>The client did:</b> " + escape(f.seen) +
              "</p><pre>" + escape(lines) + "</pre></div>";
    }
    body += "</section>\n";
  }
  return body;
}

// One cell of the coverage matrix: the calls by how they were answered,
// and the adversity they met.
std::string certification_coverage_cell(const harness::coverage_row& c) {
  std::string body = "<td>";
  if (c.succeeded) body += "<span class=\"cell pass\">" + std::to_string(c.succeeded) + "</span>";
  if (c.client_errors)
    body += "<span class=\"cell skip\">" + std::to_string(c.client_errors) + "</span>";
  if (c.server_errors + c.no_answer)
    body +=
        "<span class=\"cell fail\">" + std::to_string(c.server_errors + c.no_answer) + "</span>";
  for (const auto& adv : c.adversity)
    body += "<br><span class=\"muted\">" + escape(adv) + "</span>";
  body += "</td>";
  return body;
}

// The coverage matrix: operations x auth models.
std::string certification_coverage_html(const harness::certification_report& r) {
  std::vector<std::string> auths;
  for (const auto& c : r.coverage) {
    if (std::find(auths.begin(), auths.end(), c.auth_model) == auths.end())
      auths.push_back(c.auth_model);
  }
  std::vector<std::pair<std::string, std::string>> ops;
  std::map<std::pair<std::string, std::string>, const harness::coverage_row*> at;
  for (const auto& c : r.coverage) {
    if (std::find_if(ops.begin(), ops.end(),
                     [&](const auto& o) { return o.second == c.method_path; }) == ops.end()) {
      ops.emplace_back(c.operation_id, c.method_path);
    }
    at[{c.method_path, c.auth_model}] = &c;
  }
  std::string body =
      "<section id=\"coverage\"><h2>Coverage of the integration</h2><p class=\"muted\">Calls "
      "per operation and auth model: " +
      badge("pass", "answered 2xx/3xx") + " " + badge("skip", "4xx") + " " +
      badge("fail", "5xx or no answer") +
      "; the adversity met is listed under the counts.</p><table><tr><th>operation</th>";
  for (const auto& a : auths) body += "<th>" + escape(a) + "</th>";
  body += "</tr>";
  for (const auto& [id, mp] : ops) {
    body += "<tr><td><code>" + escape(id.empty() ? "(not in the description)" : id) +
            "</code><br><span class=\"muted\">" + escape(mp) + "</span></td>";
    for (const auto& a : auths) {
      auto it = at.find({mp, a});
      body += it == at.end() ? std::string("<td><span class=\"muted\">-</span></td>")
                             : certification_coverage_cell(*it->second);
    }
    body += "</tr>";
  }
  body += "</table></section>\n";
  return body;
}

// The adversity: planned, not met, and a timeline of each one met.
std::string certification_adversity_html(const harness::certification_report& r) {
  std::string body = "<section id=\"adversity\"><h2>Adversity</h2><ul>";
  for (const auto& p : r.adversity_plan) body += "<li class=\"muted\">" + escape(p) + "</li>";
  for (const auto& u : r.unmet_adversity) {
    body +=
        "<li data-adversity=\"not-met\">" + badge("fail", "not met") + " " + escape(u) + "</li>";
  }
  body += "</ul>";
  std::chrono::microseconds end{1};
  for (const auto& e : r.adversity) end = std::max(end, e.at);
  end = end + end / 10 + std::chrono::microseconds(1);
  body += "<div class=\"timeline\" title=\"when each adversity was met\">";
  for (const auto& e : r.adversity) {
    const double left =
        100.0 * static_cast<double>(e.at.count()) / static_cast<double>(end.count());
    char style[64];
    std::snprintf(style, sizeof style, "left:%.2f%%", left);
    body += std::string("<span class=\"mark ") + (e.survived ? "survived" : "lost") +
            "\" style=\"" + style + "\" title=\"#" + std::to_string(e.seq) + " " + escape(e.kind) +
            "\"></span>";
  }
  body +=
      "</div><table><tr><th>request</th><th>at</th><th>adversity</th><th>operation</th>"
      "<th>outcome</th></tr>";
  for (const auto& e : r.adversity) {
    body += "<tr><td>#" + std::to_string(e.seq) + "</td><td>" + seconds_text(e.at) + "</td><td>" +
            badge("info", e.kind) + "<br><span class=\"muted\">" + escape(e.detail) +
            "</span></td><td>" + escape(e.method_path) + "</td><td>" +
            (!e.judged    ? badge("skip", "not judged")
             : e.survived ? badge("pass", "survived")
                          : badge("fail", "not survived") + " " + escape(e.owner)) +
            " " + escape(e.outcome) + "</td></tr>";
  }
  body += "</table></section>\n";
  return body;
}

}  // namespace

std::string render_certification_html(const harness::certification_report& r) {
  std::string body = certification_verdict_html(r) + "<main>\n";
  body += certification_facts_html(r);
  body += certification_passes_html(r);
  body += certification_rules_html(r);
  body += certification_coverage_html(r);
  body += certification_adversity_html(r);
  body += "</main>";
  return html::page(std::string(r.certified ? "Certified" : "Not certified") + " - Conform", body);
}

}  // namespace conform::reports
