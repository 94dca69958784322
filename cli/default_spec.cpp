#include "cli/default_spec.hpp"

#include <ctime>

namespace conform::cli {

std::filesystem::path installed_spec_dir() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec || exe.empty()) return {};
  // bin/conform -> share/conform/specs: wherever the tree was installed.
  return exe.parent_path().parent_path() / "share" / "conform" / "specs";
}

std::filesystem::path resolve_default_spec(const std::string& given) {
  namespace fs = std::filesystem;
  const std::string name = given.empty() ? default_spec_name : given;
  fs::path p(name);
  std::error_code ec;
  // A path the user gave, or the default present here: as is.
  if (name != default_spec_name || fs::exists(p, ec)) return p;
  // An installed program (a package, `cmake --install`): the copy beside it.
  if (const fs::path dir = installed_spec_dir(); !dir.empty()) {
    const fs::path installed = dir / "voice-api.yaml";
    if (fs::exists(installed, ec)) return installed;
  }
  // A program run from its build tree: the source tree's copy.
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
