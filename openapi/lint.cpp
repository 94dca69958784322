#include "openapi/lint.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "core/text.hpp"

namespace conform::openapi {

namespace {

void print_scopes(const api_spec& spec, std::ostream& out) {
  if (spec.permissions) {
    out << "scopes (" << spec.permissions->file << "): " << spec.permissions->scopes.size() << "\n";
    for (const auto& s : spec.permissions->scopes) {
      out << "  " << s.name << "  family " << s.family << ", key types [" << core::join(s.key_types)
          << "]" << (s.default_grant ? ", default grant" : "") << (s.opt_in ? ", opt-in" : "")
          << "\n";
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

std::string describe(const security_scheme& s) {
  using t = security_scheme::type;
  std::string out = s.declared_type == "http" ? "http" : s.declared_type;
  switch (s.kind) {
    case t::http_bearer:
      out += s.declared_type == "http" ? " bearer" : " (a bearer token)";
      break;
    case t::http_basic:
      out += " basic";
      break;
    case t::http_digest:
      out += " digest";
      break;
    case t::api_key_header:
      return "apiKey (" + s.param + ")";
    case t::api_key_query:
      return "apiKey (query " + s.param + ")";
    case t::api_key_cookie:
      return "apiKey (cookie " + s.param + ")";
    case t::mutual_tls:
      return "mutualTLS (a client certificate)";
  }
  if (!s.flow_scopes.empty()) out += ", scopes " + core::join(s.flow_scopes);
  return out + " (" + s.header + ")";
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
    out << "  " << family << " (" << ids.size() << "): " << core::join(ids) << "\n";
  }

  if (spec.operations.empty()) out << "no operations\n";
  if (!spec.webhooks.empty()) {
    out << "webhooks (sent by the API, not tested): " << core::join(spec.webhooks) << "\n";
  }
  out << "schemes: " << spec.schemes.size() << "\n";
  for (const auto& s : spec.schemes) {
    out << "  " << s->name << "  " << describe(*s) << ", credential " << s->kind_name() << "\n";
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

}  // namespace conform::openapi
