#pragma once
// Private to the loader: which operations of a description with errors can
// be left out so that the rest runs (`load_options::skip_invalid_operations`).
// Errors are placed by position: one inside an operation (or its path item)
// keeps that operation out; one inside a component keeps out the component,
// every component that names it by `$ref`, and every operation that names
// any of those; one in another file keeps out what `$ref`s that file. An
// error placed nowhere else (the root, `info`, the permission matrix) keeps
// the whole description out, as without the option.

#include <string>
#include <vector>

#include "openapi/detail/reader.hpp"
#include "openapi/loader.hpp"

namespace conform::openapi::detail {

/// What one round of loading would take out of the document.
struct prune_plan {
  /// JSON pointers into the document's root (after conversion and
  /// overlays): operations ("/paths/~1pets/get") and components.
  std::vector<std::string> pointers;
  /// The operations and components taken out, each with the error that
  /// keeps it out.
  std::vector<skipped_part> parts;
  /// False when an error is placed nowhere that could be taken out.
  bool complete = true;
};

/// The plan for `root` (the main document, `display` its name) given the
/// `errors` its load gave.
prune_plan plan_pruning(const node& root, const std::string& display,
                        const std::vector<diagnostic>& errors);

/// Takes the node `pointer` names out of `root` (nothing when absent).
void remove_pointer(node& root, const std::string& pointer);

}  // namespace conform::openapi::detail
