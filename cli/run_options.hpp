#pragma once
// The options of `conform run`, parsed and checked at the edge. The names
// CI scripts type are fixed by the user contract; `--help` lists them all.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/outcome.hpp"

namespace conform::cli {

struct run_options {
  std::string spec = "specs/voice-api.yaml";
  std::string permissions;                    // empty: permissions.yaml beside the spec
  std::vector<std::string> overlays;          // --overlay FILE: OpenAPI Overlays, in order
  std::string ref_root;                       // --ref-root DIR: where $refs may read
  std::string profile;                        // empty: --url, else the in-process reference
  std::string url;                            // --url BASE: a target without a profile
  std::vector<std::string> headers;           // -H 'Name: value' (with --url)
  std::string auth_env;                       // --auth-env NAME (with --url)
  std::string auth_scheme;                    // --auth-scheme KEY (with --auth-env)
  std::optional<std::uint64_t> seed;          // nullopt: chosen at random and printed
  std::uint32_t examples = 10;                // per operation, auth model and mode
  std::vector<std::string> include, exclude;  // operationId, tag or "METHOD /path" (globs)
  /// --read-only: operations (the same patterns) that only read, which safe
  /// mode sends whatever their method.
  std::vector<std::string> read_only;
  std::vector<std::string> checks;     // empty: every check
  std::vector<std::string> workflows;  // Arazzo files run besides the shipped ones
  /// Report files to write: (format name, path), in the order given
  /// (--junit FILE, --json FILE, --report FORMAT=FILE).
  std::vector<std::pair<std::string, std::string>> reports;
  std::string record;           // --record FILE: every exchange as HAR 1.2
  std::string baseline;         // --baseline: a JSON report whose failures are known
  std::string update_baseline;  // --update-baseline: write this run's JSON report there
  double timeout_seconds = 30;
  unsigned workers = 4;
  unsigned threads = 0;                    // --threads: what drives the workers; 0: one per core
  double rate_limit = 0;                   // requests per second, 0 = unlimited
  unsigned max_shrinks = 64;               // requests spent shrinking one failure at most
  double shrink_seconds_per_failure = 20;  // --shrink-time-per-failure; 0: no bound
  std::optional<double> shrink_seconds;    // --shrink-time; nullopt: the run so far, >= 30 s
  bool skip_invalid_operations = false;    // run what is valid of a description with errors
  bool coverage = true;                    // the coverage phase before the random examples
  bool stateful = true;                    // the stateful phase before everything else
  /// --strict-assumptions: failures that contradict only an assumption of
  /// the description fail the run too.
  bool strict_assumptions = false;
  /// --allow-destructive: write to any resource the run reaches, not only
  /// to what it created (the default for a profile or --url target).
  bool allow_destructive = false;
  /// --no-auth: the target does not enforce the description's security (a
  /// server run with authentication off): every request goes without a
  /// credential, and the checks of credentials and tenants are not run.
  bool no_auth = false;
  bool progress = true;  // a progress bar when stdout is a terminal
  bool list_checks = false;
  bool help = false;
  std::uint32_t shard_index = 0, shard_count = 0;  // --shard K/N; 0/0: the whole run
  std::vector<std::string> faults;                 // in-process reference only: faults to switch on
  int scale = 1;                                   // in-process reference only: data multiplier
};

/// Parses the arguments after `run`; a usage error is one line naming the
/// option.
core::outcome<run_options> parse_run_options(const std::vector<std::string>& args);

/// Parses "K/N" (1 <= K <= N <= 1000) into `index` and `count`, or says why not.
core::status parse_shard(const std::string& text, std::uint32_t& index, std::uint32_t& count);

/// The help text of `conform run`.
std::string run_help();

/// True when `pattern` (a glob: * and ?) matches `text`.
bool glob_match(const std::string& pattern, const std::string& text);

}  // namespace conform::cli
