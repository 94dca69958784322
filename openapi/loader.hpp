#pragma once
// Loads an OpenAPI 3.0.x / 3.1.x description (and, when given, the
// permission matrix) into the typed model. Two passes: parse into the model
// keeping every node's position, then check meaning. Never throws for bad
// input: every problem is a diagnostic with file:line:col.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "openapi/model.hpp"
#include "core/source.hpp"

namespace conform::openapi {

/// A part of the description left out because it has errors
/// (load_options::skip_invalid_operations): an operation, or a component.
struct skipped_part {
  std::string what;          // "GET /pets/{id}", or "#/components/schemas/Pet"
  std::string operation_id;  // an operation's operationId, when it has one
  bool operation = false;
  diagnostic error;  // the error that keeps it out (its own, or a component's it names)
};

struct load_result {
  /// nullopt when any diagnostic is an error (warnings alone keep the spec).
  std::optional<api_spec> spec;
  std::vector<diagnostic> diagnostics;
  /// With skip_invalid_operations: what was left out, in document order.
  std::vector<skipped_part> skipped;
  bool ok() const { return spec.has_value() && !has_errors(diagnostics); }
};

struct load_options {
  /// The permission matrix; empty = `permissions.yaml` beside the spec if it
  /// exists, else none.
  std::filesystem::path permissions;
  bool require_permissions = false;
  /// OpenAPI Overlay 1.0 documents applied, in order, to the description
  /// before it is read (`--overlay FILE`).
  std::vector<std::filesystem::path> overlays;
  /// The folder whose files `$ref`s may read (`--ref-root DIR`); empty = the
  /// description's own folder.
  std::filesystem::path ref_root;
  /// Leave out each operation whose own parts have errors (and the
  /// components with errors, with what names them) and load the rest
  /// (`conform run --skip-invalid-operations`); the errors go to
  /// load_result::skipped. An error elsewhere still fails the load.
  bool skip_invalid_operations = false;
};

/// Loads `file` ($refs to other files beside it followed) and checks it.
load_result load(const std::filesystem::path& file, const load_options& opts = {});

}  // namespace conform::openapi
