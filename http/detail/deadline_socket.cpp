#include "http/detail/deadline_socket.hpp"

#include <boost/beast/core/error.hpp>

#include <poll.h>
#include <sys/socket.h>

#include <cerrno>

namespace conform::http::detail {

namespace asio = boost::asio;
using asio::ip::tcp;

deadline_socket::error_code deadline_socket::wait(bool readable) {
  pollfd fd{};
  fd.fd = socket_.native_handle();
  fd.events = readable ? POLLIN : POLLOUT;
  for (;;) {
    int timeout_ms = -1;
    if (deadline_) {
      const auto left = *deadline_ - std::chrono::steady_clock::now();
      if (left <= std::chrono::steady_clock::duration::zero()) return boost::beast::error::timeout;
      timeout_ms = static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(left).count());
    }
    const int n = ::poll(&fd, 1, timeout_ms);
    if (n > 0) return {};
    if (n == 0) {
      // Rounding up may wake a little early or late; the next loop decides.
      if (!deadline_) continue;
      if (std::chrono::steady_clock::now() >= *deadline_) return boost::beast::error::timeout;
      continue;
    }
    if (errno != EINTR) return {errno, boost::system::system_category()};
  }
}

deadline_socket::error_code deadline_socket::connect(const tcp::resolver::results_type& endpoints) {
  error_code last = asio::error::host_not_found;
  for (const auto& entry : endpoints) {
    const tcp::endpoint ep = entry.endpoint();
    close();
    error_code ec;
    socket_.open(ep.protocol(), ec);
    if (ec) {
      last = ec;
      continue;
    }
    socket_.non_blocking(true, ec);
    socket_.set_option(tcp::no_delay(true), ec);
    expect_wait_ = false;
    if (::connect(socket_.native_handle(), ep.data(), static_cast<socklen_t>(ep.size())) == 0) {
      return {};
    }
    if (errno != EINPROGRESS) {
      last = error_code(errno, boost::system::system_category());
      continue;
    }
    if ((ec = wait(false))) {
      close();
      return ec;  // a timeout ends the attempt: the deadline is shared by all endpoints
    }
    int so_error = 0;
    socklen_t len = sizeof so_error;
    ::getsockopt(socket_.native_handle(), SOL_SOCKET, SO_ERROR, &so_error, &len);
    if (so_error == 0) return {};
    last = error_code(so_error, boost::system::system_category());
  }
  close();
  return last;
}

bool deadline_socket::readable_now() {
  pollfd fd{};
  fd.fd = socket_.native_handle();
  fd.events = POLLIN | POLLRDHUP;
  return ::poll(&fd, 1, 0) != 0;
}

void deadline_socket::close() {
  error_code ignored;
  if (socket_.is_open()) socket_.close(ignored);
  expect_wait_ = false;
}

}  // namespace conform::http::detail
