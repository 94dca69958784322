#pragma once
// The IANA time zone names compiled into the library (see tz_names.cpp).

#include <span>
#include <string_view>

namespace conform::schema::detail {

/// Canonical zone names ("Europe/Paris"), sorted.
std::span<const std::string_view> canonical_time_zones();

/// Backward-compatible link names ("Asia/Calcutta"), sorted.
std::span<const std::string_view> linked_time_zones();

}  // namespace conform::schema::detail
