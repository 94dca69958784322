#include <gtest/gtest.h>

#include <httplib.h>

#include <boost/asio/ip/tcp.hpp>

#include <sys/socket.h>

#include <mutex>
#include <set>

#include "http/connection.hpp"
#include "tests/http/support.hpp"
#include "tests/support/servers.hpp"

namespace conform::http {
namespace {

using test_support::get;
using test_support::local;

/// An httplib server that records the client ports it saw (one per connection).
class plain_server : public ::testing::Test {
 protected:
  plain_server() : runner_(std::make_unique<httplib::Server>()) {
    auto& s = runner_.server();
    s.Get("/api/v1/echo", [this](const httplib::Request& req, httplib::Response& res) {
      {
        std::lock_guard lock(mutex_);
        client_ports_.insert(req.remote_port);
      }
      res.set_header("X-Request-Id", "rid-1");
      res.set_content(req.get_header_value("X-Tenant-Id"), "text/plain");
    });
    s.Post("/api/v1/echo", [](const httplib::Request& req, httplib::Response& res) {
      res.set_content(req.body, "application/json");
    });
    s.Get("/api/v1/big", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(std::string(10000, 'x'), "text/plain");
    });
    s.Get("/api/v1/big-chunked", [](const httplib::Request&, httplib::Response& res) {
      res.set_chunked_content_provider("text/plain", [](size_t offset, httplib::DataSink& sink) {
        if (offset >= 10000) {
          sink.done();
        } else {
          const std::string chunk(1000, 'y');
          sink.write(chunk.data(), chunk.size());
        }
        return true;
      });
    });
    s.Get("/api/v1/stall", [this](const httplib::Request&, httplib::Response& res) {
      stall_.wait();
      res.set_content("late", "text/plain");
    });
    s.Get("/api/v1/redirect", [](const httplib::Request&, httplib::Response& res) {
      res.set_redirect("http://elsewhere.example/steal");
    });
  }
  ~plain_server() override { stall_.open(); }

  std::size_t distinct_connections() {
    std::lock_guard lock(mutex_);
    return client_ports_.size();
  }

  test_support::gate stall_;
  test_support::httplib_runner runner_;
  std::mutex mutex_;
  std::set<int> client_ports_;
};

TEST_F(plain_server, keep_alive_reuses_one_connection) {
  connection c(local(runner_.port()));
  for (int i = 0; i < 5; ++i) {
    request r = get("/echo");
    r.add_header("X-Tenant-Id", "10" + std::to_string(i));
    const result res = c.send(r);
    ASSERT_TRUE(res.ok()) << res.error().message;
    EXPECT_EQ(res.value().status, 200u);
    EXPECT_EQ(res.value().body, "10" + std::to_string(i));
    EXPECT_EQ(*res.value().find("x-request-id"), "rid-1");
    EXPECT_EQ(res.value().reused_connection, i > 0);
  }
  EXPECT_EQ(c.connects(), 1u);
  EXPECT_EQ(distinct_connections(), 1u);
}

TEST_F(plain_server, post_body_round_trips) {
  connection c(local(runner_.port()));
  request r;
  r.method = verb::post;
  r.target = "/echo";
  r.add_header("Content-Type", "application/json");
  r.body = R"({"name":"x"})";
  const result res = c.send(r);
  ASSERT_TRUE(res.ok()) << res.error().message;
  EXPECT_EQ(res.value().body, r.body);
}

TEST_F(plain_server, response_over_the_cap_is_too_large) {
  connection_options opts;
  opts.max_body_bytes = 1000;
  connection c(local(runner_.port()), opts);
  const result fixed = c.send(get("/big"));
  ASSERT_FALSE(fixed.ok());
  EXPECT_EQ(fixed.error().what, transport_error::kind::too_large) << fixed.error().message;
  const result chunked = c.send(get("/big-chunked"));
  ASSERT_FALSE(chunked.ok());
  EXPECT_EQ(chunked.error().what, transport_error::kind::too_large) << chunked.error().message;
  // The connection recovers for the next request.
  const result small = c.send(get("/echo"));
  ASSERT_TRUE(small.ok()) << small.error().message;
}

TEST_F(plain_server, chunked_bodies_and_head_requests_are_read_whole) {
  connection c(local(runner_.port()));
  const result chunked = c.send(get("/big-chunked"));
  ASSERT_TRUE(chunked.ok()) << chunked.error().message;
  EXPECT_EQ(chunked.value().body, std::string(10000, 'y'));
  request head = get("/big");
  head.method = verb::head;
  const result h = c.send(head);  // Content-Length 10000 but no body follows
  ASSERT_TRUE(h.ok()) << h.error().message;
  EXPECT_EQ(h.value().status, 200u);
  EXPECT_TRUE(h.value().body.empty());
  const result after = c.send(get("/echo"));  // the connection is still in step
  ASSERT_TRUE(after.ok()) << after.error().message;
  EXPECT_EQ(after.value().status, 200u);
  EXPECT_EQ(c.connects(), 1u);
}

TEST_F(plain_server, stalled_server_hits_the_total_timeout) {
  connection_options opts;
  opts.total_timeout = std::chrono::milliseconds(200);
  connection c(local(runner_.port()), opts);
  const result res = c.send(get("/stall"));
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.error().what, transport_error::kind::timeout) << res.error().message;
  EXPECT_FALSE(c.is_open());
}

