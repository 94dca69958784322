// `conform certify`: a certification server, the partner's client run
// against it (or a client started elsewhere, --listen), the recorded traffic
// judged by the client rules, the reports, a transcript, and a signed
// certificate; or (--judge) a transcript judged again, offline.
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <boost/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <future>
#include <memory>

#include "cli/certify_client.hpp"
#include "cli/certify_options.hpp"
#include "cli/certify_transcript.hpp"
#include "cli/cli.hpp"
#include "cli/default_spec.hpp"
#include "core/document.hpp"
#include "core/file.hpp"
#include "core/outcome.hpp"
#include "core/parse.hpp"
#include "core/text.hpp"
#include "harness/certification.hpp"
#include "openapi/loader.hpp"
#include "reference/certification.hpp"
#include "reference/server.hpp"
#include "reports/certificate.hpp"
#include "reports/certification.hpp"
#include "reports/har.hpp"
#include "profile/loader.hpp"
#include "reports/registry.hpp"
#include "suites/registry.hpp"

namespace conform::cli {

namespace {

namespace fs = std::filesystem;

/// Writes `text` to `path` readable by its owner only.
bool write_private(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  return ::close(fd) == 0 && ok;
}

/// A temporary file readable by its owner only, removed when destroyed.
struct temp_file {
  std::string path;
  ~temp_file() {
    if (!path.empty()) ::unlink(path.c_str());
  }
  /// Makes it with `text`; false when it cannot.
  bool make(const std::string& stem, const std::string& text) {
    const char* dir = std::getenv("TMPDIR");
    std::string pattern = std::string(dir && *dir ? dir : "/tmp") + "/" + stem + "-XXXXXX";
    const int fd = ::mkstemp(pattern.data());
    if (fd < 0) return false;
    path = pattern;
    const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    return ::close(fd) == 0 && written;
  }
};

/// The profile as JSON, for clients without a YAML parser (CONFORM_PROFILE_JSON).
std::string profile_json(const std::string& profile_yaml) {
  const core::parsed_document doc = core::parse_document(profile_yaml, "the server's profile");
  return boost::json::serialize(core::to_json(doc.root)) + "\n";
}

/// The profile's credentials (name, scheme, secret), read from its YAML.
std::vector<harness::traffic_credential> credentials_of(const std::string& profile_yaml) {
  std::vector<harness::traffic_credential> out;
  const core::parsed_document doc = core::parse_document(profile_yaml, "the server's profile");
  for (const auto& c : doc.root.get("credentials").items()) {
    std::string kind = c.get("scheme").text();
    if (kind.empty()) continue;
    out.push_back({c.get("name").text(), std::move(kind), c.get("value").text()});
  }
  return out;
}

/// The recording as the harness's traffic (targets relative to the base path).
harness::traffic to_traffic(const std::vector<reference::recorded_exchange>& recorded,
                            const std::string& base_path) {
  harness::traffic t;
  for (const auto& r : recorded) {
    harness::traffic_exchange e;
    e.seq = r.seq;
    e.sent = r.received;
    e.answered = r.answered;
    e.request.method = http::parse_verb(r.method).value_or(http::verb::unknown);
    e.request.target =
        r.target.starts_with(base_path) ? r.target.substr(base_path.size()) : r.target;
    if (e.request.target.empty() || e.request.target[0] == '?') {
      e.request.target = "/" + e.request.target;
    }
    e.request.headers = r.request_headers;
    e.request.body = r.request_body;
    e.status = static_cast<unsigned>(r.status);
    e.response_headers = r.response_headers;
    e.response_body = r.response_body;
    if (r.adversity != reference::adversity_kind::none) e.adversity = to_string(r.adversity);
    e.adversity_detail = r.adversity_detail;
    e.processed_status = r.processed_status;
    t.exchanges.push_back(std::move(e));
  }
  return t;
}

std::vector<harness::planned_adversity> planned_of(const reference::traffic_recorder& recorder) {
  std::vector<harness::planned_adversity> out;
  for (const auto& p : recorder.planned()) {
    out.push_back({to_string(p.kind), p.where, p.what, p.met_at});
  }
  return out;
}

/// Everything a judged certification needs to be written out.
struct certification_run {
  const openapi::api_spec* api = nullptr;
  harness::traffic traffic;  // every pass's, one after the other (--record)
  harness::run_info info;
  std::string level;
  std::string client_command;
  std::string client_name;
  std::vector<std::pair<std::string, std::string>> artifacts;
  std::string transcript_path;
  std::string transcript_sha256;
  std::string finished_at;
  /// --record: the certification server's profile (its credentials are
  /// redacted from the HAR) and when it started recording; "" when the
  /// traffic was read back from a transcript (--judge), which records nothing.
  std::string server_profile;
  std::chrono::system_clock::time_point recording_started;
};

/// One pass as it ran (or was read back from its transcript section).
struct pass_run {
  harness::pass_summary summary;
  harness::traffic traffic;
  harness::client_outcome client;
  std::vector<std::string> plan;     // the server's adversity plan, one line each
  std::vector<std::string> classes;  // the request classes of the scope it saw
  std::string base_url;
  std::string started_at, finished_at;
};

/// The passes of the plan (docs/certification.md, "The plan"): a baseline
/// with no adversity, then one pass per family.
struct plan_step {
  const char* name;
  std::vector<reference::adversity_kind> kinds;
  bool unrecoverable;
  const char* adversity;
};

const std::vector<plan_step>& plan_steps() {
  using k = reference::adversity_kind;
  static const std::vector<plan_step> steps = {
      {"baseline", {}, false, "none: learns the scope and gives a baseline"},
      {"rate_limit", {k::rate_limited}, false, "a 429 with Retry-After"},
      {"transient",
       {k::server_error, k::connection_dropped},
       false,
       "5xx that a retry gets past, and a connection dropped after a keyed write"},
      {"outage", {k::outage}, true, "an outage longer than a client may retry"},
      {"slow", {k::slow}, false, "slow answers"},
  };
  return steps;
}

/// The certification server's profile, redacted-by-name credentials and the
/// traffic of one run, as the harness reads them.
void fill_traffic(pass_run& run, const reference::traffic_recorder& recorder,
                  const std::string& profile, const certify_options& opts,
                  const openapi::api_spec& api) {
  run.traffic = to_traffic(recorder.snapshot(), "/api/v1");
  run.traffic.spec = &api;
  run.traffic.environment = opts.environment;
  run.traffic.credentials = credentials_of(profile);
  run.traffic.seed = opts.seed;
  run.traffic.planned = planned_of(recorder);
  harness::annotate(run.traffic);
  run.plan = recorder.plan();
  run.classes = recorder.classes_seen();
}

/// Runs one pass: a fresh server from the seed, scripting `step`'s adversity
/// on the scope, and the client against it. A family pass with nothing of
/// its family in the scope is not run (said in its summary).
core::outcome<pass_run> run_pass(const certify_options& opts, const openapi::api_spec& api,
                                 const plan_step& step, const harness::certification_scope& scope,
                                 std::string& profile_out) {
  pass_run run;
  run.summary.name = step.name;
  run.summary.adversity = step.adversity;
  run.summary.completion_judged = !step.unrecoverable;
  reference::adversity_options adversity;
  adversity.enabled = opts.adversity && !step.kinds.empty();
  adversity.seed = opts.seed;
  adversity.kinds = step.kinds;
  adversity.operations = scope.operations;
  adversity.classes = scope.classes;
  // An outage fails more attempts than a client may make (x-retry).
  adversity.outage_attempts = static_cast<int>(api.rules.retry.max_retries) + 2;
  auto recorder = std::make_shared<reference::traffic_recorder>(adversity);
  for (const auto& p : recorder->planned()) {
    const std::string kind = to_string(p.kind);
    if (std::find(run.summary.planned_kinds.begin(), run.summary.planned_kinds.end(), kind) ==
        run.summary.planned_kinds.end())
      run.summary.planned_kinds.push_back(kind);
  }
  if (!step.kinds.empty() && opts.adversity && run.summary.planned_kinds.empty()) {
    run.summary.run = false;
    run.summary.not_run_why =
        "not run: nothing of its family falls in the scope's request "
        "classes (" +
        (scope.classes.empty() ? std::string("none") : core::join(scope.classes)) + ")";
    return run;
  }
  if (!step.kinds.empty() && !opts.adversity) {
    run.summary.run = false;
    run.summary.not_run_why = "not run: --no-adversity";
    return run;
  }
  reference::server_config config;
  config.environment = opts.environment;
  config.recorder = recorder;
  std::unique_ptr<reference::server> server;
  try {
    server = std::make_unique<reference::server>(config);
  } catch (const std::exception& e) {
    return core::fail(std::string("cannot start the certification server: ") + e.what());
  }
  const std::string profile = server->profile_yaml();
  profile_out = profile;
  run.base_url = server->base_url();
  run.started_at = utc_now();
  temp_file yaml, json;
  if (!yaml.make("conform-profile", profile) ||
      !json.make("conform-profile-json", profile_json(profile))) {
    return core::fail("cannot write a temporary profile in $TMPDIR (or /tmp)");
  }
  auto ran = run_client(opts.command,
                        {"CONFORM_PROFILE=" + yaml.path, "CONFORM_PROFILE_JSON=" + json.path,
                         "CONFORM_BASE_URL=" + server->base_url()},
                        opts.client_timeout_seconds);
  if (!ran) return core::fail(ran.error());
  server->stop();
  run.finished_at = utc_now();
  run.client.known = true;
  run.client.completed = ran->completed;
  run.client.exit = ran->exit;
  run.client.adversity = opts.adversity;
  run.client.unrecoverable = step.unrecoverable;
  run.client.in_plan = true;
  run.summary.client_exit = ran->exit;
  fill_traffic(run, *recorder, profile, opts, api);
  return run;
}

/// The operations of `names` (a file of operationIds: a YAML or JSON list,
/// or one per line), each checked against the description.
core::outcome<std::vector<std::string>> read_scope(const std::string& path,
                                                   const openapi::api_spec& api) {
  const auto text = core::read_file(path);
  if (!text) return core::fail("--scope: " + text.error());
  const core::parsed_document doc = core::parse_document(*text, path);
  if (doc.error) return core::fail("--scope: " + core::to_string(*doc.error));
  if (!doc.root.is_sequence()) {
    return core::fail("--scope " + path + ": not a list of operationIds (a YAML or JSON list)");
  }
  std::vector<std::string> out;
  for (const auto& item : doc.root.items()) {
    const std::string id = item.text();
    const bool known = std::any_of(api.operations.begin(), api.operations.end(),
                                   [&](const auto& op) { return op.operation_id == id; });
    if (!known) {
      return core::fail("--scope " + path + ":" + std::to_string(item.line()) + ":" +
                        std::to_string(item.column()) + ": '" + id +
                        "' is no operationId of the description");
    }
    out.push_back(id);
  }
  if (out.empty()) return core::fail("--scope " + path + ": the list is empty");
  return out;
}

/// The scope learned from the baseline: every authenticated operation the
/// client called, in the description's order.
std::vector<std::string> learned_scope(const harness::traffic& t, const openapi::api_spec& api) {
  std::vector<std::string> out;
  for (const auto& op : api.operations) {
    if (!op.needs_credentials()) continue;  // security: [] (a health check) is not the partner's
    const bool called = std::any_of(t.exchanges.begin(), t.exchanges.end(), [&](const auto& e) {
      return e.op && e.op->operation_id == op.operation_id;
    });
    if (called) out.push_back(op.operation_id);
  }
  return out;
}

/// The header of one transcript section: the run's facts and `pass`'s own.
transcript_header header_of(const certify_options& opts, const openapi::api_spec& api,
                            const certification_run& run, const pass_run& pass) {
  transcript_header h;
  h.tool_version = CONFORM_VERSION;
  h.seed = opts.seed;
  h.environment = opts.environment;
  h.level = opts.level;
  h.spec_title = api.title;
  h.spec_version = api.version;
  h.spec_hash = api.hash;
  h.base_url = pass.base_url;
  h.started_at = pass.started_at;
  h.finished_at = pass.finished_at;
  h.client_command = run.client_command;
  h.client_name = run.client_name;
  h.client_artifacts = run.artifacts;
  h.client = pass.client;
  h.adversity_plan = pass.plan;
  return h;
}

/// The transcript of a plan: a section per pass.
std::string plan_transcript(const certify_options& opts, const openapi::api_spec& api,
                            const certification_run& run, const std::vector<pass_run>& passes,
                            const harness::certification_scope& scope) {
  std::string text;
  for (const auto& p : passes) {
    transcript_header h = header_of(opts, api, run, p);
    h.pass = p.summary;
    h.scope = scope;
    harness::traffic t = p.traffic;
    t.spec = &api;
    text += write_transcript(h, t, api);
  }
  return text;
}

/// Judges each pass that ran and folds the plan's verdict.
harness::certification_report judge_plan(std::vector<pass_run>& passes,
                                         const harness::certification_scope& scope,
                                         const std::vector<const harness::traffic_check*>& rules,
                                         const openapi::api_spec& api, harness::rule_level level,
                                         const harness::run_info& info) {
  std::vector<harness::certification_report> reports;
  std::vector<harness::pass_summary> summaries;
  for (auto& p : passes) {
    if (p.summary.run) {
      harness::event_stream quiet;
      p.traffic.spec = &api;
      auto r = harness::judge_traffic(p.traffic, rules, level, info, quiet, p.client);
      r.adversity_plan = p.plan;
      p.summary.certified = r.certified;
      p.summary.verdict = r.verdict;
      p.summary.causes = r.causes;
      p.summary.adversity_plan = p.plan;
      p.summary.unmet_adversity = r.unmet_adversity;
      p.summary.requests = r.requests;
      reports.push_back(std::move(r));
    }
    summaries.push_back(p.summary);
  }
  return harness::combine_passes(reports, std::move(summaries), scope, rules, api, level);
}

/// Writes the reports and the certificate of `report`; prints the verdict.
int write_outputs(const certify_options& opts, const certification_run& run,
                  harness::certification_report& report, const std::string& signing_key,
                  std::ostream& out, std::ostream& err) {
  report.client_command = run.client_command;
  report.client_name = run.client_name;
  report.client_artifacts = run.artifacts;
  report.transcript = run.transcript_path;
  report.transcript_sha256 = run.transcript_sha256;
  report.finished_at = run.finished_at;
  report.run.info = run.info;

  int status = report.exit_code();
  out << reports::render_certification_text(report);
  auto write = [&](const std::string& path, const std::string& text, const char* what) {
    if (path.empty()) return;
    if (auto written = core::write_file(path, text); !written) {
      err << "conform certify: " << what << ": " << written.error() << "\n";
      status = 2;
    }
  };
  if (!opts.junit.empty()) {
    // JUnit renders the folded run: one testcase per rule cell of every pass.
    harness::event_stream events;
    auto w = reports::make_writer(*reports::find_report_format("junit"), opts.junit);
    const reports::file_writer* junit = w.get();
    events.add(std::move(w));
    events.run_started({run.info, 0});
    events.run_finished({report.run});
    if (!junit->error().empty()) {
      err << "conform certify: --junit: " << junit->error() << "\n";
      status = 2;
    }
  }
  write(opts.json, reports::render_certification_json(report), "--json");
  if (!opts.record.empty() && !run.server_profile.empty()) {
    // The traffic as HAR, redacted for the server's own credentials.
    auto server_target =
        profile::parse_profile(run.server_profile, "the certification server's profile");
    const core::status written =
        server_target.ok() ? reports::write_traffic_har(
                                 opts.record, run.traffic, report, *server_target.value,
                                 {CONFORM_VERSION, "certify", run.info.seed, run.info.spec_file,
                                  run.api->hash, run.info.target, run.info.started_at},
                                 run.recording_started)
                           : core::status(core::fail("the server's profile does not load"));
    if (!written) {
      err << "conform certify: --record: " << written.error() << "\n";
      status = 2;
    }
  }
  write(opts.html, reports::render_certification_html(report), "--html");
  if (report.certified && !opts.certificate.empty()) {
    reports::certificate_statement s;
    s.description_title = run.api->title;
    s.description_version = run.api->version;
    s.description_hash = run.api->hash;
    s.client = run.client_command;
    s.client_name = run.client_name;
    for (const auto& [file, digest] : run.artifacts) s.artifacts.push_back({file, digest});
    s.level = run.level;
    s.rules = report.passed_rules();
    s.operations = report.scope.operations;
    s.seed = run.info.seed;
    s.transcript_sha256 = run.transcript_sha256;
    s.date = report.finished_at;
    s.conform_version = CONFORM_VERSION;
    auto text = reports::sign_certificate(s, signing_key);
    if (!text) {
      err << "conform certify: --signing-key " << opts.signing_key << ": " << text.error() << "\n";
      return 2;
    }
    write(opts.certificate, *text, "--certificate");
    if (status == 0) out << "conform certify: certificate written to " << opts.certificate << "\n";
  }
  return status;
}

/// The run's facts, as every report and transcript of it says them.
harness::run_info run_info_of(const certify_options& opts, const openapi::api_spec& api,
                              const fs::path& spec_path,
                              const std::vector<const harness::traffic_check*>& rules,
                              std::uint64_t seed, const std::string& target,
                              const std::string& started_at) {
  harness::run_info info;
  info.tool_version = CONFORM_VERSION;
  info.seed = seed;
  info.spec_file = spec_path.string();
  info.spec_title = api.title;
  info.spec_version = api.version;
  info.spec_hash = api.hash;
  info.target = target;
  info.in_process_reference = true;
  for (const auto* r : rules) info.checks.push_back(r->info.name);
  info.started_at = started_at;
  (void)opts;
  return info;
}

/// `certify --judge TRANSCRIPT`.
int judge_transcript(const certify_options& opts, const openapi::api_spec& api,
                     const fs::path& spec_path,
                     const std::vector<const harness::traffic_check*>& rules,
                     const std::string& signing_key, std::ostream& out, std::ostream& err) {
  // A transcript holds every body a client sent (an import may be 10 MiB):
  // bounded all the same, and only a regular file.
  constexpr std::uintmax_t max_transcript_bytes = 256u << 20;
  const auto text = core::read_file(opts.judge, max_transcript_bytes);
  if (!text) {
    err << "conform certify: --judge: " << text.error() << "\n";
    return 2;
  }
  auto read = read_transcript(*text);
  if (!read) {
    err << "conform certify: --judge " << opts.judge << ": " << read.error() << "\n";
    return 2;
  }
  const transcript_header& h = read->front().header;
  for (const auto& section : *read) {
    if (section.header.spec_hash != api.hash) {
      err << "conform certify: --judge: the transcript was recorded against the description "
          << "with sha256 " << section.header.spec_hash << ", and " << spec_path.string()
          << " has sha256 " << api.hash << " (give the same description with --spec)\n";
      return 2;
    }
  }
  certification_run run;
  run.api = &api;
  run.info = run_info_of(opts, api, spec_path, rules, h.seed, h.base_url, h.started_at);
  run.level = opts.level_given || h.level.empty() ? opts.level : h.level;
  run.client_command = h.client_command;
  run.client_name = h.client_name;
  run.artifacts = h.client_artifacts;
  run.transcript_path = opts.judge;
  run.transcript_sha256 = reports::sha256_hex(*text);
  run.finished_at = read->back().header.finished_at;
  out << "conform certify: judging the transcript " << opts.judge << " (sha256 "
      << run.transcript_sha256 << ") offline\n";
  const auto level = *harness::parse_rule_level(run.level);
  harness::certification_report report;
  if (h.pass.name.empty()) {  // a single pass (--listen)
    harness::traffic t = std::move(read->front().traffic);
    t.spec = &api;
    harness::annotate(t);
    harness::event_stream quiet;
    report = harness::judge_traffic(t, rules, level, run.info, quiet, h.client);
    report.adversity_plan = h.adversity_plan;
  } else {
    std::vector<pass_run> passes;
    for (auto& section : *read) {
      pass_run p;
      p.summary = section.header.pass;
      p.traffic = std::move(section.traffic);
      p.traffic.spec = &api;
      harness::annotate(p.traffic);
      p.client = section.header.client;
      p.client.unrecoverable = !p.summary.completion_judged;
      p.client.in_plan = true;
      p.plan = section.header.adversity_plan;
      passes.push_back(std::move(p));
    }
    report = judge_plan(passes, h.scope, rules, api, level, run.info);
  }
  return write_outputs(opts, run, report, signing_key, out, err);
}

/// `certify --listen`: one pass, every adversity, until SIGINT or SIGTERM.
int listen_and_judge(const certify_options& opts, const openapi::api_spec& api,
                     const fs::path& spec_path,
                     const std::vector<const harness::traffic_check*>& rules,
                     const std::vector<std::pair<std::string, std::string>>& artifacts,
                     const std::string& signing_key, std::ostream& out, std::ostream& err) {
  // The stop signals are blocked before the server's threads start, so that
  // sigwait receives them.
  sigset_t stop_signals, previous;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, &previous);

