#include "reference/detail/wire.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>

#include "core/text.hpp"

namespace conform::reference::detail {

namespace {

thread_local wire_request* in_flight = nullptr;
thread_local httplib::Stream* stream_in_flight = nullptr;  // in_flight's connection

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

/// Waits until `sock` has something to read (or was closed): 1 ready, 0
/// timed out, -1 error.
int wait_for(int sock, short events, std::chrono::milliseconds timeout) {
  pollfd p{sock, events, 0};
  for (;;) {
    const int n = ::poll(&p, 1, static_cast<int>(timeout.count()));
    if (n < 0 && errno == EINTR) continue;
    return n < 0 ? -1 : n;
  }
}

std::chrono::milliseconds to_ms(time_t sec, time_t usec) {
  return std::chrono::milliseconds(sec * 1000 + usec / 1000);
}

/// The socket I/O under httplib's parser and writer, for one connection:
/// reads are buffered (httplib reads a head byte by byte) and copied into
/// the request in flight as httplib takes them; writes can be refused.
class wire_stream final : public httplib::Stream {
 public:
  wire_stream(int sock, std::chrono::milliseconds read_timeout,
              std::chrono::milliseconds write_timeout)
      : sock_(sock), read_timeout_(read_timeout), write_timeout_(write_timeout) {}

  void start(wire_request* r) { request_ = r; }
  /// True when bytes already read wait in the buffer (a pipelined request).
  bool buffered() const { return off_ < size_; }

  bool is_readable() const override {
    return off_ < size_ || wait_for(sock_, POLLIN, read_timeout_) > 0;
  }

  bool is_writable() const override {
    if (wait_for(sock_, POLLOUT, write_timeout_) <= 0) return false;
    // The peer may have closed its end (a client that gave up on a slow
    // answer): then nothing is written, as cpp-httplib's own stream does.
    if (wait_for(sock_, POLLIN, std::chrono::milliseconds(0)) == 0) return true;
    char b;
    return ::recv(sock_, &b, 1, MSG_PEEK | MSG_DONTWAIT) > 0;
  }

  ssize_t read(char* ptr, size_t size) override {
    if (off_ == size_) {
      if (!is_readable()) return -1;
      const ssize_t n = ::recv(sock_, buffer_.data(), buffer_.size(), 0);
      if (n <= 0) return n;
      off_ = 0;
      size_ = static_cast<std::size_t>(n);
    }
    const std::size_t n = std::min(size, size_ - off_);
    std::memcpy(ptr, buffer_.data() + off_, n);
    off_ += n;
    if (request_ && request_->arrived == std::chrono::steady_clock::time_point{})
      request_->arrived = std::chrono::steady_clock::now();
    keep(ptr, n);
    return static_cast<ssize_t>(n);
  }

