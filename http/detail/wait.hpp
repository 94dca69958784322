#pragma once
// The one place a socket of the transport waits: on its own with poll(), or,
// inside `run_cooperatively`, by stepping aside until the thread's common
// poll() says the socket is ready (http/cooperative.hpp).

#include <boost/system/error_code.hpp>

#include <chrono>
#include <optional>

namespace conform::http::detail {

/// Waits until `fd` is readable (else writable), hung up or in error:
/// success, beast::error::timeout once `deadline` passes (nullopt: never),
/// or poll()'s own error.
boost::system::error_code wait_ready(int fd, bool readable,
                                     std::optional<std::chrono::steady_clock::time_point> deadline);

}  // namespace conform::http::detail
