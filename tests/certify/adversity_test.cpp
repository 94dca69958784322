// The certification server's adversity, driven from a raw socket: each kind
// is what it says on the wire, for any HTTP library (the bytes a client
// receives are asserted, not what a library made of them). The recording
// keeps each request as it was sent: a repeated header repeated, an empty
// one kept, a chunked or multipart body byte for byte.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <memory>

#include "http/connection.hpp"
#include "reference/certification.hpp"
#include "reference/server.hpp"
#include "tests/support/raw_http.hpp"

namespace conform::reference {
namespace {

using test_support::raw_answer;
using test_support::raw_connection;

/// A certification server of one seed and a raw client of it.
struct bench {
  explicit bench(std::uint64_t seed) {
    adversity_options o;
    o.seed = seed;
    o.slow = std::chrono::milliseconds(20);
    recorder = std::make_shared<traffic_recorder>(o);
    server_config c;
    c.recorder = recorder;
    c.threads = 2;
    srv = std::make_unique<server>(c);
  }

  /// `method target` with the partner key (and the tenant header), on a new connection.
  raw_answer send(const std::string& method, const std::string& target,
                  const std::string& extra = "", const std::string& body = "") {
    raw_connection c(srv->port());
    std::string head = method + " /api/v1" + target +
                       " HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Partner-Api-Key: " +
                       srv->credential("partner-allocate") + "\r\nX-Tenant-Id: 101\r\n" + extra;
    if (method == "POST" && extra.find("Transfer-Encoding") == std::string::npos) {
      head += "Content-Length: " + std::to_string(body.size()) + "\r\n";
    }
    return c.exchange(head + "\r\n" + body);
  }

  raw_answer allocate(const std::string& key, int amount) {
    return send("POST", "/billing/allocate-credits",
                "Content-Type: application/json\r\nIdempotency-Key: " + key + "\r\n",
                R"({"tenant_id":101,"amount_major":)" + std::to_string(amount) + "}");
  }

  /// The planned adversity of `kind` on a request class whose description contains `where`.
  const planned_adversity* plan(adversity_kind kind, const std::string& where) {
    planned = recorder->planned();
    for (const auto& p : planned) {
      if (p.kind == kind && p.where.find(where) != std::string::npos) return &p;
    }
    return nullptr;
  }

