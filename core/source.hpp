#pragma once
// Positions in a loaded file and the diagnostics that point at them.

#include <ostream>
#include <string>
#include <vector>

namespace conform::core {

/// Where a node of a loaded file starts; line and column count from 1 (0 = unknown).
struct source_pos {
  std::string file;
  int line = 0;
  int column = 0;
};

/// "file:line:col" (or just "file" when the position is unknown).
std::string to_string(const source_pos& pos);

/// note: said for information (a default Conform chose), never a problem.
enum class severity { error, warning, note };

/// One finding of the loader or the linter: where, how bad, and what is wrong.
struct diagnostic {
  source_pos pos;
  severity level = severity::error;
  std::string message;
};

/// "file:line:col: error: message".
std::string to_string(const diagnostic& d);

/// True when any diagnostic is an error.
bool has_errors(const std::vector<diagnostic>& diags);

}  // namespace conform::core
