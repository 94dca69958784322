#include "suites/tenants/tenants.hpp"

#include "suites/tenants/checks.hpp"

namespace conform::suites {

void register_tenants_scenarios(harness::check_catalogue& catalogue) {
  namespace c = tenants;
  harness::scenario s;
  s.name = "tenants";
  s.checks = {
      {std::string(c::header_enforcement_check),
       "operations reading the tenant from a header, with a sufficient credential of each kind: "
       "the header naming a profile tenant the credential cannot reach, then an id of no tenant; "
       "expects 403 with a documented 403 code, never 2xx",
       "x-tenant-context"},
      {std::string(c::context_required_check),
       "operations taking the tenant from a header, called by partner keys and JWTs of several "
       "tenants without the header; expects x-tenant-context's missing status and code",
       "x-tenant-context (missing)"},
      {std::string(c::foreign_resource_check),
       "each path parameter with x-resource set to the same fixture of a tenant the credential "
       "cannot reach, then to an unknown id; expects 404 with the resource's not-found code for "
       "both, the foreign id answered like the unknown one",
       "x-resource; x-tenant-context"},
      {std::string(c::list_isolation_check),
       "every paginated operation with tenant context, walked as each profile tenant with a "
       "sufficient credential; expects no item identity in two tenants' lists",
       "x-tenant-context; x-pagination; x-resource"},
  };
  s.run = [](harness::scenario_context& ctx, harness::results_sink& results,
             const harness::check_enabled& enabled) {
    if (enabled(c::header_enforcement_check)) c::run_header_enforcement(ctx, results);
    if (enabled(c::context_required_check)) c::run_context_required(ctx, results);
    if (enabled(c::foreign_resource_check)) c::run_foreign_resource(ctx, results);
    if (enabled(c::list_isolation_check)) c::run_list_isolation(ctx, results);
  };
  catalogue.add(std::move(s));
}

}  // namespace conform::suites
