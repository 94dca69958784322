#pragma once
// The certification server's two additions to the reference server: it
// records every request a client sends (and what it got back), and it
// scripts adversity, the trouble a real service gives its clients now and
// then: 429 with Retry-After, 500/503, a connection closed after a credit
// move was processed but before its answer was written, slow answers.
//
// Adversity is a pure function of the seed and of the request sequence: the
// n-th fresh request of a kind (a request whose method, target, tenant and
// body the client has not sent before) meets it, n drawn from the seed. It
// only ever hits a request's first attempts, so a client that retries as the
// description says always gets through (docs/certification.md).
//
// Plain values only: cli/certify_command.cpp turns the recording into the
// harness's traffic (reference/ stands on core/ alone).

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace conform::reference {

/// What the server did instead of (or besides) answering normally.
enum class adversity_kind : std::uint8_t {
  none,
  rate_limited,        // 429 RATE_LIMITED with Retry-After, not processed
  server_error,        // 500 or 503 INTERNAL_ERROR, not processed
  connection_dropped,  // processed, then the connection closed before the answer's body
  slow,                // answered normally, late
};

/// "rate_limited", "server_error", ...
const char* to_string(adversity_kind k);

/// How much adversity, and which, from which seed.
struct adversity_options {
  bool enabled = true;
  std::uint64_t seed = 0;
  int retry_after_seconds = 1;  // Retry-After of the scripted 429
  std::chrono::milliseconds slow{std::chrono::milliseconds(350)};  // delay of a slow answer
};

/// One request as the server received it, and what it did with it.
struct recorded_exchange {
  std::uint64_t seq = 0;                  // 1-based, in arrival order
  std::chrono::microseconds received{0};  // since the recording started
  std::chrono::microseconds answered{0};  // the answer handed to the socket (or the close)
  std::string method;
  std::string target;  // as sent: path (with the base path) and query, percent-encoded
  std::vector<std::pair<std::string, std::string>> request_headers;
  std::string request_body;
  int status = 0;  // what the client was sent; 0 when the connection was closed instead
  std::vector<std::pair<std::string, std::string>> response_headers;
  std::string response_body;
  adversity_kind adversity = adversity_kind::none;
  std::string adversity_detail;  // one line: what was done, e.g. "503, attempt 1 of 2"
  int processed_status = 0;      // connection_dropped: the status the server had decided
};

/// Records traffic and decides adversity; shared by the server's threads.
class traffic_recorder {
 public:
  explicit traffic_recorder(adversity_options options);
  ~traffic_recorder();
  traffic_recorder(const traffic_recorder&) = delete;
  traffic_recorder& operator=(const traffic_recorder&) = delete;

  /// Every exchange so far, in arrival order.
  std::vector<recorded_exchange> snapshot() const;
  /// The adversity plan, one line per kind (what meets which request), for the report.
  std::vector<std::string> plan() const;
  const adversity_options& options() const;

  struct impl;
  impl& internals() { return *impl_; }

 private:
  std::unique_ptr<impl> impl_;
};

}  // namespace conform::reference
