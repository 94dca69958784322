#pragma once
// The servers the tests share: cpp-httplib on an ephemeral port (plain HTTP
// and TLS) run by httplib_runner, a scripted server whose every answer one
// handler decides, and a raw socket server whose sessions a test scripts
// byte by byte (to close connections at chosen moments). No fixed ports, no
// sleeps. The mini items API (mini_server.hpp) runs on httplib_runner too.

#include <boost/asio/ip/tcp.hpp>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace httplib {
class Server;
struct Request;
struct Response;
}  // namespace httplib

namespace conform::test_support {

/// A flag a test opens once; waiters block until then.
class gate {
 public:
  /// Opens the gate and wakes every waiter.
  void open();
  /// Blocks until the gate is open.
  void wait();

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool open_ = false;
};

/// Runs an httplib server (plain or TLS) on 127.0.0.1:<ephemeral> in a thread.
class httplib_runner {
 public:
  /// Takes a configured server, binds it and starts listening.
  explicit httplib_runner(std::unique_ptr<httplib::Server> server);
  /// Stops the server and joins its thread.
  ~httplib_runner();
  /// The bound port.
  unsigned short port() const { return port_; }
  /// The server, to add handlers before the first request.
  httplib::Server& server() { return *server_; }

 private:
  std::unique_ptr<httplib::Server> server_;
  unsigned short port_ = 0;
  std::thread thread_;
};

/// A loopback HTTP server whose every answer, for every method and path, one
/// handler decides: for targets that answer what no correct server would
/// (only 429s, HTML, nothing in time).
class scripted_server {
 public:
  using handler = std::function<void(const httplib::Request&, httplib::Response&)>;
  explicit scripted_server(handler h);
  unsigned short port() const { return runner_.port(); }
  /// The base URL a profile names: the API under /api/v1.
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port()) + "/api/v1"; }

 private:
  httplib_runner runner_;
};

/// A blocking socket server; each accepted connection runs `session` in turn.
class raw_server {
 public:
  using socket = boost::asio::ip::tcp::socket;
  using session_fn = std::function<void(socket&, int connection_index)>;
  /// Listens on 127.0.0.1:<ephemeral>.
  explicit raw_server(session_fn session);
  /// Stops accepting and joins.
  ~raw_server();
  /// The bound port.
  unsigned short port() const { return port_; }
  /// Connections accepted so far.
  int accepted() const { return accepted_.load(); }
  /// From a session: stop listening, as a server that died does; every
  /// later connection is refused.
  void stop_listening();

  /// Reads one request (head and Content-Length body); empty at EOF.
  static std::string read_request(socket& s);
  /// Writes `bytes` fully (errors ignored).
  static void write(socket& s, const std::string& bytes);

 private:
  boost::asio::io_context ioc_;
  boost::asio::ip::tcp::acceptor acceptor_;
  session_fn session_;
  unsigned short port_ = 0;
  std::atomic<int> accepted_{0};
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

/// A loopback HTTP/1.1 server that takes any method, QUERY and LINK
/// included (httplib refuses the methods it does not know): Beast, one
/// thread per connection, keep-alive, every answer from one handler.
class any_method_server {
 public:
  struct request {
    std::string method;  // as received: "QUERY"
    std::string target;  // path and query, as received
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;
    /// The first value of header `name` (case-insensitive), or "".
    std::string header(std::string_view name) const;
  };
  struct response {
    unsigned status = 200;
    std::string content_type = "application/json";
    std::string body;
  };
  using handler = std::function<response(const request&)>;

  /// Listens on 127.0.0.1:<ephemeral> at once.
  explicit any_method_server(handler h);
  /// Stops accepting, closes every connection and joins.
  ~any_method_server();
  unsigned short port() const { return port_; }
  /// The base URL a profile names: the API under /api/v1.
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/api/v1"; }

 private:
  void serve(boost::asio::ip::tcp::socket s);

  handler handler_;
  boost::asio::io_context ioc_;
  boost::asio::ip::tcp::acceptor acceptor_;
  unsigned short port_ = 0;
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;
  std::vector<std::shared_ptr<boost::asio::ip::tcp::socket>> open_;
  std::vector<std::thread> sessions_;
  std::thread thread_;
};

/// A self-signed certificate and its key, as PEM.
struct test_certificate {
  std::string cert_pem;
  std::string key_pem;
};

/// Generates a fresh EC P-256 self-signed certificate for `subject_alt_names`
/// (OpenSSL's syntax: "IP:127.0.0.1,DNS:conform.test").
test_certificate make_self_signed_certificate(
    const std::string& subject_alt_names = "IP:127.0.0.1");

/// An httplib TLS server for `cert`.
std::unique_ptr<httplib::Server> make_tls_server(const test_certificate& cert);

}  // namespace conform::test_support
