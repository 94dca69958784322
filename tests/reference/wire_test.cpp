// The reference server read from the wire: cpp-httplib 0.11.4 drops a header
// whose value is empty and folds a repeated one, so the one-credential rule
// (C23, x-one-credential) is judged on the bytes the client sent
// (reference/detail/wire.hpp). Each request here is written byte by byte on
// a socket; the answer is read the same way.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <chrono>
#include <cstdio>
#include <future>
#include <thread>

#include "reference/detail/wire.hpp"
#include "reference/server.hpp"
#include "tests/support/raw_http.hpp"

namespace conform::reference {
namespace {

using test_support::raw_connection;

class reference_wire : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { srv_ = std::make_unique<server>(server_config{}); }
  static void TearDownTestSuite() { srv_.reset(); }

  /// GET /partner/tenants with `credentials` (raw header lines) on a new connection.
  static test_support::raw_answer tenants(const std::string& credentials) {
    raw_connection c(srv_->port());
    EXPECT_TRUE(c.connected());
    return c.exchange("GET /api/v1/partner/tenants HTTP/1.1\r\nHost: 127.0.0.1\r\n" + credentials +
                      "Accept: application/json\r\n\r\n");
  }

  static std::string partner() { return srv_->credential("partner-allocate"); }
  static std::string tenant_key() { return srv_->credential("t1-all"); }

  static std::string code_of(const test_support::raw_answer& a) {
    boost::system::error_code ec;
    const auto v = boost::json::parse(a.body(), ec);
    if (ec || !v.is_object() || !v.as_object().contains("error_code")) return "";
    return std::string(v.at("error_code").as_string());
  }

