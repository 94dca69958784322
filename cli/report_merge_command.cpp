// `conform report merge SHARD.json... -o ALL.json`: the JSON reports of a
// run's shards (`conform run --shard K/N`) as the report of the whole run
// (reports/merge.hpp), written as JSON and any other format, judged like a
// run: against a baseline when one is given, summarised for GitHub.
#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "cli/arguments.hpp"
#include "cli/cli.hpp"
#include "cli/default_spec.hpp"
#include "core/file.hpp"
#include "openapi/loader.hpp"
#include "reports/console.hpp"
#include "reports/diff.hpp"
#include "reports/json_read.hpp"
#include "reports/markdown.hpp"
#include "reports/merge.hpp"
#include "reports/registry.hpp"

namespace conform::cli {
namespace {

namespace fs = std::filesystem;

std::string report_merge_usage() {
  return "usage: conform report merge SHARD.json... -o ALL.json [--junit FILE]\n"
         "                            [--report FORMAT=FILE] [--baseline FILE] [--spec FILE]\n"
         "  merges the JSON reports of the N shards of one run (conform run --shard K/N) into the\n"
         "  report of the whole run: cells, failures, not-run entries, counts and timings add up\n"
         "  -o, --output FILE     the merged JSON report (required)\n"
         "  --junit FILE          also the merged JUnit XML report\n"
         "  --report FORMAT=FILE  also FORMAT (" +
         reports::report_format_names() +
         "); repeatable\n"
         "  --baseline FILE       a JSON report of an earlier run: only new failures fail\n"
         "  --spec FILE           the description the shards ran, for the order of operations\n"
         "                        (default: the file the reports name)\n"
         "  With GITHUB_STEP_SUMMARY set, the Markdown summary is appended to that file.\n"
         "exit status: 0 every check passed (with --baseline: nothing new), 1 a check failed\n"
         "(a new failure), 2 reports not of one run (seed, description, target, examples,\n"
         "checks, version), a shard given twice or missing, a bad report, or usage; 3 every\n"
         "check passed but --skip-invalid-operations left operations out";
}

}  // namespace

int report_merge_command(const std::vector<std::string>& args, std::ostream& out,
                         std::ostream& err) {
  std::vector<std::string> files;
  std::vector<std::pair<std::string, std::string>> outputs;  // format, path
  std::string output, baseline_file, spec, error;
  argument_reader in(args);
  auto fail = [&](const std::string& why) {
    err << "conform report merge: " << why << "\n";
    return 2;
  };
  while (in.next()) {
    const std::string& name = in.name();
    std::string v;
    if (name == "-h" || name == "--help") {
      out << report_merge_usage() << "\n";
      return 0;
    }
    if (name == "-o" || name == "--output") {
      if (auto got = in.value(output); !got) return fail(got.error());
    } else if (name == "--junit") {
      if (auto got = in.value(v); !got) return fail(got.error());
      outputs.emplace_back("junit", v);
    } else if (name == "--report") {
      if (auto got = in.value(v); !got) return fail(got.error());
      const auto eq = v.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == v.size() ||
          !reports::find_report_format(v.substr(0, eq))) {
        return fail("--report takes FORMAT=FILE with a known format, got '" + v + "'");
      }
      outputs.emplace_back(v.substr(0, eq), v.substr(eq + 1));
    } else if (name == "--spec") {
      if (auto got = in.value(spec); !got) return fail(got.error());
    } else if (name == "--baseline") {
      if (auto got = in.value(baseline_file); !got) return fail(got.error());
    } else if (!name.empty() && name.front() == '-') {
      err << "conform report merge: unknown option '" << name << "'\n"
          << report_merge_usage() << "\n";
      return 2;
    } else {
      files.push_back(name);
    }
  }
  if (files.empty()) return fail("needs the JSON reports of the shards\n" + report_merge_usage());
  if (output.empty()) return fail("needs -o ALL.json, the merged report's file");

  std::vector<reports::named_report> shards;
  for (const auto& f : files) {
    auto r = reports::read_json_report(f);
    if (!r) return fail(r.error());
    shards.push_back({f, std::move(*r)});
  }
  std::optional<harness::run_report> baseline;
  if (!baseline_file.empty()) {
    auto read = reports::read_json_report(baseline_file);
    if (!read) return fail("--baseline: " + read.error());
    baseline = std::move(read).value();
  }
  // The description the shards ran, for its operations' order: --spec, else
  // the file the reports name (as found from here), if it is still the same.
  std::vector<std::string> operation_order;
  const auto& ran = shards.front().report.info;
  const fs::path spec_path = resolve_default_spec(spec.empty() ? ran.spec_file : spec);
  if (auto loaded = openapi::load(spec_path); loaded.ok() && loaded.spec->hash == ran.spec_hash) {
    for (const auto& op : loaded.spec->operations) operation_order.push_back(op.operation_id);
  } else {
    err << "conform report merge: note: " << spec_path.string()
        << " is not the description the shards ran (sha256 " << ran.spec_hash
        << "); operations are placed in the shards' order (--spec FILE names it)\n";
  }
  auto merged = reports::merge_reports(shards, operation_order);
  if (!merged) return fail(merged.error());

  // The whole run's end, as the console shows a run's: failures, checks, verdict.
  reports::console_writer console(out, false);
  out << "merged " << files.size() << " report(s): " << merged->info.shard_label() << "\n";
  console.run_finished({*merged});

  int status = merged->exit_code();
  std::optional<reports::run_diff> against;
  if (baseline) {
    against = reports::compare(*baseline, *merged);
    out << "\nAgainst the baseline " << baseline_file << ":\n"
        << reports::render_diff_text(*against, true);
    if (status != 2) status = against->exit_code();
    if (status == 0 && merged->info.skipped_operations > 0) status = 3;
  }
  outputs.insert(outputs.begin(), {"json", output});
  for (const auto& [format, path] : outputs) {
    if (auto written = core::write_file(path, reports::find_report_format(format)->render(*merged));
        !written) {
      err << "conform report merge: " << format << ": " << written.error() << "\n";
      status = 2;
    }
  }
  if (const char* summary = std::getenv("GITHUB_STEP_SUMMARY"); summary && *summary) {
    if (auto appended = core::write_file(
            summary, reports::render_markdown(*merged, against ? &*against : nullptr),
            core::write_mode::append);
        !appended) {
      err << "conform report merge: GITHUB_STEP_SUMMARY: " << appended.error() << "\n";
      status = 2;
    }
  }
  return status;
}

}  // namespace conform::cli
