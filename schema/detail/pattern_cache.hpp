#pragma once
// A process-wide cache of compiled `pattern` regexes, keyed by pattern text:
// each distinct pattern is compiled once, then shared by every thread.
//
// The engine is PCRE2 (over bytes, ECMAScript-compatible options), with the
// bounds of core/limits.hpp: a pattern too long or too deeply nested does
// not compile, and a match that needs more steps, depth or heap than allowed
// stops with `too_costly` instead of exhausting the stack or the clock.

#include <optional>
#include <string>
#include <string_view>

#include "schema/detail/simple_pattern.hpp"

namespace conform::schema::detail {

/// What searching a text for a pattern found.
enum class search_outcome { no_match, match, too_costly };

/// A compiled pattern, or the reason it does not compile.
class compiled_pattern {
 public:
  compiled_pattern() = default;
  ~compiled_pattern();
  compiled_pattern(const compiled_pattern&) = delete;
  compiled_pattern& operator=(const compiled_pattern&) = delete;

  /// Compiles `pattern` (see error() when it does not).
  explicit compiled_pattern(std::string_view pattern);

  /// True when the pattern compiled.
  bool ok() const { return code_ != nullptr; }
  /// Why it did not compile; empty when it did.
  const std::string& error() const { return error_; }

  /// Whether `text` contains a match (precondition: ok()).
  search_outcome search(std::string_view text) const;

 private:
  void* code_ = nullptr;  // pcre2_code_8, kept out of this header
  bool jit_ = false;
  std::string error_;
  /// A faster matcher with the same answers, when the pattern is simple.
  std::optional<simple_pattern> simple_;
};

/// The compiled form of `pattern`; the reference stays valid for the life of
/// the process. Safe to call from several threads.
const compiled_pattern& compile_pattern(std::string_view pattern);

}  // namespace conform::schema::detail
