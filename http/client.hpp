#pragma once
// The client the engine uses: one keep-alive connection per worker thread,
// a rate limit shared by all workers, and 429 handling (wait as Retry-After
// says, capped, then retry a bounded number of times).
//
// Redirects are never followed: a 3xx is returned as is, so credentials are
// never sent to a host the caller did not name.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "http/connection.hpp"
#include "http/message.hpp"
#include "http/rate_limiter.hpp"
#include "http/url.hpp"

namespace conform::http {

/// What the client does on 429.
struct retry_options {
  bool retry_429 = true;                         // false: return the first 429 as is
  unsigned max_retries = 3;                      // the last 429 is returned as is
  std::chrono::milliseconds max_wait{5000};      // cap on one Retry-After wait
  std::chrono::milliseconds default_wait{1000};  // when 429 has no usable Retry-After
};

/// A client certificate requests may present (mutual TLS), by name.
struct client_identity {
  std::string name;      // what request::client_identity says
  std::string cert_pem;  // the certificate (chain), PEM
  std::string key_pem;   // its private key, PEM; a secret: never printed
};

/// Everything the CLI's --timeout, --workers and --rate-limit feed.
struct client_options {
  unsigned workers = 1;           // connections, one per worker (at least 1)
  double rate_limit = 0;          // requests per second toward the target; 0 = unlimited
  std::uint32_t rate_burst = 1;   // requests allowed at once under the limit
  connection_options connection;  // timeouts, caps, TLS
  retry_options retry;
  /// How the client waits (Retry-After); injectable for tests. Default: http::pause.
  std::function<void(std::chrono::milliseconds)> sleep;
  /// Client certificates: a request naming one goes out on connections of
  /// their own that present it (one per worker, made when first used).
  std::vector<client_identity> identities;
};

/// N connections for N workers, sharing one rate limiter and one TLS context.
class client {
 public:
  /// A client for `base` (its path prefixes every request target).
  client(url base, client_options opts = {});

  /// Sends `req` on worker `worker`'s connection (worker < workers()), after
  /// the rate limit allows it; handles 429 as retry_options say.
  result send(unsigned worker, const request& req);
  /// The same, each attempt within `total_timeout` instead of the
  /// connection's (0: the connection's): a send with a time budget of its own.
  result send(unsigned worker, const request& req, std::chrono::milliseconds total_timeout);
  /// Sends `req` once on `worker`'s connection, 429 returned as is.
  result send_once(unsigned worker, const request& req);
  /// Worker `worker`'s connection (for stats, or to close it).
  connection& for_worker(unsigned worker);
  /// Worker `worker`'s connection for requests presenting client certificate
  /// `identity` ("" = none); nullptr when no identity has that name.
  connection* for_identity(unsigned worker, const std::string& identity);
  /// Number of workers (connections).
  unsigned workers() const { return static_cast<unsigned>(connections_.size()); }
  /// The shared limiter.
  rate_limiter& limiter() { return limiter_; }
  /// The base URL.
  const url& base() const { return base_; }
  /// The options in force.
  const client_options& options() const { return opts_; }

 private:
  url base_;
  client_options opts_;
  rate_limiter limiter_;
  std::vector<connection> connections_;
  /// Per identity (in the order of client_options::identities), a
  /// connection per worker.
  std::vector<std::vector<connection>> identity_connections_;
};

}  // namespace conform::http
