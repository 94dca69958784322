#include "cli/default_spec.hpp"

#include <ctime>

namespace conform::cli {

std::filesystem::path resolve_default_spec(const std::string& given) {
  namespace fs = std::filesystem;
  const std::string name = given.empty() ? default_spec_name : given;
  fs::path p(name);
  std::error_code ec;
  // A path the user gave, or the default present here: as is.
  if (name != default_spec_name || fs::exists(p, ec)) return p;
  return fs::path(CONFORM_DEFAULT_SPEC_DIR) / "voice-api.yaml";
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace conform::cli
