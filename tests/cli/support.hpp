#pragma once
// What the CLI tests share: a conform command run in process, what it
// returned and printed, and small text helpers.

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli.hpp"

namespace conform::test_support {

/// What a command returned (its exit status) and printed.
struct command_result {
  int status = 0;
  std::string out, err;
};

/// `command(args)` in process, what it printed captured.
inline command_result capture(int (*command)(const std::vector<std::string>&, std::ostream&,
                                             std::ostream&),
                              const std::vector<std::string>& args) {
  std::ostringstream out, err;
  command_result r;
  r.status = command(args, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

/// `conform ARGS...` in process: the first argument names the command.
inline command_result conform_cmd(const std::vector<std::string>& args) {
  return capture(cli::main_command, args);
}

/// `conform run ARGS...` in process.
inline command_result run(const std::vector<std::string>& args) {
  return capture(cli::run_command, args);
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// A file's bytes ("" when it cannot be read).
inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace conform::test_support
