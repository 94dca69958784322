#pragma once
// The target profile (/work/shared/user-contract.md) that reaches a running
// reference server: base URL, environment, tenants with fixtures, credentials.

#include <string>

#include "reference/detail/context.hpp"

namespace conform::reference::detail {

/// The profile as YAML, secrets inline as `value`.
std::string profile_yaml(const server_state& state, const std::string& base_url);

}  // namespace conform::reference::detail
