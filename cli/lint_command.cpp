// `conform spec lint [FILE] [--permissions FILE] [--overlay FILE]...`: loads and checks a
// description and its permission matrix, prints the diagnostics and a summary.
#include <string>
#include <vector>

#include "cli/cli.hpp"
#include "cli/default_spec.hpp"
#include "openapi/lint.hpp"
#include "openapi/loader.hpp"

namespace conform::cli {
namespace {

constexpr const char* lint_usage =
    "usage: conform spec lint [FILE] [--permissions FILE] [--overlay FILE]... [--ref-root DIR]";

}  // namespace

int lint_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::string file;
  openapi::load_options opts;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      out << lint_usage << "\n";
      return 0;
    }
    if (a == "--overlay") {
      if (i + 1 >= args.size()) {
        err << "conform spec lint: --overlay needs a FILE\n" << lint_usage << "\n";
        return 2;
      }
      opts.overlays.emplace_back(args[++i]);
    } else if (a.rfind("--overlay=", 0) == 0) {
      opts.overlays.emplace_back(a.substr(std::string("--overlay=").size()));
    } else if (a == "--ref-root" || a.rfind("--ref-root=", 0) == 0) {
      if (a == "--ref-root" && i + 1 >= args.size()) {
        err << "conform spec lint: --ref-root needs a DIR\n" << lint_usage << "\n";
        return 2;
      }
      opts.ref_root = a == "--ref-root" ? args[++i] : a.substr(std::string("--ref-root=").size());
    } else if (a == "--permissions") {
      if (i + 1 >= args.size()) {
        err << "conform spec lint: --permissions needs a FILE\n" << lint_usage << "\n";
        return 2;
      }
      opts.permissions = args[++i];
      opts.require_permissions = true;
    } else if (a.rfind("--permissions=", 0) == 0) {
      opts.permissions = a.substr(std::string("--permissions=").size());
      opts.require_permissions = true;
    } else if (!a.empty() && a.front() == '-') {
      err << "conform spec lint: unknown option '" << a << "'\n" << lint_usage << "\n";
      return 2;
    } else if (file.empty()) {
      file = a;
    } else {
      err << "conform spec lint: more than one FILE ('" << file << "', '" << a << "')\n"
          << lint_usage << "\n";
      return 2;
    }
  }
  // No FILE: the shipped description, from any directory (as `conform run`).
  file = resolve_default_spec(file).string();

  const openapi::load_result res = openapi::load(file, opts);
  std::size_t errors = 0, warnings = 0, notes = 0;
  for (const auto& d : res.diagnostics) {
    err << to_string(d) << "\n";
    (d.level == core::severity::error     ? errors
     : d.level == core::severity::warning ? warnings
                                          : notes) += 1;
  }
  if (!res.ok()) {
    if (res.diagnostics.size() > 1) {
      err << file << ": " << errors << " error(s), " << warnings << " warning(s)\n";
    }
    return 2;
  }
  openapi::print_summary(*res.spec, out);
  out << errors << " errors, " << warnings << " warnings";
  if (notes > 0) out << ", " << notes << " notes";
  out << "\n";
  return 0;
}

}  // namespace conform::cli
