#pragma once
// The `conform` command line, callable from tests with its streams.

#include <ostream>
#include <string>
#include <vector>

namespace conform::cli {

/// Runs `conform <args...>`; returns the exit status (0, 1 or 2).
int main_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// `conform run ...` (args after "run").
int run_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace conform::cli
