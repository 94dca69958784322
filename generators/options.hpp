#pragma once
// Knobs shared by the value, invalid-value and request generators.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace conform::generators {

/// How big and how varied generated values are. Generators copy it.
struct gen_options {
  /// Nesting of objects and arrays beyond which only the smallest valid value
  /// (required properties, minItems items) is generated.
  int max_depth = 4;
  /// Code points added beyond minLength when maxLength does not bound a string.
  std::size_t max_string_length = 24;
  /// Items added beyond minItems when maxItems does not bound an array.
  std::size_t max_items = 4;
  /// Repetitions added beyond the minimum for `*`, `+` and `{n,}` in patterns.
  std::size_t max_repeat = 6;
  /// Chance (0..100) that an optional property is present.
  int optional_percent = 50;
  /// Chance (0..100) of `null` where the schema admits null among other types.
  int null_percent = 10;
  /// Add undeclared properties where additionalProperties allows any.
  bool extra_properties = false;
  /// Chance (0..100) of using one of the schema's own examples (when it validates).
  int example_percent = 0;
  /// x-fixture lookup: the profile's value for a fixture name, or nullopt.
  /// When set and the value validates, a node with x-fixture takes it.
  std::function<std::optional<std::string>(std::string_view fixture)> fixture;
};

}  // namespace conform::generators