  static std::unique_ptr<server> srv_;
};

std::unique_ptr<server> reference_wire::srv_;

TEST_F(reference_wire, one_credential_is_served) {
  const auto a = tenants("X-Partner-Api-Key: " + partner() + "\r\n");
  EXPECT_EQ(a.status(), 200) << a.bytes;
}

TEST_F(reference_wire, a_repeated_credential_header_is_refused_under_c23) {
  const auto a =
      tenants("X-Partner-Api-Key: " + partner() + "\r\nX-Partner-Api-Key: " + partner() + "\r\n");
  EXPECT_EQ(a.status(), 401) << a.bytes;
  EXPECT_EQ(code_of(a), "UNAUTHORIZED");
  EXPECT_NE(a.body().find("exactly one credential"), std::string::npos) << a.body();
}

TEST_F(reference_wire, a_credential_header_present_but_empty_counts_under_c23) {
  for (const char* empty : {"X-Api-Key:\r\n", "X-Api-Key: \r\n", "Authorization:\r\n"}) {
    const auto a = tenants("X-Partner-Api-Key: " + partner() + "\r\n" + empty);
    EXPECT_EQ(a.status(), 401) << empty << a.bytes;
    EXPECT_EQ(code_of(a), "UNAUTHORIZED") << empty;
    EXPECT_NE(a.body().find("exactly one credential"), std::string::npos) << a.body();
  }
}

TEST_F(reference_wire, two_different_credentials_are_refused_even_when_each_is_valid) {
  const auto a =
      tenants("X-Partner-Api-Key: " + partner() + "\r\nX-Api-Key: " + tenant_key() + "\r\n");
  EXPECT_EQ(a.status(), 401) << a.bytes;
}

TEST_F(reference_wire, an_empty_header_that_is_no_credential_changes_nothing) {
  const auto a = tenants("X-Partner-Api-Key: " + partner() + "\r\nX-Trace:\r\n");
  EXPECT_EQ(a.status(), 200) << a.bytes;
}

TEST_F(reference_wire, a_chunked_body_and_keep_alive_requests_are_read_through_the_wire_stream) {
  raw_connection c(srv_->port());
  const std::string body = R"({"tenant_id":101,"amount_major":1})";
  char size[16];
  std::snprintf(size, sizeof size, "%zx", body.size());
  const std::string head =
      "POST /api/v1/billing/allocate-credits HTTP/1.1\r\nHost: 127.0.0.1\r\n"
      "X-Partner-Api-Key: " +
      partner() + "\r\nContent-Type: application/json\r\nIdempotency-Key: wire-chunked-1\r\n";
  const auto first = c.exchange(head + "Transfer-Encoding: chunked\r\n\r\n" + size + "\r\n" + body +
                                "\r\n0\r\n\r\n");
  EXPECT_EQ(first.status(), 200) << first.bytes;
  // The same connection serves the next request.
  const auto second =
      c.exchange(head + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
  EXPECT_EQ(second.status(), 200) << second.bytes;
  EXPECT_EQ(second.header("Idempotent-Replayed"), "true");
}

// A client's wait is measured from the answer's stamp to the next request's
// (the certification rules on Retry-After and backoff). The stamps bracket
// what the client saw: the request is stamped no earlier than it was sent,
// the answer no later than the client could read it, however late the
// server's thread gets round to on_answered. Stamped after the write, a
// busy machine made a correct client's 1 s wait measure 0.933 s.
// Multipart bodies as real clients send them (RFC 2046 section 5.1.1).
// cpp-httplib 0.11 refused a body that ends right after its close
// delimiter, which Node 18's fetch sends; the server now reads multipart
// bodies itself (reference/server.cpp, read_multipart).
class reference_multipart : public reference_wire {
 protected:
  /// The import's parts, delimited by `boundary`, with `ending` after the
  /// close delimiter and `preamble` before the first.
  static std::string form(const std::string& boundary, const std::string& ending,
                          const std::string& preamble = "", const std::string& padding = "") {
    return preamble + "--" + boundary + padding +
           "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"c.csv\"\r\n"
           "Content-Type: text/csv\r\n\r\nPhone\n+14155550100\n\r\n--" +
           boundary + padding +
           "\r\nContent-Disposition: form-data; name=\"column_mapping\"\r\n"
           "Content-Type: application/json\r\n\r\n{\"Phone\":\"phone_e164\"}\r\n--" +
           boundary + "--" + ending;
  }

  /// The request head of an import with `framing` (a Content-Length or a
  /// Transfer-Encoding line) and a new Idempotency-Key.
  static std::string head(const std::string& boundary, const std::string& framing) {
    static int key = 0;
    return "POST /api/v1/contacts/import HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Api-Key: " +
           tenant_key() + "\r\nIdempotency-Key: wire-" + std::to_string(++key) +
           "\r\nContent-Type: multipart/form-data; boundary=" + boundary + "\r\n" + framing +
           "\r\n";
  }

  static test_support::raw_answer sized(const std::string& boundary, const std::string& body) {
    raw_connection c(srv_->port());
    EXPECT_TRUE(c.connected());
    return c.exchange(head(boundary, "Content-Length: " + std::to_string(body.size()) + "\r\n") +
                      body);
  }

  static std::size_t imported(const test_support::raw_answer& a) {
    boost::system::error_code ec;
    const auto v = boost::json::parse(a.body(), ec);
    if (ec || !v.is_object() || !v.as_object().contains("data")) return 0;
    return static_cast<std::size_t>(v.at("data").at("imported_count").to_number<double>());
  }
};

TEST_F(reference_multipart, every_valid_ending_and_framing_is_read) {
  // Node 18 (no CRLF after the close delimiter), Node 20 and curl (CRLF),
  // an epilogue, a preamble, transport padding after the boundaries.
  const std::vector<std::pair<std::string, std::string>> bodies = {
      {"no CRLF after the close delimiter", form("----formdata-undici-0123", "")},
      {"CRLF after the close delimiter", form("XyZ", "\r\n")},
      {"an epilogue", form("XyZ", "\r\nepilogue text\r\n")},
      {"a preamble", form("XyZ", "\r\n", "preamble text\r\n")},
      {"transport padding", form("XyZ", "", "", " \t")},
  };
  for (const auto& [what, body] : bodies) {
    const std::string boundary =
        body.find("undici") != std::string::npos ? "----formdata-undici-0123" : "XyZ";
    const auto a = sized(boundary, body);
    EXPECT_EQ(a.status(), 200) << what << "\n" << a.bytes;
    EXPECT_EQ(imported(a), 1u) << what;
  }
}

TEST_F(reference_multipart, a_chunked_body_is_read_and_the_connection_kept) {
  const std::string body = form("XyZ", "");
  raw_connection c(srv_->port());
  ASSERT_TRUE(c.connected());
  // Two chunks, split inside a part, with a chunk extension and a trailer.
  const std::size_t cut = body.size() / 2;
  char sizes[64];
  std::snprintf(sizes, sizeof sizes, "%zx;ext=1\r\n", cut);
  std::string chunked = sizes + body.substr(0, cut) + "\r\n";
  std::snprintf(sizes, sizeof sizes, "%zX\r\n", body.size() - cut);
  chunked += sizes + body.substr(cut) + "\r\n0\r\nX-Trailer: t\r\n\r\n";
  const auto a = c.exchange(head("XyZ", "Transfer-Encoding: chunked\r\n") + chunked);
  EXPECT_EQ(a.status(), 200) << a.bytes;
  EXPECT_EQ(imported(a), 1u);
  EXPECT_FALSE(a.closed);
  // The same connection serves the next request.
  const auto b = c.exchange("GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  EXPECT_EQ(b.status(), 200) << b.bytes;
}

TEST_F(reference_multipart, a_body_that_is_not_multipart_is_malformed_not_missing_parts) {
  for (const std::string& body :
       {std::string("--XyZ\r\nbroken"), form("Other", ""), std::string("no boundary at all")}) {
    const auto a = sized("XyZ", body);
    EXPECT_EQ(a.status(), 422) << body << "\n" << a.bytes;
    EXPECT_NE(a.body().find("malformed multipart/form-data"), std::string::npos) << a.bytes;
  }
}

TEST_F(reference_multipart, the_body_is_read_after_the_credentials_are_judged) {
  // A malformed body from a caller without credentials is a 401 first.
  const std::string body = "--XyZ\r\nbroken";
  raw_connection c(srv_->port());
  ASSERT_TRUE(c.connected());
  const auto a = c.exchange(
      "POST /api/v1/contacts/import HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
      "multipart/form-data; boundary=XyZ\r\nContent-Length: " +
      std::to_string(body.size()) + "\r\n\r\n" + body);
  EXPECT_EQ(a.status(), 401) << a.bytes;
}

TEST_F(reference_multipart, a_body_over_the_limit_is_413_and_the_connection_closed) {
  raw_connection c(srv_->port());
  ASSERT_TRUE(c.connected());
  // Only the head is sent: the server answers from the declared length.
  const auto a = c.exchange(head("XyZ", "Content-Length: 10485761\r\n"));
  EXPECT_EQ(a.status(), 413) << a.bytes;
  EXPECT_EQ(code_of(a), "PAYLOAD_TOO_LARGE");
  EXPECT_EQ(a.header("Connection"), "close") << a.bytes;
}

TEST_F(reference_multipart, a_malformed_chunked_body_is_refused_and_the_connection_closed) {
  raw_connection c(srv_->port());
  ASSERT_TRUE(c.connected());
  const auto a =
      c.exchange(head("XyZ", "Transfer-Encoding: chunked\r\n") + "zz\r\nabc\r\n0\r\n\r\n");
  EXPECT_GE(a.status(), 400) << a.bytes;
  EXPECT_LT(a.status(), 500) << a.bytes;
  EXPECT_EQ(a.header("Connection"), "close") << a.bytes;
}

TEST(wire_stamps, the_answer_is_stamped_before_the_client_could_read_it) {
  using clock = std::chrono::steady_clock;
  detail::wire_server s;
  s.Get("/x", [](const httplib::Request&, httplib::Response& res) {
    if (auto* w = detail::current_wire()) w->tag = 1;
    res.set_content("ok", "text/plain");
  });
  std::promise<std::pair<clock::time_point, clock::time_point>> stamps;
  s.on_answered = [&stamps](const detail::wire_request& w, bool delivered) {
    EXPECT_TRUE(delivered);
    stamps.set_value({w.arrived, w.handed_over});
  };
  const int port = s.bind_to_any_port("127.0.0.1");
  std::thread serving([&s] { s.listen_after_bind(); });
  while (!s.is_running()) std::this_thread::yield();
  test_support::raw_connection c(port);
  const auto sent = clock::now();
  const auto a = c.exchange("GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  const auto read = clock::now();
  EXPECT_EQ(a.status(), 200) << a.bytes;
  const auto [arrived, handed_over] = stamps.get_future().get();
  EXPECT_LE(sent, arrived);
  EXPECT_LE(arrived, handed_over);
  EXPECT_LE(handed_over, read);
  s.stop();
  serving.join();
}

}  // namespace
}  // namespace conform::reference
