#pragma once
// The IANA time zone names compiled into the library (see tz_names.cpp).

#include <span>
#include <string_view>

namespace conform::core {

/// Canonical zone names ("Europe/Paris"), sorted.
std::span<const std::string_view> canonical_time_zones();

/// Backward-compatible link names ("Asia/Calcutta"), sorted.
std::span<const std::string_view> linked_time_zones();

/// True for a canonical IANA zone name or a link name ("Asia/Calcutta").
bool is_time_zone(std::string_view name);

}  // namespace conform::core
