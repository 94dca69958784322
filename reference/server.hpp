#pragma once
// The reference server: a complete, faithful implementation of the Voice AI
// calling API (specs/voice-api.yaml, decisions D1-D6, docs/api-choices.md C1-C16)
// on cpp-httplib. Start it in-process with `server` (binds a free loopback port,
// serves from a thread, stops in its destructor) or standalone with
// `conform serve` (cli/serve_command.cpp). See docs/reference-server.md.

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "reference/faults.hpp"

namespace conform::reference {

class traffic_recorder;  // reference/certification.hpp

/// How a reference server is set up.
struct server_config {
  /// "sandbox" (keys tk_test_/pk_test_) or "production" (tk_live_/pk_live_).
  std::string environment = "sandbox";
  /// Multiplies the seeded campaigns and voice sessions (1 = the documented set).
  int scale = 1;
  /// Names of deliberate deviations to switch on (known_faults()).
  std::set<std::string> faults;
  /// HS256 secret for user-session JWTs; empty = derived from `seed`.
  std::string jwt_secret;
  /// Seed of every derived secret (keys, cursor MAC key, JWT secret when empty).
  std::uint64_t seed = 20261120;
  /// Loopback port to bind; 0 = any free port.
  int port = 0;
  /// Worker threads serving requests.
  int threads = 16;
  /// Requests per second the rate-limited credential may send (C12).
  int rate_limit_per_second = 5;
  /// Set: a certification server, which records every exchange and scripts
  /// adversity (reference/certification.hpp). Null: the plain reference.
  std::shared_ptr<traffic_recorder> recorder;
};

/// A running reference server; stops cleanly when destroyed.
class server {
 public:
  /// Seeds the data, binds 127.0.0.1:<config.port> and serves from a thread;
  /// returns once the server accepts requests. Throws std::invalid_argument on a
  /// bad config (unknown fault, environment, scale) and std::runtime_error when
  /// the port cannot be bound.
  explicit server(server_config config);
  /// Stops serving and joins the serving thread.
  ~server();
  server(const server&) = delete;
  server& operator=(const server&) = delete;

  /// The bound port.
  int port() const;
  /// "http://127.0.0.1:PORT/api/v1".
  std::string base_url() const;
  /// The target profile (/work/shared/user-contract.md format) reaching this
  /// server, secrets inline as `value`.
  std::string profile_yaml() const;
  /// The secret of the credential named `name` in the profile; throws
  /// std::out_of_range when there is none.
  std::string credential(const std::string& name) const;
  /// The fixture `name` of tenant `tenant` ("t1", "t2", "t3") in the profile;
  /// throws std::out_of_range when there is none.
  std::string fixture(const std::string& tenant, const std::string& name) const;
  /// Stops serving (idempotent); the destructor calls it.
  void stop();

  struct impl;

 private:
  std::unique_ptr<impl> impl_;
};

}  // namespace conform::reference