  std::shared_ptr<traffic_recorder> recorder;
  std::unique_ptr<server> srv;
  std::vector<planned_adversity> planned;
};

const char* list_read = "/partner/tenants?page=1&per_page=20";
const char* later_page = "/partner/tenants?page=2&per_page=20";

TEST(adversity, rate_limited_is_a_429_with_retry_after_and_its_retry_is_answered) {
  for (std::uint64_t seed : {1, 2, 3, 4}) {
    bench b(seed);
    const bool on_lists = b.plan(adversity_kind::rate_limited, "list read") != nullptr;
    const char* target = on_lists ? list_read : later_page;
    const auto first = b.send("GET", target);
    EXPECT_EQ(first.status(), 429) << first.bytes;
    EXPECT_EQ(first.header("Retry-After"), "1");
    EXPECT_NE(first.body().find("RATE_LIMITED"), std::string::npos);
    EXPECT_EQ(b.send("GET", target).status(), 200);
  }
}

TEST(adversity, server_error_fails_two_attempts_with_5xx_and_answers_the_third) {
  for (std::uint64_t seed : {1, 2, 3, 4}) {
    bench b(seed);
    const bool on_lists = b.plan(adversity_kind::server_error, "list read") != nullptr;
    const char* target = on_lists ? list_read : later_page;
    const auto first = b.send("GET", target);
    const auto second = b.send("GET", target);
    EXPECT_TRUE(first.status() == 500 || first.status() == 503) << first.bytes;
    EXPECT_TRUE(second.status() == 500 || second.status() == 503) << second.bytes;
    EXPECT_NE(first.status(), second.status());
    EXPECT_EQ(b.send("GET", target).status(), 200);
  }
}

TEST(adversity, behaviour_5_connection_dropped_closes_without_a_byte_after_the_write) {
  for (std::uint64_t seed : {1, 2, 3, 4}) {
    bench b(seed);
    const auto* dropped = b.plan(adversity_kind::connection_dropped, "keyed write");
    ASSERT_NE(dropped, nullptr);
    // The keyed writes meet their adversity in plan order: drop the outage first if it comes first.
    if (b.planned[2].kind == adversity_kind::outage) {
      for (int i = 0; i < 8; ++i) b.allocate("outage-key", 1);
    }
    const auto lost = b.allocate("dropped-key", 2);
    EXPECT_TRUE(lost.closed);
    EXPECT_EQ(lost.bytes, "") << "no status line, not a byte of the answer";
    // The write was made: the same key gets it replayed, and no money moves twice.
    const auto replay = b.allocate("dropped-key", 2);
    EXPECT_EQ(replay.status(), 200) << replay.bytes;
    EXPECT_EQ(replay.header("Idempotent-Replayed"), "true");
    const auto recorded = b.recorder->snapshot();
    const auto& drop = recorded[recorded.size() - 2];
    EXPECT_EQ(drop.adversity, adversity_kind::connection_dropped);
    EXPECT_EQ(drop.status, 0);
    EXPECT_EQ(drop.processed_status, 200);
  }
}

/// Runs `command` (a shell line); its exit status, or -1 when it could not run.
int shell(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// A bench whose next keyed write is the dropped one; the curl-style
/// pieces of that write (URL, headers, body) for an external client.
struct dropped_write {
  bench b{1};
  std::string url, key_header, body = R"({"tenant_id":101,"amount_major":3})";
  dropped_write() {
    if (b.recorder->planned()[2].kind == adversity_kind::outage) {
      for (int i = 0; i < 8; ++i) b.allocate("outage-key", 1);
    }
    url = "http://127.0.0.1:" + std::to_string(b.srv->port()) + "/api/v1/billing/allocate-credits";
    key_header = "X-Partner-Api-Key: " + b.srv->credential("partner-allocate");
  }
};

TEST(adversity, behaviour_5_connection_dropped_is_a_network_error_for_curl_python_node_beast) {
  // Each client runs once; exit 127 is a shell's "not found": said, not failed.
  std::vector<std::string> not_run;
  {
    dropped_write w;
    // curl: exit 52, "Empty reply from server".
    const int curl = shell("curl -s -o /dev/null -X POST '" + w.url + "' -H '" + w.key_header +
                           "' -H 'Content-Type: application/json' -H 'Idempotency-Key: curl-1' "
                           "-d '" +
                           w.body + "'");
    if (curl == 127) {
      not_run.push_back("curl");
    } else {
      EXPECT_EQ(curl, 52);
    }
  }
  {
    dropped_write w;
    const std::string script =
        "import http.client,sys\n"
        "c=http.client.HTTPConnection('127.0.0.1'," +
        std::to_string(w.b.srv->port()) +
        ")\n"
        "try:\n"
        " c.request('POST','/api/v1/billing/allocate-credits','" +
        w.body +
        "',"
        "{'X-Partner-Api-Key':'" +
        w.b.srv->credential("partner-allocate") +
        "','Content-Type':'application/json','Idempotency-Key':'py-1'})\n"
        " c.getresponse()\n"
        "except http.client.RemoteDisconnected:\n"
        " sys.exit(3)\n";
    std::ofstream(::testing::TempDir() + "dropped.py") << script;
    const int python = shell("python3 " + ::testing::TempDir() + "dropped.py");
    if (python == 127) {
      not_run.push_back("python3");
    } else {
      EXPECT_EQ(python, 3) << "http.client.RemoteDisconnected";
    }
  }
  {
    dropped_write w;
    const std::string script =
        "fetch('" + w.url + "',{method:'POST',body:'" + w.body +
        "',headers:{'X-Partner-Api-Key':'" + w.b.srv->credential("partner-allocate") +
        "','Content-Type':'application/json','Idempotency-Key':'node-1'}})"
        ".then(()=>process.exit(0),(e)=>process.exit(e instanceof TypeError?3:4));";
    std::ofstream(::testing::TempDir() + "dropped.mjs") << script;
    const int node = shell("node " + ::testing::TempDir() + "dropped.mjs");
    if (node == 127) {
      not_run.push_back("node");
    } else {
      EXPECT_EQ(node, 3) << "fetch: TypeError (fetch failed: other side closed)";
    }
  }
  {
    // Boost.Beast, through Conform's own HTTP client: a transport error, not
    // a response (a POST is not sent again by the connection itself).
    dropped_write w;
    http::connection c(
        http::parse_url("http://127.0.0.1:" + std::to_string(w.b.srv->port()) + "/api/v1")
            .value.value());
    http::request req;
    req.method = http::verb::post;
    req.target = "/billing/allocate-credits";
    req.add_header("X-Partner-Api-Key", w.b.srv->credential("partner-allocate"));
    req.add_header("Content-Type", "application/json");
    req.add_header("Idempotency-Key", "beast-1");
    req.body = w.body;
    const auto r = c.send(req);
    EXPECT_FALSE(r.ok()) << "Beast got an answer: " << r.value().status;
  }
  if (!not_run.empty()) {
    GTEST_SKIP() << "not run for " << not_run.size() << " of 4 clients: not installed";
  }
}

TEST(adversity, an_outage_fails_more_attempts_than_x_retry_allows_then_answers) {
  bench b(1);
  ASSERT_NE(b.plan(adversity_kind::outage, "record read"), nullptr);
  const std::string target = "/voice_sessions/" + b.srv->fixture("t1", "voice_session_id");
  for (int attempt = 1; attempt <= 7; ++attempt) {
    const auto a = b.send("GET", target);
    EXPECT_EQ(a.status(), 503) << "attempt " << attempt << ": " << a.bytes;
  }
  EXPECT_EQ(b.send("GET", target).status(), 200);
  EXPECT_NE(b.plan(adversity_kind::outage, "record read")->met_at, 0u);
}

TEST(adversity, slow_answers_normally_and_the_plan_says_what_was_not_met) {
  bench b(1);
  // The first list read meets the list adversity (429 or 5xx); the next
  // fresh request no other adversity takes is slow.
  b.send("GET", "/voice_sessions?page_size=5");
  const auto slow = b.send("GET", "/voice_sessions?page_size=6");
  EXPECT_EQ(slow.status(), 200) << slow.bytes;
  EXPECT_EQ(b.recorder->snapshot().back().adversity, adversity_kind::slow);
  std::size_t not_met = 0;
  for (const auto& p : b.recorder->planned()) not_met += p.met_at == 0 ? 1 : 0;
  EXPECT_EQ(not_met, 5u);  // no keyed write, no later page, no record read, one slow
  for (const auto& line : b.recorder->plan()) {
    EXPECT_TRUE(line.ends_with("(not met)") || line.find("(met at #") != std::string::npos) << line;
  }
}

TEST(adversity, behaviour_1_the_recording_keeps_headers_and_body_bytes_as_sent) {
  bench b(1);
  const std::string boundary = "b0undary";
  const std::string form =
      "--" + boundary +
      "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"c.csv\"\r\n"
      "Content-Type: text/csv\r\n\r\nPhone\n+14155550100\n\r\n--" +
      boundary +
      "\r\nContent-Disposition: form-data; name=\"column_mapping\"\r\n"
      "Content-Type: application/json\r\n\r\n{\"Phone\":\"phone_e164\"}\r\n--" +
      boundary + "--\r\n";
  const auto imported =
      b.send("POST", "/contacts/import",
             "Content-Type: multipart/form-data; boundary=" + boundary + "\r\nX-Trace:\r\n", form);
  EXPECT_EQ(imported.status(), 200) << imported.bytes;
  const auto recorded = b.recorder->snapshot();
  ASSERT_EQ(recorded.size(), 1u);
  EXPECT_EQ(recorded[0].request_body, form) << "every multipart byte, not cpp-httplib's parts";
  bool empty_kept = false;
  for (const auto& [k, v] : recorded[0].request_headers) {
    empty_kept = empty_kept || (k == "X-Trace" && v.empty());
    EXPECT_NE(k, "REMOTE_ADDR") << "only what the client sent";
  }
  EXPECT_TRUE(empty_kept);
  // A chunked body is kept as the bytes it carries, its chunking removed.
  const std::string json = R"({"tenant_id":101,"amount_major":4})";
  char size[16];
  std::snprintf(size, sizeof size, "%zx", json.size());
  // (It is the first keyed write: its answer is dropped, its request recorded.)
  b.send("POST", "/billing/allocate-credits",
         "Content-Type: application/json\r\nIdempotency-Key: chunked-1\r\n"
         "Transfer-Encoding: chunked\r\n",
         std::string(size) + "\r\n" + json + "\r\n0\r\n\r\n");
  EXPECT_EQ(b.recorder->snapshot().back().request_body, json);
}

}  // namespace
}  // namespace conform::reference
