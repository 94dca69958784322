#pragma once
// Loads a target profile from YAML. Never throws for bad input: every
// problem is a diagnostic with file:line:col; secrets never appear in them.

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "profile/profile.hpp"
#include "core/source.hpp"

namespace conform::profile {

/// The target a profile describes, or the errors that stopped it; warnings either way.
struct load_result {
  std::optional<target> value;  // nullopt when any error was found
  std::vector<core::diagnostic> diagnostics;
  bool ok() const { return value.has_value(); }
};

/// Reads an environment variable; nullopt when unset. Injectable for tests.
using env_lookup = std::function<std::optional<std::string>(const std::string& name)>;

/// The process environment (getenv).
std::optional<std::string> process_env(const std::string& name);

/// Loads the profile file at `path`.
load_result load_profile(const std::filesystem::path& path, const env_lookup& env = process_env);

/// Checks the credentials' schemes against the description: a scheme named
/// by its key must exist there (its kind is then the scheme's). Errors say
/// where the profile names it.
std::vector<core::diagnostic> bind(target& t, const openapi::api_spec& spec);

/// Parses profile YAML `text`; positions name `display_name` as the file.
load_result parse_profile(std::string_view text, const std::string& display_name,
                          const env_lookup& env = process_env);

}  // namespace conform::profile
