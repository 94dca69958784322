#pragma once
// The workflows scenario (see docs/checks.md): the Arazzo 1.0 workflow
// documents the run's configuration names (those shipped beside the
// description, specs/workflows/, and those a user adds) run against the target.

#include <filesystem>
#include <string>
#include <vector>

#include "harness/catalogue.hpp"

namespace conform::suites {

/// Adds the workflows scenario to `catalogue`.
void register_workflows_scenarios(harness::check_catalogue& catalogue);

/// The Arazzo documents shipped beside `description` (its folder's
/// workflows/*.arazzo.yaml) that were written for it: a sourceDescriptions
/// url names that very file. Sorted; empty when there are none.
std::vector<std::string> shipped_workflows(const std::filesystem::path& description);

}  // namespace conform::suites
