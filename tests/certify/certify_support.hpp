#pragma once
// Running `conform certify` for the end-to-end tests: as a process of its
// own (build/conform), so that several certifications run at once (each a
// server and a client that mostly wait), and its JSON report read back.

#include <gtest/gtest.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/json.hpp>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <vector>

extern char** environ;

namespace conform::testing {

namespace fs = std::filesystem;

/// A scratch folder of this test process.
inline fs::path scratch(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("conform-certify-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::remove(dir / name);
  return dir / name;
}

inline std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// One run of `conform ARGS...`: its exit status and what it printed.
struct certify_run {
  int status = -1;
  std::string out;
  boost::json::value report;  // --json, when the run wrote one
};

/// Starts `build/conform args...` with stdout and stderr into `log`; its
/// pid, or 0 when it could not start.
inline pid_t spawn_conform(const std::vector<std::string>& args, const fs::path& log) {
  std::vector<std::string> argv_s{CONFORM_BINARY};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  const bool started = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) == 0;
  posix_spawn_file_actions_destroy(&actions);
  return started ? pid : 0;
}

/// Runs `build/conform args...` (stdout and stderr into a file), waits for it,
/// and reads the --json report it was given, if any.
inline certify_run conform_process(const std::vector<std::string>& args) {
  static std::atomic<int> counter{0};
  const fs::path log = scratch("run-" + std::to_string(counter++) + ".log");
  certify_run r;
  if (const pid_t pid = spawn_conform(args, log)) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  r.out = read_file(log);
  for (std::size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] != "--json") continue;
    boost::system::error_code ec;
    r.report = boost::json::parse(read_file(args[i + 1]), ec);
  }
  return r;
}

/// `conform certify --seed SEED --json FILE [extra...] -- client...`.
inline certify_run certify(std::uint64_t seed, const std::vector<std::string>& client,
                           const std::vector<std::string>& extra = {}) {
  static std::atomic<int> counter{0};
  const fs::path json = scratch("report-" + std::to_string(counter++) + ".json");
  std::vector<std::string> args{"certify", "--seed", std::to_string(seed), "--json", json};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back("--");
  args.insert(args.end(), client.begin(), client.end());
  return conform_process(args);
}

/// Runs every job at once (each one certification, mostly waiting) and
/// returns their results in order.
template <typename Job>
auto all_at_once(const std::vector<Job>& jobs) {
  std::vector<std::future<certify_run>> running;
  for (const auto& j : jobs) running.push_back(std::async(std::launch::async, j));
  std::vector<certify_run> out;
  for (auto& f : running) out.push_back(f.get());
  return out;
}

/// The status of rule `name` in a JSON report ("passed", "failed",
/// "not_exercised"); "failed" for client_completed when the client failed.
inline std::string rule_status(const boost::json::value& report, const std::string& name) {
  if (!report.is_object()) return "(no report)";
  for (const auto& r : report.at("rules").as_array()) {
    if (r.at("check").as_string() == name) return std::string(r.at("status").as_string());
  }
  for (const auto& f : report.at("failures").as_array()) {
    if (f.at("check").as_string() == name) return "failed";
  }
  return "(no such rule)";
}

/// True when `program` runs (python3, node).
inline bool available(const std::string& program) {
  return std::system((program + " --version >/dev/null 2>&1").c_str()) == 0;
}

}  // namespace conform::testing
