// `conform run`: load the description and the target, plan, run, report.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <tuple>

#include "cli/cli.hpp"
#include "cli/default_spec.hpp"
#include "cli/run_options.hpp"
#include "cli/target.hpp"
#include "cli/url_target.hpp"
#include "core/file.hpp"
#include "http/client.hpp"
#include "profile/claims.hpp"
#include "profile/loader.hpp"
#include "harness/engine.hpp"
#include "openapi/loader.hpp"
#include "reference/server.hpp"
#include "reports/console.hpp"
#include "reports/diff.hpp"
#include "reports/json_read.hpp"
#include "reports/markdown.hpp"
#include "reports/har.hpp"
#include "reports/registry.hpp"
#include "suites/registry.hpp"
#include "suites/workflows/workflows.hpp"

namespace conform::cli {
namespace {

namespace fs = std::filesystem;

/// True when `pattern` (an operationId, a tag or "METHOD /path", globs
/// allowed) names `op`.
bool names_operation(const std::string& pattern, const openapi::operation& op) {
  if (glob_match(pattern, op.operation_id) || glob_match(pattern, op.method_path())) return true;
  return std::any_of(op.tags.begin(), op.tags.end(),
                     [&](const std::string& tag) { return glob_match(pattern, tag); });
}

bool operation_selected(const openapi::operation& op, const run_options& opts) {
  auto matches = [&op](const std::string& pattern) { return names_operation(pattern, op); };
  bool in = opts.include.empty();
  for (const auto& p : opts.include) in = in || matches(p);
  if (!in) return false;
  for (const auto& p : opts.exclude) {
    if (matches(p)) return false;
  }
  return true;
}

/// The description a run judges against, and what --skip-invalid-operations
/// kept out of it.
struct loaded_description {
  fs::path path;
  openapi::load_result loaded;
  std::vector<harness::not_run> skipped;
  std::uint32_t skipped_operations = 0;
};

/// The description `opts` names, loaded; what --skip-invalid-operations kept
/// out, said on `err` and kept as "not run" entries. nullopt (said on `err`)
/// when it has errors or no operation.
std::optional<loaded_description> load_description(const run_options& opts, std::ostream& err) {
  loaded_description d;
  d.path = resolve_default_spec(opts.spec);
  const fs::path& spec_path = d.path;
  openapi::load_options load_opts;
  load_opts.permissions = opts.permissions;
  load_opts.overlays.assign(opts.overlays.begin(), opts.overlays.end());
  load_opts.ref_root = opts.ref_root;
  load_opts.skip_invalid_operations = opts.skip_invalid_operations;
  d.loaded = openapi::load(spec_path, load_opts);
  const auto& loaded = d.loaded;
  if (!loaded.ok()) {
    print_diagnostics(loaded.diagnostics, err);
    err << "conform run: the description " << spec_path.string()
        << " has errors; nothing was run\n";
    return std::nullopt;
  }
  const openapi::api_spec& api = *loaded.spec;
  // Its warnings and notes (a construct read in a way worth knowing, such
  // as a list under items read as a tuple): the first few, on stderr,
  // where a failure they explain will be read.
  constexpr std::size_t notes_shown = 5;
  std::size_t notes = 0;
  for (const auto& d : loaded.diagnostics) {
    if (d.level == core::severity::error) continue;
    if (++notes <= notes_shown) err << core::to_string(d) << "\n";
  }
  if (notes > notes_shown) {
    err << "conform run: " << notes - notes_shown << " more warnings and notes: conform spec lint "
        << spec_path.string() << "\n";
  }
  // --skip-invalid-operations: what the description's errors kept out, said
  // now and as "not run" entries of the report.
  for (const auto& part : loaded.skipped) {
    const std::string why =
        "the description's error at " + core::to_string(part.error.pos) + ": " + part.error.message;
    err << "conform run: not run: " << part.what << ": " << why << "\n";
    if (!part.operation) continue;
    ++d.skipped_operations;
    d.skipped.push_back({"*", part.operation_id.empty() ? part.what : part.operation_id, "",
                         part.what + ": " + why});
  }

  if (api.operations.empty()) {
    err << "conform run: the description " << spec_path.string()
        << " has no operations; nothing to run\n";
    return std::nullopt;
  }

  return d;
}

/// The target: a profile, `--url`, or the in-process reference server
/// (started into `reference_server`), which serves the Voice API alone.
/// nullopt (said on `err`) when it cannot be had.
std::optional<profile::target> make_run_target(const run_options& opts,
                                               const openapi::api_spec& api,
                                               const fs::path& spec_path,
                                               std::unique_ptr<reference::server>& reference_server,
                                               std::ostream& err) {
  if (opts.profile.empty() && opts.url.empty() && !opts.spec.empty() &&
      opts.spec != run_options{}.spec) {
    // Another description would be judged against a server that never claimed it.
    auto shipped = openapi::load(resolve_default_spec(""));
    if (shipped.ok() && shipped.spec->title != api.title) {
      err << "conform run: " << spec_path.string() << " (\"" << api.title
          << "\") is not the description the in-process reference serves; give --url BASE "
             "or --profile FILE\n";
      return std::nullopt;
    }
  }
  target_choice choice{opts.profile,     opts.url,    opts.headers, opts.auth_env,
                       opts.auth_scheme, opts.faults, opts.scale,   true};
  return make_target(choice, api, "run", "; nothing was run", reference_server, err);
}

/// The client of `target`, once a first request saw that it answers at all.
/// nullptr (said on `err`) when it does not.
std::unique_ptr<http::client> reach_target(const run_options& opts, const openapi::api_spec& api,
                                           const profile::target& target, std::ostream& err) {
  http::client_options client_opts = client_options_for(target, opts.timeout_seconds);
  client_opts.workers = opts.workers;
  client_opts.rate_limit = opts.rate_limit;
  if (auto why = check_identities(client_opts)) {
    err << "conform run: " << *why << "\n";
    return nullptr;
  }
  auto client = std::make_unique<http::client>(target.base_url, client_opts);
  {
    http::request probe;
    probe.target = "/";
    // A server of mutual TLS may refuse a handshake without a certificate:
    // present one when the profile has one, and when it has none let the
    // operations that need one say so ("not run: no client certificate").
    if (!client_opts.identities.empty()) probe.client_identity = client_opts.identities[0].name;
    const bool mutual_tls = std::any_of(api.schemes.begin(), api.schemes.end(), [](const auto& s) {
      return s->kind == openapi::security_scheme::type::mutual_tls;
    });
    auto r = client->send_once(0, probe);
    using kind = http::transport_error::kind;
    const bool refused_handshake = !r.ok() && mutual_tls && client_opts.identities.empty() &&
                                   (r.error().what == kind::tls || r.error().what == kind::closed ||
                                    r.error().what == kind::io);
    if (!r.ok() && r.error().what != kind::timeout && r.error().what != kind::too_large &&
        !refused_handshake) {
      err << "conform run: target unreachable: " << r.error().message;
      if (!probe.client_identity.empty() &&
          (r.error().what == kind::tls || r.error().what == kind::closed)) {
        err << " (with the client certificate of credential '" << probe.client_identity
            << "': does the server trust it?)";
      }
      err << "\n";
      return nullptr;
    }
  }

  return client;
}

/// The listeners of a run: the console, the --report files and
/// --update-baseline (each kept in `files` to ask for its error), and the
/// --record HAR writer (`recording`). False (said on `err`) when one cannot start.
bool add_listeners(const run_options& opts, std::ostream& out, std::ostream& err,
                   harness::event_stream& listeners,
                   std::vector<std::pair<std::string, const reports::file_writer*>>& files,
                   const reports::har_writer*& recording) {
  const bool interactive = opts.progress && ::isatty(STDOUT_FILENO) && &out == &std::cout;
  listeners.add(std::make_unique<reports::console_writer>(out, interactive));
  for (const auto& [format_name, path] : opts.reports) {
    // parse_run_options took known formats only.
    auto w = reports::make_writer(*reports::find_report_format(format_name), path);
    files.emplace_back(format_name, w.get());
    listeners.add(std::move(w));
  }
  if (!opts.update_baseline.empty()) {
    auto w = reports::make_writer(*reports::find_report_format("json"), opts.update_baseline);
    files.emplace_back("update-baseline", w.get());
    listeners.add(std::move(w));
  }
  if (!opts.record.empty()) {
    auto w = std::make_unique<reports::har_writer>(opts.record);
    if (!w->error().empty()) {
      err << "conform run: --record: " << w->error() << "\n";
      return false;
    }
    recording = w.get();
    listeners.add(std::move(w));
  }

  return true;
}

/// --no-auth: the checks of credentials and tenants cannot judge what the
/// user says the target does not enforce. Each of them is "not run" on
/// every selected operation that asks for a credential, said once per
/// check. (The auth checks' probes still go out: their answers are judged
/// alone, as every exchange is.) Returns how many operations that is.
std::size_t say_security_not_enforced(const harness::check_catalogue& catalogue,
                                      harness::run_config& config) {
  const std::string why =
      "--no-auth: the target is said not to enforce the description's security, so requests "
      "go without a credential and who may do what is not judged";
  std::vector<const openapi::operation*> secured;
  for (const auto* op : config.operations) {
    if (op->needs_credentials()) secured.push_back(op);
  }
  for (const auto& e : catalogue.all()) {
    if (e.kind != harness::check_kind::scenario || !suites::judges_credentials(*e.procedure) ||
        !config.checks.enabled(e.info->name)) {
      continue;
    }
    config.not_run_before.push_back({e.info->name, "", "", why});
    for (const auto* op : secured) config.cells_not_run.push_back({op, "none", e.info->name, why});
  }
  return secured.size();
}

/// The target's arguments as a `conform run` line repeats them: overlays,
/// --ref-root, and with --url its headers and credentials, each secret as
/// ${VARIABLE}.
std::string target_arguments(const run_options& opts, const openapi::api_spec& api,
                             const profile::target& target) {
  std::string out;
  if (opts.allow_destructive) out += " --allow-destructive";
  if (opts.no_auth) out += " --no-auth";
  for (const auto& p : opts.read_only) out += " --read-only " + http::shell_quote(p);
  for (const auto& overlay : opts.overlays) out += " --overlay " + http::shell_quote(overlay);
  if (!opts.ref_root.empty()) out += " --ref-root " + http::shell_quote(opts.ref_root);
  if (!opts.url.empty()) {
    out += " --url " + http::shell_quote(opts.url);
    for (const auto& [name, value] : target.headers) {
      out += " -H \"" + name + ": ${" + value.env_name() + "}\"";
    }
    // The tenant header (a tenant id, no secret) is the target's tenant, not a header.
    for (const auto& h : opts.headers) {
      const std::string name = h.substr(0, h.find(':'));
      const bool kept = std::any_of(target.headers.begin(), target.headers.end(),
                                    [&](const auto& x) { return http::iequals(x.first, name); });
      const bool scheme = std::any_of(api.schemes.begin(), api.schemes.end(), [&](const auto& s) {
        return !s->header.empty() && http::iequals(s->header, name);
      });
      if (!kept && !scheme) out += " -H " + http::shell_quote(h);
    }
    for (const auto& c : target.credentials) {
      if (c.value.from_env()) {
        out += " --auth-env " + c.value.env_name();
        if (!opts.auth_scheme.empty()) out += " --auth-scheme " + c.scheme;
      } else if (const auto* s = api.find_scheme(c.scheme)) {
        // As the curl lines name it: the token, or the base64 of user:password.
        using type = openapi::security_scheme::type;
        const std::string var =
            "${" + c.value.env_name() + (s->kind == type::http_basic ? "_BASIC64}" : "}");
        const std::string prefix = s->kind == type::http_bearer  ? "Bearer "
                                   : s->kind == type::http_basic ? "Basic "
                                                                 : "";
        out += " -H \"" + s->header + ": " + prefix + var + "\"";
        if (opts.auth_env.empty() && opts.auth_scheme == c.scheme) {
          out += " --auth-scheme " + c.scheme;
        }
      }
    }
  }
  return out;
}

/// The run's exit status, with --baseline (only new failures fail the run),
/// the GitHub step summary and the report files' errors.
int finish(const run_options& opts, const harness::run_report& report,
           std::optional<harness::run_report>& baseline, std::uint32_t skipped_operations,
           const std::vector<std::pair<std::string, const reports::file_writer*>>& files,
           const reports::har_writer* recording, std::ostream& out, std::ostream& err) {
  int status = report.exit_code();
  std::optional<reports::run_diff> against;
  if (baseline) {
    if (opts.shard_count > 0) {
      // A shard answers only for the cells it ran: the baseline's failures
      // elsewhere belong to other shards, not "fixed" by this one.
      std::set<std::tuple<std::string, std::string, std::string>> cells;
      for (const auto& t : report.tallies) cells.emplace(t.operation_id, t.auth_model, t.check);
      std::erase_if(baseline->failures, [&](const harness::failure& f) {
        return !cells.count({f.operation_id, f.auth_model, f.check});
      });
    }
    against = reports::compare(*baseline, report);
    out << "\nAgainst the baseline " << opts.baseline << ":\n"
        << reports::render_diff_text(*against, true);
    // Only new failures fail the run; a run that proved nothing still exits 2,
    // and one that left operations out 3.
    if (status != 2) status = against->exit_code();
    if (status == 0 && skipped_operations > 0) status = 3;
  }
  if (const char* summary = std::getenv("GITHUB_STEP_SUMMARY"); summary && *summary) {
    if (auto appended = core::write_file(
            summary, reports::render_markdown(report, against ? &*against : nullptr),
            core::write_mode::append);
        !appended) {
      err << "conform run: GITHUB_STEP_SUMMARY: " << appended.error() << "\n";
      status = 2;
    }
  }
  for (const auto& [format_name, writer] : files) {
    if (writer->error().empty()) continue;
    err << "conform run: --" << format_name << ": " << writer->error() << "\n";
    status = 2;
  }
  if (recording && !recording->error().empty()) {
    err << "conform run: --record: " << recording->error() << "\n";
    status = 2;
  }
  return status;
}

/// The operations (and those sent as reads) and the checks the options
/// select; an error when they select no operation or name what is not there.
core::status select_operations_and_checks(const run_options& opts, const openapi::api_spec& api,
                                          const fs::path& spec_path,
                                          const harness::check_catalogue& catalogue,
                                          harness::run_config& config) {
  for (const auto& op : api.operations) {
    if (operation_selected(op, opts)) config.operations.push_back(&op);
    for (const auto& p : opts.read_only) {
      if (names_operation(p, op)) config.read_only.insert(&op);
    }
  }
  if (config.operations.empty()) {
    return core::fail("--include/--exclude select no operation of " + spec_path.string());
  }
  for (const auto& p : opts.read_only) {
    if (std::none_of(api.operations.begin(), api.operations.end(),
                     [&p](const openapi::operation& op) { return names_operation(p, op); })) {
      return core::fail("--read-only '" + p + "' names no operation of " + spec_path.string());
    }
  }
  auto selection = catalogue.select(opts.checks);
  if (!selection) {
    return core::fail("--checks: unknown check '" + selection.error() + "' (see --list-checks)");
  }
  config.checks = std::move(*selection);
  return {};
}

/// How much the run does: its seed, examples, phases, workflows, shrinking
/// and shard.
void set_run_limits(harness::run_config& config, const run_options& opts,
                    const fs::path& spec_path) {
  config.seed =
      opts.seed ? *opts.seed : std::random_device{}() * 4294967296ull + std::random_device{}();
  config.examples = opts.examples;
  config.coverage = opts.coverage;
  config.stateful = opts.stateful;
  // The Arazzo documents shipped beside the description for it, then the user's.
  config.workflow_files = suites::shipped_workflows(spec_path);
  config.workflow_files.insert(config.workflow_files.end(), opts.workflows.begin(),
                               opts.workflows.end());
  config.max_shrinks = opts.max_shrinks;
  config.threads = opts.threads;
  config.shrink_time_per_failure =
      std::chrono::milliseconds(static_cast<long long>(opts.shrink_seconds_per_failure * 1000));
  if (opts.shrink_seconds) {
    config.shrink_time =
        std::chrono::milliseconds(static_cast<long long>(*opts.shrink_seconds * 1000));
  }
  config.shard_index = opts.shard_index;
  config.shard_count = opts.shard_count;
}

/// Safe unless told otherwise: a target someone keeps is written to only
/// where this run created what it writes to (harness/write_guard.hpp).
void set_write_mode(harness::run_config& config, const run_options& opts,
                    const profile::target& target, bool in_process_reference) {
  auto& info = config.info;
  if (in_process_reference) {
    info.writes = harness::write_mode::destructive;
    info.writes_because = "the in-process reference";
  } else if (opts.allow_destructive) {
    info.writes = harness::write_mode::destructive;
    info.writes_because = "--allow-destructive";
  } else if (target.disposable) {
    info.writes = harness::write_mode::destructive;
    info.writes_because = "the profile says disposable: true";
  } else {
    info.writes = harness::write_mode::safe;
    if (!config.read_only.empty()) {
      std::vector<std::string> ids;
      for (const auto* op : config.operations) {
        if (config.read_only.count(op) > 0) ids.push_back(op->operation_id);
      }
      info.writes_because = "sends as reads, by --read-only: " + core::join(ids);
    }
  }
}

/// The run's facts as its reports state them.
void describe_run(harness::run_config& config, const run_options& opts,
                  const openapi::api_spec& api, const fs::path& spec_path,
                  const profile::target& target, bool in_process_reference) {
  auto& info = config.info;
  describe_target(info, spec_path.string(), api, target, in_process_reference, opts.profile);
  info.seed = config.seed;
  info.target_arguments = target_arguments(opts, api, target);
  if (opts.spec != run_options{}.spec) info.spec_argument = opts.spec;
  info.examples = opts.examples;
  info.workers = opts.workers;
  info.checks = config.checks.names();
  info.started_at = utc_now();
  info.strict_assumptions = opts.strict_assumptions;
  set_write_mode(config, opts, target, in_process_reference);
}

}  // namespace

int run_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  auto parsed = parse_run_options(args);
  if (!parsed) {
    err << "conform run: " << parsed.error() << "\n";
    return 2;
  }
  const run_options& opts = *parsed;
  if (opts.help) {
    out << run_help();
    return 0;
  }
  const harness::check_catalogue catalogue = suites::builtin_checks();
  if (opts.list_checks) {
    for (const auto& c : catalogue.all()) {
      out << c.info->name << "\n    " << c.info->description << " (" << c.info->rule << ")\n";
    }
    return 0;
  }

