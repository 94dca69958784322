#pragma once
// The target `conform run` and `conform replay` send to: a profile, `--url`
// (cli/url_target.hpp), or the in-process reference server; the HTTP client
// options that go with it; and how the commands print a load's diagnostics.

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/source.hpp"
#include "harness/run_report.hpp"
#include "http/client.hpp"
#include "openapi/model.hpp"
#include "profile/profile.hpp"
#include "reference/server.hpp"

namespace conform::cli {

/// What the command line says about the target.
struct target_choice {
  std::string profile;               // --profile FILE
  std::string url;                   // --url BASE, with:
  std::vector<std::string> headers;  //   -H 'Name: value'
  std::string auth_env;              //   --auth-env NAME
  std::string auth_scheme;           //   --auth-scheme KEY
  std::vector<std::string> faults;   // --fault, for the in-process reference
  int scale = 1;                     // --scale, for the in-process reference
  /// A profile's JWTs say what it leaves unstated (profile::learn_from_tokens).
  bool learn_from_tokens = false;
};

/// The target `choice` names, bound to `api`; with neither a profile nor a
/// URL, the in-process reference server, started into `reference_server`.
/// nullopt when it cannot be had: said on `err` as "conform <command>: ...",
/// a profile's errors ending with `profile_error_suffix`.
std::optional<profile::target> make_target(const target_choice& choice,
                                           const openapi::api_spec& api, const std::string& command,
                                           const std::string& profile_error_suffix,
                                           std::unique_ptr<reference::server>& reference_server,
                                           std::ostream& err);

/// Each diagnostic on a line of its own (`file:line:col: ...`).
void print_diagnostics(const std::vector<core::diagnostic>& diags, std::ostream& err);

/// The client options for `target`: its client certificates and CA, and
/// the timeouts of `timeout_seconds` (connecting within 10 s at most).
http::client_options client_options_for(const profile::target& target, double timeout_seconds);

/// What a report states of the description and the target, the same for
/// `run` and `replay`: the tool version, the description's file, title,
/// version and hash, the target's base URL, and the profile file.
void describe_target(harness::run_info& info, const std::string& spec_file,
                     const openapi::api_spec& api, const profile::target& target,
                     bool in_process_reference, const std::string& profile_file);

}  // namespace conform::cli
