// Client rules of x-idempotency (what grounds them in the API's prose and
// decisions: x-rule-citations): an Idempotency-Key where the
// description requires one, one key per business intent, the same key on
// every retry of an intent, never a key across two intents. The last one
// owns the connection_dropped adversity: a keyed write whose answer was lost.
#include <map>

#include "harness/results.hpp"
#include "suites/client/client.hpp"
#include "suites/client/support.hpp"

namespace conform::suites::client {

namespace {

using harness::traffic_judgement;
using harness::traffic_violation;

constexpr std::string_view present_check = "client_idempotency_key_present";
constexpr std::string_view per_intent_check = "client_idempotency_key_per_intent";
constexpr std::string_view retry_check = "client_idempotency_key_on_retry";
constexpr const char* dropped_kind = "connection_dropped";

/// The key `e` carries under its operation's x-idempotency header, or nullopt.
std::optional<std::string> key_of(const traffic_exchange& e) {
  if (!e.op || !e.op->idempotent) return std::nullopt;
  const std::string* v = e.request.find_header(e.op->idempotent->header);
  if (!v || v->empty()) return std::nullopt;
  return *v;
}

void judge_present(const traffic& t, traffic_judgement& j) {
  for (const auto& e : t.exchanges) {
    if (!e.op || !e.op->idempotent || !e.op->idempotent->required) continue;
    const auto& idem = *e.op->idempotent;
    const auto key = key_of(e);
    if (key && (idem.max_key_length == 0 || key->size() <= idem.max_key_length)) {
      j.held(e);
      continue;
    }
    traffic_violation v;
    v.evidence = {&e};
    v.expected =
        "every " + e.op->method_path() + " carries " + idem.header +
        " (x-idempotency required: true" +
        (idem.max_key_length ? ", at most " + std::to_string(idem.max_key_length) + " characters"
                             : std::string()) +
        "), so that a retry cannot move money twice";
    v.seen = key ? "a key of " + std::to_string(key->size()) + " characters"
                 : "request #" + std::to_string(e.seq) + " has no " + idem.header + " header";
    v.cause = key ? "key too long" : "no key";
    j.broken(v);
  }
}

void judge_per_intent(const traffic& t, traffic_judgement& j) {
  // (credential, key) -> the first exchange that used it.
  std::map<std::pair<std::string, std::string>, const traffic_exchange*> first;
  for (const auto& e : t.exchanges) {
    const auto key = key_of(e);
    if (!key) continue;
    const auto scope = std::make_pair(e.auth_model(), *key);
    auto [it, added] = first.try_emplace(scope, &e);
    if (added || harness::same_request(*it->second, e)) {
      j.held(e);
      continue;
    }
    traffic_violation v;
    v.evidence = {it->second, &e};
    v.expected = "one " + e.op->idempotent->header +
                 " per business intent, never the same key for two different requests (" +
                 cited(t, per_intent_check, "x-idempotency") + ": the server answers 422 " +
                 e.op->idempotent->reused_code + ")";
    v.seen = "key '" + *key + "' was sent with request #" + std::to_string(it->second->seq) +
             " and again with the different request #" + std::to_string(e.seq);
    v.cause = "key shared by two intents";
    j.broken(v);
  }
}

/// The first answer (not a failure) among the attempts of `e`'s request
/// after `i` that carry `key`, or nullptr.
const traffic_exchange* answered_with(const traffic& t, std::size_t i, const std::string& key) {
  for (auto k = next_same(t, i); k; k = next_same(t, *k)) {
    const traffic_exchange& a = t.exchanges[*k];
    if (key_of(a) != key) return nullptr;
    if (!outcome_unknown(t, a)) return &a;
  }
  return nullptr;
}

void judge_on_retry(const traffic& t, traffic_judgement& j) {
  for (std::size_t i = 0; i < t.exchanges.size(); ++i) {
    const traffic_exchange& e = t.exchanges[i];
    if (!e.op || !e.op->idempotent || !outcome_unknown(t, e)) continue;
    const bool dropped = e.adversity == dropped_kind;
    const auto first_key = key_of(e);
    const std::string what =
        e.status == 0 ? "lost its answer (connection closed)" : "got " + std::to_string(e.status);
    const auto next = next_same(t, i);
    if (!next) {
      if (dropped) {
        traffic_violation v;
        v.evidence = {&e};
        v.expected = "a keyed request whose answer was lost is retried with the same " +
                     e.op->idempotent->header +
                     " (section 4.3.2): the server replays the first answer, and the client "
                     "learns what was done";
        v.seen = "request #" + std::to_string(e.seq) + " " + what +
                 " after the server had processed it (" + std::to_string(e.processed_status) +
                 "), and the client never sent it again";
        v.cause = "lost answer never retried";
        j.broken(v);
        j.adversity(e, false,
                    "never retried: the client never learnt the outcome of a write "
                    "the server had made");
      } else if (first_key) {
        j.not_exercised(
            e, "request #" + std::to_string(e.seq) + " " + what + " and was not sent again");
      }
      continue;
    }
    const traffic_exchange& retry = t.exchanges[*next];
    const auto retry_key = key_of(retry);
    if (first_key && retry_key && *first_key == *retry_key) {
      j.held(retry);
      if (dropped) {
        const traffic_exchange* answer = answered_with(t, i, *first_key);
        std::string outcome = "retried with the same key " + seconds(harness::gap(e, retry)) +
                              " later at #" + std::to_string(retry.seq);
        if (answer) {
          outcome += "; " + outcome_of(*answer);
          const std::string& replayed = e.op->idempotent->replayed_header;
          if (!replayed.empty() && answer->response_header(replayed)) outcome += " (replayed)";
        } else {
          outcome += "; never answered";
        }
        j.adversity(e, answer != nullptr, outcome);
      }
      continue;
    }
    if (!first_key) continue;  // unkeyed: client_idempotency_key_present's concern
    traffic_violation v;
    v.evidence = {&e, &retry};
    v.expected = "a retry of an intent carries the same " + e.op->idempotent->header +
                 " as its first attempt (section 4.3.2), so that the server replays the first "
                 "answer instead of acting twice";
    v.seen = "request #" + std::to_string(e.seq) + " " + what + "; its retry #" +
             std::to_string(retry.seq) + " carried " +
             (retry_key ? "another key ('" + *retry_key + "')" : std::string("no key")) +
             " instead of '" + *first_key + "'";
    v.cause = retry_key ? "new key on retry" : "no key on retry";
    j.broken(v);
    if (dropped) {
      // The transcript shows whether the server acted twice: the dropped
      // write was processed, and the retry under another key was processed
      // anew (a success, not a replay).
      const std::string& replayed = e.op->idempotent->replayed_header;
      const bool twice = e.processed_status >= 200 && e.processed_status < 300 &&
                         retry.status >= 200 && retry.status < 300 &&
                         (replayed.empty() || !retry.response_header(replayed));
      j.adversity(e, false,
                  "retried at #" + std::to_string(retry.seq) + " with " +
                      (retry_key ? "another key" : "no key") +
                      (twice ? ": the server acted twice (#" + std::to_string(e.seq) +
                                   " was processed with " + std::to_string(e.processed_status) +
                                   ", and #" + std::to_string(retry.seq) + " again with " +
                                   std::to_string(retry.status) + ")"
                             : ": the server may have acted twice"));
    }
  }
}

}  // namespace

void add_idempotency_rules(harness::check_catalogue& catalogue) {
  catalogue.add(harness::traffic_check{
      {std::string(present_check),
       "every call to an operation whose x-idempotency is required carries the key header",
       "x-idempotency required"},
      harness::rule_level::core,
      "call to an operation whose x-idempotency says required",
      judge_present,
      {},
      [](const openapi::operation& op) { return op.idempotent && op.idempotent->required; }});
  catalogue.add(harness::traffic_check{
      {std::string(per_intent_check),
       "a key is never sent with two different requests (method, target, tenant, body)",
       "x-idempotency"},
      harness::rule_level::core,
      "request with an idempotency key (x-idempotency)",
      judge_per_intent,
      {},
      [](const openapi::operation& op) { return op.idempotent.has_value(); }});
  catalogue.add(harness::traffic_check{
      {std::string(retry_check),
       "a keyed request whose answer was lost (closed connection, 5xx, 429, 409) is retried "
       "with the same key",
       "x-idempotency"},
      harness::rule_level::core,
      "retry of a keyed request whose answer was lost",
      judge_on_retry,
      {dropped_kind},
      [](const openapi::operation& op) { return op.idempotent.has_value(); }});
}

}  // namespace conform::suites::client
