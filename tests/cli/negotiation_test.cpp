// Content negotiation (issue 37, item 4): every operation is also asked
// with `Accept: */*` and with no Accept, as curl and Python's requests ask.
// A stub that behaves as the real server did (errors as text/plain unless
// the client names JSON) is caught where the description documents JSON
// alone, and the failure's curl sends the Accept that found it; where the
// description documents text/plain too, or the stub answers JSON whatever
// is asked, nothing fails.
#include <gtest/gtest.h>

#include <httplib.h>

#include <boost/json.hpp>

#include <filesystem>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include <unistd.h>

#include "tests/cli/support.hpp"
#include "tests/support/servers.hpp"

namespace conform::cli {
namespace {

using test_support::contains;

const std::string negotiation_spec = std::string(CONFORM_TEST_DATA_DIR) + "/negotiation.yaml";

/// The Accept values the stub's operations were sent ("(none)" for a
/// request without one); not the run's reachability probe of the base URL.
struct accepts_seen {
  std::mutex mutex;
  std::set<std::string> values;
  void add(const httplib::Request& req) {
    if (req.path == "/api/v1/" || req.path == "/api/v1") return;
    std::lock_guard lock(mutex);
    values.insert(req.has_header("Accept") ? req.get_header_value("Accept") : "(none)");
  }
};

/// A stub of negotiation.yaml: id 7 exists, every other id is a 404. With
/// `text_unless_json`, the 404 is text/plain unless Accept names
/// application/json, as the server Schemathesis caught; otherwise JSON.
test_support::scripted_server negotiation_server(accepts_seen& seen, bool text_unless_json) {
  return test_support::scripted_server(
      [&seen, text_unless_json](const httplib::Request& req, httplib::Response& res) {
        seen.add(req);
        const bool found = req.path == "/api/v1/things/7" || req.path == "/api/v1/notes/7";
        if (found) {
          res.set_content(R"({"id":7})", "application/json");
          return;
        }
        res.status = 404;
        const bool json_asked =
            req.get_header_value("Accept").find("application/json") != std::string::npos;
        if (text_unless_json && !json_asked) {
          res.set_content("not found", "text/plain");
        } else {
          res.set_content(R"({"message":"not found"})", "application/json");
        }
      });
}

/// `conform run --url` against the stub, its JSON report read back.
boost::json::object run_negotiation(const test_support::scripted_server& server,
                                    const std::string& name, int& status, std::string& out,
                                    std::vector<std::string> more = {}) {
  const auto file = std::filesystem::temp_directory_path() /
                    ("conform-negotiation-" + std::to_string(::getpid()) + "-" + name + ".json");
  std::vector<std::string> args = {
      "--spec", negotiation_spec, "--url",       server.base_url(), "--seed", "4", "--examples",
      "6",      "--json",         file.string(), "--no-progress"};
  args.insert(args.end(), more.begin(), more.end());
  const auto r = test_support::run(args);
  status = r.status;
  out = r.out + r.err;
  const std::string text = test_support::slurp(file.string());
  std::filesystem::remove(file);
  boost::system::error_code ec;
  auto v = boost::json::parse(text, ec);
  EXPECT_FALSE(ec) << out;
  return ec || !v.is_object() ? boost::json::object{} : v.as_object();
}

// Done when: "a test on a stub that behaves as the real server did: text
// errors unless JSON is asked for".
TEST(negotiation_stub, text_errors_unless_json_is_asked_for_fail_where_json_alone_is_documented) {
  accepts_seen seen;
  auto server = negotiation_server(seen, true);
  int status = 0;
  std::string out;
  const auto report = run_negotiation(server, "text", status, out);
  EXPECT_EQ(status, 1) << out;
  // Both ways of naming no type reached the stub, besides the documented one.
  EXPECT_TRUE(seen.values.count("*/*")) << out;
  EXPECT_TRUE(seen.values.count("(none)")) << out;
  EXPECT_TRUE(seen.values.count("application/json")) << out;

  std::size_t content_type_failures = 0;
  for (const auto& f : report.at("failures").as_array()) {
    const auto& o = f.as_object();
    const std::string check(o.at("check").as_string());
    const std::string op(o.at("operation_id").as_string());
    const std::string mode(o.at("mode").as_string());
    const std::string curl(o.at("curl").as_string());
    // getNote documents text/plain for its 404: the server may choose it.
    EXPECT_EQ(op, "getThing") << check << " " << mode << " " << curl;
    if (check != "content_type_conformance") continue;
    ++content_type_failures;
    EXPECT_EQ(std::string(o.at("seen").as_string()), "Content-Type text/plain") << out;
    // The mode names the Accept, and the curl sends what the mode says.
    if (mode == "valid: Accept: */*") {
      EXPECT_TRUE(contains(curl, "-H 'Accept: */*'")) << curl;
    } else {
      EXPECT_EQ(mode, "valid: no Accept") << curl;
      EXPECT_TRUE(contains(curl, "-H 'Accept:'")) << curl;
      EXPECT_FALSE(contains(curl, "Accept: ")) << curl;
    }
    // One cause, found by both cases of every auth model.
    EXPECT_GE(o.at("occurrences").as_int64(), 2) << curl;
  }
  EXPECT_EQ(content_type_failures, 1u) << out;
  EXPECT_TRUE(contains(out, "content_type_conformance")) << out;
}

// No false alarm: a server that answers JSON whatever Accept says passes.
TEST(negotiation_stub, json_errors_whatever_accept_says_pass) {
  accepts_seen seen;
  auto server = negotiation_server(seen, false);
  int status = 0;
  std::string out;
  const auto report = run_negotiation(server, "json", status, out);
  EXPECT_EQ(status, 0) << out;
  EXPECT_TRUE(report.at("failures").as_array().empty())
      << boost::json::serialize(report.at("failures"));
  EXPECT_TRUE(seen.values.count("*/*")) << out;
  EXPECT_TRUE(seen.values.count("(none)")) << out;
  // Every operation covered both cases.
  for (const auto& c : report.at("coverage").as_array()) {
    bool negotiation = false;
    for (const auto& k : c.at("by_keyword").as_array()) {
      if (k.at("keyword").as_string() != "Accept") continue;
      negotiation = true;
      EXPECT_EQ(k.at("constraints").as_int64(), 2) << c;
      EXPECT_EQ(k.at("covered").as_int64(), 2) << c;
    }
    EXPECT_TRUE(negotiation) << c;
  }
}

// A target that sets Accept itself (-H) would send neither case as named:
// they are not sent, and the coverage says why, rather than judged.
TEST(negotiation_stub, an_accept_the_target_sets_leaves_the_cases_uncovered_saying_why) {
  accepts_seen seen;
  auto server = negotiation_server(seen, true);
  int status = 0;
  std::string out;
  const auto report =
      run_negotiation(server, "target", status, out, {"-H", "Accept: application/json"});
  EXPECT_EQ(status, 0) << out;
  EXPECT_EQ(seen.values, std::set<std::string>{"application/json"}) << out;
  for (const auto& c : report.at("coverage").as_array()) {
    const std::string uncovered = boost::json::serialize(c.at("uncovered"));
    EXPECT_TRUE(contains(uncovered, "negotiation Accept: */*")) << uncovered;
    EXPECT_TRUE(contains(uncovered, "negotiation no Accept")) << uncovered;
    EXPECT_TRUE(contains(uncovered, "the Accept header is set by the target")) << uncovered;
  }
}

}  // namespace
}  // namespace conform::cli
