#pragma once
// Private to the spec loader: the `x-` extensions of docs/spec-extensions.md,
// each parsed into its typed field of model.hpp. A malformed extension is an
// error at its position; an unknown key inside one is a warning.

#include <optional>

#include "openapi/detail/schema_loader.hpp"
#include "openapi/detail/reader.hpp"
#include "openapi/model.hpp"

namespace conform::openapi::detail {

/// x-tenant-context of an operation.
std::optional<tenant_context> parse_tenant_context(doc_reader& r, const source_doc& doc,
                                                   const node& n);
/// x-pagination of an operation.
std::optional<pagination> parse_pagination(doc_reader& r, const source_doc& doc, const node& n);
/// x-idempotency of an operation.
std::optional<idempotency> parse_idempotency(doc_reader& r, const source_doc& doc, const node& n);
/// x-transition of an operation.
std::optional<transition_ref> parse_transition(doc_reader& r, const source_doc& doc, const node& n);
/// x-resource of a parameter.
std::optional<resource_ref> parse_resource(doc_reader& r, const source_doc& doc, const node& n);
/// One state machine of components.x-state-machines.
std::optional<state_machine> parse_state_machine(doc_reader& r, const source_doc& doc,
                                                 const std::string& name, const node& n);
/// x-credential, x-tenants, x-key-prefixes, x-roles and x-tenant-claim of a
/// security scheme.
void parse_scheme_extensions(doc_reader& r, const source_doc& doc, const node& n,
                             security_scheme& s);
/// The root extensions (x-request-id, x-rate-limit, x-limits, x-errors,
/// x-environments, x-success-envelope, x-error-envelope).
void parse_root_rules(doc_reader& r, const source_doc& doc, const node& root,
                      schema_loader& schemas, api_rules& rules);

/// Warns about keys of mapping `n` (named `what`) not in `known`.
void warn_unknown_keys(doc_reader& r, const source_doc& doc, const node& n, std::string_view what,
                       std::initializer_list<std::string_view> known);

}  // namespace conform::openapi::detail
