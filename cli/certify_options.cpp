#include "cli/certify_options.hpp"

#include "cli/arguments.hpp"

namespace conform::cli {

const char* certify_help() {
  return R"(usage: conform certify [options] -- COMMAND [ARGS...]
       conform certify --listen --profile-out FILE [options]
       conform certify --judge TRANSCRIPT [options]

Runs COMMAND once per pass of a plan, each time against a fresh certification
server (the reference server plus scripted adversity) on a loopback port,
with CONFORM_PROFILE and CONFORM_PROFILE_JSON (the paths of a temporary
profile, YAML and JSON, with inline secrets) and CONFORM_BASE_URL set. The
baseline pass scripts nothing and learns the scope (the operations the
client calls); then one pass per family (rate limit, transient failures,
outage, slow answers) scripts that family on the scope, all at once. Every
request is recorded, and the client rules judge each pass; the verdict
combines them. With --listen, one pass with every family, serving until
SIGINT/SIGTERM. With --judge, judges a transcript that --transcript kept,
every pass, offline, to the same verdict.
Exit status: 0 certified, 1 not (the client failed, an adversity was not
survived, a rule was broken or not exercised), 2 usage or configuration
error (a COMMAND that cannot start).

options:
  --seed N              the adversity plan (default 1); the same seed and client
                        give the same run
  --port N              the server's port (default: a free one)
  --json FILE           write the certification report as JSON (docs/report-format.md)
  --junit FILE          write it as JUnit XML (a testcase per operation x auth model x rule)
  --record FILE         write the client's traffic as HAR 1.2, secrets as ${NAME}, each
                        exchange with the client rules it broke (docs/recording.md)
  --html FILE           write it as one self-contained HTML page
  --certificate FILE    when certified, write a signed certificate (needs --signing-key)
  --signing-key FILE    the Ed25519 private key (PEM; conform certificate keygen)
  --client-name NAME    the client's name in the reports and the certificate
                        (default: the command as given)
  --client-artifact FILE  a file that identifies the client (repeatable); the
                        certificate carries its sha256 (default: the resolved
                        executable and the script files named in COMMAND)
  --transcript FILE     write the recorded traffic as JSON lines (secrets replaced);
                        the certificate carries its sha256
  --judge TRANSCRIPT    judge a transcript again, offline, with no client and no server
  --scope FILE          the operations to certify (a YAML or JSON list of operationIds),
                        instead of those the baseline pass sees the client call
  --level core|extended the certificate level: core needs every core rule exercised,
                        extended every rule (default core)
  --checks NAME,...     judge these client rules only (conform run --list-checks)
  --environment E       sandbox (default) or production: whose keys the server takes
  --no-adversity        serve without scripted adversity (a certificate needs it)
  --timeout SECONDS     stop the client after this long (default 300)
  --spec FILE           the description (default specs/voice-api.yaml)
  --listen              serve until SIGINT/SIGTERM for a client started elsewhere
  --profile-out FILE    with --listen: where to write the profile that reaches the server
                        (YAML; JSON when FILE ends in .json)
)";
}

