#include "core/source.hpp"

#include <algorithm>

namespace conform::core {

std::string to_string(const source_pos& pos) {
  if (pos.line <= 0) return pos.file;
  return pos.file + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.column);
}

std::string to_string(const diagnostic& d) {
  const char* level = d.level == severity::error     ? ": error: "
                      : d.level == severity::warning ? ": warning: "
                                                     : ": note: ";
  return to_string(d.pos) + level + d.message;
}

bool has_errors(const std::vector<diagnostic>& diags) {
  return std::any_of(diags.begin(), diags.end(),
                     [](const diagnostic& d) { return d.level == severity::error; });
}

}  // namespace conform::core
