// The HTML reports in a real headless browser (Chromium): the page loads
// from a file with no network, the DOM holds the verdict, the matrix, the
// rules and the failures, and a screenshot is taken (a person looked at it
// once; docs/certification.md). Without Chromium the tests say "skipped"
// with the reason, never pass silently.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "reports/certification.hpp"
#include "reports/html.hpp"

namespace conform::reports {
namespace {

namespace fs = std::filesystem;

std::string chromium() {
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
    for (const char* dir : {"/usr/bin/", "/usr/local/bin/", "/snap/bin/"}) {
      if (fs::exists(std::string(dir) + name)) return std::string(dir) + name;
    }
  }
  return "";
}

/// Runs the browser on `html`; its stdout (the DOM with --dump-dom).
std::string browse(const std::string& browser, const std::string& html, const std::string& mode) {
  const fs::path dir = fs::temp_directory_path() / ("conform-html-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path page = dir / "report.html";
  std::ofstream(page) << html;
  const std::string cmd = browser +
                          " --headless --no-sandbox --disable-gpu --hide-scrollbars "
                          "--no-first-run --user-data-dir=" +
                          (dir / "profile").string() + " --window-size=1280,1600 " + mode +
                          " file://" + page.string() + " 2>/dev/null";
  std::string out;
  if (FILE* p = ::popen(cmd.c_str(), "r")) {
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    ::pclose(p);
  }
  return out;
}

harness::run_report run_with_a_failure() {
  harness::run_report r;
  r.info.seed = 42;
  r.info.spec_title = "Voice AI Calling Service API";
  r.info.target = "http://127.0.0.1:1/api/v1";
  r.tallies.push_back({"listCampaigns", "GET /bulk_call_campaigns", "tenant_key (t1-all)",
                       "status_code_conformance", 10, 0});
  r.tallies.push_back({"listCampaigns", "GET /bulk_call_campaigns", "partner_key (partner)",
                       "response_schema_conformance", 3, 1});
  harness::failure f;
  f.check = "response_schema_conformance";
  f.operation_id = "listCampaigns";
  f.method_path = "GET /bulk_call_campaigns";
  f.auth_model = "partner_key (partner)";
  f.expected = "an envelope <with data>";
  f.seen = "/meta: missing";
  f.seed = 42;
  f.curl = "curl -sS -H 'X-Partner-Api-Key: ${CONFORM_SECRET_PARTNER}' http://127.0.0.1:1/x";
  r.failures.push_back(f);
  r.counts.checks_passed = 13;
  r.counts.checks_failed = 1;
  return r;
}

TEST(html_report, run_report_renders_in_headless_chromium) {
  const std::string browser = chromium();
  if (browser.empty())
    GTEST_SKIP() << "not run: Chromium is not installed (scripts/deps.sh installs it)";
  const std::string html = render_html(run_with_a_failure());
  EXPECT_EQ(html.find("http://") != std::string::npos && html.find("<link") != std::string::npos,
            false)
      << "no external asset";
  EXPECT_EQ(html.find("<script"), std::string::npos);
  const std::string dom = browse(browser, html, "--dump-dom");
  ASSERT_FALSE(dom.empty()) << "the browser rendered nothing";
  EXPECT_NE(dom.find("1 failure(s)"), std::string::npos);
  EXPECT_NE(dom.find("partner_key (partner)"), std::string::npos);          // a matrix column
  EXPECT_NE(dom.find("an envelope &lt;with data&gt;"), std::string::npos);  // escaped
  EXPECT_NE(dom.find("conform run --seed 42 --include listCampaigns"), std::string::npos);
}

TEST(html_report, certification_report_renders_and_screenshots) {
  const std::string browser = chromium();
  if (browser.empty())
    GTEST_SKIP() << "not run: Chromium is not installed (scripts/deps.sh installs it)";
  harness::certification_report c;
  c.run = run_with_a_failure();
  c.run.failures[0].check = "client_retry_after";
  c.run.failures[0].evidence = {
      "#2 at 0.012 s: GET /partner/tenants -> 429 (scripted rate_limited)",
      "#3 at 0.100 s: GET /partner/tenants -> 200"};
  c.verdict = "not certified: the client broke client_retry_after";
  c.client_command = "./partner-client";
  c.rules.push_back({"client_retry_after", "waits", "section 7", "description",
                     harness::rule_level::core, harness::rule_verdict::status::failed, 0, 1, ""});
  c.coverage.push_back({"listPartnerTenants",
                        "GET /partner/tenants",
                        "partner_key (partner)",
                        2,
                        1,
                        0,
                        0,
                        0,
                        {"rate_limited"}});
  c.adversity.push_back({2, std::chrono::microseconds(12000), "rate_limited", "429", "",
                         "GET /partner/tenants", true, "retried"});
  const std::string dom = browse(browser, render_certification_html(c), "--dump-dom");
  ASSERT_FALSE(dom.empty());
  EXPECT_NE(dom.find("Not certified"), std::string::npos);
  EXPECT_NE(dom.find("data-rule=\"client_retry_after\" data-status=\"failed\""), std::string::npos);
  EXPECT_NE(dom.find("#3 at 0.100 s"), std::string::npos);
  EXPECT_NE(dom.find("id=\"adversity\""), std::string::npos);
  const fs::path png = fs::temp_directory_path() / ("conform-html-" + std::to_string(::getpid())) /
                       "certification.png";
  browse(browser, render_certification_html(c), "--screenshot=" + png.string());
  ASSERT_TRUE(fs::exists(png));
  EXPECT_GT(fs::file_size(png), 10000u);  // a picture, not an empty page
}

}  // namespace
}  // namespace conform::reports
