// `conform replay FILE`: the requests of a recorded run (`--record`, HAR
// 1.2) sent again, in order, to another target; each answer judged by the
// same checks and compared with the recorded one (docs/recording.md).
#include <unistd.h>

#include <boost/json.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

#include "cli/arguments.hpp"
#include "cli/cli.hpp"
#include "cli/default_spec.hpp"
#include "cli/target.hpp"
#include "cli/url_target.hpp"
#include "harness/replay.hpp"
#include "openapi/loader.hpp"
#include "profile/loader.hpp"
#include "reference/server.hpp"
#include "reports/console.hpp"
#include "reports/har_read.hpp"
#include "reports/registry.hpp"
#include "suites/registry.hpp"

namespace conform::cli {
namespace {

namespace fs = std::filesystem;

std::string replay_help() {
  return R"(usage: conform replay FILE [options]

Sends the requests a run recorded (conform run --record FILE, HAR 1.2) again,
in their order, to another target; judges each answer with the same checks,
and reports where it differs from the recorded answer in status, error code
or schema. Secrets recorded as ${NAME} are taken from the target's profile
(or its -H and --auth-env), else from the environment. With neither --url nor
--profile, the in-process reference server is the target.

  --url BASE           the target (with -H 'Name: value', --auth-env NAME,
                       --auth-scheme KEY, as for conform run)
  --profile FILE       the target profile
  --spec FILE          the description (default: the one the recording names,
                       else specs/voice-api.yaml)
  --overlay FILE       an OpenAPI Overlay applied to it (repeatable)
  --ref-root DIR       $refs may read the files under DIR
  --checks NAME,...    only these per-exchange checks (see conform run --list-checks)
  --json FILE          the replay's report as JSON (docs/report-format.md)
  --report FORMAT=FILE a report of FORMAT (the report formats below); repeatable
  --differences FILE   every difference as JSON, one object a line
  --timeout SECONDS    per-request timeout (default 30)
  --fault NAME         in-process reference only: switch on a fault (repeatable)
  -h, --help           this text

Report formats (--report FORMAT=FILE):
)" + reports::report_format_lines() +
         R"(
Exit status: 0 every answer as recorded and every check passed, 1 an answer
differs or a check failed, 2 usage or configuration error (a bad recording,
description or profile, target unreachable, nothing replayed).
)";
}

struct replay_options {
  std::string file;
  std::string url, profile, spec, ref_root, auth_env, auth_scheme, differences;
  std::vector<std::string> headers, overlays, checks, faults;
  std::vector<std::pair<std::string, std::string>> reports;
  double timeout_seconds = 30;
  bool help = false;
};

core::outcome<replay_options> parse_replay_options(const std::vector<std::string>& args) {
  std::string error;  // what take() could not read
  replay_options o;
  argument_reader in(args);
  while (in.next()) {
    const std::string& name = in.name();
    std::string v;
    auto take = [&](std::string& out) {
      auto got = in.value(out);
      if (!got) error = got.error();
      return got.ok();
    };
    if (name == "-h" || name == "--help") {
      o.help = true;
    } else if (name == "--url") {
      if (!take(o.url)) return core::fail(error);
    } else if (name == "--profile") {
      if (!take(o.profile)) return core::fail(error);
    } else if (name == "--spec") {
      if (!take(o.spec)) return core::fail(error);
    } else if (name == "--ref-root") {
      if (!take(o.ref_root)) return core::fail(error);
    } else if (name == "--auth-env") {
      if (!take(o.auth_env)) return core::fail(error);
    } else if (name == "--auth-scheme") {
      if (!take(o.auth_scheme)) return core::fail(error);
    } else if (name == "--differences") {
      if (!take(o.differences)) return core::fail(error);
    } else if (name == "-H" || name == "--header") {
      if (!take(v)) return core::fail(error);
      o.headers.push_back(v);
    } else if (name == "--overlay") {
      if (!take(v)) return core::fail(error);
      o.overlays.push_back(v);
    } else if (name == "--fault") {
      if (!take(v)) return core::fail(error);
      o.faults.push_back(v);
    } else if (name == "--checks") {
      if (!take(v)) return core::fail(error);
      o.checks = split_list(v);
    } else if (name == "--json") {
      if (!take(v)) return core::fail(error);
      o.reports.emplace_back("json", v);
    } else if (name == "--report") {
      if (!take(v)) return core::fail(error);
      const auto eq = v.find('=');
      if (eq == std::string::npos || !reports::find_report_format(v.substr(0, eq)) ||
          eq + 1 == v.size()) {
        return core::fail("--report takes FORMAT=FILE with a known format, got '" + v + "'");
      }
      o.reports.emplace_back(v.substr(0, eq), v.substr(eq + 1));
    } else if (name == "--timeout") {
      if (!take(v)) return core::fail(error);
      if (!parse_seconds(v, o.timeout_seconds)) {
        return core::fail("--timeout takes a number of seconds above 0 and at most 86400, not '" +
                          v + "'");
      }
    } else if (!name.empty() && name[0] == '-') {
      return core::fail("unknown option '" + name + "' (see conform replay --help)");
    } else if (o.file.empty()) {
      o.file = name;
    } else {
      return core::fail("one recording at a time ('" + o.file + "', '" + name + "')");
    }
  }
  if (o.help) return o;
  if (o.file.empty()) {
    return core::fail("which recording? (conform replay FILE, FILE from conform run --record)");
  }
  if (!o.url.empty() && !o.profile.empty()) {
    return core::fail("give either --url or --profile, not both");
  }
  if (!o.faults.empty() && (!o.url.empty() || !o.profile.empty())) {
    return core::fail(
        "--fault applies to the in-process reference only, not with --url or --profile");
  }
  if (o.url.empty() && (!o.headers.empty() || !o.auth_env.empty() || !o.auth_scheme.empty())) {
    return core::fail("-H, --auth-env and --auth-scheme go with --url");
  }
  return o;
}

