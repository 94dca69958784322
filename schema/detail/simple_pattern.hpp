#pragma once
// A fast matcher for the anchored patterns descriptions use most: `^` then a
// sequence of literals and character classes, each with an optional
// quantifier, then `$` (`^[0-9]+$`, `^\+[1-9][0-9]{1,14}$`,
// `^-?[0-9]+\.[0-9]{2,6}$`). It matches exactly what std::regex (ECMAScript,
// over bytes) matches for those patterns, without the regex engine's cost;
// any other pattern is left to std::regex.

#include <bitset>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace conform::schema::detail {

class simple_pattern {
 public:
  /// The matcher for `pattern`, or nullopt when it is not of the simple form.
  static std::optional<simple_pattern> compile(std::string_view pattern);

  /// Whether the whole of `text` matches; nullopt when that takes more than
  /// `max_steps` steps (the caller asks the regex engine instead).
  std::optional<bool> matches(std::string_view text) const;

  static constexpr std::size_t max_steps = 100'000;

 private:
  struct atom {
    std::bitset<256> bytes;  // the bytes this atom accepts
    std::uint32_t min = 1;
    std::uint32_t max = 1;  // UINT32_MAX: unbounded
  };
  bool match_from(std::size_t atom_index, std::string_view text, std::size_t at,
                  std::size_t& budget) const;

  std::vector<atom> atoms_;
};

}  // namespace conform::schema::detail
