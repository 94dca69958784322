#pragma once
// Runs `conform run` in process against the in-process reference server (with
// faults when asked) and hands back the exit status and the JSON report, so a
// suite's tests assert on what users read.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli.hpp"
#include "reference/server.hpp"

namespace conform::suites::testing {

/// A planted fault of the reference and the check made to catch it.
struct fault_case {
  const char* fault;
  const char* check;
};

// What ctest's listing shows of a case: the fault and its check, not the
// struct's bytes (pointers, which differ from run to run).
inline void PrintTo(const fault_case& c, std::ostream* os) {
  *os << c.fault << " / " << c.check;
}

struct conform_result {
  int status = 0;
  std::string out, err;
  boost::json::object report;  // the --json report (empty when none was written)

  /// The failures of check `check` (every one when `check` is empty).
  std::vector<boost::json::object> failures(const std::string& check = "") const {
    std::vector<boost::json::object> out_;
    if (!report.contains("failures")) return out_;
    for (const auto& f : report.at("failures").as_array()) {
      if (check.empty() || f.at("check").as_string() == check) out_.push_back(f.as_object());
    }
    return out_;
  }
  /// The names of the checks that failed.
  std::set<std::string> failed_checks() const {
    std::set<std::string> names;
    for (const auto& f : failures()) names.insert(std::string(f.at("check").as_string()));
    return names;
  }
  /// The not-run entries, serialised (for assertion messages).
  std::string not_run_text() const {
    return report.contains("not_run") ? boost::json::serialize(report.at("not_run")) : "";
  }
  std::size_t not_run_count() const {
    return report.contains("not_run") ? report.at("not_run").as_array().size() : 0;
  }
  /// Cells of `check` that passed at least once.
  std::size_t cells_passed(const std::string& check) const {
    std::size_t n = 0;
    if (!report.contains("cells")) return n;
    for (const auto& c : report.at("cells").as_array()) {
      if (c.at("check").as_string() == check && c.at("passed").as_int64() > 0) ++n;
    }
    return n;
  }
};

/// "<operation>: <cause>" per failure of `check`, a line each.
inline std::string causes(const conform_result& r, const std::string& check) {
  std::string out;
  for (const auto& f : r.failures(check)) {
    out += std::string(f.at("operation_id").as_string()) + ": " +
           std::string(f.at("cause").as_string()) + "\n";
  }
  return out;
}

/// The reference server's profile without scope `scope` on any credential,
/// written to a file for --profile.
inline std::string profile_without_scope(const reference::server& srv, const std::string& scope,
                                         const std::string& name) {
  std::string yaml = srv.profile_yaml();
  for (const std::string& form : {", " + scope, scope + ", "}) {
    for (auto at = yaml.find(form); at != std::string::npos; at = yaml.find(form, at)) {
      yaml.erase(at, form.size());
    }
  }
  for (auto at = yaml.find("[" + scope + "]"); at != std::string::npos;
       at = yaml.find("[" + scope + "]", at)) {
    yaml.replace(at, scope.size() + 2, "[]");
  }
  const auto path = std::filesystem::temp_directory_path() /
                    ("conform-" + name + "-" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(path) << yaml;
  return path.string();
}

/// `conform run --no-progress --examples 0 --json <tmp> <args...>`; pass
/// "--checks", "a,b" to run a subset and "--fault", "NAME" for a fault.
inline conform_result run_conform(std::vector<std::string> args) {
  namespace fs = std::filesystem;
  static int counter = 0;
  const fs::path json = fs::temp_directory_path() / ("conform-suite-" + std::to_string(::getpid()) +
                                                     "-" + std::to_string(++counter) + ".json");
  std::vector<std::string> full = {"run", "--no-progress", "--json", json.string()};
  bool has_examples = false;
  for (const auto& a : args) has_examples = has_examples || a == "--examples";
  if (!has_examples) full.insert(full.end(), {"--examples", "1"});
  full.insert(full.end(), args.begin(), args.end());
  std::ostringstream out, err;
  conform_result r;
  r.status = cli::main_command(full, out, err);
  r.out = out.str();
  r.err = err.str();
  std::ifstream in(json);
  if (in) {
    std::stringstream text;
    text << in.rdbuf();
    boost::system::error_code ec;
    auto v = boost::json::parse(text.str(), ec);
    if (!ec && v.is_object()) r.report = v.as_object();
  }
  fs::remove(json);
  return r;
}

/// `conform run --checks <checks>` with the faults the auth and tenant
/// checks are not meant to catch all switched on: they must stay silent.
inline conform_result run_under_other_concerns_faults(const std::string& checks) {
  std::vector<std::string> args = {"--checks", checks};
  for (const auto* fault : {"missing_envelope_field", "missing_request_id", "page_gap",
                            "page_count_off", "cursor_unbound", "replay_not_marked",
                            "invalid_transition_allowed", "no_405", "telephony_not_idempotent"}) {
    args.insert(args.end(), {"--fault", fault});
  }
  return run_conform(args);
}

}  // namespace conform::suites::testing