// The description: given, else the recording's (when it is still there).
fs::path replay_spec_path(const replay_options& opts, const reports::har_reader& reader) {
  std::string spec_file = opts.spec;
  if (spec_file.empty() && !reader.origin().spec_file.empty()) {
    std::error_code ec;
    if (fs::is_regular_file(reader.origin().spec_file, ec)) spec_file = reader.origin().spec_file;
  }
  return resolve_default_spec(spec_file);
}

// The run's facts as the replay's report states them.
void describe_replay(harness::run_info& info, const fs::path& spec_path,
                     const openapi::api_spec& api, const profile::target& target,
                     const replay_options& opts, bool in_process_reference, std::uint64_t seed) {
  describe_target(info, spec_path.string(), api, target, in_process_reference, opts.profile);
  info.workers = 1;
  info.seed = seed;  // the recorded run's, as its console said it
  info.started_at = utc_now();
}

// One difference as a line of --differences FILE (JSON Lines).
void write_replay_difference(std::ostream& file, const harness::replay_difference& d) {
  file << boost::json::serialize(boost::json::object{{"seq", d.seq},
                                                     {"operation_id", d.operation_id},
                                                     {"method_path", d.method_path},
                                                     {"auth_model", d.auth_model},
                                                     {"aspect", d.aspect},
                                                     {"recorded", d.recorded},
                                                     {"now", d.now},
                                                     {"curl", d.curl}})
       << "\n";
}

// What the replay found different: how many, and the first, for the console.
struct replay_differences {
  std::uint64_t count = 0;
  std::vector<std::string> shown;
};

// Sends every recorded exchange again, in the recorded order, each
// difference written to `differences_file` when it is open.
replay_differences replay_recording(reports::har_reader& reader,
                                    std::optional<harness::recorded_exchange> pending,
                                    harness::replayer& replay, const std::string& base_path,
                                    std::ofstream& differences_file) {
  constexpr std::size_t show_at_most = 200;
  replay_differences found;
  for (; pending; pending = reader.next()) {
    harness::recorded_exchange& e = *pending;
    // A recording of another tool: its URL's path, less this target's base path.
    if (e.phase.empty() && !base_path.empty() && e.request.target.starts_with(base_path)) {
      e.request.target.erase(0, base_path.size());
      if (e.request.target.empty() || e.request.target[0] == '?') e.request.target.insert(0, "/");
    }
    for (const auto& d : replay.replay(e)) {
      ++found.count;
      if (found.shown.size() < show_at_most) found.shown.push_back(harness::to_string(d));
      if (differences_file) write_replay_difference(differences_file, d);
    }
  }
  return found;
}

// The console's summary: what was replayed, the differences, what was not compared.
void print_replay_summary(std::ostream& out, const harness::replayer& replay,
                          const reports::har_reader& reader, const std::string& target,
                          const replay_differences& found, const replay_options& opts) {
  out << "\nReplayed " << replay.replayed() << " of " << reader.count()
      << " recorded exchanges against " << target << ": "
      << (found.count == 0 ? std::string("every answer as recorded")
                           : std::to_string(found.count) + " difference(s)")
      << "\n";
  for (const auto& line : found.shown) out << "  " << line << "\n";
  if (found.count > found.shown.size()) {
    out << "  ... and " << found.count - found.shown.size() << " more"
        << (opts.differences.empty() ? " (--differences FILE lists them all)" : "") << "\n";
  }
  if (replay.rate_limited() > 0) {
    out << replay.rate_limited()
        << " answer(s) not compared: one of the two was a rate-limit refusal\n";
  }
  if (replay.concurrent() > 0) {
    out << replay.concurrent()
        << " answer(s) not compared: an in-progress conflict of an idempotency key, which "
           "depends on two requests in flight at once (a replay sends one at a time)\n";
  }
  if (replay.skipped() > 0) {
    out << replay.skipped() << " exchange(s) not resent: see \"not run\" above\n";
  }
}

}  // namespace

