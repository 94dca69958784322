// Client rules of section 7 (x-retry, x-rate-limit): no unchanged retry of
// a refusal; at least Retry-After after a 429; retries of transient failures
// with a backoff that keeps its floor, grows and is capped; and a bound on
// the retries of one request. Each owns the adversity that exercises it:
// rate_limited, server_error (and slow), outage.
#include <algorithm>
#include <cstdio>

#include "harness/results.hpp"
#include "suites/client/client.hpp"
#include "suites/client/support.hpp"

namespace conform::suites::client {

namespace {

using harness::traffic_judgement;
using harness::traffic_violation;
using std::chrono::microseconds;
using std::chrono::milliseconds;

constexpr std::string_view blind_check = "client_no_blind_retry";
constexpr std::string_view retry_after_check = "client_retry_after";
constexpr std::string_view backoff_check = "client_retry_backoff";
constexpr std::string_view bound_check = "client_retry_bound";

std::string margin_text() {
  char margin[16];
  std::snprintf(margin, sizeof margin, "%.1f", growth_margin);
  return margin;
}

bool listed(const std::vector<int>& v, unsigned status) {
  return std::find(v.begin(), v.end(), static_cast<int>(status)) != v.end();
}

/// The next request after `i` of the credential of `t.exchanges[i]`, or nullptr.
const traffic_exchange* next_of_credential(const traffic& t, std::size_t i) {
  for (std::size_t j = i + 1; j < t.exchanges.size(); ++j) {
    if (same_credential(t.exchanges[i], t.exchanges[j])) return &t.exchanges[j];
  }
  return nullptr;
}

void judge_blind(const traffic& t, traffic_judgement& j) {
  const auto& never = t.spec->rules.retry.never_retry_unchanged;
  for (std::size_t i = 0; i < t.exchanges.size(); ++i) {
    const traffic_exchange& e = t.exchanges[i];
    if (!listed(never, e.status)) continue;
    const auto again = next_same(t, i);
    // Something written in between may have changed what the request meets
    // (contacts imported before a launch is tried again): not blind.
    bool changed = false;
    const std::size_t end = again ? *again : t.exchanges.size();
    for (std::size_t k = i + 1; k < end; ++k) {
      if (t.exchanges[k].request.method != http::verb::get) changed = true;
    }
    if (!again) {
      if (next_of_credential(t, i)) {
        j.held(e);
      } else {
        j.not_exercised(e, "request #" + std::to_string(e.seq) + " got " +
                               std::to_string(e.status) +
                               " and the client sent nothing more with that credential");
      }
      continue;
    }
    if (changed) {
      j.held(e);
      continue;
    }
    traffic_violation v;
    v.evidence = {&e, &t.exchanges[*again]};
    v.expected = "a request refused with " + std::to_string(e.status) +
                 " is not sent again unchanged (section 7, retry rule 2: do not blindly retry "
                 "401, 403, most 404 and structural 422; x-retry never_retry_unchanged)";
    v.seen = "request #" + std::to_string(e.seq) + " got " + std::to_string(e.status) +
             " and the same request was sent again as #" + std::to_string(t.exchanges[*again].seq) +
             " with nothing changed in between";
    v.cause = "unchanged retry of " + std::to_string(e.status);
    j.broken(v);
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

void judge_retry_after(const traffic& t, traffic_judgement& j) {
  const int limited = t.spec->rules.rate_limited_status;
  for (std::size_t i = 0; i < t.exchanges.size(); ++i) {
    const traffic_exchange& e = t.exchanges[i];
    if (limited == 0 || static_cast<int>(e.status) != limited) continue;
    const bool scripted = e.adversity == "rate_limited";
    const auto wait = retry_after_seconds(t, e);
    if (!wait) {
      j.not_exercised(e, "the " + std::to_string(limited) + " of #" + std::to_string(e.seq) +
                             " carried no Retry-After to keep");
      continue;
    }
    const microseconds needed = std::chrono::seconds(*wait);
    traffic_violation v;
    v.expected = "after " + std::to_string(limited) +
                 " with Retry-After: " + std::to_string(*wait) +
                 ", the credential sends nothing for " + std::to_string(*wait) +
                 " s, then retries (" + cited(t, retry_after_check, "x-rate-limit") +
                 "; kept within a slack of " + seconds(slack(needed)) + ")";
    // Limits are per credential: the next request of that credential.
    const traffic_exchange* next = next_of_credential(t, i);
    const auto retry = next_same(t, i);
    if (!next || (scripted && !retry)) {
      if (!scripted) {
        j.not_exercised(e, "the credential sent nothing after the " + std::to_string(limited) +
                               " of #" + std::to_string(e.seq));
        continue;
      }
      v.evidence = {&e};
      if (next) v.evidence.push_back(next);
      v.seen = "request #" + std::to_string(e.seq) + " got " + std::to_string(limited) +
               " and was never sent again" +
               (next ? " (the client went on with other requests)" : "");
      v.cause = "429 never retried";
      j.broken(v);
      j.adversity(e, false, "never retried");
      continue;
    }
    const microseconds g = harness::gap(e, *next);
    if (g + slack(needed) < needed) {
      v.evidence = {&e, next};
      v.seen = "request #" + std::to_string(next->seq) + " came " + seconds(g) + " after the " +
               std::to_string(limited) + " of #" + std::to_string(e.seq);
      v.cause = "Retry-After not kept";
      j.broken(v);
      if (scripted) j.adversity(e, false, "the next request came " + seconds(g) + " after it");
      continue;
    }
    j.held(e);
    if (scripted) {
      const traffic_exchange& r = t.exchanges[*retry];
      j.adversity(e, true, "retried " + seconds(harness::gap(e, r)) + " later; " + outcome_of(r));
    }
  }
}

std::string backoff_expected(const traffic& t) {
  const auto& policy = t.spec->rules.retry;
  const int limited = t.spec->rules.rate_limited_status;
  std::string statuses;
  for (int st : policy.retryable_statuses) {
    if (st != limited) statuses += (statuses.empty() ? "" : "/") + std::to_string(st);
  }
  return "retries of a transient failure (no answer, or " + statuses + ") wait at least " +
         std::to_string(policy.min_backoff_ms) + " ms, longer as they go (over " +
         std::to_string(growth_min_waits) + " waits or more, the later ones up to " +
         margin_text() + " times the earlier ones) until the cap of " +
         std::to_string(policy.max_backoff_ms) + " ms (section 7; x-retry)";
}

/// What is wrong with the waits of `chain`, and its cause; "" when nothing.
std::pair<std::string, std::string> backoff_problem(const traffic& t,
                                                    const std::vector<std::size_t>& chain) {
  const auto& policy = t.spec->rules.retry;
  const microseconds min_wait = milliseconds(policy.min_backoff_ms);
  const microseconds cap = milliseconds(policy.max_backoff_ms);
  std::vector<microseconds> waits;
  for (std::size_t k = 1; k < chain.size(); ++k) {
    const auto& before = t.exchanges[chain[k - 1]];
    const auto& retry = t.exchanges[chain[k]];
    const microseconds g = harness::gap(before, retry);
    waits.push_back(g);
    const std::string at = "retry #" + std::to_string(retry.seq) + " came " + seconds(g) +
                           " after the failure of #" + std::to_string(before.seq);
    if (g + slack(min_wait) < min_wait) {
      return {at + ", sooner than " + std::to_string(policy.min_backoff_ms) + " ms", "no backoff"};
    }
    if (cap.count() > 0 && g > cap + std::chrono::seconds(1)) {
      return {at + ", longer than the cap of " + std::to_string(policy.max_backoff_ms) + " ms",
              "backoff not capped"};
    }
  }
  if (waits.size() >= growth_min_waits) {
    // Growth is any later wait at least the margin times an earlier one.
    // Noise only lengthens a measured wait, and a busy machine may lengthen
    // several in a row (a correct client measured 0.869 s, 0.596 s, then
    // 0.336 s, 0.424 s, 0.588 s): comparing fixed halves would take those
    // early delays for a backoff that does not grow.
    const std::size_t half = waits.size() / 2;
    const auto shortest_early =
        std::min_element(waits.begin(), waits.begin() + static_cast<std::ptrdiff_t>(half));
    const bool capped =
        cap.count() > 0 && static_cast<double>(shortest_early->count()) * growth_margin >=
                               static_cast<double>(cap.count());
    bool grew = false;
    microseconds shortest_so_far = waits.front();
    for (std::size_t k = 1; k < waits.size() && !grew; ++k) {
      grew = static_cast<double>(waits[k].count()) >=
             static_cast<double>(shortest_so_far.count()) * growth_margin;
      shortest_so_far = std::min(shortest_so_far, waits[k]);
    }
    if (!capped && !grew) {
      std::string all;
      for (const auto& w : waits) all += (all.empty() ? "" : ", ") + seconds(w);
      return {"the " + std::to_string(waits.size()) + " waits of this chain (" + all +
                  ") did not grow: no wait is " + margin_text() + " times an earlier one",
              "backoff does not grow"};
    }
  }
  return {"", ""};
}

void judge_backoff(const traffic& t, traffic_judgement& j) {
  for (const auto& chain : failure_chains(t)) {
    const traffic_exchange& first = t.exchanges[chain.front()];
    const traffic_exchange& last = t.exchanges[chain.back()];
    const bool scripted = first.adversity == "server_error";
    std::vector<const traffic_exchange*> evidence;
    for (auto k : chain) evidence.push_back(&t.exchanges[k]);
    if (chain.size() < 2) {
      if (scripted) {
        traffic_violation v;
        v.evidence = evidence;
        v.expected = backoff_expected(t);
        v.seen = "request #" + std::to_string(first.seq) + " got " + std::to_string(first.status) +
                 ", a transient failure of a read, and was " + "never retried";
        v.cause = "5xx not retried";
        j.broken(v);
        j.adversity(first, false, "never retried");
      } else if (first.adversity.empty()) {
        j.not_exercised(
            first, "request #" + std::to_string(first.seq) + " got " +
                       (first.status ? std::to_string(first.status) : std::string("no answer")) +
                       " and was not retried");
      }
      continue;
    }
    const auto [problem, cause] = backoff_problem(t, chain);
    if (problem.empty()) {
      j.held(last);
    } else {
      traffic_violation v;
      v.evidence = evidence;
      v.expected = backoff_expected(t);
      v.seen = problem;
      v.cause = cause;
      j.broken(v);
    }
    if (scripted) {
      const bool answered = !retryable_failure(t, last);
      std::string outcome = "retried " + std::to_string(chain.size() - 1) + " times; ";
      outcome += answered ? outcome_of(last) : "gave up without an answer";
      if (!problem.empty()) outcome += "; " + cause;
      j.adversity(first, answered && problem.empty(), outcome);
    }
  }
  // A slow answer is waited for: the client that closes the connection
  // first has made itself a network failure.
  for (std::size_t i = 0; i < t.exchanges.size(); ++i) {
    const traffic_exchange& e = t.exchanges[i];
    if (e.adversity != "slow") continue;
    if (e.status != 0) {
      j.held(e);
      j.adversity(e, true,
                  "answered " + std::to_string(e.status) + " after " +
                      seconds(e.answered - e.sent) + "; the client waited for it");
      continue;
    }
    traffic_violation v;
    v.evidence = {&e};
    if (const auto again = next_same(t, i)) v.evidence.push_back(&t.exchanges[*again]);
    v.expected =
        "a client waits for a slow answer (a few seconds) rather than closing the "
        "connection and sending the request again";
    v.seen = "the client closed the connection of #" + std::to_string(e.seq) + " " +
             seconds(e.answered - e.sent) + " after sending it, before the answer";
    v.cause = "slow answer abandoned";
    j.broken(v);
    j.adversity(e, false, "the client closed the connection before the answer");
  }
}

void judge_bound(const traffic& t, traffic_judgement& j) {
  const auto max = t.spec->rules.retry.max_retries;
  if (max == 0) {
    for (const auto& chain : failure_chains(t)) {
      j.not_exercised(t.exchanges[chain.front()],
                      "the description sets no bound on retries (x-retry max_retries)");
    }
    return;
  }
  for (const auto& chain : failure_chains(t)) {
    const traffic_exchange& first = t.exchanges[chain.front()];
    const traffic_exchange& last = t.exchanges[chain.back()];
    const bool outage = first.adversity == "outage";
    const std::size_t retries = chain.size() - 1;
    const bool gave_up = retryable_failure(t, last);
    std::vector<const traffic_exchange*> evidence;
    for (auto k : chain) evidence.push_back(&t.exchanges[k]);
    if (evidence.size() > 6) evidence.erase(evidence.begin() + 1, evidence.end() - 4);
    traffic_violation v;
    v.evidence = evidence;
    v.expected = "a client retries one request at most " + std::to_string(max) +
                 " times (x-retry max_retries), then gives up and reports it (section 7: "
                 "escalate a persistent failure)";
    if (retries > max) {
      v.seen = "request #" + std::to_string(first.seq) + " was sent " +
               std::to_string(chain.size()) + " times: " + std::to_string(retries) +
               " retries, more than " + std::to_string(max);
      v.cause = "retries not bounded";
      j.broken(v);
      if (outage) {
        j.adversity(first, false,
                    "retried " + std::to_string(retries) + " times, more than " +
                        std::to_string(max) + (gave_up ? "" : "; " + outcome_of(last)));
      }
      continue;
    }
    if (outage && retries == 0) {
      v.seen = "request #" + std::to_string(first.seq) + " got " + std::to_string(first.status) +
               ", a transient failure, and was never retried";
      v.cause = "outage not retried";
      j.broken(v);
      j.adversity(first, false, "never retried");
      continue;
    }
    if (outage) {
      j.held(last);
      j.adversity(first, true,
                  "retried " + std::to_string(retries) + " times, then gave up (at most " +
                      std::to_string(max) + ")");
    } else if (gave_up && retries == max) {
      j.held(last);
    }
  }
}

}  // namespace

void add_retry_rules(harness::check_catalogue& catalogue) {
  catalogue.add(harness::traffic_check{
      {std::string(blind_check),
       "a request refused with a status of x-retry never_retry_unchanged (401, 403, 404, 422) "
       "is not sent again unchanged",
       "x-retry never_retry_unchanged"},
      harness::rule_level::extended,
      "answer of 401, 403, 404 or 422",
      judge_blind});
  catalogue.add(harness::traffic_check{
      {std::string(retry_after_check),
       "after 429, the credential's next request waits at least Retry-After seconds, and the "
       "request is retried",
       "x-rate-limit; Retry-After (RFC 9110)"},
      harness::rule_level::core,
      "429 answer with Retry-After",
      judge_retry_after,
      {"rate_limited"}});
  catalogue.add(harness::traffic_check{
      {std::string(backoff_check),
       "retries of network failures and retryable 5xx wait at least x-retry min_backoff_ms, "
       "grow, and stay under max_backoff_ms; a slow answer is waited for",
       "x-retry"},
      harness::rule_level::core,
      "retry after a network failure or a retryable 5xx",
      judge_backoff,
      {"server_error", "slow"}});
  catalogue.add(harness::traffic_check{
      {std::string(bound_check),
       "one request is retried at most x-retry max_retries times, then given up",
       "x-retry max_retries"},
      harness::rule_level::core,
      "failure that lasted until the client gave up (an outage)",
      judge_bound,
      {"outage"}});
}

}  // namespace conform::suites::client
