#include "cli/run_options.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <cmath>

#include "cli/arguments.hpp"
#include "http/rate_limiter.hpp"
#include "reports/registry.hpp"

namespace conform::cli {

core::status parse_shard(const std::string& text, std::uint32_t& index, std::uint32_t& count) {
  const auto slash = text.find('/');
  std::uint32_t k = 0, n = 0;
  if (slash == std::string::npos || !parse_number(text.substr(0, slash), k) ||
      !parse_number(text.substr(slash + 1), n) || n == 0 || n > 1000 || k == 0 || k > n) {
    return core::fail("--shard takes K/N with 1 <= K <= N <= 1000 (e.g. 2/3), not '" + text + "'");
  }
  index = k;
  count = n;
  return {};
}

std::string run_help() {
  return R"(usage: conform run [options]

Tests a target against the description. With no --profile, starts the
reference server in-process on a free loopback port and tests that.

  --spec FILE          the OpenAPI description (default specs/voice-api.yaml)
  --overlay FILE       an OpenAPI Overlay 1.0 applied to the description before it is
                       read (repeatable, in order)
  --ref-root DIR       $refs may read the files under DIR (default: the description's
                       own folder; a description split over sibling folders needs it)
  --permissions FILE   the permission matrix (default: permissions.yaml beside the spec)
  --profile FILE       the target profile (YAML; see README)
  --url BASE           test the target at BASE without a profile (one credential at
                       most; see -H and --auth-env): its rights are learned from the
                       answers, a JWT's claims are read (unverified) where the
                       description names them, and a -H of the description's tenant
                       header names its tenant
  -H 'Name: value'     with --url: a header for every request; the header of a
                       security scheme (Authorization, an apiKey's) is its credential
                       ("Bearer ..." of an http bearer scheme where schemes share it).
                       Values are secrets: reproductions name them ${CONFORM_HEADER_NAME}
  --auth-env NAME      with --url: the credential is in environment variable NAME
  --auth-scheme KEY    the security scheme (components.securitySchemes key) of
                       --auth-env (default: the first an operation accepts) and of a
                       -H credential in that scheme's header
  --seed N             the run's seed: the same seed and target send the same requests
  --examples N         examples per operation, auth model and mode (default 10)
  --no-coverage        skip the coverage phase (one request per constraint, sent
                       before the random examples; on by default)
  --strict-assumptions a failure that contradicts only an assumption of the
                       description (x-assumption) fails the run too; without it such
                       failures are reported in a class of their own and listed, and
                       the run passes (docs/checks.md)
  --allow-destructive  write to any resource the run reaches (PUT, PATCH, DELETE,
                       actions), not only to what it created; without it a run
                       against a profile or --url leaves the target's own data as
                       it found it (a profile says the same with disposable: true;
                       the in-process reference always is)
  --no-auth            the target does not enforce the description's security (a
                       server run with authentication off): every operation is
                       sent without a credential, and the checks of credentials
                       and tenants say "not run"; with --url or --profile, and no
                       credential
  --read-only PATTERN  operations that only read though their method may write (an
                       RPC-style POST that reads): safe mode sends them; the same
                       patterns as --include; repeatable
  --no-stateful        skip the stateful phase (chains along the description's links
                       that learn ids for the rest of the run, and the stateful
                       checks; on by default)
  --include PATTERN    only operations matching: operationId, tag or "METHOD /path";
                       globs (* ?) allowed; repeatable
  --exclude PATTERN    skip operations matching; repeatable
  --checks NAME,...    only these checks (see --list-checks)
  --workflows FILE     also run the Arazzo 1.0 workflows of FILE (repeatable;
                       suites/workflows/README.md says what is supported)
  --junit FILE         write a JUnit XML report
  --json FILE          write a JSON report (docs/report-format.md)
  --html FILE          write a self-contained HTML report (operations x auth models x checks)
  --report FORMAT=FILE write a report of FORMAT (the report formats below) to FILE;
                       repeatable
  --baseline FILE      a JSON report of an earlier run: its failures are "known", and
                       only new failures fail the run (docs/report-format.md)
  --update-baseline FILE  write this run's JSON report to FILE, the next baseline
  --record FILE        write every exchange (request, response, timings, the checks'
                       verdicts) to FILE as HAR 1.2, secrets as ${NAME}; `conform
                       replay FILE` sends them again (docs/recording.md)
  --shard K/N          run only shard K of N (1 <= K <= N): a deterministic 1/N of the
                       (operation, auth model) pairs and of the scenario suites; the N
                       shards' JSON reports merge with `conform report merge` (docs/ci.md)
  --timeout SECONDS    per-request timeout (default 30)
  --workers N          concurrent connections, each with one request in flight
                       (default 4)
  --threads N          threads that drive the workers' connections, each keeping
                       its share in flight at once (default: one per core, at most
                       one per worker)
  --rate-limit N/s     at most N requests per second (or N/min) to the target
  --max-shrinks N      requests spent shrinking one failure at most (default 64)
  --shrink-time-per-failure SECONDS
                       time spent shrinking one failure at most (default 20; 0: no
                       bound); no request of it waits past this
  --shrink-time SECONDS  time the shrinking phase spends at most (default: as long as
                       the run before it, at least 30; 0: no bound); failures it does
                       not reach are reported as first seen. A timeout is never shrunk
  --skip-invalid-operations
                       run what is valid of a description with errors: an operation
                       whose own parts (or the components it names) have errors is
                       "not run" with the error's file:line:col; exit 3 when all that
                       ran passed (`conform spec lint` stays strict)
  --no-progress        no progress bar, even on a terminal: plain lines, as in CI
  --list-checks        list the checks and exit
  --fault NAME         in-process reference only: switch on a fault (repeatable)
  --scale N            in-process reference only: multiply its seed data
  -h, --help           this text

Report formats (--report FORMAT=FILE; --junit, --json and --html are short for it):
)" + reports::report_format_lines() +
         R"(
With GITHUB_STEP_SUMMARY set, a Markdown summary is appended to that file.

Exit status: 0 every check passed, 1 a check failed (with --baseline: a new
failure; a failure that contradicts only an assumption of the description
counts with --strict-assumptions), 2 usage or configuration error (bad
spec, bad profile, bad baseline, target unreachable), 3 every check that
ran passed but --skip-invalid-operations left operations out.
)";
}

