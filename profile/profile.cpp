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

std::vector<http::client_identity> client_identities(const target& t) {
  std::vector<http::client_identity> out;
  for (const auto& c : t.credentials) {
    if (c.has_certificate()) out.push_back({c.name, c.certificate_pem, c.key.reveal()});
  }
  return out;
}

}  // namespace conform::profile

namespace conform::profile {
namespace {

/// Each credential's tenants as indices into `from`.
std::vector<std::vector<std::size_t>> tenant_indices(const std::vector<credential>& credentials,
                                                     const std::vector<tenant>& from) {
  std::vector<std::vector<std::size_t>> out;
  for (const auto& c : credentials) {
    auto& mine = out.emplace_back();
    for (const tenant* t : c.tenants) {
      for (std::size_t i = 0; i < from.size(); ++i) {
        if (&from[i] == t) mine.push_back(i);
      }
    }
  }
  return out;
}

void repoint(std::vector<credential>& credentials, const std::vector<tenant>& to,
             const std::vector<std::vector<std::size_t>>& indices) {
  for (std::size_t c = 0; c < credentials.size(); ++c) {
    credentials[c].tenants.clear();
    for (std::size_t i : indices[c]) credentials[c].tenants.push_back(&to[i]);
  }
}

}  // namespace

std::string_view target::noun() const {
  switch (made_from) {
    case origin::profile:
      return "the profile";
    case origin::url:
      return "the target (--url)";
    case origin::reference:
      return "the in-process reference";
  }
  return "the profile";
}

target target::clone() const {
  target out;
  out.file = file;
  out.made_from = made_from;
  out.base_url = base_url;
  out.env = env;
  out.disposable = disposable;
  out.enforces_security = enforces_security;
  out.tenants = tenants;
  out.shared = shared;
  out.credentials = credentials;
  out.headers = headers;
  out.ca_file = ca_file;
  out.notes = notes;
  repoint(out.credentials, out.tenants, tenant_indices(credentials, tenants));
  return out;
}

tenant& target::add_tenant(tenant t) {
  for (auto& have : tenants) {
    if (have.id == t.id) return have;
  }
  const auto indices = tenant_indices(credentials, tenants);
  tenants.push_back(std::move(t));
  repoint(credentials, tenants, indices);
  return tenants.back();
}

void target::reserve_tenants(std::size_t n) {
  if (n <= tenants.capacity()) return;
  const auto indices = tenant_indices(credentials, tenants);
  tenants.reserve(n);
  repoint(credentials, tenants, indices);
}

const tenant* target::find_tenant_id(std::string_view id) const {
  for (const auto& t : tenants) {
    if (t.id == id) return &t;
  }
  return nullptr;
}

}  // namespace conform::profile
