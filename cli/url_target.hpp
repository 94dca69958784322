#pragma once
// `conform run --url BASE [-H 'Name: value']... [--auth-env NAME]`: the
// target built in memory, without a profile. One credential at most, no
// tenants; header values are secrets (named CONFORM_HEADER_<NAME> in
// reproductions), and a credential from the environment is named by its
// variable.

#include <optional>
#include <string>
#include <vector>

#include "openapi/model.hpp"
#include "profile/loader.hpp"

namespace conform::cli {

/// What the command line says about a target without a profile.
struct url_target_options {
  std::string url;                   // --url BASE
  std::vector<std::string> headers;  // -H 'Name: value', in order
  std::string auth_env;              // --auth-env NAME: the credential's variable
  std::string auth_scheme;           // --auth-scheme KEY: which scheme it is for
};

/// The target, or nullopt with `error` (one line) set. A -H whose name is
/// the header of one of the description's schemes (Authorization for http
/// bearer and basic, an apiKey's header) becomes that scheme's credential;
/// the others go on every request. The credential is taken to hold every
/// scope the description names for its scheme: a profile says otherwise.
/// Why a client certificate of `opts` cannot be used (it does not parse, or
/// its key does not belong to it), naming the credential; nullopt when all can.
std::optional<std::string> check_identities(const http::client_options& opts);

std::optional<profile::target> url_target(const url_target_options& opts,
                                          const openapi::api_spec& spec, std::string& error,
                                          const profile::env_lookup& env = profile::process_env);

}  // namespace conform::cli
