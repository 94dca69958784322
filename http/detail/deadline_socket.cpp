#include "http/detail/deadline_socket.hpp"

#include <boost/beast/core/error.hpp>

#include <poll.h>
#include <sys/socket.h>

#include <cerrno>

#include "http/detail/wait.hpp"

namespace conform::http::detail {

namespace asio = boost::asio;
using asio::ip::tcp;

deadline_socket::error_code deadline_socket::wait(bool readable) {
  return wait_ready(socket_.native_handle(), readable, deadline_);
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
