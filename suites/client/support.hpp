#pragma once
// Small helpers the client rules share.

#include <chrono>
#include <optional>
#include <string>

#include "harness/traffic.hpp"

namespace conform::suites::client {

using harness::traffic;
using harness::traffic_exchange;

/// "1.204 s".
std::string seconds(std::chrono::microseconds d);

/// True when `e` got no answer or a status x-retry lists as retryable.
bool retryable_failure(const traffic& t, const traffic_exchange& e);

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

}  // namespace conform::suites::client
