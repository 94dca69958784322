#include "cli/cli.hpp"

namespace conform::cli {
namespace {

constexpr const char* cli_usage = R"(usage: conform <command> [options]

commands:
  run                 test a target against the description (--help for options)
  serve               run the reference server standalone and write its profile
  profile discover    learn a target's profile from its answers (--url BASE, credentials)
  certify -- COMMAND  run a partner's client against a certification server and judge it
  certificate keygen|verify   make signing keys; check a certificate
  spec lint [FILE]    load and check a description and its permission matrix
  spec diff OLD NEW   classify every change between two descriptions (breaking or not)
  report diff OLD NEW compare the failures of two JSON run reports (new, fixed, flaky)
  report merge A B... -o ALL   merge the JSON reports of a run's shards (run --shard K/N)
  replay FILE         send a recorded run's requests (run --record) again and compare
  version             print the version

See README.md and docs/ for the profile format, the checks and the reports.
)";

}  // namespace

int main_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty() || args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
    (args.empty() ? err : out) << cli_usage;
    return args.empty() ? 2 : 0;
  }
  const std::string& command = args[0];
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (command == "run") return run_command(rest, out, err);
  if (command == "serve") return serve_command(rest, out, err);
  if (command == "profile") return profile_command(rest, out, err);
  if (command == "certify") return certify_command(rest, out, err);
  if (command == "certificate") return certificate_command(rest, out, err);
  if (command == "report") return report_command(rest, out, err);
  if (command == "replay") return replay_command(rest, out, err);
  if (command == "spec") {
    if (!rest.empty() && rest[0] == "diff")
      return spec_diff_command({rest.begin() + 1, rest.end()}, out, err);
    if (rest.empty() || rest[0] != "lint") {
      err << "conform spec: the subcommands are 'lint' (conform spec lint [FILE]) and 'diff' "
             "(conform spec diff OLD NEW)\n";
      return 2;
    }
    return lint_command(std::vector<std::string>(rest.begin() + 1, rest.end()), out, err);
  }
  if (command == "version" || command == "--version") {
    out << "conform " << CONFORM_VERSION << "\n";
    return 0;
  }
  err << "conform: unknown command '" << command << "'\n" << cli_usage;
  return 2;
}

}  // namespace conform::cli
