// A target that does not enforce the description's security (issue 37,
// finding F: etcd run with authentication off, whose published description
// asks for an apiKey on every operation). `conform run --no-auth` sends every
// request without a credential and says that the checks of credentials and
// tenants did not run, rather than sending only the unauthenticated probes or
// needing a made-up credential. The stub is an RPC-style API: every
// operation a POST, one that reads (named by --read-only) and one whose
// effect is not documented, which safe mode never sends and the header
// counts.
#include <gtest/gtest.h>

#include <httplib.h>

#include <boost/json.hpp>

#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/cli/support.hpp"
#include "tests/support/servers.hpp"

namespace conform::cli {
namespace {

using test_support::contains;

const std::string rpc_spec = std::string(CONFORM_TEST_DATA_DIR) + "/rpc_auth_off.yaml";

/// What the stub saw of the operations' requests.
struct rpc_seen {
  std::atomic<int> ranges{0};
  std::atomic<int> with_authorization{0};
  std::atomic<int> deletes{0};
};

/// The defect a stub carries.
enum class rpc_defect : std::uint8_t {
  none,
  zero_limit_500,     // a range whose limit is 0 answers 500
  authorization_500,  // any Authorization answers 500, as etcd's hash did
};

/// UTF-8 code points in `s` (JSON Schema's lengths count characters).
std::size_t rpc_code_points(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

/// Why `body` is not a valid rangeKeys request, or "".
std::string rpc_range_invalid(const httplib::Request& req) {
  if (req.get_header_value("Content-Type").rfind("application/json", 0) != 0) {
    return "not JSON";
  }
  boost::system::error_code ec;
  const auto v = boost::json::parse(req.body, ec);
  if (ec || !v.is_object()) return "not a JSON object";
  const auto& o = v.as_object();
  for (const auto& [k, value] : o) {
    if (k != "key" && k != "limit") return "unknown field";
  }
  const auto* key = o.if_contains("key");
  if (!key || !key->is_string()) return "key is not a string";
  const auto length = rpc_code_points(std::string(key->as_string()));
  if (length < 1 || length > 16) return "key length";
  if (const auto* limit = o.if_contains("limit")) {
    double n = 0;
    if (limit->is_int64()) {
      n = static_cast<double>(limit->as_int64());
    } else if (limit->is_uint64()) {
      n = static_cast<double>(limit->as_uint64());
    } else if (limit->is_double() &&
               limit->as_double() == static_cast<long long>(limit->as_double())) {
      n = limit->as_double();
    } else {
      return "limit is not an integer";
    }
    if (n < 0 || n > 100) return "limit out of range";
  }
  return "";
}

/// A server with authentication off: it takes no credential, and ignores
/// one it is given, unless `defect` says otherwise.
test_support::scripted_server rpc_server(rpc_seen& seen, rpc_defect defect) {
  return test_support::scripted_server(
      [&seen, defect](const httplib::Request& req, httplib::Response& res) {
        const bool range = req.path == "/api/v1/v1/kv/range";
        const bool del = req.path == "/api/v1/v1/kv/deleterange";
        if (!range && !del) {
          res.status = 404;
          res.set_content(R"({"error":"no such path"})", "application/json");
          return;
        }
        if (req.method != "POST") {
          res.status = 405;
          res.set_header("Allow", "POST");
          res.set_content(R"({"error":"POST only"})", "application/json");
          return;
        }
        if (req.has_header("Authorization")) ++seen.with_authorization;
        if (del) {
          ++seen.deletes;
          res.set_content(R"({"deleted":0})", "application/json");
          return;
        }
        ++seen.ranges;
        if (const std::string why = rpc_range_invalid(req); !why.empty()) {
          res.status = 400;
          res.set_content(boost::json::serialize(boost::json::object{{"error", why}}),
                          "application/json");
          return;
        }
        if (defect == rpc_defect::authorization_500 && req.has_header("Authorization")) {
          res.status = 500;
          res.set_content(R"({"error":"auth: invalid auth token"})", "application/json");
          return;
        }
        if (defect == rpc_defect::zero_limit_500 && contains(req.body, "\"limit\":0")) {
          res.status = 500;
          res.set_content(R"({"error":"division by zero"})", "application/json");
          return;
        }
        res.set_content(R"({"count":0})", "application/json");
      });
}

struct rpc_run {
  int status = 0;
  std::string out;
  boost::json::object report;
};

rpc_run run_rpc(const test_support::scripted_server& server, const std::string& name,
                const std::string& seed, std::vector<std::string> more = {"--no-auth"}) {
  const auto file = std::filesystem::temp_directory_path() /
                    ("conform-no-auth-" + std::to_string(::getpid()) + "-" + name + ".json");
  std::vector<std::string> args = {"--spec",       rpc_spec,    "--url",      server.base_url(),
                                   "--seed",       seed,        "--examples", "8",
                                   "--read-only",  "rangeKeys", "--json",     file.string(),
                                   "--no-progress"};
  args.insert(args.end(), more.begin(), more.end());
  const auto r = test_support::run(args);
  rpc_run out;
  out.status = r.status;
  out.out = r.out + r.err;
  boost::system::error_code ec;
  auto v = boost::json::parse(test_support::slurp(file.string()), ec);
  std::filesystem::remove(file);
  if (!ec && v.is_object()) out.report = std::move(v.as_object());
  return out;
}

// A correct server with authentication off: every request goes without a
// credential, nothing fails, and the header and the report say what was
// set aside and what safe mode kept from the wire.
TEST(no_auth, a_server_without_authentication_is_tested_without_a_credential) {
  for (const char* seed : {"1", "2", "3"}) {
    rpc_seen seen;
    auto server = rpc_server(seen, rpc_defect::none);
    const auto r = run_rpc(server, std::string("clean-") + seed, seed);
    EXPECT_EQ(r.status, 0) << r.out;
    ASSERT_FALSE(r.report.empty()) << r.out;
    EXPECT_TRUE(r.report.at("failures").as_array().empty())
        << boost::json::serialize(r.report.at("failures"));
    // The generated requests went out without a credential; only the auth
    // checks' probes (an unknown and a malformed credential) carried one,
    // and their answers were judged alone.
    EXPECT_GT(seen.ranges.load(), 20) << r.out;
    EXPECT_LE(seen.with_authorization.load(), 2) << r.out;
    // The action whose effect is not documented never did, and is counted once.
    EXPECT_EQ(seen.deletes.load(), 0) << r.out;
    EXPECT_TRUE(contains(r.out, "1 operation is never sent in this mode")) << r.out;
    EXPECT_TRUE(contains(r.out, "auth: not enforced by the target (--no-auth)")) << r.out;
    const auto& run = r.report.at("run").as_object();
    EXPECT_EQ(run.at("operations_held_back").as_int64(), 1);
    EXPECT_TRUE(contains(std::string(run.at("security").as_string()), "--no-auth"));
    // The checks of credentials are "not run", with why, on every
    // operation: cells, not "nothing in the description to check".
    bool said = false;
    for (const auto& n : r.report.at("not_run").as_array()) {
      const auto& o = n.as_object();
      if (o.at("check").as_string() == "auth_unauthenticated") {
        said = contains(std::string(o.at("why").as_string()), "--no-auth");
      }
    }
    EXPECT_TRUE(said) << r.out;
    int auth_cells = 0;
    for (const auto& c : r.report.at("cells").as_array()) {
      const auto& o = c.as_object();
      if (o.at("check").as_string() != "auth_unauthenticated") continue;
      ++auth_cells;
      EXPECT_EQ(o.at("status").as_string(), "not_run") << boost::json::serialize(o);
    }
    EXPECT_GE(auth_cells, 2) << r.out;
  }
}

// A planted defect is still caught, and its reproduction sends no credential.
TEST(no_auth, a_server_error_is_still_caught_and_reproduced_without_a_credential) {
  rpc_seen seen;
  auto server = rpc_server(seen, rpc_defect::zero_limit_500);
  const auto r = run_rpc(server, "planted", "2");
  EXPECT_EQ(r.status, 1) << r.out;
  ASSERT_FALSE(r.report.empty()) << r.out;
  bool caught = false;
  for (const auto& f : r.report.at("failures").as_array()) {
    const auto& o = f.as_object();
    if (o.at("check").as_string() != "not_a_server_error") continue;
    caught = true;
    EXPECT_EQ(o.at("operation_id").as_string(), "rangeKeys");
    const std::string curl(o.at("curl").as_string());
    EXPECT_TRUE(contains(curl, "\"limit\":0")) << curl;
    EXPECT_FALSE(contains(curl, "Authorization")) << curl;
  }
  EXPECT_TRUE(caught) << r.out;
  EXPECT_EQ(seen.deletes.load(), 0);
}

// A server that breaks on a credential it does not enforce (etcd's hash
// answered 500 to any token with authentication off): the auth checks'
// probes still go out, and their answers are judged alone, so the 500 is a
// failure, with a curl that sends the header; no refusal is demanded.
TEST(no_auth, a_server_error_on_an_unenforced_credential_is_caught) {
  for (const char* seed : {"1", "2"}) {
    rpc_seen seen;
    auto server = rpc_server(seen, rpc_defect::authorization_500);
    const auto r = run_rpc(server, std::string("header-") + seed, seed);
    EXPECT_EQ(r.status, 1) << r.out;
    ASSERT_FALSE(r.report.empty()) << r.out;
    bool caught = false;
    for (const auto& f : r.report.at("failures").as_array()) {
      const auto& o = f.as_object();
      EXPECT_NE(o.at("check").as_string(), "auth_unauthenticated") << boost::json::serialize(o);
      if (o.at("check").as_string() != "not_a_server_error") continue;
      caught = true;
      const std::string curl(o.at("curl").as_string());
      EXPECT_TRUE(contains(curl, "-H 'Authorization: ")) << curl;
    }
    EXPECT_TRUE(caught) << r.out;
  }
}

// --no-auth says no credential is needed: one given too is a contradiction,
// and the in-process reference enforces its security.
TEST(no_auth, a_credential_or_the_reference_with_it_is_a_usage_error) {
  rpc_seen seen;
  auto server = rpc_server(seen, rpc_defect::none);
  const auto with_header =
      test_support::run({"--spec", rpc_spec, "--url", server.base_url(), "--no-auth", "-H",
                         "Authorization: k", "--no-progress"});
  EXPECT_EQ(with_header.status, 2) << with_header.out;
  EXPECT_TRUE(contains(with_header.err, "--no-auth sends no credential")) << with_header.err;
  EXPECT_FALSE(contains(with_header.err + with_header.out, "Authorization: k"));
  const auto with_env = test_support::run(
      {"--spec", rpc_spec, "--url", server.base_url(), "--no-auth", "--auth-env", "SOME_TOKEN"});
  EXPECT_EQ(with_env.status, 2);
  EXPECT_TRUE(contains(with_env.err, "--auth-env")) << with_env.err;
  const auto reference = test_support::run({"--no-auth"});
  EXPECT_EQ(reference.status, 2);
  EXPECT_TRUE(contains(reference.err, "the in-process reference does")) << reference.err;
  EXPECT_EQ(seen.ranges.load() + seen.deletes.load(), 0);
}

}  // namespace
}  // namespace conform::cli
