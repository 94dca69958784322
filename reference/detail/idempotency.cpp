#include "reference/detail/idempotency.hpp"

namespace conform::reference::detail {

namespace {
constexpr std::int64_t retention_seconds = 24 * 3600;
}

idempotency_store::begin_result idempotency_store::begin(const std::string& scoped_key,
                                                         const std::string& fingerprint,
                                                         std::int64_t now) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(scoped_key);
  if (it != entries_.end() && it->second.created + retention_seconds < now) {
    entries_.erase(it);
    it = entries_.end();
  }
  if (it == entries_.end()) {
    entries_.emplace(scoped_key, entry{fingerprint, false, {}, now});
    return {idempotency_outcome::proceed, {}};
  }
  if (it->second.fingerprint != fingerprint) return {idempotency_outcome::mismatch, {}};
  if (!it->second.done) return {idempotency_outcome::conflict, {}};
  return {idempotency_outcome::replay, it->second.response};
}

void idempotency_store::complete(const std::string& scoped_key, const stored_response& response) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(scoped_key);
  if (it == entries_.end()) return;
  if (response.status >= 500) {
    entries_.erase(it);
    return;
  }
  it->second.done = true;
  it->second.response = response;
}

}  // namespace conform::reference::detail
