#pragma once
// The idempotency store of D4: keys scoped to a credential, kept 24 hours,
// remembering the first answer (status, body, X-Request-Id) for replay.

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

namespace conform::reference::detail {

/// A stored first answer, replayed byte for byte.
struct stored_response {
  int status = 0;
  std::string body;
  std::string request_id;
};

/// What to do with a request that carries an Idempotency-Key.
enum class idempotency_outcome : std::uint8_t {
  proceed,   // first use: run it, then complete() or abandon()
  replay,    // same request answered before: send `response`
  conflict,  // the first is still in flight: 409
  mismatch,  // the key was used for another request: 422
};

class idempotency_store {
 public:
  struct begin_result {
    idempotency_outcome outcome = idempotency_outcome::proceed;
    stored_response response;
  };
  /// Looks up (scope, key); on first use reserves it as in flight.
  begin_result begin(const std::string& scoped_key, const std::string& fingerprint,
                     std::int64_t now);
  /// Stores the answer of a reserved key (status < 500), or frees it (>= 500).
  void complete(const std::string& scoped_key, const stored_response& response);

 private:
  struct entry {
    std::string fingerprint;
    bool done = false;
    stored_response response;
    std::int64_t created = 0;
  };
  std::mutex mutex_;
  std::unordered_map<std::string, entry> entries_;
};

}  // namespace conform::reference::detail
