// `conform certify`: a certification server, the partner's client run
// against it (or a client started elsewhere, --listen), the recorded traffic
// judged by the client rules, the reports, a transcript, and a signed
// certificate; or (--judge) a transcript judged again, offline.
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <boost/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "cli/certify_client.hpp"
#include "cli/certify_options.hpp"
#include "cli/certify_transcript.hpp"
#include "cli/cli.hpp"
#include "cli/default_spec.hpp"
#include "core/document.hpp"
#include "core/outcome.hpp"
#include "core/parse.hpp"
#include "core/text.hpp"
#include "harness/certification.hpp"
#include "openapi/loader.hpp"
#include "reference/certification.hpp"
#include "reference/server.hpp"
#include "reports/certificate.hpp"
#include "reports/certification.hpp"
#include "reports/detail_text.hpp"
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
    auto kind = openapi::parse_credential_kind(c.get("scheme").text());
    if (!kind) continue;
    out.push_back({c.get("name").text(), *kind, c.get("value").text()});
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
  harness::traffic traffic;
  harness::run_info info;
  harness::client_outcome client;
  std::string level;
  std::string client_command;
  std::string client_name;
  std::vector<std::pair<std::string, std::string>> artifacts;
  std::vector<std::string> plan;
  std::string transcript_path;
  std::string transcript_sha256;
  std::string finished_at;
  /// --record: the certification server's profile (its credentials are
  /// redacted from the HAR) and when it started recording; "" when the
  /// traffic was read back from a transcript (--judge), which records nothing.
  std::string server_profile;
  std::chrono::system_clock::time_point recording_started;
};

