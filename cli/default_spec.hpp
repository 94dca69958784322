#pragma once
// What the commands share: where a command finds the description when none
// is named (the shipped one, from any directory), and the time they stamp.

#include <filesystem>
#include <string>

namespace conform::cli {

/// The description's default path, as commands print it in their usage.
inline constexpr const char* default_spec_name = "specs/voice-api.yaml";

/// The description to load for `given` (empty = none given): `given` as it
/// is when not empty; else `specs/voice-api.yaml` under the current
/// directory when it exists there, else the shipped copy in the source tree
/// (CONFORM_DEFAULT_SPEC_DIR). `conform run` and `conform spec lint` use it.
std::filesystem::path resolve_default_spec(const std::string& given);

/// Now, as RFC 3339 in UTC ("2026-11-23T16:50:00Z"): when a run or a
/// certification started and ended.
std::string utc_now();

}  // namespace conform::cli
