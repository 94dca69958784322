#pragma once
// Private to the spec loader: the permission matrix reader and the second,
// semantic pass over a parsed description.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "openapi/detail/reader.hpp"
#include "openapi/model.hpp"

namespace conform::openapi::detail {

/// Reads specs/permissions.yaml (`display` names it in diagnostics) and
/// checks it on its own: scopes defined once, no opt-in default grant, rows
/// naming defined scopes held by that key type. Its key types are the
/// description's x-credential `labels` (api_spec::credential_labels).
std::optional<permission_matrix> load_permissions(doc_reader& r, doc_cache& docs,
                                                  const std::filesystem::path& file,
                                                  const std::string& display,
                                                  const std::vector<std::string>& labels);

/// The semantic checks of a parsed description (operation ids, path
/// parameters, extensions referring to parameters, operations and states).
void check_spec(doc_reader& r, const api_spec& spec);

/// Where the description and the permission matrix disagree.
void check_against_matrix(doc_reader& r, const api_spec& spec, const permission_matrix& m);

}  // namespace conform::openapi::detail
