#pragma once
// Private to the spec loader: `paths` into operations (parameters, bodies,
// responses, security and the operation-level x- extensions).

#include <vector>

#include "openapi/detail/schema_loader.hpp"
#include "openapi/detail/reader.hpp"
#include "openapi/model.hpp"

namespace conform::openapi::detail {

/// What the operation parser reads from and writes to.
struct parse_context {
  doc_reader& r;
  doc_cache& docs;
  schema_loader& schemas;
  const source_doc& doc;
  api_spec& spec;
  /// 3.1: `responses` may be left out of an operation.
  bool openapi31;
  /// Converted from Swagger 2.0: a parameter in another file may still be 2.0-shaped.
  bool swagger2 = false;
};

/// Parses a `security` list (root or operation); unknown schemes are errors.
std::vector<security_requirement> parse_security(parse_context& ctx, const node& n);

/// Parses every operation of `paths` into ctx.spec.operations, in document
/// order; `root_security` applies where an operation declares none. A Path
/// Item given by `$ref` (to components/pathItems or another file) is followed.
void parse_paths(parse_context& ctx, const node& paths,
                 const std::vector<security_requirement>& root_security, bool root_declared);

/// Gives every operation without an operationId one made from its method and
/// path ("get_pets_id"), unique in the description, with a note; and every
/// operation without x-family its first tag, else its first path segment.
void complete_operations(doc_reader& r, api_spec& spec);

}  // namespace conform::openapi::detail
