#pragma once
// One keep-alive HTTP/1.1 connection to the target, plain TCP or TLS.
// Synchronous Beast over a non-blocking socket that waits with poll() until
// the request's deadline (detail/deadline_socket.hpp): real timeouts with no
// event loop and no timers. Not thread-safe: one connection per worker.
//
// Redirects are never followed: a 3xx is returned as is, so credentials are
// never sent to a host the caller did not name.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "core/outcome.hpp"
#include "http/message.hpp"
#include "http/url.hpp"

namespace conform::http {

/// TLS settings for https:// targets.
struct tls_options {
  bool verify = true;   // verify the chain and the host name (off only for tests)
  std::string ca_file;  // extra trusted CAs (PEM file), beside the system store
  std::string ca_pem;   // extra trusted CAs (PEM text), beside the system store
  /// The name sent as SNI and verified against the certificate instead of
  /// the URL's host (a host reached by address; tests that must not depend
  /// on the resolver). Empty: the URL's host.
  std::string server_name;
  /// Mutual TLS: a client certificate (chain) and its private key, PEM text,
  /// presented when the server asks for one. Empty: none.
  std::string client_cert_pem;
  std::string client_key_pem;
};

/// Limits of one connection.
struct connection_options {
  std::chrono::milliseconds connect_timeout{5000};  // TCP connect plus TLS handshake; 0 = none
  std::chrono::milliseconds total_timeout{30000};   // whole exchange incl. connect; 0 = none
  std::uint64_t max_body_bytes = 16u << 20;         // response body cap
  std::uint32_t max_header_bytes = 64u << 10;       // response header cap
  tls_options tls;
};

/// A TLS client context shared by connections (opaque; see connection.cpp).
class tls_context;

/// Builds a TLS client context, or says why it cannot (bad CA file).
core::outcome<std::shared_ptr<tls_context>> make_tls_context(const tls_options& opts);

/// One keep-alive connection. When the server closed a kept-alive connection
/// while it was idle, the next send reconnects transparently. When the
/// connection breaks after the request was written and before any byte of the
/// response, an idempotent request is sent once more on a new connection; any
/// other request may have reached the server and gives a `closed` error.
class connection {
 public:
  /// A connection to `target` with its own TLS context (https only).
  explicit connection(url target, connection_options opts = {});
  /// A connection to `target` using a shared TLS context (may be null for http).
  connection(url target, connection_options opts, std::shared_ptr<tls_context> tls);
  ~connection();
  connection(connection&&) noexcept;
  connection& operator=(connection&&) noexcept;

  /// Sends `req` and reads the response; every failure is a transport_error value.
  result send(const request& req);
  /// The same, within `total_timeout` instead of the connection's (0: the connection's).
  result send(const request& req, std::chrono::milliseconds total_timeout);
  /// True while a kept-alive connection is open.
  bool is_open() const;
  /// Closes the connection (the next send reconnects).
  void close();
  /// How many TCP connections this object has opened so far.
  std::uint64_t connects() const;
  /// The target.
  const url& target() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace conform::http
