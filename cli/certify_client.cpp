#include "cli/certify_client.hpp"

#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <thread>

#include "reports/certificate.hpp"

extern char** environ;

namespace conform::cli {

namespace {

namespace fs = std::filesystem;

bool regular_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

/// The file `name` runs, as posix_spawnp finds it: a path as is, else the
/// first executable in PATH; "" when there is none.
std::string resolve(const std::string& name) {
  if (name.find('/') != std::string::npos) return regular_file(name) ? name : "";
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  std::size_t at = 0;
  while (at <= dirs.size()) {
    const std::size_t colon = dirs.find(':', at);
    std::string dir = dirs.substr(at, colon == std::string::npos ? std::string::npos : colon - at);
    if (dir.empty()) dir = ".";
    const std::string candidate = dir + "/" + name;
    if (regular_file(candidate) && ::access(candidate.c_str(), X_OK) == 0) return candidate;
    if (colon == std::string::npos) break;
    at = colon + 1;
  }
  return "";
}

}  // namespace

core::outcome<client_run> run_client(const std::vector<std::string>& command,
                                     const std::vector<std::string>& env, double timeout_seconds) {
  std::vector<std::string> envs;
  for (char** e = environ; *e; ++e) {
    const std::string_view kv(*e);
    if (kv.starts_with("CONFORM_PROFILE=") || kv.starts_with("CONFORM_PROFILE_JSON=") ||
        kv.starts_with("CONFORM_BASE_URL=")) {
      continue;
    }
    envs.emplace_back(kv);
  }
  envs.insert(envs.end(), env.begin(), env.end());
  std::vector<char*> argv, envp;
  for (const auto& a : command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (const auto& e : envs) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  pid_t pid = 0;
  const int rc =
      ::posix_spawnp(&pid, command[0].c_str(), nullptr, nullptr, argv.data(), envp.data());
  if (rc != 0) {
    return core::fail("cannot start the client command '" + command[0] + "': " + std::strerror(rc));
  }
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(static_cast<long long>(timeout_seconds * 1000));
  int status = 0;
  bool timed_out = false;
  while (true) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) {
      return core::fail("lost the client process: " + std::string(std::strerror(errno)));
    }
    if (!timed_out && std::chrono::steady_clock::now() > deadline) {
      timed_out = true;
      ::kill(pid, SIGKILL);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  client_run out;
  out.completed = !timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (timed_out) {
    char text[64];
    std::snprintf(text, sizeof text, "stopped after --timeout %g s", timeout_seconds);
    out.exit = text;
  } else if (WIFEXITED(status)) {
    out.exit = "exit status " + std::to_string(WEXITSTATUS(status));
  } else if (WIFSIGNALED(status)) {
    out.exit = "killed by signal " + std::to_string(WTERMSIG(status));
  } else {
    out.exit = "ended";
  }
  return out;
}

core::outcome<std::vector<std::pair<std::string, std::string>>> client_artifacts(
    const std::vector<std::string>& command, const std::vector<std::string>& named) {
  std::vector<std::string> files = named;
  if (files.empty() && !command.empty()) {
    const std::string exe = resolve(command[0]);
    if (!exe.empty()) {
      std::error_code ec;
      const fs::path canonical = fs::canonical(exe, ec);
      files.push_back(ec ? exe : canonical.string());
    }
    for (std::size_t i = 1; i < command.size(); ++i) {
      if (regular_file(command[i])) files.push_back(command[i]);
    }
  }
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& f : files) {
    // Only a regular file: a FIFO or a device would hang the digest.
    if (!regular_file(f)) {
      return core::fail("--client-artifact: '" + f + "' is not a regular file");
    }
    auto digest = reports::sha256_of_file(f);
    if (!digest) {
      return core::fail("--client-artifact: " + digest.error());
    }
    out.emplace_back(f, *digest);
  }
  return out;
}

}  // namespace conform::cli
