#pragma once
// A raw HTTP/1.1 exchange over a loopback socket, for tests that must send
// exactly the bytes they mean (a header repeated, a header present but
// empty, a chunked body) and see exactly the bytes that come back, or that
// none did. Blocking, with a receive timeout so that a test never hangs.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <string>
#include <string_view>

namespace conform::test_support {

/// What came back for one request.
struct raw_answer {
  std::string bytes;                                // everything read, head and body
  bool closed = false;                              // the server closed the connection (EOF)
  int status() const;                               // from the status line; 0 when there is none
  std::string header(std::string_view name) const;  // the first value, or ""
  std::string body() const;                         // after the head
};

/// One connection to 127.0.0.1:port.
class raw_connection {
 public:
  explicit raw_connection(int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    timeval tv{10, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  }
  ~raw_connection() {
    if (fd_ >= 0) ::close(fd_);
  }
  raw_connection(const raw_connection&) = delete;
  raw_connection& operator=(const raw_connection&) = delete;

  bool connected() const { return connected_; }

  /// Sends `request` as is, then reads one answer: its head and as many
  /// body bytes as its Content-Length says, or everything up to the close.
  raw_answer exchange(std::string_view request) {
    std::size_t sent = 0;
    while (sent < request.size()) {
      const ssize_t n = ::send(fd_, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) break;
      sent += static_cast<std::size_t>(n);
    }
    raw_answer a;
    char buf[4096];
    for (;;) {
      const std::size_t head_end = a.bytes.find("\r\n\r\n");
      if (head_end != std::string::npos) {
        const std::string length = a.header("Content-Length");
        if (!length.empty() && a.bytes.size() >= head_end + 4 + std::stoul(length)) return a;
      }
      const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n == 0) {
        a.closed = true;
        return a;
      }
      if (n < 0) return a;  // the receive timeout: the test fails on what it got
      a.bytes.append(buf, static_cast<std::size_t>(n));
    }
  }

 private:
  int fd_ = -1;
  bool connected_ = false;
};

inline int raw_answer::status() const {
  if (!bytes.starts_with("HTTP/1.")) return 0;
  const std::size_t sp = bytes.find(' ');
  if (sp == std::string::npos || sp + 4 > bytes.size()) return 0;
  return std::stoi(bytes.substr(sp + 1, 3));
}

inline std::string raw_answer::header(std::string_view name) const {
  const std::size_t head_end = bytes.find("\r\n\r\n");
  std::size_t at = bytes.find("\r\n");
  while (at != std::string::npos && at < head_end) {
    at += 2;
    const std::size_t eol = bytes.find("\r\n", at);
    const std::string line = bytes.substr(at, eol - at);
    const std::size_t colon = line.find(':');
    if (colon != std::string::npos && colon == name.size()) {
      bool same = true;
      for (std::size_t i = 0; i < colon; ++i) {
        same = same && std::tolower(static_cast<unsigned char>(line[i])) ==
                           std::tolower(static_cast<unsigned char>(name[i]));
      }
      if (same) {
        std::string v = line.substr(colon + 1);
        while (!v.empty() && v.front() == ' ') v.erase(v.begin());
        return v;
      }
    }
    at = eol;
  }
  return "";
}

inline std::string raw_answer::body() const {
  const std::size_t head_end = bytes.find("\r\n\r\n");
  return head_end == std::string::npos ? std::string() : bytes.substr(head_end + 4);
}

}  // namespace conform::test_support
