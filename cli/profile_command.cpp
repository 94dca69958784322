// `conform profile discover --url BASE [credentials]`: a profile written from
// what a target teaches. The stateful phase walks the description's links
// (and the dependencies it infers) with each credential, changing nothing it
// did not create; the tenants, scopes and ids the answers proved, the states
// its resources were seen in, and the role and tenants a JWT's claims name
// (read unverified) go into a profile a user reviews once. Secrets stay in
// the environment: the file names each by its variable.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <map>
#include <random>
#include <set>

#include "cli/arguments.hpp"
#include "cli/cli.hpp"
#include "cli/default_spec.hpp"
#include "cli/url_target.hpp"
#include "core/file.hpp"
#include "harness/reach.hpp"
#include "harness/stateful/phase.hpp"
#include "http/client.hpp"
#include "openapi/loader.hpp"
#include "profile/writer.hpp"

namespace conform::cli {
namespace {

constexpr const char* discover_help = R"(usage: conform profile discover --url BASE [options]

Walks the description's links and inferred dependencies against BASE with
the credentials given, changing nothing it did not create, and writes a
profile of what the answers proved: the tenants each credential reaches,
its scopes (when every scope of its scheme was decided by an answer), the
role and tenants a JWT's claims name (read, not verified), ids of resources
that exist (fixtures), and resources in each state a state machine names.
Review it, then: conform run --profile FILE.

  --url BASE           the target (required)
  --spec FILE          the OpenAPI description (default specs/voice-api.yaml)
  --overlay FILE       an OpenAPI Overlay applied first (repeatable)
  --permissions FILE   the permission matrix (default: permissions.yaml beside the spec)
  --skip-invalid-operations
                       walk what is valid of a description with errors: an operation
                       whose own parts (or the components it names) have errors is
                       left out, said with the error's file:line:col on standard error
                       and in the profile's header
  --auth-env NAME      a credential in environment variable NAME (repeatable); the
                       profile names it by NAME (value_env)
  --auth-scheme KEY    the security scheme of the --auth-env just before it (default:
                       the first an operation accepts)
  -H 'Name: value'     a header: a scheme's header is a credential (written as
                       value_env CONFORM_HEADER_<NAME>), the description's tenant
                       header names the tenant, any other goes on every request
  -o, --out FILE       write the profile to FILE (default: standard output)
  --seed N             the seed of the generated values
  --timeout SECONDS    per-request timeout (default 30)
  -h, --help           this text

Exit status: 0 a profile was written, 2 usage or configuration error (bad
spec, target unreachable, a credential not set).
)";

struct discover_options {
  url_target_options target;
  std::string spec = "specs/voice-api.yaml";
  std::vector<std::string> overlays;
  std::string permissions;
  std::string out;
  std::optional<std::uint64_t> seed;
  double timeout_seconds = 30;
  bool skip_invalid_operations = false;
  bool help = false;
};

core::outcome<discover_options> parse(const std::vector<std::string>& args) {
  discover_options o;
  argument_reader in(args);
  std::string* last_scheme = nullptr;  // the --auth-scheme slot of the last --auth-env
  while (in.next()) {
    const std::string& name = in.name();
    std::string v;
    if (name == "-h" || name == "--help") {
      o.help = true;
      continue;
    }
    if (name == "--skip-invalid-operations") {
      o.skip_invalid_operations = true;
      continue;
    }
    if (auto got = in.value(v); !got) return core::fail(got.error());
    if (name == "--url") {
      o.target.url = v;
    } else if (name == "--spec") {
      o.spec = v;
    } else if (name == "--overlay") {
      o.overlays.push_back(v);
    } else if (name == "--permissions") {
      o.permissions = v;
    } else if (name == "-H") {
      o.target.headers.push_back(v);
    } else if (name == "--auth-env") {
      if (o.target.auth_env.empty()) {
        o.target.auth_env = v;
        last_scheme = &o.target.auth_scheme;
      } else {
        o.target.more_auth.emplace_back(v, "");
        last_scheme = &o.target.more_auth.back().second;
      }
    } else if (name == "--auth-scheme") {
      if (!last_scheme || !last_scheme->empty()) {
        return core::fail("--auth-scheme names the scheme of the --auth-env just before it");
      }
      *last_scheme = v;
    } else if (name == "-o" || name == "--out") {
      o.out = v;
    } else if (name == "--seed") {
      std::uint64_t seed = 0;
      if (!parse_number(v, seed)) {
        return core::fail("--seed: expected a whole number, got '" + v + "'");
      }
      o.seed = seed;
    } else if (name == "--timeout") {
      if (!parse_seconds(v, o.timeout_seconds)) {
        return core::fail("--timeout: expected a number of seconds (up to a day), got '" + v + "'");
      }
    } else {
      return core::fail("unknown option '" + name + "' (see conform profile discover --help)");
    }
  }
  if (!o.help && o.target.url.empty()) {
    return core::fail("--url BASE is required");
  }
  return o;
}

