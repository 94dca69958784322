#include "profile/secret.hpp"

#include <ostream>

namespace conform::profile {

secret::secret(std::string value, std::string env_name, bool from_env)
    : value_(std::move(value)), env_name_(std::move(env_name)), from_env_(from_env) {}

std::ostream& operator<<(std::ostream& os, const secret&) {
  return os << "***";
}

std::string derived_env_name(std::string_view credential_name) {
  std::string out = "CONFORM_SECRET_";
  for (char c : credential_name) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    out.push_back(ok ? c : '_');
  }
  return out;
}

}  // namespace conform::profile
