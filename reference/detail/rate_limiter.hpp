#pragma once
// Per-credential rate limits (D6.2, C12): a token bucket per limited identity.

#include <chrono>
#include <mutex>
#include <string>
#include <unordered_map>

namespace conform::reference::detail {

class rate_limiter {
 public:
  /// Limited identities may send `per_second` requests a second (burst the same).
  explicit rate_limiter(int per_second);
  /// Takes one token for `identity`; false when its bucket is empty.
  bool allow(const std::string& identity);

 private:
  struct bucket {
    double tokens = 0;
    std::chrono::steady_clock::time_point last;
  };
  double rate_;
  std::mutex mutex_;
  std::unordered_map<std::string, bucket> buckets_;
};

}  // namespace conform::reference::detail
