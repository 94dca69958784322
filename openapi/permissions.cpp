// The permission matrix (specs/permissions.yaml): reading it, and checking
// that it agrees with the description.

#include <algorithm>
#include <set>

#include "core/text.hpp"
#include "openapi/detail/checks.hpp"

namespace conform::openapi::detail {

namespace {

std::string list(const std::vector<std::string>& v) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + v[i];
  return out + "]";
}

/// The labels a key type may be, as a message lists them.
std::string expected(const std::vector<std::string>& labels) {
  if (labels.empty()) return "the description declares no x-credential label";
  return "the description's x-credential labels are " + core::join(labels);
}

bool declared(const std::vector<std::string>& labels, const std::string& k) {
  return std::find(labels.begin(), labels.end(), k) != labels.end();
}

std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

void parse_scopes(doc_reader& r, const source_doc& doc, const node& n,
                  const std::vector<std::string>& labels, permission_matrix& m) {
  if (!r.expect_seq(doc, n, "scopes")) return;
  for (const auto& s : n.items()) {
    if (!r.expect_map(doc, s, "scope")) continue;
    permission_matrix::scope_def def;
    def.pos = doc_reader::pos(doc, s);
    const node& name = r.required(doc, s, "name", "scope");
    if (!name.defined()) continue;
    def.name = r.str(doc, name, "scope name").value_or("");
    const node& fam = r.required(doc, s, "family", "scope '" + def.name + "'");
    if (fam.defined()) def.family = r.str(doc, fam, "scope family").value_or("");
    const node& kt = r.required(doc, s, "key_types", "scope '" + def.name + "'");
    if (kt.defined()) {
      for (const auto& k : r.strings(doc, kt, "key_types").value_or(std::vector<std::string>{})) {
        if (declared(labels, k)) {
          def.key_types.push_back(k);
        } else {
          r.error(doc_reader::pos(doc, kt), "scope '" + def.name + "': unknown key type '" + k +
                                                "' (" + expected(labels) + ")");
        }
      }
    }
    const node& dg = doc_reader::child(s, "default_grant");
    if (dg.defined()) def.default_grant = r.boolean(doc, dg, "default_grant").value_or(false);
    const node& oi = doc_reader::child(s, "opt_in");
    if (oi.defined()) def.opt_in = r.boolean(doc, oi, "opt_in").value_or(false);
    if (def.opt_in && def.default_grant) {
      r.error(def.pos, "scope '" + def.name + "' is opt-in and must not be a default grant");
    }
    if (const auto* first = m.find_scope(def.name)) {
      r.error(def.pos,
              "scope '" + def.name + "' is defined twice (first at " + to_string(first->pos) + ")");
      continue;
    }
    m.scopes.push_back(std::move(def));
  }
}

void parse_rows(doc_reader& r, const source_doc& doc, const node& n,
                const std::vector<std::string>& labels, permission_matrix& m) {
  if (!r.expect_map(doc, n, "operations")) return;
  for (auto it = n.entries().begin(); it != n.entries().end(); ++it) {
    permission_matrix::operation_row row;
    row.operation_id = it->key;
    row.pos = doc_reader::pos(doc, *it);
    const node& body = it->value;
    const std::string what = "permission row '" + row.operation_id + "'";
    if (!r.expect_map(doc, body, what)) continue;
    const node& fam = r.required(doc, body, "family", what);
    if (fam.defined()) row.family = r.str(doc, fam, "family").value_or("");
    for (auto k = body.entries().begin(); k != body.entries().end(); ++k) {
      const std::string key = k->key;
      if (key == "family" || key.rfind("x-", 0) == 0) continue;
      if (key == "public") {
        row.is_public = r.boolean(doc, k->value, what + ".public").value_or(false);
        continue;
      }
      if (!declared(labels, key)) {
        r.error(doc_reader::pos(doc, *k),
                what + ": unknown key '" + key +
                    "' (expected family, public or a key type: " + expected(labels) + ")");
        continue;
      }
      const std::string& kind = key;
      row.needs_pos[kind] = doc_reader::pos(doc, *k);
      if (k->value.is_null()) {
        row.needs[kind] = std::nullopt;
        continue;
      }
      auto scopes = r.strings(doc, k->value, what + "." + key);
      if (!scopes) continue;
      row.needs[kind] = *scopes;
      for (const auto& sc : *scopes) {
        const auto* def = m.find_scope(sc);
        if (def == nullptr) {
          r.error(doc_reader::pos(doc, k->value),
                  what + ": scope '" + sc + "' is not defined under scopes");
        } else if (std::find(def->key_types.begin(), def->key_types.end(), kind) ==
                   def->key_types.end()) {
          r.error(doc_reader::pos(doc, k->value), what + ": scope '" + sc + "' is needed of a " +
                                                      key + " but no " + key + " may hold it");
        }
      }
    }
    if (row.is_public && !row.needs_pos.empty()) {
      r.error(row.pos, what + " is public (no credentials) and must not list key types");
    }
    for (const std::string& kind : labels) {
      if (row.needs.count(kind) == 0) row.needs[kind] = std::nullopt;
    }
    if (const auto* first = m.find_operation(row.operation_id)) {
      r.error(row.pos, what + " is given twice (first at " + to_string(first->pos) + ")");
      continue;
    }
    m.operations.push_back(std::move(row));
  }
}

}  // namespace

