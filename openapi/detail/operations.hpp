#pragma once
// Private to the spec loader: `paths` into operations (parameters, bodies,
// responses, security and the operation-level x- extensions).

#include <vector>

#include "openapi/detail/schema_loader.hpp"
#include "openapi/detail/yaml.hpp"
#include "openapi/model.hpp"

namespace conform::openapi::detail {

/// What the operation parser reads from and writes to.
struct parse_context {
  yaml_reader& r;
  doc_cache& docs;
  schema_loader& schemas;
  const yaml_doc& doc;
  api_spec& spec;
};

/// Parses a `security` list (root or operation); unknown schemes are errors.
std::vector<security_requirement> parse_security(parse_context& ctx, const YAML::Node& n);

/// Parses every operation of `paths` into ctx.spec.operations, in document
/// order; `root_security` applies where an operation declares none.
void parse_paths(parse_context& ctx, const YAML::Node& paths,
                 const std::vector<security_requirement>& root_security, bool root_declared);

}  // namespace conform::openapi::detail
