#include "reference/detail/profile.hpp"

#include <yaml-cpp/yaml.h>

#include <shared_mutex>

namespace conform::reference::detail {

std::string profile_yaml(const server_state& st, const std::string& base_url) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "base_url" << YAML::Value << base_url;
  out << YAML::Key << "environment" << YAML::Value << st.environment;
  out << YAML::Key << "tenants" << YAML::Value << YAML::BeginMap;
  {
    std::shared_lock lock(st.data.mutex);
    for (const auto& [key, fixtures] : st.data.fixtures) {
      std::string id = key == "t1" ? "101" : key == "t2" ? "102" : "103";
      out << YAML::Key << key << YAML::Value << YAML::BeginMap;
      out << YAML::Key << "id" << YAML::Value << YAML::DoubleQuoted << id;
      out << YAML::Key << "fixtures" << YAML::Value << YAML::BeginMap;
      for (const auto& [name, value] : fixtures) {
        out << YAML::Key << name << YAML::Value << YAML::DoubleQuoted << value;
      }
      out << YAML::EndMap << YAML::EndMap;
    }
  }
  out << YAML::EndMap;
  out << YAML::Key << "credentials" << YAML::Value << YAML::BeginSeq;
  for (const auto& c : st.credentials.all()) {
    out << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << c.name;
    out << YAML::Key << "scheme" << YAML::Value << std::string(to_string(c.kind));
    out << YAML::Key << "value" << YAML::Value << c.secret;
    if (c.kind == scheme::tenant_key) {
      out << YAML::Key << "tenant" << YAML::Value << c.tenants.front();
    } else {
      out << YAML::Key << "tenants" << YAML::Value << YAML::Flow << c.tenants;
    }
    if (c.kind != scheme::jwt) {
      out << YAML::Key << "scopes" << YAML::Value << YAML::Flow << YAML::BeginSeq;
      for (const auto& s : c.scopes) out << s;
      out << YAML::EndSeq;
    } else {
      out << YAML::Key << "role" << YAML::Value << c.role;
    }
    if (c.expired) out << YAML::Key << "expired" << YAML::Value << true;
    if (c.environment != st.environment) {
      out << YAML::Key << "environment" << YAML::Value << c.environment;
    }
    if (c.rate_limited) out << YAML::Key << "rate_limited" << YAML::Value << true;
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace conform::reference::detail
