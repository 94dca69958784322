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

/// `conform serve ...` (args after "serve"): the reference server
/// standalone until SIGINT/SIGTERM, writing the profile that reaches it.
/// 0 on a clean stop, 2 on a usage or configuration error (one line on `err`).
int serve_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// `conform profile discover --url BASE ...` (args after "profile"): a profile
/// written from what the target's answers prove (cli/profile_command.cpp).
/// 0 written, 2 usage or configuration error.
int profile_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// `conform certify ...` (args after "certify"): runs a partner's client
/// against a certification server and judges its traffic (docs/certification.md).
/// 0 certified, 1 not, 2 usage or configuration error.
int certify_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// `conform certificate keygen|verify ...` (args after "certificate").
/// verify: 0 valid, 1 invalid or tampered, 2 usage error.
int certificate_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// `conform replay FILE ...` (args after "replay"): a recorded run's requests
/// (`run --record`) sent again to another target, judged and compared with the
/// recorded answers; 0 all as recorded, 1 a difference or a failed check, 2
/// usage or configuration error.
int replay_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// `conform spec lint ...` (args after "lint"): loads and checks a
/// description; diagnostics on `err`, the summary on `out`; 0 or 2.
int lint_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// `conform spec diff OLD NEW ...` (args after "diff"): every change between
/// two descriptions, classified for clients; 0 nothing breaking, 1 something
/// breaking, 2 a bad description (the loader's diagnostics on `err`) or usage.
int spec_diff_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// `conform report diff OLD.json NEW.json [--json]` (args after "report"):
/// new, fixed, still failing and flaky failures of two runs; 0 nothing new,
/// 1 something new, 2 a bad report (file and JSON pointer on `err`) or usage.
/// `conform report merge A.json B.json ... -o ALL.json` too (report_merge_command).
int report_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// `conform report merge SHARD.json... -o ALL.json [--junit FILE] [--report FORMAT=FILE]
/// [--baseline FILE] [--spec FILE]` (args after "merge"): the shards' JSON reports as the report of
/// the whole run; 0 every check passed (with --baseline: nothing new), 1 a failure (a new one), 2
/// reports not of one run, a shard missing or given twice, a bad file, or usage.
int report_merge_command(const std::vector<std::string>& args, std::ostream& out,
                         std::ostream& err);

}  // namespace conform::cli
