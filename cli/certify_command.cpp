// `conform certify`: a certification server, the partner's client run
// against it (or a client started elsewhere, --listen), the recorded traffic
// judged by the client rules, the reports, and a signed certificate.
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <thread>

#include "cli/certify_options.hpp"
#include "cli/cli.hpp"
#include "cli/default_spec.hpp"
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

extern char** environ;

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

/// A temporary profile file, removed when destroyed.
struct temp_profile {
  std::string path;
  ~temp_profile() {
    if (!path.empty()) ::unlink(path.c_str());
  }
};

/// Runs `command` with `env` added; the exit description, or nullopt with
/// `error` when it cannot start.
std::optional<std::string> run_client(const std::vector<std::string>& command,
                                      const std::vector<std::string>& env, double timeout_seconds,
                                      std::string& error, bool& exited_zero) {
  std::vector<std::string> envs;
  for (char** e = environ; *e; ++e) {
    const std::string_view kv(*e);
    if (kv.starts_with("CONFORM_PROFILE=") || kv.starts_with("CONFORM_BASE_URL=")) continue;
    envs.emplace_back(kv);
  }
  envs.insert(envs.end(), env.begin(), env.end());
  std::vector<char*> argv, envp;
  for (const auto& a : command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (const auto& e : envs) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  pid_t pid = 0;
  const int rc =
      ::posix_spawnp(&pid, command[0].c_str(), nullptr, nullptr, argv.data(), envp.data());
  if (rc != 0) {
    error = "cannot start the client command '" + command[0] + "': " + std::strerror(rc);
    return std::nullopt;
  }
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(static_cast<long long>(timeout_seconds * 1000));
  int status = 0;
  bool timed_out = false;
  while (true) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) {
      error = "lost the client process: " + std::string(std::strerror(errno));
      return std::nullopt;
    }
    if (!timed_out && std::chrono::steady_clock::now() > deadline) {
      timed_out = true;
      ::kill(pid, SIGKILL);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  exited_zero = !timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (timed_out) return "stopped after --timeout " + std::to_string(timeout_seconds) + " s";
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  return "ended";
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
    t.exchanges.push_back(std::move(e));
  }
  return t;
}

}  // namespace

int certify_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::string error;
  auto parsed = parse_certify_options(args, error);
  if (!parsed) {
    err << "conform certify: " << error << "\n";
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
  const auto recording_started = std::chrono::system_clock::now();
  std::string client_exit;
  bool client_ok = true;
  if (opts.listen) {
    if (!write_private(opts.profile_out, profile)) {
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
    temp_profile tmp;
    const char* dir = std::getenv("TMPDIR");
    std::string pattern = std::string(dir && *dir ? dir : "/tmp") + "/conform-profile-XXXXXX";
    const int fd = ::mkstemp(pattern.data());
    if (fd < 0) {
      err << "conform certify: cannot make a temporary profile file in " << pattern << "\n";
      return 2;
    }
    tmp.path = pattern;
    const bool written =
        ::write(fd, profile.data(), profile.size()) == static_cast<ssize_t>(profile.size());
    ::close(fd);
    if (!written) {
      err << "conform certify: cannot write the temporary profile " << tmp.path << "\n";
      return 2;
    }
    auto exit = run_client(
        opts.command, {"CONFORM_PROFILE=" + tmp.path, "CONFORM_BASE_URL=" + server->base_url()},
        opts.client_timeout_seconds, error, client_ok);
    if (!exit) {
      err << "conform certify: " << error << "\n";
      return 2;
    }
    client_exit = *exit;
  }
  server->stop();

  // Judge.
  harness::traffic traffic = to_traffic(recorder->snapshot(), "/api/v1");
  traffic.spec = &api;
  traffic.environment = opts.environment;
  traffic.credentials = credentials_of(profile);
  traffic.seed = opts.seed;
  harness::annotate(traffic);
  harness::run_info info;
  info.tool_version = CONFORM_VERSION;
  info.seed = opts.seed;
  info.spec_file = spec_path.string();
  info.spec_title = api.title;
  info.spec_version = api.version;
  info.spec_hash = api.hash;
  info.target = server->base_url();
  info.in_process_reference = true;
  for (const auto* r : rules) info.checks.push_back(r->info.name);
  info.started_at = started_at;
  harness::event_stream events;
  const reports::file_writer* junit = nullptr;
  if (!opts.junit.empty()) {
    auto w = reports::make_writer(*reports::find_report_format("junit"), opts.junit);
    junit = w.get();
    events.add(std::move(w));
  }
  const auto level = *harness::parse_rule_level(opts.level);
  harness::certification_report report =
      harness::judge_traffic(traffic, rules, level, info, events);
  report.client_command = opts.listen ? "(listening mode)" : core::join(opts.command, " ");
  report.client_exit = client_exit;
  report.adversity_plan = recorder->plan();
  report.finished_at = utc_now();
  if (!opts.adversity && report.certified) {
    report.certified = false;
    report.verdict = "not certified: --no-adversity (a certificate needs the scripted adversity)";
  }
  if (!client_ok && report.certified) {
    report.certified = false;
    report.verdict = "not certified: the client did not complete (" + client_exit + ")";
  }

  int status = report.exit_code();
  out << reports::render_certification_text(report);
  auto write = [&](const std::string& path, const std::string& text, const char* what) {
    if (path.empty()) return;
    std::string why;
    if (!reports::detail::write_file(path, text, why)) {
      err << "conform certify: " << what << ": " << why << "\n";
      status = 2;
    }
  };
  write(opts.json, reports::render_certification_json(report), "--json");
  if (!opts.record.empty()) {
    // The traffic as HAR, redacted for the server's own credentials.
    auto server_target = profile::parse_profile(profile, "the certification server's profile");
    std::string why = "the server's profile does not load";
    if (!server_target.ok() ||
        !reports::write_traffic_har(opts.record, traffic, report, *server_target.value,
                                    {CONFORM_VERSION, "certify", opts.seed, spec_path.string(),
                                     api.hash, server->base_url(), started_at},
                                    recording_started, why)) {
      err << "conform certify: --record: " << why << "\n";
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
    s.description_title = api.title;
    s.description_version = api.version;
    s.description_hash = api.hash;
    s.client = opts.listen ? "(listening mode)" : opts.command.front();
    s.level = opts.level;
    s.rules = report.passed_rules();
    s.seed = opts.seed;
    s.date = report.finished_at;
    s.conform_version = CONFORM_VERSION;
    auto text = reports::sign_certificate(s, signing_key, error);
    if (!text) {
      err << "conform certify: --signing-key " << opts.signing_key << ": " << error << "\n";
      return 2;
    }
    write(opts.certificate, *text, "--certificate");
    if (status == 0) out << "conform certify: certificate written to " << opts.certificate << "\n";
  }
  return status;
}

}  // namespace conform::cli
