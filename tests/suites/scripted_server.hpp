#pragma once
// A loopback HTTP server whose every answer one handler decides: for targets
// that answer what no correct server would (only 429s, HTML, nothing in
// time), to show a check says "not run" rather than judging them.
#include <httplib.h>

#include <functional>
#include <string>
#include <thread>

namespace conform::suites::testing {

class scripted_server {
 public:
  using handler = std::function<void(const httplib::Request&, httplib::Response&)>;

  explicit scripted_server(handler h) {
    server_.Get(".*", h);
    server_.Post(".*", h);
    server_.Put(".*", h);
    server_.Patch(".*", h);
    server_.Delete(".*", h);
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::yield();
  }
  ~scripted_server() {
    server_.stop();
    thread_.join();
  }
  scripted_server(const scripted_server&) = delete;
  scripted_server& operator=(const scripted_server&) = delete;

  int port() const { return port_; }
  /// The base URL a profile names: the API under /api/v1.
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/api/v1"; }

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
};

}  // namespace conform::suites::testing