int replay_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  auto parsed = parse_replay_options(args);
  if (!parsed) {
    err << "conform replay: " << parsed.error() << "\n";
    return 2;
  }
  const replay_options& opts = *parsed;
  if (opts.help) {
    out << replay_help();
    return 0;
  }
  reports::har_reader reader(opts.file);
  std::optional<harness::recorded_exchange> pending = reader.next();
  if (!reader.error().empty()) {
    err << "conform replay: " << reader.error() << "\n";
    return 2;
  }

  const fs::path spec_path = replay_spec_path(opts, reader);
  openapi::load_options load_opts;
  load_opts.overlays.assign(opts.overlays.begin(), opts.overlays.end());
  load_opts.ref_root = opts.ref_root;
  auto loaded = openapi::load(spec_path, load_opts);
  if (!loaded.ok()) {
    print_diagnostics(loaded.diagnostics, err);
    err << "conform replay: the description " << spec_path.string() << " has errors\n";
    return 2;
  }
  const openapi::api_spec& api = *loaded.spec;
  if (!reader.origin().spec_hash.empty() && reader.origin().spec_hash != api.hash) {
    err << "conform replay: note: " << spec_path.string()
        << " is not the description the recording was made with (its sha256 differs)\n";
  }

  // The target.
  std::unique_ptr<reference::server> reference_server;
  const target_choice choice{opts.profile, opts.url, opts.headers, opts.auth_env, opts.auth_scheme,
                             opts.faults,  1,        false};
  const auto target = make_target(choice, api, "replay", "", reference_server, err);
  if (!target) return 2;
  http::client_options client_opts = client_options_for(*target, opts.timeout_seconds);
  client_opts.workers = 1;  // one request at a time, in the recorded order
  if (auto why = check_identities(client_opts)) {
    err << "conform replay: " << *why << "\n";
    return 2;
  }
  http::client client(target->base_url, client_opts);

  const harness::check_catalogue catalogue = suites::builtin_checks();
  auto selection = catalogue.select(opts.checks);
  if (!selection) {
    err << "conform replay: --checks: unknown check '" << selection.error() << "'\n";
    return 2;
  }
  harness::replay_config config;
  config.checks = selection->exchange;
  if (const auto* schema = catalogue.find("response_schema_conformance")) {
    config.schema_check = schema->exchange;
  }
  describe_replay(config.info, spec_path, api, *target, opts, reference_server != nullptr,
                  reader.origin().seed);
  for (const auto* k : config.checks) config.info.checks.push_back(k->info.name);

  harness::event_stream listeners;
  listeners.add(std::make_unique<reports::console_writer>(out, false));
  std::vector<std::pair<std::string, const reports::file_writer*>> files;
  for (const auto& [format_name, path] : opts.reports) {
    auto w = reports::make_writer(*reports::find_report_format(format_name), path);
    files.emplace_back(format_name, w.get());
    listeners.add(std::move(w));
  }
  std::ofstream differences_file;
  if (!opts.differences.empty()) {
    differences_file.open(opts.differences, std::ios::trunc);
    if (!differences_file) {
      err << "conform replay: --differences: cannot write '" << opts.differences << "'\n";
      return 2;
    }
  }

  harness::replayer replay(api, *target, std::move(config), client, listeners);
  replay.start();
  const auto found = replay_recording(reader, std::move(pending), replay,
                                      target->base_url.base_path, differences_file);
  const harness::run_report report = replay.finish();
  if (!reader.error().empty()) {
    err << "conform replay: " << reader.error() << "\n";
    return 2;
  }
  print_replay_summary(out, replay, reader, target->base_url.to_string(), found, opts);
  int status = report.exit_code();
  if (found.count > 0 && status == 0) status = 1;
  if (replay.replayed() == 0) {
    err << "conform replay: nothing was replayed\n";
    status = 2;
  }
  for (const auto& [format_name, writer] : files) {
    if (writer->error().empty()) continue;
    err << "conform replay: --" << format_name << ": " << writer->error() << "\n";
    status = 2;
  }
  if (differences_file && !differences_file.flush()) {
    err << "conform replay: --differences: cannot write '" << opts.differences << "'\n";
    status = 2;
  }
  return status;
}

}  // namespace conform::cli
