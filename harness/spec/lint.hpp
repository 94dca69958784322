#pragma once
// `conform spec lint [FILE] [--permissions FILE]`: loads and checks a
// description and its permission matrix, prints the diagnostics and a summary.

#include <ostream>
#include <string>
#include <vector>

#include "harness/spec/model.hpp"

namespace conform::spec {

/// Runs the lint command; `args` are the words after `conform spec lint`.
/// Diagnostics go to `err` ("file:line:col: error|warning: message"), the
/// summary to `out`. Returns 0 when there is no error, 2 otherwise.
int lint_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// Writes the summary of a loaded description: operations per family,
/// schemes, scopes, paginated and idempotent operations.
void print_summary(const api_spec& spec, std::ostream& out);

}  // namespace conform::spec
