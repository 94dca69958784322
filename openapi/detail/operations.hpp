#pragma once
// Private to the spec loader: `paths` into operations (parameters, bodies,
// responses, security and the operation-level x- extensions).

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "openapi/detail/schema_loader.hpp"
#include "openapi/detail/reader.hpp"
#include "openapi/model.hpp"

namespace conform::openapi::detail {

/// What one load learns on the way that later steps need.
struct load_state {
  /// `$ref`s standing where OpenAPI allows no Reference Object (an Operation
  /// Object, a whole `parameters` list, `responses` or `content`): followed
  /// as bundlers such as Redocly do, and said once per description.
  std::size_t nonstandard_refs = 0;
  source_pos first_nonstandard;
  std::string first_nonstandard_what;
  /// Security schemes given by a `$ref` Conform could not follow (a remote
  /// document): left out, so that naming one in `security` says why.
  std::set<std::string> unfollowed_schemes;
};

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
  /// 3.2: `query` and `additionalOperations`, `in: querystring`, `itemSchema`.
  bool openapi32 = false;
  load_state* state = nullptr;

  /// The same context reading `other` (a file a $ref led to).
  parse_context at(const source_doc& other) const {
    return {r, docs, schemas, other, spec, openapi31, swagger2, openapi32, state};
  }
};

/// A node after following `$ref`s: where it lives.
struct located {
  const source_doc* doc = nullptr;
  const node* at = nullptr;
  std::string pointer;
  const node& value() const { return *at; }
};

/// Follows `$ref` on a non-schema object (parameter, response, body, header,
/// path item, operation, security scheme); every problem is an error at the
/// reference, and nullopt.
std::optional<located> follow(parse_context& ctx, const source_doc& doc, const node& n,
                              const std::string& pointer, std::string_view what);

/// True when `n` is a mapping with a `$ref`.
bool is_ref(const node& n);

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
