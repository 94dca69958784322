#pragma once
// A target written as a profile (the YAML format of the user contract):
// what `conform profile discover` hands a user to review. Secrets are never
// written: each credential names the environment variable that holds it
// (`value_env`), so the file is safe to keep beside the code.

#include <map>
#include <string>
#include <vector>

#include "profile/profile.hpp"

namespace conform::profile {

/// What the writer adds beside the target itself: comments.
struct profile_comments {
  std::vector<std::string> header;  // lines at the top
  /// Per credential name: lines written above it (why its scopes are left out).
  std::map<std::string, std::vector<std::string>> credentials;
  /// Per tenant name: lines written above it.
  std::map<std::string, std::vector<std::string>> tenants;
};

/// `t` as profile YAML that load_profile reads back into the same target
/// (tenants with their fixtures, credentials with scheme, value_env, tenants,
/// scopes when stated, role when it is one the format takes, and the flags).
std::string to_yaml(const target& t, const profile_comments& comments = {});

}  // namespace conform::profile
