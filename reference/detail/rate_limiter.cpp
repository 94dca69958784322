#include "reference/detail/rate_limiter.hpp"

#include <algorithm>

namespace conform::reference::detail {

rate_limiter::rate_limiter(int per_second) : rate_(std::max(1, per_second)) {}

bool rate_limiter::allow(const std::string& identity) {
  auto now = std::chrono::steady_clock::now();
  std::lock_guard lock(mutex_);
  auto [it, inserted] = buckets_.try_emplace(identity, bucket{rate_, now});
  bucket& b = it->second;
  if (!inserted) {
    double elapsed = std::chrono::duration<double>(now - b.last).count();
    b.tokens = std::min(rate_, b.tokens + elapsed * rate_);
    b.last = now;
  }
  if (b.tokens < 1.0) return false;
  b.tokens -= 1.0;
  return true;
}

}  // namespace conform::reference::detail