// An answer that streams (a watch: a head and a first message, then the
// connection held open) is a timeout that says the head came, with its
// status, not "no response".
TEST(connection, a_body_that_never_ends_says_its_head_came) {
  test_support::gate done;
  test_support::raw_server server([&](test_support::raw_server::socket& s, int) {
    if (test_support::raw_server::read_request(s).empty()) return;
    test_support::raw_server::write(s,
                                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                    "Transfer-Encoding: chunked\r\n\r\n"
                                    "11\r\n{\"created\":true}\n\r\n");
    done.wait();
  });
  connection_options opts;
  opts.total_timeout = std::chrono::milliseconds(300);
  connection c(local(server.port()), opts);
  const result res = c.send(get("/watch"));
  done.open();
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.error().what, transport_error::kind::timeout) << res.error().message;
  EXPECT_NE(res.error().message.find("head"), std::string::npos) << res.error().message;
  EXPECT_NE(res.error().message.find("status 200"), std::string::npos) << res.error().message;
  EXPECT_NE(res.error().message.find("17 bytes"), std::string::npos) << res.error().message;
  EXPECT_FALSE(c.is_open());
}

TEST_F(plain_server, redirects_are_returned_not_followed) {
  connection c(local(runner_.port()));
  request r = get("/redirect");
  r.add_header("Authorization", "Bearer secret-token");
  const result res = c.send(r);
  ASSERT_TRUE(res.ok()) << res.error().message;
  EXPECT_EQ(res.value().status, 302u);
  EXPECT_EQ(*res.value().find(field::location), "http://elsewhere.example/steal");
}

TEST_F(plain_server, header_injection_is_refused_as_a_value) {
  connection c(local(runner_.port()));
  request r = get("/echo");
  r.add_header("X-Tenant-Id", "1\r\nX-Evil: 1");
  const result res = c.send(r);
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.error().what, transport_error::kind::invalid_request);
}

TEST(connection, closed_port_is_a_connect_error_value) {
  unsigned short port = 0;
  {
    boost::asio::io_context ioc;
    boost::asio::ip::tcp::acceptor a(
        ioc, boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), 0));
    port = a.local_endpoint().port();
  }  // closed: nothing listens there now
  connection c(local(port));
  const result res = c.send(get("/health"));
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.error().what, transport_error::kind::connect) << res.error().message;
  EXPECT_NE(res.error().message.find("127.0.0.1:" + std::to_string(port)), std::string::npos);
}

TEST(connection, connect_timeout_is_a_timeout_value) {
  namespace asio = boost::asio;
  using asio::ip::tcp;
  // A listener that never accepts, its accept queue filled: further SYNs are
  // dropped, so a connect neither succeeds nor fails until it times out.
  asio::io_context ioc;
  tcp::acceptor full(ioc);
  full.open(tcp::v4());
  full.bind(tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  full.listen(0);
  const auto endpoint = full.local_endpoint();
  std::vector<tcp::socket> fillers;
  for (int i = 0; i < 4; ++i) {
    fillers.emplace_back(ioc);
    fillers.back().open(tcp::v4());
    fillers.back().non_blocking(true);
    // Raw connect: asio's would wait for a non-blocking connect to finish.
    (void)::connect(fillers.back().native_handle(), endpoint.data(),
                    static_cast<socklen_t>(endpoint.size()));
  }
  connection_options opts;
  opts.connect_timeout = std::chrono::milliseconds(200);
  connection c(local(endpoint.port()), opts);
  const result res = c.send(get("/health"));
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.error().what, transport_error::kind::timeout) << res.error().message;
  EXPECT_NE(res.error().message.find("connect to"), std::string::npos);
}

TEST(connection, unresolvable_host_is_a_resolve_error_value) {
  connection c(*parse_url("http://no-such-host.invalid/api/v1").value);
  const result res = c.send(get("/health"));
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.error().what, transport_error::kind::resolve) << res.error().message;
}

constexpr const char* ok_response = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

