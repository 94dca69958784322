#pragma once
// Every built-in check, grouped by concern in suites/<concern>/.

#include "harness/runner/check.hpp"

namespace conform::suites {

/// A registry with every built-in check, in the order reports list them.
runner::check_registry builtin_checks();

}  // namespace conform::suites
