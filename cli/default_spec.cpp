#include "cli/default_spec.hpp"

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

}  // namespace conform::cli
