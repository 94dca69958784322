#include "suites/client/support.hpp"

#include <algorithm>
#include <cstdio>

namespace conform::suites::client {

std::chrono::microseconds slack(std::chrono::microseconds required) {
  return std::max<std::chrono::microseconds>(std::chrono::milliseconds(5), required / 20);
}

std::string seconds(std::chrono::microseconds d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f s", static_cast<double>(d.count()) / 1e6);
  return buf;
}

bool retryable_failure(const traffic& t, const traffic_exchange& e) {
  const auto& policy = t.spec->rules.retry;
  if (e.status == 0) return policy.network_failures;
  return std::find(policy.retryable_statuses.begin(), policy.retryable_statuses.end(),
                   static_cast<int>(e.status)) != policy.retryable_statuses.end();
}

bool rate_limited(const traffic& t, const traffic_exchange& e) {
  return t.spec->rules.rate_limited_status != 0 &&
         static_cast<int>(e.status) == t.spec->rules.rate_limited_status;
}

bool outcome_unknown(const traffic& t, const traffic_exchange& e) {
  if (e.status == 0 || e.status >= 500) return true;
  if (rate_limited(t, e)) return true;
  return e.op && e.op->idempotent &&
         static_cast<int>(e.status) == e.op->idempotent->conflict_status;
}

bool same_credential(const traffic_exchange& a, const traffic_exchange& b) {
  return a.credential_kind == b.credential_kind && a.credential == b.credential &&
         a.credential_prefix == b.credential_prefix;
}

std::optional<std::size_t> next_same(const traffic& t, std::size_t i) {
  const traffic_exchange& e = t.exchanges[i];
  for (std::size_t j = i + 1; j < t.exchanges.size(); ++j) {
    if (harness::same_request(e, t.exchanges[j]) && same_credential(e, t.exchanges[j])) return j;
  }
  return std::nullopt;
}

std::string header_or_empty(const traffic_exchange& e, std::string_view name) {
  const std::string* v = e.request.find_header(name);
  return v ? *v : std::string();
}

std::vector<std::vector<std::size_t>> failure_chains(const traffic& t) {
  std::vector<std::vector<std::size_t>> out;
  std::vector<bool> taken(t.exchanges.size(), false);
  auto failing = [&](const traffic_exchange& e) {
    return retryable_failure(t, e) && !rate_limited(t, e);
  };
  for (std::size_t i = 0; i < t.exchanges.size(); ++i) {
    if (taken[i] || !failing(t.exchanges[i])) continue;
    std::vector<std::size_t> chain{i};
    while (failing(t.exchanges[chain.back()])) {
      const auto j = next_same(t, chain.back());
      if (!j) break;
      chain.push_back(*j);
      taken[*j] = true;
    }
    out.push_back(std::move(chain));
  }
  return out;
}

std::string outcome_of(const traffic_exchange& e) {
  if (e.status == 0) return "no answer at #" + std::to_string(e.seq);
  return "answered " + std::to_string(e.status) + " at #" + std::to_string(e.seq);
}

std::string cited(const traffic& t, std::string_view check, std::string_view generic) {
  const auto* c = t.spec ? t.spec->rules.citation_of(check) : nullptr;
  if (!c) return std::string(generic);
  return c->expected.empty() ? c->rule : c->expected;
}

}  // namespace conform::suites::client