  ssize_t write(const char* ptr, size_t size) override {
    if (request_ && request_->handed_over == std::chrono::steady_clock::time_point{})
      request_->handed_over = std::chrono::steady_clock::now();
    if (request_ && request_->drop) return -1;  // closed without a byte of the answer
    if (!is_writable()) {
      if (request_) request_->write_failed = true;
      return -1;
    }
    const ssize_t n = ::send(sock_, ptr, size, MSG_NOSIGNAL);
    if (request_) {
      if (n < 0) request_->write_failed = true;
      if (n > 0) request_->written += static_cast<std::size_t>(n);
    }
    return n;
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    address(::getpeername, ip, port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    address(::getsockname, ip, port);
  }
  ::socket_t socket() const override { return sock_; }

 private:
  void keep(const char* ptr, std::size_t n) {
    if (!request_) return;
    std::string& b = request_->bytes;
    if (request_->head_size != 0) {
      if (request_->keep_body) b.append(ptr, n);
      return;
    }
    const std::size_t from = b.size() < 3 ? 0 : b.size() - 3;
    b.append(ptr, n);
    const std::size_t end = b.find("\r\n\r\n", from);
    if (end == std::string::npos) return;
    request_->head_size = end + 4;
    if (!request_->keep_body) b.resize(request_->head_size);
  }

  template <typename F>
  void address(F f, std::string& ip, int& port) const {
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    if (f(sock_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) return;
    char text[INET6_ADDRSTRLEN] = {};
    if (addr.ss_family == AF_INET) {
      const auto* a = reinterpret_cast<const sockaddr_in*>(&addr);
      ::inet_ntop(AF_INET, &a->sin_addr, text, sizeof text);
      port = ntohs(a->sin_port);
    } else if (addr.ss_family == AF_INET6) {
      const auto* a = reinterpret_cast<const sockaddr_in6*>(&addr);
      ::inet_ntop(AF_INET6, &a->sin6_addr, text, sizeof text);
      port = ntohs(a->sin6_port);
    }
    ip = text;
  }

  int sock_;
  std::chrono::milliseconds read_timeout_, write_timeout_;
  std::array<char, 4096> buffer_{};
  std::size_t off_ = 0, size_ = 0;
  wire_request* request_ = nullptr;
};

/// Reads exactly `n` bytes of `stream` onto `out`; false when the peer
/// stopped short or went quiet past the read timeout.
bool read_exact(httplib::Stream& stream, std::size_t n, std::string& out) {
  std::array<char, 4096> chunk{};
  while (n > 0) {
    const ssize_t got = stream.read(chunk.data(), std::min(n, chunk.size()));
    if (got <= 0) return false;
    out.append(chunk.data(), static_cast<std::size_t>(got));
    n -= static_cast<std::size_t>(got);
  }
  return true;
}

/// Reads one line (up to CRLF, which is dropped) of at most `max` bytes.
std::optional<std::string> read_line(httplib::Stream& stream, std::size_t max) {
  std::string line;
  char c = 0;
  while (line.size() <= max) {
    if (stream.read(&c, 1) != 1) return std::nullopt;
    if (c == '\n') {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    line += c;
  }
  return std::nullopt;
}

/// A chunked body (RFC 9112 section 7.1) read off `stream`, trailers
/// included and dropped; refused past `limit` bytes of content.
wire_body read_chunked(httplib::Stream& stream, std::size_t limit) {
  wire_body out;
  for (;;) {
    auto size_line = read_line(stream, 1024);
    if (!size_line) return {{}, 400};
    std::string_view text = trim(std::string_view(*size_line).substr(0, size_line->find(';')));
    if (text.empty() || text.size() > 15) return {{}, 400};
    std::size_t size = 0;
    for (char c : text) {
      const char l = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      const int v = (l >= '0' && l <= '9') ? l - '0' : (l >= 'a' && l <= 'f') ? l - 'a' + 10 : -1;
      if (v < 0) return {{}, 400};
      size = size * 16 + static_cast<std::size_t>(v);
    }
    if (size == 0) break;
    if (size > limit - out.bytes.size()) return {{}, 413};
    if (!read_exact(stream, size, out.bytes)) return {{}, 400};
    auto end = read_line(stream, 1);  // the CRLF after the data
    if (!end || !end->empty()) return {{}, 400};
  }
  for (std::size_t trailers = 0;; ++trailers) {
    auto line = read_line(stream, 8192);
    if (!line || trailers > 100) return {{}, 400};
    if (line->empty()) return out;
  }
}

}  // namespace

std::vector<std::pair<std::string, std::string>> parse_head_fields(std::string_view head) {
  std::vector<std::pair<std::string, std::string>> out;
  std::size_t at = head.find("\r\n");  // past the request line
  while (at != std::string_view::npos) {
    at += 2;
    const std::size_t end = head.find("\r\n", at);
    const std::string_view line =
        head.substr(at, end == std::string_view::npos ? head.size() - at : end - at);
    if (line.empty()) break;
    const std::size_t colon = line.find(':');
    if (colon != std::string_view::npos && colon > 0) {
      out.emplace_back(std::string(trim(line.substr(0, colon))),
                       std::string(trim(line.substr(colon + 1))));
    }
    at = end;
  }
  return out;
}

std::optional<std::string> decode_chunked(std::string_view bytes) {
  std::string out;
  std::size_t at = 0;
  for (;;) {
    const std::size_t eol = bytes.find("\r\n", at);
    if (eol == std::string_view::npos) return std::nullopt;
    std::string_view size_text = bytes.substr(at, eol - at);
    size_text = size_text.substr(0, size_text.find(';'));  // chunk extensions
    size_text = trim(size_text);
    if (size_text.empty() || size_text.size() > 15) return std::nullopt;
    std::size_t size = 0;
    for (char c : size_text) {
      const char l = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      const int v = (l >= '0' && l <= '9') ? l - '0' : (l >= 'a' && l <= 'f') ? l - 'a' + 10 : -1;
      if (v < 0) return std::nullopt;
      size = size * 16 + static_cast<std::size_t>(v);
    }
    at = eol + 2;
    if (size == 0) return out;  // trailers, if any, are not body
    if (bytes.size() - at < size + 2) return std::nullopt;
    out.append(bytes.substr(at, size));
    at += size + 2;
  }
}

const std::vector<std::pair<std::string, std::string>>& wire_request::headers() const {
  if (!parsed_) parsed_ = parse_head_fields(std::string_view(bytes).substr(0, head_size));
  return *parsed_;
}

std::size_t wire_request::count(std::string_view name) const {
  std::size_t n = 0;
  for (const auto& [k, v] : headers()) n += core::iequals(k, name) ? 1 : 0;
  return n;
}

std::optional<std::string> wire_request::body() const {
  if (!keep_body || head_size == 0) return std::nullopt;
  const std::string_view rest = std::string_view(bytes).substr(head_size);
  for (const auto& [k, v] : headers()) {
    if (core::iequals(k, "Transfer-Encoding") && v.find("chunked") != std::string::npos) {
      return decode_chunked(rest);
    }
  }
  return std::string(rest);
}

wire_body read_wire_body(const httplib::Request& req, std::size_t limit) {
  wire_body out{{}, 400};
  if (stream_in_flight == nullptr || in_flight == nullptr) return out;
  httplib::Stream& stream = *stream_in_flight;
  const std::string coding = core::ascii_lower(req.get_header_value("Transfer-Encoding"));
  if (!coding.empty()) {
    out = coding == "chunked" ? read_chunked(stream, limit) : wire_body{{}, 400};
  } else {
    const std::string length = req.get_header_value("Content-Length");
    std::size_t n = 0;
    if (length.empty() || length.size() > 18 ||
        length.find_first_not_of("0123456789") != std::string::npos) {
      out = {{}, length.empty() ? 0 : 400};
    } else if ((n = std::stoull(length)) > limit) {
      out = {{}, 413};
    } else {
      out.bytes.reserve(n);
      out.refused = read_exact(stream, n, out.bytes) ? 0 : 400;
    }
  }
  if (out.refused != 0) in_flight->close_after = true;
  return out;
}

wire_request* current_wire() {
  return in_flight;
}

bool wire_server::process_and_close_socket(::socket_t sock) {
  wire_stream stream(sock, to_ms(read_timeout_sec_, read_timeout_usec_),
                     to_ms(write_timeout_sec_, write_timeout_usec_));
  const auto idle_limit = std::chrono::seconds(keep_alive_timeout_sec_);
  bool ok = false;
  bool open = true;
  for (std::size_t left = keep_alive_max_count_; left > 0; --left) {
    // Wait for the next request in short slices, so that stop() is not held
    // up by an idle keep-alive connection.
    const auto idle_since = std::chrono::steady_clock::now();
    int ready = stream.buffered() ? 1 : 0;
    while (svr_sock_ != INVALID_SOCKET && ready == 0 &&
           std::chrono::steady_clock::now() - idle_since < idle_limit) {
      ready = wait_for(sock, POLLIN, std::chrono::milliseconds(20));
    }
    if (ready <= 0 || svr_sock_ == INVALID_SOCKET) break;
    wire_request request;
    request.keep_body = keep_bodies_;
    stream.start(&request);
    in_flight = &request;
    stream_in_flight = &stream;
    bool closed_by_client = false;
    ok = process_request(stream, left == 1, closed_by_client, nullptr);
    in_flight = nullptr;
    stream_in_flight = nullptr;
    stream.start(nullptr);
    const bool last = !ok || closed_by_client || request.drop || request.close_after || left == 1;
    if (request.handed_over == std::chrono::steady_clock::time_point{})
      request.handed_over = std::chrono::steady_clock::now();  // nothing written: the close
    if (last) {
      ::shutdown(sock, SHUT_RDWR);
      ::close(sock);
      open = false;
    }
    if (on_answered && request.tag != 0) {
      on_answered(request, !request.drop && !request.write_failed && request.written > 0);
    }
    if (last) break;
  }
  if (open) {
    ::shutdown(sock, SHUT_RDWR);
    ::close(sock);
  }
  return ok;
}

}  // namespace conform::reference::detail
