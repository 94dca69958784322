#pragma once
// `conform run --url BASE [-H 'Name: value']... [--auth-env NAME]`: the
// target built in memory, without a profile. One credential at most, the
// tenant of a tenant header; header values are secrets (named CONFORM_HEADER_<NAME> in
// reproductions), and a credential from the environment is named by its
// variable.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/outcome.hpp"
#include "openapi/model.hpp"
#include "profile/loader.hpp"

namespace conform::cli {

/// What the command line says about a target without a profile.
struct url_target_options {
  std::string url;                   // --url BASE
  std::vector<std::string> headers;  // -H 'Name: value', in order
  std::string auth_env;              // --auth-env NAME: the credential's variable
  std::string auth_scheme;           // --auth-scheme KEY: which scheme it is for
  /// Further credentials from the environment: (variable, scheme key or "").
  std::vector<std::pair<std::string, std::string>> more_auth;
};

/// Why a client certificate of `opts` cannot be used (it does not parse, or
/// its key does not belong to it), naming the credential; nullopt when all can.
std::optional<std::string> check_identities(const http::client_options& opts);

/// The target, or why not (one line). A -H whose name is
/// the header of one of the description's schemes (Authorization for http
/// bearer and basic, an apiKey's header) becomes that scheme's credential
/// (where schemes share the header: the one --auth-scheme names, else
/// "Bearer ..." the http bearer's and "Basic ..." the http basic's); a
/// -H of the header the description takes the tenant from (x-tenant-context)
/// names the tenant the credential acts for; the others go on every request.
/// The credential's scopes are not stated (the run learns them from the
/// answers); a JWT's role and tenants are read from its claims where the
/// description names them (profile/claims.hpp), unverified.
core::outcome<profile::target> url_target(const url_target_options& opts,
                                          const openapi::api_spec& spec,
                                          const profile::env_lookup& env = profile::process_env);

}  // namespace conform::cli
