#pragma once
// The partner's client as `conform certify` runs it: started with the
// profile in its environment, waited for (with a timeout), and identified
// by the files it is made of.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/outcome.hpp"

namespace conform::cli {

/// How the client's run ended.
struct client_run {
  std::string exit;        // "exit status 0", "killed by signal 9", "stopped after --timeout 5 s"
  bool completed = false;  // exited 0 within the timeout
};

/// Runs `command` with `env` added to this process's environment (any
/// CONFORM_PROFILE* and CONFORM_BASE_URL of ours replaced), or why it
/// cannot start.
core::outcome<client_run> run_client(const std::vector<std::string>& command,
                                     const std::vector<std::string>& env, double timeout_seconds);

/// The files that identify the client of `command`, each with its sha256:
/// `named` when given, else the executable it resolves to (through PATH)
/// and every argument that names a regular file (a script); or why a named
/// file cannot be read.
core::outcome<std::vector<std::pair<std::string, std::string>>> client_artifacts(
    const std::vector<std::string>& command, const std::vector<std::string>& named);

}  // namespace conform::cli
