#pragma once
// Small helpers the client rules share, and the tolerances the timing rules
// judge with (docs/certification.md, "Tolerances").

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/traffic.hpp"

namespace conform::suites::client {

using harness::traffic;
using harness::traffic_exchange;

/// A required wait is kept when the measured one is at least the required
/// one minus this slack: 5 % of it, and never less than 5 ms (a timer that
/// fires a millisecond early, a client that starts counting when it sent its
/// request). Times are the server's, from the answer handed to the socket to
/// the next request's arrival, so a client's own latency only lengthens them.
std::chrono::microseconds slack(std::chrono::microseconds required);

/// Backoff growth is judged over a whole chain of at least this many waits...
inline constexpr std::size_t growth_min_waits = 3;
/// ...as some wait at least this many times an earlier one of the chain
/// (unless the shortest of its earlier half is already within this factor
/// of max_backoff_ms). Noise only lengthens a measured wait, so waits
/// delayed by a busy machine, however many, never refuse a backoff that
/// grows while one wait of its later part is measured close to what the
/// client meant; equal jitter and +-25 % jitter around a wait growing by
/// half or more clear it by far, and a constant wait passes only if a
/// later wait is delayed by half of it.
inline constexpr double growth_margin = 1.5;

/// "1.204 s".
std::string seconds(std::chrono::microseconds d);

/// True when `e` got no answer or a status x-retry lists as retryable.
bool retryable_failure(const traffic& t, const traffic_exchange& e);

/// True when `e` got the x-rate-limit status (429).
bool rate_limited(const traffic& t, const traffic_exchange& e);

/// True when `e`'s outcome is unknown to the client (no answer, a 5xx, 429,
/// or the idempotency conflict status): a retry of the same intent may follow.
bool outcome_unknown(const traffic& t, const traffic_exchange& e);

/// The index of the next exchange after `i` that sends the same request with
/// the same credential, or nullopt.
std::optional<std::size_t> next_same(const traffic& t, std::size_t i);

/// True when the two exchanges came with the same credential (kind and name).
bool same_credential(const traffic_exchange& a, const traffic_exchange& b);

/// The value of request header `name`, or "" when absent.
std::string header_or_empty(const traffic_exchange& e, std::string_view name);

/// The chains of attempts of one request after a retryable failure other
/// than 429 (no answer, a retryable 5xx): each starts at such a failure and
/// follows the same request while its attempts keep failing; the last
/// attempt is an answer, or the failure the client gave up on.
std::vector<std::vector<std::size_t>> failure_chains(const traffic& t);

/// What the failures of rule `check` cite in what they expected: the
/// description's citation (x-rule-citations: `expected`, else `rule`), or
/// `generic` (the extension the rule reads) when it gives none.
std::string cited(const traffic& t, std::string_view check, std::string_view generic);

/// "answered 200 at #7" or "no answer at #7".
std::string outcome_of(const traffic_exchange& e);

}  // namespace conform::suites::client
