#pragma once
// A generator of strings matching a regex, for the subset of ECMAScript that
// API descriptions use: anchors, literals, escapes (\d \w \s \D \W \S and
// escaped punctuation), `.`, classes and negated classes over printable
// ASCII, groups, alternation, and the quantifiers ? * + {n} {n,} {n,m}.

#include <rapidcheck.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <variant>

namespace conform::generators::detail {

/// Why a pattern is outside the subset.
struct unsupported_pattern {
  std::string why;
};

/// A generator of strings `pattern` matches (searching), or why there is none.
/// Unbounded quantifiers repeat at most `max_repeat` times beyond their minimum.
std::variant<rc::Gen<std::string>, unsupported_pattern> pattern_generator(std::string_view pattern,
                                                                          std::size_t max_repeat);

}  // namespace conform::generators::detail