  reference::adversity_options adversity;
  adversity.enabled = opts.adversity;
  adversity.seed = opts.seed;
  adversity.outage_attempts = static_cast<int>(api.rules.retry.max_retries) + 2;
  auto recorder = std::make_shared<reference::traffic_recorder>(adversity);
  reference::server_config config;
  config.environment = opts.environment;
  config.port = opts.port;
  config.recorder = recorder;
  std::unique_ptr<reference::server> server;
  try {
    server = std::make_unique<reference::server>(config);
  } catch (const std::exception& e) {
    err << "conform certify: cannot start the certification server: " << e.what() << "\n";
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    return 2;
  }
  const std::string profile = server->profile_yaml();
  const std::string started_at = utc_now();
  const auto recording_started = std::chrono::system_clock::now();
  const bool as_json = opts.profile_out.ends_with(".json");
  if (!write_private(opts.profile_out, as_json ? profile_json(profile) : profile)) {
    err << "conform certify: cannot write the profile to '" << opts.profile_out << "'\n";
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    return 2;
  }
  out << "conform certify: listening on " << server->base_url() << "; the profile is in "
      << opts.profile_out << "; stop with Ctrl-C (or SIGTERM) to judge\n";
  out.flush();
  int sig = 0;
  sigwait(&stop_signals, &sig);
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  server->stop();

