#pragma once
// The workflows scenario (see docs/checks.md): Arazzo 1.0 workflow documents
// run against the target, the shipped ones (suites/workflows/*.arazzo.yaml,
// embedded at build time) and those a user names.

#include <string>
#include <vector>

#include "harness/catalogue.hpp"

namespace conform::suites {

/// Adds the workflows scenario to `catalogue`.
void register_workflows_scenarios(harness::check_catalogue& catalogue);

/// Workflow files to run besides the shipped ones, from the next run on
/// (replaces the list given before; an empty list runs the shipped ones only).
/// A file that cannot be read or loaded is reported as not run, with why.
void register_workflow_files(std::vector<std::string> paths);

}  // namespace conform::suites
