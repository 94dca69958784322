#pragma once
// The built-in check catalogue: every check of every concern in
// suites/<concern>/, per-exchange and scenario checks alike.

#include "harness/catalogue.hpp"

namespace conform::suites {

/// Every built-in check, in the order reports list them and scenarios run.
harness::check_catalogue builtin_checks();

}  // namespace conform::suites
