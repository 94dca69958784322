#pragma once
// The loader reads documents through core's positioned reader and reports with
// core's diagnostics; their names are imported here so that every step of
// the loader spells them the same way.

#include "core/yaml.hpp"

namespace conform::openapi::detail {

using core::at_pointer;
using core::classify;
using core::diagnostic;
using core::doc_cache;
using core::node;
using core::node_entry;
using core::scalar_kind;
using core::severity;
using core::source_pos;
using core::yaml_doc;
using core::yaml_reader;

}  // namespace conform::openapi::detail
