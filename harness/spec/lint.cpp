#include "harness/spec/lint.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "harness/spec/loader.hpp"

namespace conform::spec {

namespace {

constexpr const char* usage = "usage: conform spec lint [FILE] [--permissions FILE]";

std::string join(const std::vector<std::string>& v, const char* sep = ", ") {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

void print_scopes(const api_spec& spec, std::ostream& out) {
  if (spec.permissions) {
    out << "scopes (" << spec.permissions->file << "): " << spec.permissions->scopes.size() << "\n";
    for (const auto& s : spec.permissions->scopes) {
      std::vector<std::string> kinds;
      for (auto k : s.key_types) kinds.emplace_back(to_string(k));
      out << "  " << s.name << "  family " << s.family << ", key types [" << join(kinds) << "]"
          << (s.default_grant ? ", default grant" : "") << (s.opt_in ? ", opt-in" : "") << "\n";
    }
    return;
  }
  std::set<std::string> used;
  for (const auto& op : spec.operations) {
    for (const auto& alt : op.security) {
      for (const auto& u : alt.schemes) used.insert(u.scopes.begin(), u.scopes.end());
    }
  }
  out << "scopes (used by the description; no permission matrix): " << used.size() << "\n";
  for (const auto& s : used) out << "  " << s << "\n";
}

}  // namespace

void print_summary(const api_spec& spec, std::ostream& out) {
  out << spec.file << ": OpenAPI " << spec.openapi_version << ", \"" << spec.title << "\" "
      << spec.version << ", " << spec.operations.size() << " operations, sha256 " << spec.hash
      << "\n";

  std::map<std::string, std::vector<std::string>> families;
  for (const auto& op : spec.operations) families[op.family].push_back(op.operation_id);
  out << "operations per family: " << families.size() << " families\n";
  for (const auto& [family, ids] : families) {
    out << "  " << family << " (" << ids.size() << "): " << join(ids) << "\n";
  }

  out << "schemes: " << spec.schemes.size() << "\n";
  for (const auto& s : spec.schemes) {
    out << "  " << s->name << "  "
        << (s->kind == security_scheme::type::http_bearer ? "http bearer" : "apiKey") << " ("
        << s->header << "), credential " << to_string(s->credential) << "\n";
  }

  print_scopes(spec, out);

  std::vector<const operation*> paged, idem;
  for (const auto& op : spec.operations) {
    if (op.paging) paged.push_back(&op);
    if (op.idempotent) idem.push_back(&op);
  }
  out << "paginated operations: " << paged.size() << "\n";
  for (const auto* op : paged) {
    const pagination& p = *op->paging;
    const bool page = p.kind == pagination::style::page;
    out << "  " << op->operation_id << "  " << (page ? "page" : "cursor") << " ("
        << (page ? p.page_param : p.cursor_param) << ", " << p.size_param << " " << p.min_size
        << ".." << p.max_size << ", default " << p.default_size << ")\n";
  }
  out << "idempotent operations: " << idem.size() << "\n";
  for (const auto* op : idem) {
    out << "  " << op->operation_id << "  " << (op->idempotent->required ? "required" : "optional")
        << " (" << op->idempotent->header << ")\n";
  }
}

int lint_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::string file;
  load_options opts;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      out << usage << "\n";
      return 0;
    }
    if (a == "--permissions") {
      if (i + 1 >= args.size()) {
        err << "conform spec lint: --permissions needs a FILE\n" << usage << "\n";
        return 2;
      }
      opts.permissions = args[++i];
      opts.require_permissions = true;
    } else if (a.rfind("--permissions=", 0) == 0) {
      opts.permissions = a.substr(std::string("--permissions=").size());
      opts.require_permissions = true;
    } else if (!a.empty() && a.front() == '-') {
      err << "conform spec lint: unknown option '" << a << "'\n" << usage << "\n";
      return 2;
    } else if (file.empty()) {
      file = a;
    } else {
      err << "conform spec lint: more than one FILE ('" << file << "', '" << a << "')\n"
          << usage << "\n";
      return 2;
    }
  }
  if (file.empty()) file = "specs/voice-api.yaml";

  const load_result res = load(file, opts);
  std::size_t errors = 0, warnings = 0;
  for (const auto& d : res.diagnostics) {
    err << to_string(d) << "\n";
    (d.level == severity::error ? errors : warnings) += 1;
  }
  if (!res.ok()) {
    if (res.diagnostics.size() > 1) {
      err << file << ": " << errors << " error(s), " << warnings << " warning(s)\n";
    }
    return 2;
  }
  print_summary(*res.spec, out);
  out << errors << " errors, " << warnings << " warnings\n";
  return 0;
}

}  // namespace conform::spec
