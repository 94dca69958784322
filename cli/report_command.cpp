// `conform report diff OLD.json NEW.json [--json]`: the failures of two runs
// compared by their stable keys (reports/diff.hpp).
#include <boost/json/serialize.hpp>

#include <string>
#include <vector>

#include "cli/cli.hpp"
#include "reports/diff.hpp"
#include "reports/json_read.hpp"

namespace conform::cli {
namespace {

constexpr const char* report_usage =
    "usage: conform report diff OLD.json NEW.json [--json]\n"
    "  compares the failures of two JSON run reports: new, fixed, still failing, and flaky\n"
    "  (not reproduced by a re-send); a section per class, a line per failure key\n"
    "  --json  one JSON document on stdout instead (for CI)\n"
    "exit status: 0 nothing new, 1 a new failure, 2 a bad report or usage";

int diff_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::vector<std::string> files;
  bool json = false;
  for (const auto& a : args) {
    if (a == "--help" || a == "-h") {
      out << report_usage << "\n";
      return 0;
    }
    if (a == "--json") {
      json = true;
    } else if (!a.empty() && a.front() == '-') {
      err << "conform report diff: unknown option '" << a << "'\n" << report_usage << "\n";
      return 2;
    } else {
      files.push_back(a);
    }
  }
  if (files.size() != 2) {
    err << "conform report diff: needs two JSON reports, OLD and NEW (got " << files.size() << ")\n"
        << report_usage << "\n";
    return 2;
  }
  const auto old_report = reports::read_json_report(files[0]);
  if (!old_report) {
    err << "conform report diff: " << old_report.error() << "\n";
    return 2;
  }
  const auto new_report = reports::read_json_report(files[1]);
  if (!new_report) {
    err << "conform report diff: " << new_report.error() << "\n";
    return 2;
  }
  const reports::run_diff d = reports::compare(*old_report, *new_report);
  if (json) {
    out << boost::json::serialize(reports::diff_json(d)) << "\n";
  } else {
    out << reports::render_diff_text(d);
  }
  return d.exit_code();
}

}  // namespace

int report_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (!args.empty() && args[0] == "diff")
    return diff_command({args.begin() + 1, args.end()}, out, err);
  if (!args.empty() && args[0] == "merge")
    return report_merge_command({args.begin() + 1, args.end()}, out, err);
  err << "conform report: the subcommands are 'diff' (conform report diff OLD.json NEW.json) "
         "and 'merge' (conform report merge SHARD.json... -o ALL.json)\n";
  return 2;
}

}  // namespace conform::cli
