#pragma once
// Private to core/parse.cpp: the two text readers and the character check
// both share.

#include <optional>
#include <string>
#include <string_view>

#include "core/parse.hpp"

namespace conform::core::detail {

/// Invalid UTF-8 and, unless `utf8_only`, the control characters YAML does
/// not allow (all C0 but tab, line feed and carriage return; DEL), with
/// their position; nullopt when there are none. JSON refuses control
/// characters itself, where they are not allowed (and allows DEL).
std::optional<diagnostic> check_characters(std::string_view bytes, const std::string& display,
                                           bool utf8_only);

/// JSON text into a tree (core/detail/json_parser.cpp).
parsed_document parse_json_text(std::string_view text, const std::string& display);

/// YAML text into a tree through yaml-cpp's events (core/detail/yaml_builder.cpp).
parsed_document parse_yaml_text(std::string_view text, const std::string& display);

}  // namespace conform::core::detail
