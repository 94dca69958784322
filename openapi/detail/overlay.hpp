#pragma once
// Private to the loader: applies OpenAPI Overlay 1.0 documents to the
// description's root before it is read (docs/overlays in README).

#include <filesystem>

#include "openapi/detail/reader.hpp"

namespace conform::openapi::detail {

/// Applies the actions of the overlay `file` to `root`, in order: `update`
/// merges into each selected mapping (mappings recursively, anything else
/// replaced), is appended to a selected sequence, replaces a selected
/// scalar; `remove: true` takes each selected node out of its parent. A
/// malformed overlay or an unsupported target is an error at its position;
/// a target that selects nothing is a warning. False on any error.
bool apply_overlay(const std::filesystem::path& file, node& root, doc_cache& docs, doc_reader& r);

}  // namespace conform::openapi::detail
