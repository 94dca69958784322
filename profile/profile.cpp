#include "profile/profile.hpp"

namespace conform::profile {
std::string_view to_string(environment e) {
  return e == environment::production ? "production" : "sandbox";
}

std::optional<environment> parse_environment(std::string_view s) {
  if (s == "sandbox") return environment::sandbox;
  if (s == "production") return environment::production;
  return std::nullopt;
}

std::string_view to_string(jwt_role r) {
  switch (r) {
    case jwt_role::admin:
      return "admin";
    case jwt_role::member:
      return "member";
    case jwt_role::viewer:
      return "viewer";
  }
  return "viewer";
}

std::optional<jwt_role> parse_role(std::string_view s) {
  if (s == "admin") return jwt_role::admin;
  if (s == "member") return jwt_role::member;
  if (s == "viewer") return jwt_role::viewer;
  return std::nullopt;
}

// The profile spells schemes as the description's x-credential does.
std::vector<http::client_identity> client_identities(const target& t) {
  std::vector<http::client_identity> out;
  for (const auto& c : t.credentials) {
    if (c.has_certificate()) out.push_back({c.name, c.certificate_pem, c.key.reveal()});
  }
  return out;
}

std::string_view scheme_name(credential_kind k) {
  return openapi::to_string(k);
}

std::optional<credential_kind> parse_scheme(std::string_view s) {
  return openapi::parse_credential_kind(s);
}

}  // namespace conform::profile
