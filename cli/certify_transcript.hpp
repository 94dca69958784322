#pragma once
// The transcript of a certification (`conform certify --transcript FILE`):
// the recorded traffic as JSON lines, what `certify --judge FILE` judges
// again offline to the same verdict, and what a certificate carries the
// digest of. Line 1 is the header (the description, seed, environment,
// the client and how it ended, the adversity plan, the credentials by name);
// every other line is one exchange, in order. A plan of passes writes one
// such section per pass, one after the other, each with its own header. Secrets never appear: each
// credential of the profile is written as its key prefix (the environment
// it is of, which the rules judge) and "<secret of NAME>", in every header
// and body, and the header names the credentials by that same text.
// docs/certification.md, "Transcript", has the format.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/outcome.hpp"
#include "harness/certification.hpp"
#include "openapi/model.hpp"

namespace conform::cli {

/// What a transcript says besides the exchanges.
struct transcript_header {
  std::string tool_version;
  std::uint64_t seed = 0;
  std::string environment;
  std::string level;  // asked for
  std::string spec_title, spec_version, spec_hash;
  std::string base_url;
  std::string started_at, finished_at;
  std::string client_command, client_name;
  std::vector<std::pair<std::string, std::string>> client_artifacts;  // (file, sha256)
  harness::client_outcome client;
  std::vector<std::string> adversity_plan;
  /// The plan's pass this section is ("" for a single pass, --listen).
  harness::pass_summary pass;
  harness::certification_scope scope;  // the plan's, on every section
};

/// A transcript read back.
struct transcript {
  transcript_header header;
  harness::traffic traffic;  // spec unset, not annotated
};

/// The transcript of `t` (annotated or not): secrets replaced as above.
std::string write_transcript(const transcript_header& h, const harness::traffic& t,
                             const openapi::api_spec& spec);

/// Reads a transcript, or says why it is not one ("line 3: ..."): one
/// section per pass of the plan, each from its header line on (a single
/// section for a single pass).
core::outcome<std::vector<transcript>> read_transcript(const std::string& text);

}  // namespace conform::cli