core::outcome<certify_options> parse_certify_options(const std::vector<std::string>& args) {
  std::string error;  // what take() could not read
  certify_options o;
  argument_reader in(args);
  while (in.next()) {
    const std::string& a = in.name();
    if (a == "--") {
      o.command = in.rest();
      break;
    }
    auto take = [&](std::string& v) {
      auto got = in.value(v);
      if (!got) error = got.error();
      return got.ok();
    };
    std::string v;
    if (a == "-h" || a == "--help") {
      o.help = true;
    } else if (a == "--listen") {
      o.listen = true;
    } else if (a == "--no-adversity") {
      o.adversity = false;
    } else if (a == "--profile-out") {
      if (!take(o.profile_out)) return core::fail(error);
    } else if (a == "--port") {
      if (!take(v)) return core::fail(error);
      if (!parse_number(v, o.port) || o.port < 0 || o.port > 65535) {
        return core::fail("--port must be from 0 to 65535, not '" + v + "'");
      }
    } else if (a == "--seed") {
      if (!take(v)) return core::fail(error);
      if (!parse_number(v, o.seed)) {
        return core::fail("--seed must be a non-negative integer, not '" + v + "'");
      }
      o.seed_given = true;
    } else if (a == "--timeout") {
      if (!take(v)) return core::fail(error);
      if (!parse_seconds(v, o.client_timeout_seconds)) {
        return core::fail("--timeout must be a number of seconds from 0 to 86400, not '" + v + "'");
      }
    } else if (a == "--spec") {
      if (!take(o.spec)) return core::fail(error);
    } else if (a == "--environment") {
      if (!take(o.environment)) return core::fail(error);
      if (o.environment != "sandbox" && o.environment != "production") {
        return core::fail("--environment must be sandbox or production, not '" + o.environment +
                          "'");
      }
    } else if (a == "--client-name") {
      if (!take(o.client_name)) return core::fail(error);
    } else if (a == "--client-artifact") {
      if (!take(v)) return core::fail(error);
      o.client_artifacts.push_back(v);
    } else if (a == "--transcript") {
      if (!take(o.transcript)) return core::fail(error);
    } else if (a == "--judge") {
      if (!take(o.judge)) return core::fail(error);
    } else if (a == "--scope") {
      if (!take(o.scope)) return core::fail(error);
    } else if (a == "--level") {
      o.level_given = true;
      if (!take(o.level)) return core::fail(error);
      if (o.level != "core" && o.level != "extended") {
        return core::fail("--level must be core or extended, not '" + o.level + "'");
      }
    } else if (a == "--checks") {
      if (!take(v)) return core::fail(error);
      for (auto& c : split_list(v)) o.checks.push_back(std::move(c));
    } else if (a == "--json") {
      if (!take(o.json)) return core::fail(error);
    } else if (a == "--junit") {
      if (!take(o.junit)) return core::fail(error);
    } else if (a == "--record") {
      if (!take(o.record)) return core::fail(error);
    } else if (a == "--html") {
      if (!take(o.html)) return core::fail(error);
    } else if (a == "--certificate") {
      if (!take(o.certificate)) return core::fail(error);
    } else if (a == "--signing-key") {
      if (!take(o.signing_key)) return core::fail(error);
    } else {
      return core::fail("unknown argument '" + a + "' (the client's command goes after --)");
    }
  }
  if (o.help) return o;
  if (!o.judge.empty()) {
    if (o.listen || !o.command.empty()) {
      return core::fail("--judge judges a transcript: no COMMAND, no --listen");
    }
    if (!o.transcript.empty() || o.port != 0 || o.seed_given || !o.adversity ||
        !o.client_name.empty() || !o.client_artifacts.empty() || !o.record.empty()) {
      error =
          "--judge takes the seed, the client and the adversity from the transcript; "
          "--transcript, --port, --seed, --no-adversity, --client-name, --client-artifact "
          "and --record do not apply";
      return core::fail(error);
    }
    if (!o.certificate.empty() && o.signing_key.empty()) {
      return core::fail(
          "--certificate needs --signing-key FILE (conform certificate keygen makes one)");
    }
    return o;
  }
  if (o.listen && !o.command.empty()) {
    return core::fail("--listen and a COMMAND exclude each other");
  }
  if (o.listen && o.profile_out.empty()) {
    return core::fail("--listen needs --profile-out FILE (where the client finds the server)");
  }
  if (!o.listen && o.command.empty()) {
    return core::fail("no client command: conform certify [options] -- COMMAND [ARGS...]");
  }
  if (!o.certificate.empty() && o.signing_key.empty()) {
    return core::fail(
        "--certificate needs --signing-key FILE (conform certificate keygen makes one)");
  }
  return o;
}

}  // namespace conform::cli
