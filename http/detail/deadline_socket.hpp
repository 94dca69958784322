#pragma once
// A non-blocking TCP socket whose blocking-style operations wait with poll()
// until a deadline. It meets Beast's SyncReadStream and SyncWriteStream and
// serves as the next layer of asio::ssl::stream, so synchronous Beast gets
// real connect and total timeouts at the cost of one poll() per wait (no
// timers, no event loop).

#include <boost/asio/error.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/system/system_error.hpp>

#include <chrono>
#include <cstddef>
#include <optional>

namespace conform::http::detail {

/// See the file comment. Not thread-safe.
class deadline_socket {
 public:
  using lowest_layer_type = boost::asio::ip::tcp::socket;
  using executor_type = lowest_layer_type::executor_type;
  using error_code = boost::system::error_code;
  using time_point = std::chrono::steady_clock::time_point;

  /// An unopened socket using `ioc`'s executor (never run: all I/O is synchronous).
  explicit deadline_socket(boost::asio::io_context& ioc) : socket_(ioc) {}

  /// The socket itself.
  lowest_layer_type& lowest_layer() { return socket_; }
  /// The socket's executor (asio::ssl::stream asks for it).
  executor_type get_executor() { return socket_.get_executor(); }
  /// Operations from now on fail with beast::error::timeout after `deadline` (nullopt: never).
  void set_deadline(std::optional<time_point> deadline) { deadline_ = deadline; }

  /// Connects to the first endpoint that accepts; TCP_NODELAY on.
  error_code connect(const boost::asio::ip::tcp::resolver::results_type& endpoints);
  /// True when an idle socket has something to read or was hung up.
  bool readable_now();
  /// True while open.
  bool is_open() const { return socket_.is_open(); }
  /// Closes the socket (errors ignored).
  void close();

  /// Reads some bytes, waiting until the deadline.
  template <class MutableBufferSequence>
  std::size_t read_some(const MutableBufferSequence& buffers, error_code& ec) {
    if (expect_wait_) {
      // Just wrote a request: the answer is not there yet, wait before reading.
      expect_wait_ = false;
      if ((ec = wait(true))) return 0;
    }
    for (;;) {
      const std::size_t n = socket_.read_some(buffers, ec);
      if (ec != boost::asio::error::would_block && ec != boost::asio::error::try_again) return n;
      if ((ec = wait(true))) return 0;
    }
  }

  /// Reads some bytes; throws on error (Beast's concept check wants it).
  template <class MutableBufferSequence>
  std::size_t read_some(const MutableBufferSequence& buffers) {
    error_code ec;
    const std::size_t n = read_some(buffers, ec);
    if (ec) throw boost::system::system_error(ec);
    return n;
  }

  /// Writes some bytes, waiting until the deadline.
  template <class ConstBufferSequence>
  std::size_t write_some(const ConstBufferSequence& buffers, error_code& ec) {
    for (;;) {
      const std::size_t n = socket_.write_some(buffers, ec);
      if (ec != boost::asio::error::would_block && ec != boost::asio::error::try_again) {
        if (!ec) expect_wait_ = true;
        return n;
      }
      if ((ec = wait(false))) return 0;
    }
  }

  /// Writes some bytes; throws on error (Beast's concept check wants it).
  template <class ConstBufferSequence>
  std::size_t write_some(const ConstBufferSequence& buffers) {
    error_code ec;
    const std::size_t n = write_some(buffers, ec);
    if (ec) throw boost::system::system_error(ec);
    return n;
  }

 private:
  /// Waits until readable (or writable); beast::error::timeout past the deadline.
  error_code wait(bool readable);

  lowest_layer_type socket_;
  std::optional<time_point> deadline_;
  bool expect_wait_ = false;
};

}  // namespace conform::http::detail