/// Every scope the description names for `s`: its flows' and those asked in `security`.
std::vector<std::string> scopes_of(const openapi::api_spec& spec,
                                   const openapi::security_scheme& s) {
  std::vector<std::string> out = s.flow_scopes;
  for (const auto& op : spec.operations) {
    for (const auto& scope : op.scopes_for(s).value_or(std::vector<std::string>{})) {
      if (std::find(out.begin(), out.end(), scope) == out.end()) out.push_back(scope);
    }
  }
  return out;
}

/// The scopes the answers decided for `c`: granted (a 2xx that needed
/// them), refused (a 403 of an operation that needs that scope alone).
/// Written only when every scope of the scheme was decided.
void decide_scopes(const openapi::api_spec& spec, profile::credential& c,
                   const std::map<std::pair<std::string, std::string>, unsigned>& answers,
                   profile::profile_comments& comments) {
  if (c.scopes) return;
  const auto* scheme = c.scheme_in(spec);
  if (!scheme) return;
  const auto all = scopes_of(spec, *scheme);
  if (all.empty()) return;
  std::set<std::string> granted(c.proven_scopes.begin(), c.proven_scopes.end()), refused;
  for (const auto& op : spec.operations) {
    const auto needed = op.scopes_for(*scheme);
    if (!needed || needed->size() != 1 || granted.count(needed->front())) continue;
    auto it = answers.find({c.name, op.operation_id});
    if (it != answers.end() && it->second == 403) refused.insert(needed->front());
  }
  std::vector<std::string> open;
  for (const auto& s : all) {
    if (!granted.count(s) && !refused.count(s)) open.push_back(s);
  }
  if (open.empty()) {
    std::vector<std::string> held;
    for (const auto& s : all) {
      if (granted.count(s)) held.push_back(s);
    }
    c.scopes = held;
    comments.credentials[c.name].push_back(
        "scopes: every scope of its scheme decided by an answer (a 2xx that needed it, or a 403 "
        "of an operation needing it alone)");
    return;
  }
  std::string shown;
  for (const auto& s : granted) shown += (shown.empty() ? "" : ", ") + s;
  std::string unknown;
  for (const auto& s : open) unknown += (unknown.empty() ? "" : ", ") + s;
  comments.credentials[c.name].push_back("scopes left out (unknown): proved granted: " +
                                         (shown.empty() ? std::string("none") : shown) +
                                         "; no answer decided: " + unknown +
                                         ". Add `scopes:` to run the scope checks.");
}

/// The environment a credential's key prefix names (x-key-prefixes), if any.
std::optional<profile::environment> environment_of(const openapi::api_spec& spec,
                                                   const profile::credential& c) {
  const auto* scheme = c.scheme_in(spec);
  if (!scheme) return std::nullopt;
  for (const auto& [env, prefix] : scheme->key_prefixes) {
    if (!prefix.empty() && c.value.reveal().rfind(prefix, 0) == 0) {
      return profile::parse_environment(env);
    }
  }
  return std::nullopt;
}

std::string utc_stamp() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

