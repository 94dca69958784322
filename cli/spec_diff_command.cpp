// `conform spec diff OLD NEW [--json] [--fail-on-warning]`: every change
// between two descriptions, classified for clients (openapi/diff.hpp).
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <string>
#include <vector>

#include "cli/cli.hpp"
#include "openapi/diff.hpp"
#include "openapi/loader.hpp"

namespace conform::cli {
namespace {

constexpr const char* spec_diff_usage =
    "usage: conform spec diff OLD NEW [--json] [--fail-on-warning] [--overlay FILE]... "
    "[--ref-root DIR]\n"
    "  one line per change: level, operation, where, what [rule]\n"
    "  --overlay FILE     an OpenAPI Overlay applied to both sides before they are compared\n"
    "  --ref-root DIR     $refs of both sides may read the files under DIR\n"
    "  --json             one JSON document on stdout instead (for CI)\n"
    "  --fail-on-warning  exit 1 on a warning too, not only on a breaking change\n"
    "exit status: 0 nothing breaking, 1 something breaking, 2 a bad description or usage";

/// Loads one side; its diagnostics go to `err` with file:line:col.
std::optional<openapi::api_spec> load_side(const std::string& file,
                                           const openapi::load_options& opts, std::ostream& err) {
  openapi::load_result res = openapi::load(file, opts);
  for (const auto& d : res.diagnostics) err << to_string(d) << "\n";
  if (!res.ok()) {
    err << "conform spec diff: cannot load '" << file << "'\n";
    return std::nullopt;
  }
  return std::move(res.spec);
}

std::string json_report(const std::string& old_file, const std::string& new_file,
                        const std::vector<openapi::spec_change>& changes) {
  boost::json::object doc;
  doc["old"] = old_file;
  doc["new"] = new_file;
  doc["breaking"] = count(changes, openapi::change_level::breaking);
  doc["warnings"] = count(changes, openapi::change_level::warning);
  doc["info"] = count(changes, openapi::change_level::info);
  boost::json::array list;
  for (const auto& c : changes) {
    boost::json::object o;
    o["level"] = std::string(to_string(c.level));
    o["rule"] = c.rule;
    o["operation"] = c.operation;
    o["operation_id"] = c.operation_id;
    o["where"] = c.where;
    o["what"] = c.what;
    list.push_back(std::move(o));
  }
  doc["changes"] = std::move(list);
  return boost::json::serialize(doc);
}

}  // namespace

int spec_diff_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::vector<std::string> files;
  bool json = false, fail_on_warning = false;
  openapi::load_options opts;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      out << spec_diff_usage << "\n";
      return 0;
    }
    if (a == "--json") {
      json = true;
    } else if (a == "--fail-on-warning") {
      fail_on_warning = true;
    } else if (a == "--overlay") {
      if (i + 1 >= args.size()) {
        err << "conform spec diff: --overlay needs a FILE\n" << spec_diff_usage << "\n";
        return 2;
      }
      opts.overlays.emplace_back(args[++i]);
    } else if (a == "--ref-root") {
      if (i + 1 >= args.size()) {
        err << "conform spec diff: --ref-root needs a DIR\n" << spec_diff_usage << "\n";
        return 2;
      }
      opts.ref_root = args[++i];
    } else if (!a.empty() && a.front() == '-') {
      err << "conform spec diff: unknown option '" << a << "'\n" << spec_diff_usage << "\n";
      return 2;
    } else {
      files.push_back(a);
    }
  }
  if (files.size() != 2) {
    err << "conform spec diff: needs two descriptions, OLD and NEW (got " << files.size() << ")\n"
        << spec_diff_usage << "\n";
    return 2;
  }
  const auto old_spec = load_side(files[0], opts, err);
  const auto new_spec = load_side(files[1], opts, err);
  if (!old_spec || !new_spec) return 2;

  const auto changes = openapi::diff(*old_spec, *new_spec);
  const std::size_t breaking = count(changes, openapi::change_level::breaking);
  const std::size_t warnings = count(changes, openapi::change_level::warning);
  if (json) {
    out << json_report(files[0], files[1], changes) << "\n";
  } else {
    for (const auto& c : changes) out << to_string(c) << "\n";
    out << changes.size() << " changes: " << breaking << " breaking, " << warnings << " warnings, "
        << count(changes, openapi::change_level::info) << " info\n";
  }
  return breaking > 0 || (fail_on_warning && warnings > 0) ? 1 : 0;
}

}  // namespace conform::cli