  pass_run pass;
  fill_traffic(pass, *recorder, profile, opts, api);
  pass.client.adversity = opts.adversity;
  certification_run run;
  run.api = &api;
  run.traffic = pass.traffic;
  run.info = run_info_of(opts, api, spec_path, rules, opts.seed, server->base_url(), started_at);
  run.level = opts.level;
  run.client_command = "(listening mode)";
  run.client_name = opts.client_name.empty() ? run.client_command : opts.client_name;
  run.artifacts = artifacts;
  run.finished_at = utc_now();
  run.server_profile = profile;
  run.recording_started = recording_started;
  if (!opts.transcript.empty()) {
    pass.base_url = run.info.target;
    pass.started_at = started_at;
    pass.finished_at = run.finished_at;
    const std::string text = write_transcript(header_of(opts, api, run, pass), pass.traffic, api);
    if (auto written = core::write_file(opts.transcript, text); !written) {
      err << "conform certify: --transcript: " << written.error() << "\n";
      return 2;
    }
    run.transcript_path = opts.transcript;
    run.transcript_sha256 = reports::sha256_hex(text);
  }
  harness::event_stream quiet;
  auto report = harness::judge_traffic(pass.traffic, rules, *harness::parse_rule_level(run.level),
                                       run.info, quiet, pass.client);
  report.adversity_plan = pass.plan;
  return write_outputs(opts, run, report, signing_key, out, err);
}

/// The client rules to judge: those --checks names, else every one.
core::outcome<std::vector<const harness::traffic_check*>> select_client_rules(
    const certify_options& opts, const harness::check_catalogue& catalogue) {
  std::vector<const harness::traffic_check*> rules;
  for (const auto& name : opts.checks) {
    const auto* e = catalogue.find(name);
    if (!e || e->kind != harness::check_kind::traffic) {
      return core::fail("--checks: '" + name + "' is no client rule (conform run --list-checks)");
    }
    rules.push_back(e->traffic);
  }
  if (opts.checks.empty()) {
    for (const auto& e : catalogue.all()) {
      if (e.kind == harness::check_kind::traffic) rules.push_back(e.traffic);
    }
  }
  return rules;
}

/// Runs the plan: the baseline first (it learns the scope, when none was
/// declared, and the classes of its calls), then the families, each against
/// a fresh server from the same seed, all at once. `profile` is the
/// baseline server's.
core::outcome<std::vector<pass_run>> run_plan(const certify_options& opts,
                                              const openapi::api_spec& api,
                                              harness::certification_scope& scope,
                                              std::string& profile) {
  std::vector<pass_run> passes;
  {
    auto baseline = run_pass(opts, api, plan_steps().front(), scope, profile);
    if (!baseline) return core::fail(std::move(baseline).error());
    passes.push_back(std::move(*baseline));
  }
  if (scope.operations.empty()) {
    scope.operations = learned_scope(passes.front().traffic, api);
    scope.source = "learned from the baseline pass";
  }
  {
    // The classes of the scope's calls, as the baseline's server saw them.
    std::vector<std::string> seen = passes.front().classes;
    for (const auto& c : reference::request_class_names()) {
      if (std::find(seen.begin(), seen.end(), c) != seen.end()) scope.classes.push_back(c);
    }
  }
  // Declared before the passes that write them, so that they outlive them
  // (a future's destructor waits for its pass) even on an early return.
  std::vector<std::string> profiles(plan_steps().size());
  std::vector<std::future<core::outcome<pass_run>>> running;
  for (std::size_t i = 1; i < plan_steps().size(); ++i) {
    running.push_back(std::async(std::launch::async, [&, i] {
      return run_pass(opts, api, plan_steps()[i], scope, profiles[i]);
    }));
  }
  for (auto& f : running) {
    auto p = f.get();
    if (!p) return core::fail(std::move(p).error());
    passes.push_back(std::move(*p));
  }
  return passes;
}

}  // namespace