TEST(connection, reconnects_when_the_server_closed_an_idle_connection) {
  test_support::gate closed;
  test_support::raw_server server([&](test_support::raw_server::socket& s, int index) {
    if (test_support::raw_server::read_request(s).empty()) return;
    test_support::raw_server::write(s, ok_response);
    s.close();
    if (index == 0) closed.open();
  });
  connection c(local(server.port()));
  ASSERT_TRUE(c.send(get("/a")).ok());
  closed.wait();  // the server closed it while the client held it idle
  // Even a POST is safe to send: the close was seen before anything was written.
  request post;
  post.method = verb::post;
  post.target = "/b";
  post.body = "{}";
  const result second = c.send(post);
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_EQ(second.value().body, "ok");
  EXPECT_TRUE(second.reconnected);
  EXPECT_EQ(c.connects(), 2u);
  EXPECT_EQ(server.accepted(), 2);
}

/// The first connection answers one request, then reads the next and drops it.
struct drop_second_request {
  std::atomic<int> requests{0};
  void operator()(test_support::raw_server::socket& s, int index) {
    for (int n = 0;; ++n) {
      if (test_support::raw_server::read_request(s).empty()) return;
      ++requests;
      if (index == 0 && n == 1) return;  // read it, answer nothing, close
      test_support::raw_server::write(s, ok_response);
    }
  }
};

TEST(connection, idempotent_request_is_resent_once_after_a_silent_close) {
  drop_second_request script;
  test_support::raw_server server(
      [&](test_support::raw_server::socket& s, int i) { script(s, i); });
  connection c(local(server.port()));
  ASSERT_TRUE(c.send(get("/a")).ok());
  const result second = c.send(get("/b"));
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_TRUE(second.reconnected);
  EXPECT_EQ(script.requests.load(), 3);  // sent twice: GET is idempotent
  EXPECT_EQ(c.connects(), 2u);
}

TEST(connection, non_idempotent_request_is_not_resent_after_a_silent_close) {
  drop_second_request script;
  test_support::raw_server server(
      [&](test_support::raw_server::socket& s, int i) { script(s, i); });
  connection c(local(server.port()));
  ASSERT_TRUE(c.send(get("/a")).ok());
  request post;
  post.method = verb::post;
  post.target = "/billing/allocate-credits";
  post.body = R"({"tenant_id":101,"amount_major":5})";
  const result second = c.send(post);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.error().what, transport_error::kind::closed) << second.error().message;
  EXPECT_EQ(script.requests.load(), 2);  // it may have reached the server: not resent
  EXPECT_EQ(c.connects(), 1u);
}

TEST(connection, garbage_is_a_protocol_error) {
  test_support::raw_server server([](test_support::raw_server::socket& s, int) {
    if (test_support::raw_server::read_request(s).empty()) return;
    test_support::raw_server::write(s, "SSH-2.0-OpenSSH_9.2\r\n\r\n");
  });
  connection c(local(server.port()));
  const result res = c.send(get("/a"));
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.error().what, transport_error::kind::protocol) << res.error().message;
}

TEST(connection, truncated_response_is_closed_mid_response) {
  test_support::raw_server server([](test_support::raw_server::socket& s, int) {
    if (test_support::raw_server::read_request(s).empty()) return;
    test_support::raw_server::write(s, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort");
  });
  connection c(local(server.port()));
  const result res = c.send(get("/a"));
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.error().what, transport_error::kind::closed) << res.error().message;
  EXPECT_NE(res.error().message.find("mid-response"), std::string::npos);
}

TEST(connection, connection_close_from_server_is_honoured) {
  test_support::raw_server server([](test_support::raw_server::socket& s, int) {
    if (test_support::raw_server::read_request(s).empty()) return;
    test_support::raw_server::write(s, "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n");
  });
  connection c(local(server.port()));
  const result res = c.send(get("/a"));
  ASSERT_TRUE(res.ok()) << res.error().message;
  EXPECT_EQ(res.value().status, 204u);
  EXPECT_FALSE(c.is_open());
}

// A server that refuses a request it will not read whole (a header field
// longer than it takes: 431) answers and closes while the client still
// writes. The answer came back and is what the client returns, not "closed
// before answering" (issue 22: "the server answers 431 and closes").
TEST(connection, an_answer_sent_before_the_request_was_read_whole_is_returned) {
  test_support::raw_server server([](test_support::raw_server::socket& s, int) {
    char head[1024];
    boost::system::error_code ec;
    s.read_some(boost::asio::buffer(head), ec);  // a part of the head only
    test_support::raw_server::write(s,
                                    "HTTP/1.1 431 Request Header Fields Too Large\r\n"
                                    "Content-Length: 0\r\nConnection: close\r\n\r\n");
    s.shutdown(boost::asio::ip::tcp::socket::shutdown_send, ec);
    s.close(ec);  // unread bytes: the peer gets a reset
  });
  connection c(local(server.port()));
  request r = get("/a");
  r.add_header("X-Huge", std::string(4u << 20, 'a'));  // more than the socket buffers hold
  const result res = c.send(r);
  ASSERT_TRUE(res.ok()) << res.error().message;
  EXPECT_EQ(res.value().status, 431u);
  EXPECT_FALSE(c.is_open());
}

}  // namespace
}  // namespace conform::http