  // The baseline, read first so that a bad one stops the run before it starts.
  std::optional<harness::run_report> baseline;
  if (!opts.baseline.empty()) {
    auto read = reports::read_json_report(opts.baseline);
    if (!read) {
      err << "conform run: --baseline: " << read.error() << "\n";
      return 2;
    }
    baseline = std::move(read).value();
  }

  // The description.
  auto description = load_description(opts, err);
  if (!description) return 2;
  const fs::path& spec_path = description->path;
  const openapi::api_spec& api = *description->loaded.spec;

  // What to run.
  harness::run_config config;
  if (auto selected = select_operations_and_checks(opts, api, spec_path, catalogue, config);
      !selected) {
    err << "conform run: " << selected.error() << "\n";
    return 2;
  }
  const std::size_t secured = opts.no_auth ? say_security_not_enforced(catalogue, config) : 0;

  // The target: a profile, or the in-process reference server.
  std::unique_ptr<reference::server> reference_server;
  auto target = make_run_target(opts, api, spec_path, reference_server, err);
  if (!target) return 2;
  target->enforces_security = !opts.no_auth;

  if (opts.no_auth && !target->credentials.empty()) {
    err << "conform run: --no-auth sends no credential, but "
        << (opts.profile.empty() ? "-H gives one (" : "the profile gives one (")
        << target->credentials.front().name << "): drop one of them\n";
    return 2;
  }

  // The client, and a first request to see that the target answers at all.
  const auto client = reach_target(opts, api, *target, err);
  if (!client) return 2;

  // Reports.
  harness::event_stream listeners;
  std::vector<std::pair<std::string, const reports::file_writer*>> files;
  const reports::har_writer* recording = nullptr;
  if (!add_listeners(opts, out, err, listeners, files, recording)) return 2;

  set_run_limits(config, opts, spec_path);
  config.not_run_before.insert(config.not_run_before.begin(), description->skipped.begin(),
                               description->skipped.end());
  describe_run(config, opts, api, spec_path, *target, reference_server != nullptr);
  config.info.skipped_operations = description->skipped_operations;
  if (opts.no_auth) {
    config.info.security =
        "not enforced by the target (--no-auth): every request goes without a "
        "credential; the security of " +
        std::to_string(secured) + " of " + std::to_string(config.operations.size()) +
        " operations is not checked";
  }

  const harness::run_report report = harness::run(api, *target, config, *client, listeners);

  return finish(opts, report, baseline, description->skipped_operations, files, recording, out,
                err);
}

}  // namespace conform::cli