bool glob_match(const std::string& pattern, const std::string& text) {
  return fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
}

namespace {

// The options of `conform run`, in three tables: the switches, the options
// whose value is a text (a file, a pattern, a name), and those whose value
// is a number with its bounds. Each table takes the option it knows and
// says so (true), or leaves it to the next one (false); a value it cannot
// read is the error. A new option is one more branch in its table.

bool take_run_switch(const std::string& name, run_options& opts) {
  if (name == "-h" || name == "--help") {
    opts.help = true;
  } else if (name == "--no-progress") {
    opts.progress = false;
  } else if (name == "--no-coverage") {
    opts.coverage = false;
  } else if (name == "--strict-assumptions") {
    opts.strict_assumptions = true;
  } else if (name == "--allow-destructive") {
    opts.allow_destructive = true;
  } else if (name == "--no-auth") {
    opts.no_auth = true;
  } else if (name == "--no-stateful") {
    opts.stateful = false;
  } else if (name == "--list-checks") {
    opts.list_checks = true;
  } else if (name == "--skip-invalid-operations") {
    opts.skip_invalid_operations = true;
  } else {
    return false;
  }
  return true;
}

// --report FORMAT=FILE, FORMAT one of the registry's.
core::status add_named_report(const std::string& v, run_options& opts) {
  const auto eq = v.find('=');
  const std::string formats = reports::report_format_names();
  if (eq == std::string::npos || eq == 0 || eq + 1 == v.size()) {
    return core::fail("--report takes FORMAT=FILE (formats: " + formats + "), got '" + v + "'");
  }
  if (!reports::find_report_format(v.substr(0, eq))) {
    return core::fail("--report: unknown format '" + v.substr(0, eq) + "' (formats: " + formats +
                      ")");
  }
  opts.reports.emplace_back(v.substr(0, eq), v.substr(eq + 1));
  return {};
}

core::outcome<bool> take_run_text_option(const std::string& name, argument_reader& in,
                                         run_options& opts) {
  std::string error;  // what take() could not read
  auto take = [&](std::string& out) {
    auto got = in.value(out);
    if (!got) error = got.error();
    return got.ok();
  };
  std::string v;
  if (name == "--spec") {
    if (!take(opts.spec)) return core::fail(error);
  } else if (name == "--overlay") {
    if (!take(v)) return core::fail(error);
    opts.overlays.push_back(v);
  } else if (name == "--ref-root") {
    if (!take(opts.ref_root)) return core::fail(error);
  } else if (name == "--permissions") {
    if (!take(opts.permissions)) return core::fail(error);
  } else if (name == "--profile") {
    if (!take(opts.profile)) return core::fail(error);
  } else if (name == "--url") {
    if (!take(opts.url)) return core::fail(error);
  } else if (name == "-H" || name == "--header") {
    if (!take(v)) return core::fail(error);
    opts.headers.push_back(v);
  } else if (name == "--auth-env") {
    if (!take(opts.auth_env)) return core::fail(error);
  } else if (name == "--auth-scheme") {
    if (!take(opts.auth_scheme)) return core::fail(error);
  } else if (name == "--baseline") {
    if (!take(opts.baseline)) return core::fail(error);
  } else if (name == "--update-baseline") {
    if (!take(opts.update_baseline)) return core::fail(error);
  } else if (name == "--record") {
    if (!take(opts.record)) return core::fail(error);
  } else if (name == "--junit" || name == "--json" || name == "--html") {
    if (!take(v)) return core::fail(error);
    opts.reports.emplace_back(name.substr(2), v);
  } else if (name == "--report") {
    if (!take(v)) return core::fail(error);
    if (auto added = add_named_report(v, opts); !added) return core::fail(std::move(added).error());
  } else if (name == "--include") {
    if (!take(v)) return core::fail(error);
    opts.include.push_back(v);
  } else if (name == "--exclude") {
    if (!take(v)) return core::fail(error);
    opts.exclude.push_back(v);
  } else if (name == "--read-only") {
    if (!take(v)) return core::fail(error);
    opts.read_only.push_back(v);
  } else if (name == "--fault") {
    if (!take(v)) return core::fail(error);
    opts.faults.push_back(v);
  } else if (name == "--workflows") {
    if (!take(v)) return core::fail(error);
    for (auto& f : split_list(v)) opts.workflows.push_back(f);
  } else if (name == "--checks") {
    if (!take(v)) return core::fail(error);
    for (auto& c : split_list(v)) {
      if (std::find(opts.checks.begin(), opts.checks.end(), c) == opts.checks.end()) {
        opts.checks.push_back(c);
      }
    }
    if (opts.checks.empty()) {
      return core::fail("--checks needs at least one check name");
    }
  } else {
    return false;
  }
  return true;
}

core::outcome<bool> take_run_number_option(const std::string& name, argument_reader& in,
                                           run_options& opts) {
  std::string error;  // what take() could not read
  auto take = [&](std::string& out) {
    auto got = in.value(out);
    if (!got) error = got.error();
    return got.ok();
  };
  std::string v;
  if (name == "--seed") {
    std::uint64_t seed = 0;
    if (!take(v)) return core::fail(error);
    if (!parse_number(v, seed)) {
      return core::fail("--seed takes a non-negative integer, not '" + v + "'");
    }
    opts.seed = seed;
  } else if (name == "--shard") {
    if (!take(v)) return core::fail(error);
    if (auto shard = parse_shard(v, opts.shard_index, opts.shard_count); !shard) {
      return core::fail(std::move(shard).error());
    }
  } else if (name == "--examples") {
    if (!take(v)) return core::fail(error);
    if (!parse_number(v, opts.examples) || opts.examples == 0 || opts.examples > 100000) {
      return core::fail("--examples takes an integer from 1 to 100000, not '" + v + "'");
    }
  } else if (name == "--workers") {
    if (!take(v)) return core::fail(error);
    if (!parse_number(v, opts.workers) || opts.workers == 0 || opts.workers > 256) {
      return core::fail("--workers takes an integer from 1 to 256, not '" + v + "'");
    }
  } else if (name == "--threads") {
    if (!take(v)) return core::fail(error);
    if (!parse_number(v, opts.threads) || opts.threads == 0 || opts.threads > 256) {
      return core::fail("--threads takes an integer from 1 to 256, not '" + v + "'");
    }
  } else if (name == "--max-shrinks") {
    if (!take(v)) return core::fail(error);
    if (!parse_number(v, opts.max_shrinks)) {
      return core::fail("--max-shrinks takes a non-negative integer, not '" + v + "'");
    }
  } else if (name == "--shrink-time" || name == "--shrink-time-per-failure") {
    if (!take(v)) return core::fail(error);
    double seconds = 0;
    if (v != "0" && !parse_seconds(v, seconds)) {
      return core::fail(name + " takes a number of seconds from 0 (no bound) to 86400, not '" + v +
                        "'");
    }
    if (name == "--shrink-time") {
      opts.shrink_seconds = seconds;
    } else {
      opts.shrink_seconds_per_failure = seconds;
    }
  } else if (name == "--scale") {
    if (!take(v)) return core::fail(error);
    if (!parse_number(v, opts.scale) || opts.scale < 1 || opts.scale > 1000) {
      return core::fail("--scale takes an integer from 1 to 1000, not '" + v + "'");
    }
  } else if (name == "--timeout") {
    if (!take(v)) return core::fail(error);
    if (!parse_seconds(v, opts.timeout_seconds)) {
      return core::fail("--timeout takes a number of seconds above 0 and at most 86400, not '" + v +
                        "'");
    }
  } else if (name == "--rate-limit") {
    if (!take(v)) return core::fail(error);
    auto rate = http::parse_rate_limit(v);
    if (!rate.per_second || *rate.per_second <= 0) {
      return core::fail("--rate-limit takes N/s or N/min with N > 0 (e.g. 50/s), not '" + v + "'");
    }
    opts.rate_limit = *rate.per_second;
  } else {
    return false;
  }
  return true;
}

// The options that only go together: the in-process reference's, --url's.
core::status check_run_option_pairs(const run_options& opts) {
  if (!opts.profile.empty() && (!opts.faults.empty() || opts.scale != 1)) {
    return core::fail(
        "--fault and --scale apply to the in-process reference only, not with --profile");
  }
  if (!opts.url.empty() && !opts.profile.empty()) {
    return core::fail("give either --url or --profile, not both (a profile has its base_url)");
  }
  if (!opts.url.empty() && (!opts.faults.empty() || opts.scale != 1)) {
    return core::fail("--fault and --scale apply to the in-process reference only, not with --url");
  }
  if (opts.url.empty() &&
      (!opts.headers.empty() || !opts.auth_env.empty() || !opts.auth_scheme.empty())) {
    return core::fail(
        "-H, --auth-env and --auth-scheme go with --url (a profile says its credentials)");
  }
  if (opts.no_auth && opts.url.empty() && opts.profile.empty()) {
    return core::fail(
        "--no-auth is for a target that does not enforce the description's security; the "
        "in-process reference does (give --url BASE or --profile FILE)");
  }
  if (opts.no_auth && !opts.auth_env.empty()) {
    return core::fail("--no-auth sends no credential, and --auth-env gives one: drop one of them");
  }
  return {};
}

}  // namespace

core::outcome<run_options> parse_run_options(const std::vector<std::string>& args) {
  run_options opts;
  argument_reader in(args);
  while (in.next()) {
    const std::string& name = in.name();
    if (take_run_switch(name, opts)) continue;
    auto text = take_run_text_option(name, in, opts);
    if (!text) return core::fail(std::move(text).error());
    if (*text) continue;
    auto number = take_run_number_option(name, in, opts);
    if (!number) return core::fail(std::move(number).error());
    if (*number) continue;
    return core::fail("unknown option '" + name + "' (see conform run --help)");
  }
  if (auto pairs = check_run_option_pairs(opts); !pairs)
    return core::fail(std::move(pairs).error());
  return opts;
}

}  // namespace conform::cli
