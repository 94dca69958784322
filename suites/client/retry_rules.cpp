// Client rules of section 7 (x-retry, x-rate-limit): no unchanged retry of
// a refusal, at least Retry-After after a 429, and retries of transient
// failures with a backoff that grows, is capped, and ends.
#include <algorithm>

#include "harness/results.hpp"
#include "suites/client/client.hpp"
#include "suites/client/support.hpp"

namespace conform::suites::client {

namespace {

using harness::traffic_violation;
using std::chrono::microseconds;
using std::chrono::milliseconds;

constexpr const char* blind_name = "client_no_blind_retry";
constexpr const char* retry_after_name = "client_retry_after";
constexpr const char* backoff_name = "client_retry_backoff";

bool listed(const std::vector<int>& v, unsigned status) {
  return std::find(v.begin(), v.end(), static_cast<int>(status)) != v.end();
}

void judge_blind(const traffic& t, harness::results_sink& sink) {
  const auto& never = t.spec->rules.retry.never_retry_unchanged;
  for (std::size_t i = 0; i < t.exchanges.size(); ++i) {
    const traffic_exchange& e = t.exchanges[i];
    if (!listed(never, e.status)) continue;
    const auto j = next_same(t, i);
    // Something written in between may have changed what the request meets
    // (contacts imported before a launch is tried again): not blind.
    bool changed = false;
    const std::size_t end = j ? *j : t.exchanges.size();
    for (std::size_t k = i + 1; k < end; ++k) {
      if (t.exchanges[k].request.method != http::verb::get) changed = true;
    }
    if (!j || changed) {
      harness::traffic_pass(sink, e, blind_name);
      continue;
    }
    traffic_violation v;
    v.evidence = {&e, &t.exchanges[*j]};
    v.expected = "a request refused with " + std::to_string(e.status) +
                 " is not sent again unchanged (section 7, retry rule 2: do not blindly retry "
                 "401, 403, most 404 and structural 422; x-retry never_retry_unchanged)";
    v.seen = "request #" + std::to_string(e.seq) + " got " + std::to_string(e.status) +
             " and the same request was sent again as #" + std::to_string(t.exchanges[*j].seq) +
             " with nothing changed in between";
    v.cause = "unchanged retry of " + std::to_string(e.status);
    harness::traffic_fail(sink, t, blind_name, v);
  }
}

/// Retry-After in whole seconds; nullopt when absent or not a number.
std::optional<long long> retry_after_seconds(const traffic& t, const traffic_exchange& e) {
  const std::string& name = t.spec->rules.retry_after_header;
  const std::string* v = e.response_header(name.empty() ? "Retry-After" : name);
  if (!v || v->empty() || v->size() > 6) return std::nullopt;
  if (!std::all_of(v->begin(), v->end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  return std::stoll(*v);
}

void judge_retry_after(const traffic& t, harness::results_sink& sink) {
  const int limited = t.spec->rules.rate_limited_status;
  for (std::size_t i = 0; i < t.exchanges.size(); ++i) {
    const traffic_exchange& e = t.exchanges[i];
    if (limited == 0 || static_cast<int>(e.status) != limited) continue;
    const auto wait = retry_after_seconds(t, e);
    if (!wait) continue;  // nothing said: no wait to keep
    const microseconds needed = std::chrono::seconds(*wait);
    // Limits are per credential (D6.2): the next request of that credential.
    const traffic_exchange* next = nullptr;
    for (std::size_t j = i + 1; j < t.exchanges.size() && !next; ++j) {
      if (same_credential(e, t.exchanges[j])) next = &t.exchanges[j];
    }
    if (!next || harness::gap(e, *next) >= needed) {
      harness::traffic_pass(sink, e, retry_after_name);
      continue;
    }
    traffic_violation v;
    v.evidence = {&e, next};
    v.expected = "after " + std::to_string(limited) +
                 " with Retry-After: " + std::to_string(*wait) +
                 ", the credential sends nothing for " + std::to_string(*wait) +
                 " s (section 7: back off; D6.1, D6.2)";
    v.seen = "request #" + std::to_string(next->seq) + " came " + seconds(harness::gap(e, *next)) +
             " after the 429 of #" + std::to_string(e.seq);
    v.cause = "Retry-After not kept";
    harness::traffic_fail(sink, t, retry_after_name, v);
  }
}

void judge_backoff(const traffic& t, harness::results_sink& sink) {
  const auto& policy = t.spec->rules.retry;
  const int limited = t.spec->rules.rate_limited_status;
  const microseconds min_wait = milliseconds(policy.min_backoff_ms);
  const microseconds cap = milliseconds(policy.max_backoff_ms);
  std::vector<bool> seen(t.exchanges.size(), false);
  for (std::size_t i = 0; i < t.exchanges.size(); ++i) {
    const traffic_exchange& first = t.exchanges[i];
    if (seen[i] || !retryable_failure(t, first) || static_cast<int>(first.status) == limited) {
      continue;
    }
    // The chain of attempts: each retry of a transient failure.
    std::vector<std::size_t> chain{i};
    while (true) {
      const traffic_exchange& last = t.exchanges[chain.back()];
      if (!retryable_failure(t, last) || static_cast<int>(last.status) == limited) break;
      const auto j = next_same(t, chain.back());
      if (!j) break;
      chain.push_back(*j);
      seen[*j] = true;
    }
    if (chain.size() < 2) continue;  // never retried
    std::vector<const traffic_exchange*> evidence;
    for (auto k : chain) evidence.push_back(&t.exchanges[k]);
    std::string problem, cause;
    microseconds previous{0};
    const std::size_t retries = chain.size() - 1;
    for (std::size_t k = 1; k < chain.size() && problem.empty(); ++k) {
      const microseconds g = harness::gap(t.exchanges[chain[k - 1]], t.exchanges[chain[k]]);
      const std::string at = "retry #" + std::to_string(t.exchanges[chain[k]].seq) + " came " +
                             seconds(g) + " after the failure of #" +
                             std::to_string(t.exchanges[chain[k - 1]].seq);
      if (g < min_wait) {
        problem = at + ", sooner than " + std::to_string(policy.min_backoff_ms) + " ms";
        cause = "no backoff";
      } else if (cap.count() > 0 && g > cap + std::chrono::seconds(1)) {
        problem = at + ", longer than the cap of " + std::to_string(policy.max_backoff_ms) + " ms";
        cause = "backoff not capped";
      } else if (k >= 2 && g <= previous && previous < cap) {
        problem = at + ", no longer than the wait before it (" + seconds(previous) + ")";
        cause = "backoff does not grow";
      }
      previous = g;
    }
    if (problem.empty() && policy.max_retries > 0 && retries > policy.max_retries) {
      problem = std::to_string(retries) + " retries of one request, more than " +
                std::to_string(policy.max_retries);
      cause = "retries not bounded";
    }
    if (problem.empty()) {
      harness::traffic_pass(sink, t.exchanges[chain.back()], backoff_name);
      continue;
    }
    traffic_violation v;
    v.evidence = std::move(evidence);
    v.expected = "retries of a transient failure (no answer, or " +
                 [&] {
                   std::string s;
                   for (int st : policy.retryable_statuses) {
                     if (st != limited) s += (s.empty() ? "" : "/") + std::to_string(st);
                   }
                   return s;
                 }() +
                 ") wait at least " + std::to_string(policy.min_backoff_ms) +
                 " ms, each wait longer than the last until the cap of " +
                 std::to_string(policy.max_backoff_ms) + " ms, at most " +
                 std::to_string(policy.max_retries) + " retries (section 7; x-retry)";
    v.seen = problem;
    v.cause = cause;
    harness::traffic_fail(sink, t, backoff_name, v);
  }
}

}  // namespace

void add_retry_rules(harness::check_catalogue& catalogue) {
  catalogue.add(harness::traffic_check{
      {blind_name,
       "a request refused with a status of x-retry never_retry_unchanged (401, 403, 404, 422) "
       "is not sent again unchanged",
       "section 7, retry rule 2"},
      harness::rule_level::extended,
      "answer of 401, 403, 404 or 422",
      judge_blind});
  catalogue.add(harness::traffic_check{
      {retry_after_name,
       "after 429, the credential's next request waits at least Retry-After seconds",
       "section 7 (429: back off); D6.1; D6.2"},
      harness::rule_level::core,
      "429 answer with Retry-After",
      judge_retry_after});
  catalogue.add(harness::traffic_check{
      {backoff_name,
       "retries of network failures and retryable 5xx wait at least x-retry min_backoff_ms, "
       "grow, stay under max_backoff_ms, and stop after max_retries",
       "section 7, retry rules 1 and 3; x-retry"},
      harness::rule_level::core,
      "retry after a network failure or a retryable 5xx",
      judge_backoff});
}

}  // namespace conform::suites::client
