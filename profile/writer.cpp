#include "profile/writer.hpp"

#include <cstdio>

namespace conform::profile {
namespace {

/// A YAML double-quoted scalar.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

void comment_lines(std::string& out, const std::vector<std::string>& lines,
                   const std::string& indent) {
  for (const auto& l : lines) {
    std::string one = l;
    for (auto& c : one) {
      if (c == '\n' || c == '\r') c = ' ';
    }
    out += indent + "# " + one + "\n";
  }
}

}  // namespace

std::string to_yaml(const target& t, const profile_comments& comments) {
  std::string out;
  comment_lines(out, comments.header, "");
  out += "base_url: " + quoted(t.base_url.to_string()) + "\n";
  out += "environment: " + std::string(to_string(t.env)) + "\n";
  if (t.disposable) out += "disposable: true\n";
  out += t.tenants.empty() ? "tenants: {}\n" : "tenants:\n";
  for (const auto& tenant : t.tenants) {
    if (auto it = comments.tenants.find(tenant.name); it != comments.tenants.end()) {
      comment_lines(out, it->second, "  ");
    }
    out += "  " + quoted(tenant.name) + ":\n";
    out += "    id: " + quoted(tenant.id) + "\n";
    if (tenant.fixtures.empty()) {
      out += "    fixtures: {}\n";
      continue;
    }
    out += "    fixtures:\n";
    for (const auto& [name, value] : tenant.fixtures) {
      out += "      " + quoted(name) + ": " + quoted(value) + "\n";
    }
    if (!tenant.writable.empty()) {
      out += "    writable: [";
      const char* sep = "";
      for (const auto& name : tenant.writable) {
        out += sep + quoted(name);
        sep = ", ";
      }
      out += "]\n";
    }
  }
  out += t.credentials.empty() ? "credentials: []\n" : "credentials:\n";
  for (const auto& c : t.credentials) {
    if (auto it = comments.credentials.find(c.name); it != comments.credentials.end()) {
      comment_lines(out, it->second, "  ");
    }
    out += "  - name: " + quoted(c.name) + "\n";
    out += "    scheme: " + quoted(c.scheme.empty() ? c.kind : c.scheme) + "\n";
    out += "    value_env: " + quoted(c.value.env_name()) + "\n";
    if (!c.tenants.empty()) {
      if (c.tenants.size() == 1) {
        out += "    tenant: " + quoted(c.tenants.front()->name) + "\n";
      } else {
        out += "    tenants: [";
        for (std::size_t i = 0; i < c.tenants.size(); ++i) {
          out += (i ? ", " : "") + quoted(c.tenants[i]->name);
        }
        out += "]\n";
      }
    }
    if (c.scopes) {
      out += "    scopes: [";
      for (std::size_t i = 0; i < c.scopes->size(); ++i) {
        out += (i ? ", " : "") + quoted((*c.scopes)[i]);
      }
      out += "]\n";
    }
    if (!c.role.empty()) out += "    role: " + quoted(c.role) + "\n";
    if (c.expired) out += "    expired: true\n";
    if (c.other_environment) {
      out += "    environment: " +
             std::string(to_string(t.env == environment::sandbox ? environment::production
                                                                 : environment::sandbox)) +
             "\n";
    }
    if (c.rate_limited) out += "    rate_limited: true\n";
  }
  return out;
}

}  // namespace conform::profile