std::optional<permission_matrix> load_permissions(doc_reader& r, doc_cache& docs,
                                                  const std::filesystem::path& file,
                                                  const std::string& display,
                                                  const std::vector<std::string>& labels) {
  const source_doc* doc = docs.load(file, display, r);
  if (doc == nullptr) return std::nullopt;
  const std::size_t before = r.error_count();
  if (!r.expect_map(*doc, doc->root, "the permission matrix")) return std::nullopt;
  permission_matrix m;
  m.file = display;
  const node& version = r.required(*doc, doc->root, "version", "the permission matrix");
  if (version.defined()) {
    auto v = r.integer(*doc, version, "version");
    if (v && *v != 1) {
      r.error(doc_reader::pos(*doc, version),
              "permission matrix version " + std::to_string(*v) + " is not supported (1 is)");
    }
  }
  const node& scopes = r.required(*doc, doc->root, "scopes", "the permission matrix");
  if (scopes.defined()) parse_scopes(r, *doc, scopes, labels, m);
  const node& ops = r.required(*doc, doc->root, "operations", "the permission matrix");
  if (ops.defined()) parse_rows(r, *doc, ops, labels, m);
  if (r.error_count() != before) return std::nullopt;
  return m;
}

void check_against_matrix(doc_reader& r, const api_spec& spec, const permission_matrix& m) {
  std::set<std::string> seen;
  for (const auto& op : spec.operations) {
    // A missing or duplicate id is reported by check_spec; compare the first only.
    if (op.operation_id.empty() || !seen.insert(op.operation_id).second) continue;
    for (const auto& alt : op.security) {
      for (const auto& use : alt.schemes) {
        for (const auto& sc : use.scopes) {
          if (m.find_scope(sc) == nullptr) {
            r.error(use.pos, "operation '" + op.operation_id + "': scope '" + sc +
                                 "' is not defined in the permission matrix (" + m.file + ")");
          }
        }
      }
    }
    const auto* row = m.find_operation(op.operation_id);
    if (row == nullptr) {
      if (op.needs_credentials()) {
        r.error(op.pos, "operation '" + op.operation_id + "' has no row in the permission " +
                            "matrix (" + m.file + ")");
      }
      continue;
    }
    if (row->is_public != !op.needs_credentials()) {
      r.error(op.pos,
              "operation '" + op.operation_id + "' " +
                  (row->is_public ? "needs credentials, but the permission matrix (" +
                                        to_string(row->pos) + ") marks it public"
                                  : "takes no credentials, but the permission matrix (" +
                                        to_string(row->pos) + ") does not mark it " + "public"));
    }
    if (!op.family.empty() && row->family != op.family) {
      r.error(op.family_pos.line > 0 ? op.family_pos : op.pos,
              "operation '" + op.operation_id + "': x-family '" + op.family +
                  "' disagrees with family '" + row->family + "' of the permission matrix (" +
                  to_string(row->pos) + ")");
    }
    const auto schemes = op.accepted_schemes();
    for (const std::string& kind : spec.credential_labels()) {
      const security_scheme* scheme = nullptr;
      for (const auto* s : schemes) {
        if (s->credential_label == kind) scheme = s;
      }
      const auto it = row->needs.find(kind);
      const std::optional<std::vector<std::string>> matrix =
          it == row->needs.end() ? std::nullopt : it->second;
      const auto pos_it = row->needs_pos.find(kind);
      const source_pos matrix_pos = pos_it == row->needs_pos.end() ? row->pos : pos_it->second;
      const std::string& k = kind;
      if (scheme == nullptr && !matrix) continue;
      if (scheme == nullptr) {
        r.error(op.pos, "operation '" + op.operation_id + "' does not accept a " + k +
                            ", but the permission matrix (" + to_string(matrix_pos) +
                            ") accepts it with scopes " + list(*matrix));
        continue;
      }
      source_pos use_pos = op.pos;
      for (const auto& alt : op.security) {
        for (const auto& use : alt.schemes) {
          if (use.scheme == scheme) use_pos = use.pos;
        }
      }
      if (!matrix) {
        r.error(use_pos, "operation '" + op.operation_id + "' accepts " + k + " (scheme '" +
                             scheme->name + "'), but the permission matrix (" +
                             to_string(matrix_pos) + ") does not accept it");
        continue;
      }
      const auto spec_scopes = sorted(op.scopes_for(*scheme).value_or(std::vector<std::string>{}));
      if (spec_scopes != sorted(*matrix)) {
        r.error(use_pos, "operation '" + op.operation_id + "': scopes for " + k + " are " +
                             list(spec_scopes) + " here but " + list(sorted(*matrix)) +
                             " in the permission matrix (" + to_string(matrix_pos) + ")");
      }
    }
  }
  for (const auto& row : m.operations) {
    if (spec.find_operation(row.operation_id) == nullptr) {
      r.error(row.pos, "permission matrix row '" + row.operation_id + "' names no operation of " +
                           spec.file);
    }
  }
}

}  // namespace conform::openapi::detail
