#pragma once
// The certification server's two additions to the reference server: it
// records every request a client sends as it came off the wire (every
// header as sent, every body byte) and what it got back, and it scripts
// adversity, the trouble a real service gives its clients now and then: a
// 429 with Retry-After, a 5xx that a retry gets past, a connection closed
// after a credit move was processed and before any byte of its answer, an
// outage longer than a client may retry, slow answers.
//
// Each adversity meets the first eligible fresh request of its class (a
// fresh request: one whose method, target, tenant and body the client has
// not sent before): the first keyed write, the first list read, the first
// page after a first page, the first record read. The seed decides which
// adversity goes to which class and which 5xx comes first, never a request
// number, so every client that does the work meets all of it; what a client
// never gave a chance is reported as not met (docs/certification.md).
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
  server_error,        // 500 or 503 INTERNAL_ERROR, not processed; a later attempt is answered
  connection_dropped,  // processed, then the connection closed before any byte of the answer
  outage,              // 503 on more attempts than x-retry allows, not processed
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
  /// Attempts of one request an outage fails: more than a client may make
  /// (x-retry max_retries + 1); the attempt after them is answered.
  int outage_attempts = 7;
  /// The kinds this run scripts (one pass of the plan: docs/certification.md,
  /// "The plan"); empty: every kind.
  std::vector<adversity_kind> kinds;
  /// The partner's scope: adversity meets only requests of these operations
  /// (operationIds) and of these request classes (request_class_name);
  /// empty: any.
  std::vector<std::string> operations;
  std::vector<std::string> classes;
};

/// The request classes adversity meets, by name: "keyed_write",
/// "list_read", "later_page", "record_read".
std::vector<std::string> request_class_names();

/// One planned adversity: the class of request it meets and whether it met one.
struct planned_adversity {
  adversity_kind kind = adversity_kind::none;
  std::string where;         // "the first keyed write (a POST with an Idempotency-Key)"
  std::string what;          // "429 RATE_LIMITED with Retry-After: 1"
  std::uint64_t met_at = 0;  // the seq of the request it met; 0: never met
};

/// One request as the server received it, and what it did with it.
struct recorded_exchange {
  std::uint64_t seq = 0;                  // 1-based, in arrival order
  std::chrono::microseconds received{0};  // since the recording started
  std::chrono::microseconds answered{0};  // the answer handed to the socket (or the close)
  std::string method;
  std::string target;  // as sent: path (with the base path) and query, percent-encoded
  /// As sent, in order: a repeated header repeated, an empty one kept.
  std::vector<std::pair<std::string, std::string>> request_headers;
  std::string request_body;  // every byte as sent (a chunked body decoded)
  int status = 0;            // what the client got; 0 when the connection was closed instead
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
  /// The adversity plan, each with the request it met (if any).
  std::vector<planned_adversity> planned() const;
  /// The plan, one line per adversity, for the report.
  std::vector<std::string> plan() const;
  /// The classes of the requests recorded so far that fall in the scope's
  /// operations (request_class_names), each once, in the order first seen.
  std::vector<std::string> classes_seen() const;
  const adversity_options& options() const;

  struct impl;
  impl& internals() { return *impl_; }

 private:
  std::unique_ptr<impl> impl_;
};

/// One line of the plan: "rate_limited on the first list read: 429 ... (met at #3)".
std::string describe(const planned_adversity& p);

}  // namespace conform::reference
