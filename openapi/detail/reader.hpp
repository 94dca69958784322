#pragma once
// The loader reads documents through core's positioned reader and reports with
// core's diagnostics; their names are imported here so that every step of
// the loader spells them the same way.

#include "core/document.hpp"

namespace conform::openapi::detail {

using core::at_pointer;
using core::classify;
using core::diagnostic;
using core::doc_cache;
using core::doc_reader;
using core::node;
using core::node_entry;
using core::scalar_kind;
using core::severity;
using core::source_doc;
using core::source_pos;

}  // namespace conform::openapi::detail
