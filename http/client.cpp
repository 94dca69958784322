#include "http/client.hpp"

#include <algorithm>
#include <stdexcept>

#include "http/cooperative.hpp"
#include "http/retry_after.hpp"

namespace conform::http {

client::client(url base, client_options opts)
    : base_(std::move(base)), opts_(std::move(opts)), limiter_(opts_.rate_limit, opts_.rate_burst) {
  std::shared_ptr<tls_context> tls;
  if (base_.scheme == url_scheme::https) {
    // A failure leaves tls null: each connection then reports the setup error on send.
    if (auto made = make_tls_context(opts_.connection.tls); made.ok())
      tls = std::move(made).value();
  }
  const unsigned n = std::max(1u, opts_.workers);
  connections_.reserve(n);
  for (unsigned i = 0; i < n; ++i) {
    // A null context makes each connection report the TLS setup error on send.
    if (tls) {
      connections_.emplace_back(base_, opts_.connection, tls);
    } else {
      connections_.emplace_back(base_, opts_.connection);
    }
  }
  for (const auto& id : opts_.identities) {
    connection_options with = opts_.connection;
    with.tls.client_cert_pem = id.cert_pem;
    with.tls.client_key_pem = id.key_pem;
    std::shared_ptr<tls_context> own;
    if (base_.scheme == url_scheme::https) {
      if (auto made = make_tls_context(with.tls); made.ok()) own = std::move(made).value();
    }
    auto& pool = identity_connections_.emplace_back();
    pool.reserve(n);
    for (unsigned i = 0; i < n; ++i) {
      if (own) {
        pool.emplace_back(base_, with, own);
      } else {
        pool.emplace_back(base_, with);  // reports the TLS setup error on send
      }
    }
  }
}

connection* client::for_identity(unsigned worker, const std::string& identity) {
  if (identity.empty()) return &for_worker(worker);
  for (std::size_t i = 0; i < opts_.identities.size(); ++i) {
    if (opts_.identities[i].name != identity) continue;
    (void)for_worker(worker);  // the same range check
    return &identity_connections_[i][worker];
  }
  return nullptr;
}

connection& client::for_worker(unsigned worker) {
  if (worker >= connections_.size()) {
    throw std::out_of_range("worker " + std::to_string(worker) +
                            " out of range (workers: " + std::to_string(connections_.size()) + ")");
  }
  return connections_[worker];
}

namespace {

result no_identity(const std::string& name) {
  result r;
  r.outcome = core::fail(transport_error{transport_error::kind::tls,
                                         "no client certificate named '" + name + "' was given"});
  return r;
}

}  // namespace

result client::send_once(unsigned worker, const request& req) {
  connection* conn = for_identity(worker, req.client_identity);
  if (conn == nullptr) return no_identity(req.client_identity);
  limiter_.acquire();
  return conn->send(req);
}

result client::send(unsigned worker, const request& req) {
  return send(worker, req, std::chrono::milliseconds(0));
}

result client::send(unsigned worker, const request& req, std::chrono::milliseconds total_timeout) {
  connection* found = for_identity(worker, req.client_identity);
  if (found == nullptr) return no_identity(req.client_identity);
  connection& conn = *found;
  unsigned retries = 0;
  std::chrono::milliseconds waited{0};
  bool reconnected = false;
  for (;;) {
    limiter_.acquire();
    result r = conn.send(req, total_timeout);
    reconnected = reconnected || r.reconnected;
    const bool again = opts_.retry.retry_429 && r.ok() && r.value().status == 429 &&
                       retries < opts_.retry.max_retries;
    if (!again) {
      r.retries_429 = retries;
      r.waited_429 = waited;
      r.reconnected = reconnected;
      return r;
    }
    std::chrono::milliseconds wait = opts_.retry.default_wait;
    if (const std::string* value = r.value().find(field::retry_after)) {
      if (auto seconds = parse_retry_after(*value, std::chrono::system_clock::now())) {
        wait = std::chrono::duration_cast<std::chrono::milliseconds>(
            std::min<std::chrono::seconds>(*seconds, std::chrono::hours(24)));
      }
    }
    wait = std::min(wait, opts_.retry.max_wait);
    if (wait.count() > 0) {
      if (opts_.sleep) {
        opts_.sleep(wait);
      } else {
        pause(wait);  // a cooperative task lets the others run meanwhile
      }
    }
    waited += wait;
    ++retries;
  }
}

}  // namespace conform::http
