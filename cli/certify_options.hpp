#pragma once
// The options of `conform certify` and their parser.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/outcome.hpp"

namespace conform::cli {

struct certify_options {
  std::vector<std::string> command;  // after `--`
  bool listen = false;               // --listen: serve until SIGINT/SIGTERM
  std::string profile_out;           // --profile-out FILE (required with --listen)
  int port = 0;
  std::uint64_t seed = 1;
  bool seed_given = false;
  std::string spec = "specs/voice-api.yaml";
  std::string environment = "sandbox";
  std::string level = "core";
  std::vector<std::string> checks;
  std::string json, junit, html;
  std::string record;  // --record FILE: the client's traffic as HAR 1.2
  std::string certificate, signing_key;
  std::string client_name;                    // --client-name NAME
  std::vector<std::string> client_artifacts;  // --client-artifact FILE (repeatable)
  std::string transcript;                     // --transcript FILE: the recorded traffic
  std::string judge;                          // --judge TRANSCRIPT: judge it again, offline
  std::string scope;                          // --scope FILE: the operationIds certified
  bool level_given = false;
  bool adversity = true;
  double client_timeout_seconds = 300;
  bool help = false;
};

/// Parses the arguments after `certify`; a usage error is one line.
core::outcome<certify_options> parse_certify_options(const std::vector<std::string>& args);

/// The --help text.
const char* certify_help();

}  // namespace conform::cli
