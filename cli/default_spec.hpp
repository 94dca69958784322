#pragma once
// What the commands share: where a command finds the description when none
// is named (the shipped one, from any directory), and the time they stamp.

#include <filesystem>
#include <string>

namespace conform::cli {

/// The description's default path, as commands print it in their usage.
inline constexpr const char* default_spec_name = "specs/voice-api.yaml";

/// Where an installed program keeps the shipped description and matrix:
/// `../share/conform/specs` from the folder of the running executable
/// (/usr/bin/conform: /usr/share/conform/specs), so an installed tree can be
/// moved; empty when the executable's path cannot be read.
std::filesystem::path installed_spec_dir();

/// The description to load for `given` (empty = none given): `given` as it
/// is when not empty; else `specs/voice-api.yaml` under the current
/// directory when it exists there; else the installed copy
/// (installed_spec_dir()) when it exists; else the shipped copy in the
/// source tree (CONFORM_DEFAULT_SPEC_DIR). Every command that loads the
/// description by default (`run`, `spec lint`, `certify`, ...) uses it.
std::filesystem::path resolve_default_spec(const std::string& given);

/// Now, as RFC 3339 in UTC ("2026-11-23T16:50:00Z"): when a run or a
/// certification started and ended.
std::string utc_now();

}  // namespace conform::cli
