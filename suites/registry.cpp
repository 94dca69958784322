#include "suites/registry.hpp"

#include "suites/response/response_checks.hpp"

namespace conform::suites {

runner::check_registry builtin_checks() {
  runner::check_registry registry;
  register_response_checks(registry);
  return registry;
}

}  // namespace conform::suites
