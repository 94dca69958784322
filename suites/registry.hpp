#pragma once
// The built-in check catalogue: every check of every concern in
// suites/<concern>/, per-exchange and scenario checks alike.

#include "harness/catalogue.hpp"

namespace conform::suites {

/// Every built-in check, in the order reports list them and scenarios run.
harness::check_catalogue builtin_checks();

/// True for the scenarios whose checks judge who may do what (credentials,
/// scopes, roles, tenants): `conform run --no-auth` does not run them.
bool judges_credentials(const harness::scenario& s);

}  // namespace conform::suites
