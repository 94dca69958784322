#pragma once
// A process-wide cache of compiled `pattern` regexes, keyed by pattern text:
// each distinct pattern is compiled once, then shared by every thread.

#include <optional>
#include <regex>
#include <string>
#include <string_view>

#include "schema/detail/simple_pattern.hpp"

namespace conform::schema::detail {

/// A compiled ECMAScript regex, or the reason the pattern does not compile.
struct compiled_pattern {
  std::optional<std::regex> re;
  std::string error;
  /// A faster matcher with the same answers, when the pattern is simple.
  std::optional<simple_pattern> simple;

  /// True when `text` contains a match (precondition: `re` is set).
  bool search(std::string_view text) const {
    return simple ? simple->matches(text) : std::regex_search(text.begin(), text.end(), *re);
  }
};

/// The compiled form of `pattern`; the reference stays valid for the life of
/// the process. Safe to call from several threads.
const compiled_pattern& compile_pattern(std::string_view pattern);

}  // namespace conform::schema::detail
