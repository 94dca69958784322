#pragma once
// What the description tests share: what a load said, as text.

#include <string>

#include "openapi/loader.hpp"

namespace conform::openapi::test_support {

/// Every diagnostic of a load, one per line.
inline std::string messages(const load_result& r) {
  std::string out;
  for (const auto& d : r.diagnostics) out += core::to_string(d) + "\n";
  return out;
}

/// True when one of the load's diagnostics says `text`.
inline bool says(const load_result& r, const std::string& text) {
  return messages(r).find(text) != std::string::npos;
}

}  // namespace conform::openapi::test_support