int discover(const discover_options& o, std::ostream& out, std::ostream& err) {
  openapi::load_options load_opts;
  load_opts.permissions = o.permissions;
  load_opts.overlays.assign(o.overlays.begin(), o.overlays.end());
  load_opts.skip_invalid_operations = o.skip_invalid_operations;
  const auto spec_path = resolve_default_spec(o.spec);
  auto loaded = openapi::load(spec_path, load_opts);
  if (!loaded.ok()) {
    for (const auto& d : loaded.diagnostics) err << core::to_string(d) << "\n";
    err << "conform profile discover: the description " << spec_path.string() << " has errors\n";
    return 2;
  }
  const openapi::api_spec& api = *loaded.spec;
  // --skip-invalid-operations: what the description's errors kept out, said
  // now and in the profile's header (what was not walked taught nothing).
  std::vector<std::string> left_out;
  for (const auto& part : loaded.skipped) {
    left_out.push_back(part.what + ": the description's error at " +
                       core::to_string(part.error.pos) + ": " + part.error.message);
    err << "conform profile discover: left out: " << left_out.back() << "\n";
  }
  if (api.operations.empty() && !left_out.empty()) {
    err << "conform profile discover: the description " << spec_path.string()
        << " has no valid operations; nothing to walk\n";
    return 2;
  }
  auto target = url_target(o.target, api);
  if (!target) {
    err << "conform profile discover: " << target.error() << "\n";
    return 2;
  }
  // Credentials are named by their variables in the written profile.
  for (auto& c : target->credentials) c.name = c.value.env_name();
  for (const auto& c : target->credentials) {
    if (auto env = environment_of(api, c)) {
      target->env = *env;
      break;
    }
  }
  http::client_options client_opts;
  client_opts.workers = 2;
  const auto timeout = std::chrono::milliseconds(static_cast<long long>(o.timeout_seconds * 1000));
  client_opts.connection.total_timeout = timeout;
  client_opts.connection.connect_timeout = std::min(timeout, std::chrono::milliseconds(10000));
  {
    http::client probe_client(target->base_url, client_opts);
    http::request probe;
    probe.target = "/";
    auto r = probe_client.send_once(0, probe);
    if (!r.ok() && r.error().what != http::transport_error::kind::timeout &&
        r.error().what != http::transport_error::kind::too_large) {
      err << "conform profile discover: target unreachable: " << r.error().message << "\n";
      return 2;
    }
  }
  harness::stateful::phase_options po;
  po.seed = o.seed ? *o.seed : std::random_device{}();
  for (const auto& op : api.operations) po.operations.push_back(&op);
  po.base = target->base_url;
  po.client = client_opts;
  po.lanes = 2;
  po.only_created = true;
  po.every_credential = true;
  harness::reach_tracker reach(api);
  po.reach = &reach;
  auto outcome = harness::stateful::run_phase(api, *target, po);
  profile::target& learned = outcome.learned;

  profile::profile_comments comments;
  comments.header = {
      "Written by conform profile discover from " + target->base_url.to_string() + " at " +
          utc_stamp() + " with " + api.title + " " + api.version + " (" + spec_path.string() + ").",
      "Review it before use: each line below was learned, not stated. Secrets are not in it:",
      "each credential names the environment variable that holds it (value_env).",
  };
  for (const auto& n : left_out) comments.header.push_back("left out: " + n);
  for (const auto& n : target->notes) comments.header.push_back("learned: " + n);
  for (const auto& n : outcome.notes) comments.header.push_back("learned: " + n);
  for (auto& c : learned.credentials) decide_scopes(api, c, outcome.answers, comments);
  const std::string yaml = profile::to_yaml(learned, comments);
  if (o.out.empty()) {
    out << yaml;
  } else {
    if (auto written = core::write_file(o.out, yaml); !written) {
      err << "conform profile discover: " << written.error() << "\n";
      return 2;
    }
  }
  const auto rows = reach.fold(po.operations);
  std::set<std::string> reached;
  for (const auto& r : rows) {
    if (r.reached()) reached.insert(r.operation_id);
  }
  std::size_t fixtures = 0;
  for (const auto& t : learned.tenants) fixtures += t.fixtures.size();
  err << "conform profile discover: " << outcome.requests << " requests, " << reached.size()
      << " of " << api.operations.size() << " operations answered 2xx; " << learned.tenants.size()
      << " tenant(s), " << fixtures << " fixture(s)"
      << (o.out.empty() ? "" : "; written to " + o.out) << "\n";
  return 0;
}

}  // namespace

int profile_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty() || args[0] != "discover") {
    err << "conform profile: the subcommand is 'discover' (conform profile discover --url BASE)\n";
    return 2;
  }
  auto parsed = parse({args.begin() + 1, args.end()});
  if (!parsed) {
    err << "conform profile discover: " << parsed.error() << "\n";
    return 2;
  }
  if (parsed->help) {
    out << discover_help;
    return 0;
  }
  return discover(*parsed, out, err);
}

}  // namespace conform::cli