/// Judges `run`, prints the verdict, writes the reports and the certificate.
int judge_and_write(const certify_options& opts, certification_run& run,
                    const std::vector<const harness::traffic_check*>& rules,
                    const std::string& signing_key, std::ostream& out, std::ostream& err) {
  harness::event_stream events;
  const reports::file_writer* junit = nullptr;
  if (!opts.junit.empty()) {
    auto w = reports::make_writer(*reports::find_report_format("junit"), opts.junit);
    junit = w.get();
    events.add(std::move(w));
  }
  const auto level = *harness::parse_rule_level(run.level);
  harness::certification_report report =
      harness::judge_traffic(run.traffic, rules, level, run.info, events, run.client);
  report.client_command = run.client_command;
  report.client_name = run.client_name;
  report.client_artifacts = run.artifacts;
  report.adversity_plan = run.plan;
  report.transcript = run.transcript_path;
  report.transcript_sha256 = run.transcript_sha256;
  report.finished_at = run.finished_at;

  int status = report.exit_code();
  out << reports::render_certification_text(report);
  auto write = [&](const std::string& path, const std::string& text, const char* what) {
    if (path.empty()) return;
    if (auto written = reports::detail::write_file(path, text); !written) {
      err << "conform certify: " << what << ": " << written.error() << "\n";
      status = 2;
    }
  };
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
  if (junit && !junit->error().empty()) {
    err << "conform certify: --junit: " << junit->error() << "\n";
    status = 2;
  }
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

/// `certify --judge TRANSCRIPT`.
int judge_transcript(const certify_options& opts, const openapi::api_spec& api,
                     const fs::path& spec_path,
                     const std::vector<const harness::traffic_check*>& rules,
                     const std::string& signing_key, std::ostream& out, std::ostream& err) {
  // A transcript holds every body a client sent (an import may be 10 MiB):
  // bounded all the same, and only a regular file.
  constexpr std::uintmax_t max_transcript_bytes = 256u << 20;
  std::error_code ec;
  if (!fs::is_regular_file(opts.judge, ec) ||
      fs::file_size(opts.judge, ec) > max_transcript_bytes || ec) {
    err << "conform certify: --judge: '" << opts.judge
        << "' is not a readable file of at most 256 MiB\n";
    return 2;
  }
  std::ifstream in(opts.judge, std::ios::binary);
  if (!in) {
    err << "conform certify: --judge: cannot read '" << opts.judge << "'\n";
    return 2;
  }
  const std::string text(std::istreambuf_iterator<char>(in), {});
  auto read = read_transcript(text);
  if (!read) {
    err << "conform certify: --judge " << opts.judge << ": " << read.error() << "\n";
    return 2;
  }
  const transcript_header& h = read->header;
  if (h.spec_hash != api.hash) {
    err << "conform certify: --judge: the transcript was recorded against the description "
        << "with sha256 " << h.spec_hash << ", and " << spec_path.string() << " has sha256 "
        << api.hash << " (give the same description with --spec)\n";
    return 2;
  }
  certification_run run;
  run.api = &api;
  run.traffic = std::move(read->traffic);
  run.traffic.spec = &api;
  harness::annotate(run.traffic);
  run.info.tool_version = CONFORM_VERSION;
  run.info.seed = h.seed;
  run.info.spec_file = spec_path.string();
  run.info.spec_title = api.title;
  run.info.spec_version = api.version;
  run.info.spec_hash = api.hash;
  run.info.target = h.base_url;
  run.info.in_process_reference = true;
  for (const auto* r : rules) run.info.checks.push_back(r->info.name);
  run.info.started_at = h.started_at;
  run.client = h.client;
  run.level = opts.level_given || h.level.empty() ? opts.level : h.level;
  run.client_command = h.client_command;
  run.client_name = h.client_name;
  run.artifacts = h.client_artifacts;
  run.plan = h.adversity_plan;
  run.transcript_path = opts.judge;
  run.transcript_sha256 = reports::sha256_hex(text);
  run.finished_at = h.finished_at;
  out << "conform certify: judging the transcript " << opts.judge << " (sha256 "
      << run.transcript_sha256 << ") offline\n";
  return judge_and_write(opts, run, rules, signing_key, out, err);
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
  std::vector<const harness::traffic_check*> rules;
  for (const auto& name : opts.checks) {
    const auto* e = catalogue.find(name);
    if (!e || e->kind != harness::check_kind::traffic) {
      err << "conform certify: --checks: '" << name
          << "' is no client rule (conform run --list-checks)\n";
      return 2;
    }
    rules.push_back(e->traffic);
  }
  if (opts.checks.empty()) {
    for (const auto& e : catalogue.all()) {
      if (e.kind == harness::check_kind::traffic) rules.push_back(e.traffic);
    }
  }
  std::string signing_key;
  if (!opts.signing_key.empty()) {
    std::ifstream in(opts.signing_key);
    if (!in) {
      err << "conform certify: --signing-key: cannot read '" << opts.signing_key << "'\n";
      return 2;
    }
    signing_key.assign(std::istreambuf_iterator<char>(in), {});
  }
  if (!opts.judge.empty()) {
    return judge_transcript(opts, api, spec_path, rules, signing_key, out, err);
  }
  auto artifacts = client_artifacts(opts.command, opts.client_artifacts);
  if (!artifacts) {
    err << "conform certify: " << artifacts.error() << "\n";
    return 2;
  }

  // The stop signals are blocked before the server's threads start, so that
  // in --listen mode sigwait receives them.
  sigset_t stop_signals, previous;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  if (opts.listen) pthread_sigmask(SIG_BLOCK, &stop_signals, &previous);

  reference::adversity_options adversity;
  adversity.enabled = opts.adversity;
  adversity.seed = opts.seed;
  // An outage fails more attempts than a client may make (x-retry).
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
    if (opts.listen) pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    return 2;
  }
  const std::string profile = server->profile_yaml();
  const std::string started_at = utc_now();
  harness::client_outcome client;
  client.adversity = opts.adversity;
  const auto recording_started = std::chrono::system_clock::now();
  if (opts.listen) {
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
  } else {
    temp_file yaml, json;
    if (!yaml.make("conform-profile", profile) ||
        !json.make("conform-profile-json", profile_json(profile))) {
      err << "conform certify: cannot write a temporary profile in $TMPDIR (or /tmp)\n";
      return 2;
    }
    auto ran = run_client(opts.command,
                          {"CONFORM_PROFILE=" + yaml.path, "CONFORM_PROFILE_JSON=" + json.path,
                           "CONFORM_BASE_URL=" + server->base_url()},
                          opts.client_timeout_seconds);
    if (!ran) {
      err << "conform certify: " << ran.error() << "\n";
      return 2;
    }
    client.known = true;
    client.completed = ran->completed;
    client.exit = ran->exit;
  }
  server->stop();

  certification_run run;
  run.api = &api;
  run.traffic = to_traffic(recorder->snapshot(), "/api/v1");
  run.traffic.spec = &api;
  run.traffic.environment = opts.environment;
  run.traffic.credentials = credentials_of(profile);
  run.traffic.seed = opts.seed;
  run.traffic.planned = planned_of(*recorder);
  harness::annotate(run.traffic);
  run.info.tool_version = CONFORM_VERSION;
  run.info.seed = opts.seed;
  run.info.spec_file = spec_path.string();
  run.info.spec_title = api.title;
  run.info.spec_version = api.version;
  run.info.spec_hash = api.hash;
  run.info.target = server->base_url();
  run.info.in_process_reference = true;
  for (const auto* r : rules) run.info.checks.push_back(r->info.name);
  run.info.started_at = started_at;
  run.client = client;
  run.level = opts.level;
  run.client_command = opts.listen ? "(listening mode)" : core::join(opts.command, " ");
  run.client_name = opts.client_name.empty() ? run.client_command : opts.client_name;
  run.artifacts = *artifacts;
  run.plan = recorder->plan();
  run.finished_at = utc_now();
  run.server_profile = profile;
  run.recording_started = recording_started;
  if (!opts.transcript.empty()) {
    transcript_header h;
    h.tool_version = CONFORM_VERSION;
    h.seed = opts.seed;
    h.environment = opts.environment;
    h.level = opts.level;
    h.spec_title = api.title;
    h.spec_version = api.version;
    h.spec_hash = api.hash;
    h.base_url = run.info.target;
    h.started_at = started_at;
    h.finished_at = run.finished_at;
    h.client_command = run.client_command;
    h.client_name = run.client_name;
    h.client_artifacts = run.artifacts;
    h.client = client;
    h.adversity_plan = run.plan;
    const std::string text = write_transcript(h, run.traffic, api);
    if (auto written = reports::detail::write_file(opts.transcript, text); !written) {
      err << "conform certify: --transcript: " << written.error() << "\n";
      return 2;
    }
    run.transcript_path = opts.transcript;
    run.transcript_sha256 = reports::sha256_hex(text);
  }
  return judge_and_write(opts, run, rules, signing_key, out, err);
}

}  // namespace conform::cli
