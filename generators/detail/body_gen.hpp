#pragma once
// Generators the request builder shares: a probe that a generator can make
// a value, small CSV files for text/csv parts, and multipart boundaries.

#include <rapidcheck.h>

#include <cstdint>
#include <optional>
#include <string>

namespace conform::generators::detail {

/// Samples `g` with fixed seeds; true when one sample can be made.
template <typename T>
bool can_generate(const rc::Gen<T>& g, int probes = 24) {
  for (int i = 0; i < probes; ++i) {
    try {
      (void)g(rc::Random(static_cast<std::uint64_t>(i) * 104729 + 3), 10 + i * 4).value();
      return true;
    } catch (const rc::GenerationFailure&) {
    }
  }
  return false;
}

/// nullopt when `g` gives a value within `probes` draws (as can_generate);
/// otherwise why the last draw gave up.
template <typename T>
std::optional<std::string> why_no_value(const rc::Gen<T>& g, int probes = 24) {
  std::string why;
  for (int i = 0; i < probes; ++i) {
    try {
      (void)g(rc::Random(static_cast<std::uint64_t>(i) * 104729 + 3), 10 + i * 4).value();
      return std::nullopt;
    } catch (const rc::GenerationFailure& e) {
      why = e.what();
    }
  }
  return why;
}

/// A small CSV: a header row of 1-3 columns and 1-3 rows.
rc::Gen<std::string> csv_text();

/// "conform-" and 16 hex digits.
rc::Gen<std::string> boundary_gen();

}  // namespace conform::generators::detail
