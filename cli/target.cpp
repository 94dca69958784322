#include "cli/target.hpp"

#include <algorithm>
#include <chrono>
#include <ostream>

#include "cli/url_target.hpp"
#include "profile/claims.hpp"
#include "profile/loader.hpp"

namespace conform::cli {

void print_diagnostics(const std::vector<core::diagnostic>& diags, std::ostream& err) {
  for (const auto& d : diags) err << core::to_string(d) << "\n";
}

std::optional<profile::target> make_target(const target_choice& choice,
                                           const openapi::api_spec& api, const std::string& command,
                                           const std::string& profile_error_suffix,
                                           std::unique_ptr<reference::server>& reference_server,
                                           std::ostream& err) {
  if (!choice.profile.empty()) {
    auto p = profile::load_profile(choice.profile);
    if (p.ok()) {
      auto bound = profile::bind(*p.value, api);
      p.diagnostics.insert(p.diagnostics.end(), bound.begin(), bound.end());
    }
    print_diagnostics(p.diagnostics, err);
    if (!p.ok() || core::has_errors(p.diagnostics)) {
      err << "conform " << command << ": the profile " << choice.profile << " has errors"
          << profile_error_suffix << "\n";
      return std::nullopt;
    }
    profile::target target = std::move(*p.value);
    // What the profile leaves unstated, a JWT's claims may say (read unverified).
    if (choice.learn_from_tokens) profile::learn_from_tokens(target, api);
    return target;
  }
  if (!choice.url.empty()) {
    auto made = url_target({choice.url, choice.headers, choice.auth_env, choice.auth_scheme}, api);
    if (!made) {
      err << "conform " << command << ": " << made.error() << "\n";
      return std::nullopt;
    }
    return std::move(made).value();
  }
  reference::server_config rc;
  rc.faults.insert(choice.faults.begin(), choice.faults.end());
  rc.scale = choice.scale;
  try {
    reference_server = std::make_unique<reference::server>(rc);
  } catch (const std::exception& ex) {
    err << "conform " << command << ": cannot start the in-process reference server: " << ex.what()
        << "\n";
    return std::nullopt;
  }
  auto p = profile::parse_profile(reference_server->profile_yaml(), "in-process reference");
  if (!p.ok()) {
    print_diagnostics(p.diagnostics, err);
    err << "conform " << command << ": the reference server's profile does not load\n";
    return std::nullopt;
  }
  profile::target target = std::move(*p.value);
  target.made_from = profile::target::origin::reference;
  return target;
}

http::client_options client_options_for(const profile::target& target, double timeout_seconds) {
  http::client_options opts;
  const auto timeout = std::chrono::milliseconds(static_cast<long long>(timeout_seconds * 1000));
  opts.connection.total_timeout = timeout;
  opts.connection.connect_timeout = std::min(timeout, std::chrono::milliseconds(10000));
  opts.identities = profile::client_identities(target);
  opts.connection.tls.ca_file = target.ca_file;
  return opts;
}

void describe_target(harness::run_info& info, const std::string& spec_file,
                     const openapi::api_spec& api, const profile::target& target,
                     bool in_process_reference, const std::string& profile_file) {
  info.tool_version = CONFORM_VERSION;
  info.spec_file = spec_file;
  info.spec_title = api.title;
  info.spec_version = api.version;
  info.spec_hash = api.hash;
  info.target = target.base_url.to_string();
  info.in_process_reference = in_process_reference;
  info.profile_file = profile_file;
}

}  // namespace conform::cli
