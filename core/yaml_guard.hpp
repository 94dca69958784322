#pragma once
// The checks a YAML text passes before yaml-cpp builds its nodes: valid
// UTF-8 without control characters, one document, no duplicate key, and the
// bounds of core/limits.hpp (nesting, scalar size, size after alias
// expansion, no alias inside the node it names). yaml-cpp accepts all of
// these silently or exhausts the machine on them.

#include <optional>
#include <string>
#include <string_view>

#include "core/source.hpp"

namespace conform::core {

/// The first problem of `bytes` (named `display` in positions), or nullopt
/// when the text may be loaded. Syntax errors are reported too ("invalid
/// YAML: ..."). Costs one streaming parse: no node is built.
std::optional<diagnostic> check_yaml_text(std::string_view bytes, const std::string& display);

}  // namespace conform::core