int certify_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  auto parsed = parse_certify_options(args);
  if (!parsed) {
    err << "conform certify: " << parsed.error() << "\n";
    return 2;
  }
  const certify_options& opts = *parsed;
  if (opts.help) {
    out << certify_help();
    return 0;
  }
  const fs::path spec_path = resolve_default_spec(opts.spec);
  auto loaded = openapi::load(spec_path, {});
  if (!loaded.ok()) {
    err << "conform certify: the description " << spec_path.string() << " has errors\n";
    return 2;
  }
  const openapi::api_spec& api = *loaded.spec;
  const harness::check_catalogue catalogue = suites::builtin_checks();
  auto selected = select_client_rules(opts, catalogue);
  if (!selected) {
    err << "conform certify: " << selected.error() << "\n";
    return 2;
  }
  const std::vector<const harness::traffic_check*>& rules = *selected;
  std::string signing_key;
  if (!opts.signing_key.empty()) {
    auto key = core::read_file(opts.signing_key);
    if (!key) {
      err << "conform certify: --signing-key: " << key.error() << "\n";
      return 2;
    }
    signing_key = std::move(*key);
  }
  if (!opts.judge.empty()) {
    return judge_transcript(opts, api, spec_path, rules, signing_key, out, err);
  }
  harness::certification_scope scope;
  if (!opts.scope.empty()) {
    auto declared = read_scope(opts.scope, api);
    if (!declared) {
      err << "conform certify: " << declared.error() << "\n";
      return 2;
    }
    scope.operations = *declared;
    scope.source = "declared in " + opts.scope;
  }
  auto artifacts = client_artifacts(opts.command, opts.client_artifacts);
  if (!artifacts) {
    err << "conform certify: " << artifacts.error() << "\n";
    return 2;
  }
  if (opts.listen) {
    return listen_and_judge(opts, api, spec_path, rules, *artifacts, signing_key, out, err);
  }

  const std::string started_at = utc_now();
  const auto recording_started = std::chrono::system_clock::now();
  std::string profile;
  auto planned = run_plan(opts, api, scope, profile);
  if (!planned) {
    err << "conform certify: " << planned.error() << "\n";
    return 2;
  }
  std::vector<pass_run>& passes = *planned;

  certification_run run;
  run.api = &api;
  for (const auto& p : passes) {
    for (const auto& e : p.traffic.exchanges) run.traffic.exchanges.push_back(e);
  }
  run.traffic.spec = &api;
  run.traffic.environment = opts.environment;
  run.traffic.credentials = passes.front().traffic.credentials;
  run.traffic.seed = opts.seed;
  harness::annotate(run.traffic);
  run.info =
      run_info_of(opts, api, spec_path, rules, opts.seed, passes.front().base_url, started_at);
  run.level = opts.level;
  run.client_command = core::join(opts.command, " ");
  run.client_name = opts.client_name.empty() ? run.client_command : opts.client_name;
  run.artifacts = *artifacts;
  run.finished_at = utc_now();
  run.server_profile = profile;
  run.recording_started = recording_started;
  if (!opts.transcript.empty()) {
    const std::string text = plan_transcript(opts, api, run, passes, scope);
    if (auto written = core::write_file(opts.transcript, text); !written) {
      err << "conform certify: --transcript: " << written.error() << "\n";
      return 2;
    }
    run.transcript_path = opts.transcript;
    run.transcript_sha256 = reports::sha256_hex(text);
  }
  auto report =
      judge_plan(passes, scope, rules, api, *harness::parse_rule_level(run.level), run.info);
  return write_outputs(opts, run, report, signing_key, out, err);
}

}  // namespace conform::cli
