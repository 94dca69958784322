// Security and the x- extensions for `conform spec diff`: what a client must
// send (credentials, scopes, the tenant, an idempotency key, page
// parameters) and what it reads back (page fields, replay headers), as the
// model exposes them (docs/spec-extensions.md).
#include <algorithm>
#include <set>

#include "core/text.hpp"
#include "openapi/detail/diff.hpp"

namespace conform::openapi::detail {
namespace {

std::string status_code_text(int status, const std::string& code) {
  if (status == 0 && code.empty()) return "none";
  return std::to_string(status) + (code.empty() ? "" : " " + code);
}

/// An answer (status and error code) of an extension changed: a client that
/// handles the old one may not handle the new one.
void answer(diff_sink& sink, const std::string& rule, const std::string& where, int os,
            const std::string& oc, int ns, const std::string& nc) {
  if (os == ns && oc == nc) return;
  sink.add(change_level::warning, rule, where,
           "answer changed from " + status_code_text(os, oc) + " to " + status_code_text(ns, nc));
}

/// A name the client sends or reads changed ("" = none).
void renamed(diff_sink& sink, change_level level, const std::string& rule, const std::string& where,
             const std::string& what, const std::string& o, const std::string& n) {
  if (o == n) return;
  sink.add(level, rule, where,
           what + " changed from '" + (o.empty() ? "(none)" : o) + "' to '" +
               (n.empty() ? "(none)" : n) + "'");
}

std::string scheme_names(const std::vector<const security_scheme*>& v) {
  std::vector<std::string> names;
  for (const auto* s : v) names.push_back(s->name);
  return core::join(names);
}

bool allows_anonymous(const operation& op) {
  return op.security_declared && !op.needs_credentials();
}

void diff_pagination(diff_sink& sink, const pagination& o, const pagination& n) {
  const change_level b = change_level::breaking;
  if (o.kind != n.kind) {
    sink.add(b, "pagination-style-changed", "x-pagination.style",
             std::string("style changed from ") +
                 (o.kind == pagination::style::page ? "page" : "cursor") + " to " +
                 (n.kind == pagination::style::page ? "page" : "cursor"));
    return;
  }
  renamed(sink, b, "pagination-parameter-renamed", "x-pagination.page_param", "page parameter",
          o.page_param, n.page_param);
  renamed(sink, b, "pagination-parameter-renamed", "x-pagination.size_param", "size parameter",
          o.size_param, n.size_param);
  renamed(sink, b, "pagination-parameter-renamed", "x-pagination.cursor_param", "cursor parameter",
          o.cursor_param, n.cursor_param);
  renamed(sink, b, "pagination-parameter-renamed", "x-pagination.sort", "sort parameter",
          o.sort_param, n.sort_param);
  if (n.max_size != o.max_size) {
    const bool smaller = n.max_size != 0 && (o.max_size == 0 || n.max_size < o.max_size);
    sink.add(smaller ? b : change_level::info,
             smaller ? "pagination-max-size-decreased" : "pagination-max-size-increased",
             "x-pagination.max_size",
             "largest page changed from " + std::to_string(o.max_size) + " to " +
                 std::to_string(n.max_size));
  }
  if (n.min_size != o.min_size) {
    const bool larger = n.min_size > o.min_size;
    sink.add(larger ? b : change_level::info,
             larger ? "pagination-min-size-increased" : "pagination-min-size-decreased",
             "x-pagination.min_size",
             "smallest page changed from " + std::to_string(o.min_size) + " to " +
                 std::to_string(n.min_size));
  }
  if (n.default_size != o.default_size) {
    sink.add(change_level::warning, "pagination-default-size-changed", "x-pagination.default_size",
             "default page size changed from " + std::to_string(o.default_size) + " to " +
                 std::to_string(n.default_size));
  }
  struct field {
    const char* key;
    const std::string& o;
    const std::string& n;
  };
  const field fields[] = {{"items", o.items, n.items},
                          {"count", o.count, n.count},
                          {"pages", o.pages, n.pages},
                          {"page", o.page, n.page},
                          {"next_cursor", o.next_cursor, n.next_cursor},
                          {"item_id", o.item_id, n.item_id}};
  for (const field& f : fields) {
    // A field the client read moved or went; a new one is only news.
    renamed(sink, f.o.empty() ? change_level::info : b, "pagination-response-field-moved",
            std::string("x-pagination.") + f.key, "response field", f.o, f.n);
  }
  for (const auto& p : o.filter_params) {
    if (std::find(n.filter_params.begin(), n.filter_params.end(), p) != n.filter_params.end()) {
      continue;
    }
    sink.add(change_level::warning, "pagination-filter-removed", "x-pagination.filters",
             "filter '" + p + "' no longer kept across pages");
  }
  answer(sink, "pagination-invalid-cursor-answer-changed", "x-pagination.invalid_cursor",
         o.invalid_cursor_status, o.invalid_cursor_code, n.invalid_cursor_status,
         n.invalid_cursor_code);
}

void diff_idempotency(diff_sink& sink, const idempotency& o, const idempotency& n) {
  const change_level b = change_level::breaking;
  renamed(sink, b, "idempotency-header-renamed", "x-idempotency.header", "key header", o.header,
          n.header);
  if (!o.required && n.required) {
    sink.add(b, "idempotency-key-became-required", "x-idempotency.required",
             "the idempotency key became required");
  } else if (o.required && !n.required) {
    sink.add(change_level::info, "idempotency-key-became-optional", "x-idempotency.required",
             "the idempotency key became optional");
  }
  if (o.max_key_length != n.max_key_length) {
    const bool shorter =
        n.max_key_length != 0 && (o.max_key_length == 0 || n.max_key_length < o.max_key_length);
    sink.add(
        shorter ? b : change_level::info,
        shorter ? "idempotency-max-key-length-decreased" : "idempotency-max-key-length-increased",
        "x-idempotency.max_key_length",
        "longest key changed from " + std::to_string(o.max_key_length) + " to " +
            std::to_string(n.max_key_length));
  }
  renamed(sink, o.replayed_header.empty() ? change_level::info : change_level::warning,
          "idempotency-replayed-header-renamed", "x-idempotency.replayed_header", "replay header",
          o.replayed_header, n.replayed_header);
  answer(sink, "idempotency-answer-changed", "x-idempotency.missing", o.missing_status,
         o.missing_code, n.missing_status, n.missing_code);
  answer(sink, "idempotency-answer-changed", "x-idempotency.reused", o.reused_status, o.reused_code,
         n.reused_status, n.reused_code);
  answer(sink, "idempotency-answer-changed", "x-idempotency.conflict", o.conflict_status,
         o.conflict_code, n.conflict_status, n.conflict_code);
}

const char* tenant_source_text(tenant_context::source s) {
  switch (s) {
    case tenant_context::source::none:
      return "none";
    case tenant_context::source::header:
      return "header";
    case tenant_context::source::path:
      return "path";
    case tenant_context::source::body:
      return "body";
  }
  return "?";
}

void diff_tenant(diff_sink& sink, const tenant_context& o, const tenant_context& n) {
  if (o.from != n.from) {
    sink.add(change_level::breaking, "tenant-context-source-changed", "x-tenant-context.source",
             std::string("the tenant now comes from ") + tenant_source_text(n.from) + " (was " +
                 tenant_source_text(o.from) + ")");
    return;
  }
  renamed(sink, change_level::breaking, "tenant-context-name-changed", "x-tenant-context.name",
          "tenant " + std::string(tenant_source_text(n.from)) + " name", o.name, n.name);
  // A header that is now also read must agree: a client that never sent it is unaffected.
  renamed(sink,
          o.header_name.empty()   ? change_level::warning
          : n.header_name.empty() ? change_level::info
                                  : change_level::breaking,
          "tenant-context-header-changed", "x-tenant-context.header", "agreeing tenant header",
          o.header_name, n.header_name);
  answer(sink, "tenant-context-missing-answer-changed", "x-tenant-context.missing",
         o.missing_status, o.missing_code, n.missing_status, n.missing_code);
}

}  // namespace

void diff_security(diff_sink& sink, const operation& o, const operation& n) {
  const change_level b = change_level::breaking;
  if (allows_anonymous(o) && !allows_anonymous(n) && n.security_declared) {
    sink.add(b, "security-became-required", "security",
             "credentials are now required (" + scheme_names(n.accepted_schemes()) + ")");
  } else if (!allows_anonymous(o) && allows_anonymous(n)) {
    sink.add(change_level::info, "security-became-optional", "security",
             "anonymous calls are now allowed");
  }
  const auto old_schemes = o.accepted_schemes();
  const auto new_schemes = n.accepted_schemes();
  auto find = [](const std::vector<const security_scheme*>& v, const std::string& name) {
    for (const auto* s : v) {
      if (s->name == name) return s;
    }
    return static_cast<const security_scheme*>(nullptr);
  };
  for (const auto* os : old_schemes) {
    const security_scheme* ns = find(new_schemes, os->name);
    if (ns == nullptr) {
      // oasdiff reports a removed alternative as info; here each alternative
      // is a kind of credential, and its holders can no longer call.
      sink.add(allows_anonymous(n) ? change_level::info : b, "security-scheme-removed", "security",
               "scheme '" + os->name + "' (" + os->kind_name() + ") no longer accepted");
      continue;
    }
    const auto old_scopes = o.scopes_for(*os).value_or(std::vector<std::string>{});
    const auto new_scopes = n.scopes_for(*ns).value_or(std::vector<std::string>{});
    for (const auto& s : new_scopes) {
      if (std::find(old_scopes.begin(), old_scopes.end(), s) != old_scopes.end()) continue;
      sink.add(b, "security-scope-added", "security." + os->name,
               "scope '" + s + "' now needed with '" + os->name + "'");
    }
    for (const auto& s : old_scopes) {
      if (std::find(new_scopes.begin(), new_scopes.end(), s) != new_scopes.end()) continue;
      sink.add(change_level::info, "security-scope-removed", "security." + os->name,
               "scope '" + s + "' no longer needed with '" + os->name + "'");
    }
  }
  for (const auto* ns : new_schemes) {
    if (find(old_schemes, ns->name) != nullptr) continue;
    sink.add(change_level::info, "security-scheme-added", "security",
             "scheme '" + ns->name + "' (" + ns->kind_name() + ") now accepted");
  }
  if (!o.jwt_only && n.jwt_only) {
    sink.add(b, "jwt-only-added", "x-jwt-only", "only a JWT is accepted now");
  } else if (o.jwt_only && !n.jwt_only) {
    sink.add(change_level::info, "jwt-only-removed", "x-jwt-only",
             "credentials other than a JWT are accepted now");
  } else if (o.jwt_only) {
    answer(sink, "jwt-only-answer-changed", "x-jwt-only", o.jwt_only_status, o.jwt_only_code,
           n.jwt_only_status, n.jwt_only_code);
  }
  if (o.access != n.access) {
    const bool write = n.access == access_kind::write;
    sink.add(write ? b : change_level::info, write ? "access-became-write" : "access-became-read",
             "x-access",
             write ? "became a write: read-only roles and read scopes no longer suffice"
                   : "became a read");
  }
  renamed(sink, change_level::warning, "family-changed", "x-family", "route family", o.family,
          n.family);
}

void diff_operation_extensions(diff_sink& sink, const operation& o, const operation& n) {
  diff_tenant(sink, o.tenant, n.tenant);
  if (o.paging && n.paging) {
    diff_pagination(sink, *o.paging, *n.paging);
  } else if (o.paging) {
    sink.add(change_level::breaking, "pagination-removed", "x-pagination",
             "no longer paginated: page parameters and page fields are gone");
  } else if (n.paging) {
    sink.add(change_level::breaking, "pagination-added", "x-pagination",
             "now paginated: a client reading the whole list gets one page");
  }
  if (o.idempotent && n.idempotent) {
    diff_idempotency(sink, *o.idempotent, *n.idempotent);
  } else if (o.idempotent) {
    sink.add(change_level::breaking, "idempotency-removed", "x-idempotency",
             "no longer idempotent: a retried request may take effect twice");
  } else if (n.idempotent) {
    sink.add(n.idempotent->required ? change_level::breaking : change_level::info,
             n.idempotent->required ? "idempotency-key-became-required" : "idempotency-added",
             "x-idempotency",
             n.idempotent->required
                 ? "a '" + n.idempotent->header + "' key is now required"
                 : "now idempotent with an optional '" + n.idempotent->header + "' key");
  }
  if (o.repeatable && !n.repeatable) {
    sink.add(change_level::warning, "repeatable-removed", "x-repeatable",
             "the same request sent again may no longer get the same answer");
  }
}

void diff_root(diff_sink& sink, const api_spec& o, const api_spec& n) {
  const change_level b = change_level::breaking;
  for (const auto& os : o.schemes) {
    const security_scheme* ns = n.find_scheme(os->name);
    const std::string where = "security scheme '" + os->name + "'";
    if (ns == nullptr) {
      sink.add(change_level::info, "security-component-removed", where, "scheme removed");
      continue;
    }
    renamed(sink, b, "security-scheme-header-changed", where, "credential header", os->header,
            ns->header);
    renamed(sink, b, "security-scheme-credential-changed", where, "credential kind",
            os->kind_name(), ns->kind_name());
    for (const auto& [env, prefix] : os->key_prefixes) {
      const auto it = ns->key_prefixes.find(env);
      renamed(sink, b, "security-scheme-key-prefix-changed", where + " x-key-prefixes." + env,
              "key prefix", prefix, it == ns->key_prefixes.end() ? "" : it->second);
    }
    renamed(sink, b, "security-scheme-role-claim-changed", where + " x-roles.claim", "role claim",
            os->role_claim, ns->role_claim);
    if (!os->deprecated && ns->deprecated) {
      sink.add(change_level::warning, "security-scheme-deprecated", where,
               "scheme deprecated: its holders should move to another");
    }
    renamed(sink, change_level::info, "security-scheme-oauth2-metadata-url-changed",
            where + " oauth2MetadataUrl", "OAuth 2.0 metadata URL", os->oauth2_metadata_url,
            ns->oauth2_metadata_url);
    auto has = [](const std::vector<std::string>& v, const std::string& s) {
      return std::find(v.begin(), v.end(), s) != v.end();
    };
    for (const auto& role : os->roles) {
      if (!has(ns->roles, role)) {
        sink.add(b, "security-scheme-role-removed", where + " x-roles",
                 "role '" + role + "' removed");
      }
    }
    for (const auto& role : ns->read_only_roles) {
      if (!has(os->read_only_roles, role) && has(os->roles, role)) {
        sink.add(b, "security-scheme-role-became-read-only", where + " x-roles",
                 "role '" + role + "' may only read now");
      }
    }
  }
  for (const auto& ns : n.schemes) {
    if (o.find_scheme(ns->name) == nullptr) {
      sink.add(change_level::info, "security-component-added", "security scheme '" + ns->name + "'",
               "scheme added");
    }
  }
  // 3.2 `$self`: the base of every relative reference a client resolves.
  renamed(sink, change_level::warning, "api-self-changed", "$self", "the description's own URI",
          o.self_uri, n.self_uri);
  const api_rules& orl = o.rules;
  const api_rules& nrl = n.rules;
  renamed(sink, orl.request_id_header.empty() ? change_level::info : b, "request-id-header-changed",
          "x-request-id.header", "request id header", orl.request_id_header, nrl.request_id_header);
  renamed(sink, change_level::warning, "request-id-pattern-changed", "x-request-id.pattern",
          "request id pattern", orl.request_id_pattern, nrl.request_id_pattern);
  auto limit = [&](const char* key, std::uint64_t ov, std::uint64_t nv) {
    if (ov == nv) return;
    const bool lower = nv != 0 && (ov == 0 || nv < ov);
    sink.add(lower ? b : change_level::info,
             std::string("limit-") + (lower ? "decreased" : "increased"),
             std::string("x-limits.") + key,
             "limit changed from " + std::to_string(ov) + " to " + std::to_string(nv) + " bytes");
  };
  limit("max_body_bytes", orl.max_body_bytes, nrl.max_body_bytes);
  limit("max_multipart_bytes", orl.max_multipart_bytes, nrl.max_multipart_bytes);
  answer(sink, "rate-limit-answer-changed", "x-rate-limit", orl.rate_limited_status,
         orl.rate_limited_code, nrl.rate_limited_status, nrl.rate_limited_code);
  renamed(sink, orl.retry_after_header.empty() ? change_level::info : change_level::warning,
          "rate-limit-retry-after-header-changed", "x-rate-limit.retry_after_header",
          "retry header", orl.retry_after_header, nrl.retry_after_header);
  answer(sink, "one-credential-answer-changed", "x-one-credential", orl.one_credential_status,
         orl.one_credential_code, nrl.one_credential_status, nrl.one_credential_code);
  // x-auth-refusals: a client that tells "sign in again" (401) from "not
  // allowed" (403) by the status now reads the other one.
  auto refusal = [&](const char* key, int os, int ns) {
    if (os == ns) return;
    auto text = [](int s) {
      return s == 0 ? std::string("not said (401 or 403)") : std::to_string(s);
    };
    sink.add(change_level::warning, "auth-refusal-changed", std::string("x-auth-refusals.") + key,
             "refusal changed from " + text(os) + " to " + text(ns));
  };
  refusal("unauthenticated", orl.unauthenticated_status, nrl.unauthenticated_status);
  refusal("forbidden", orl.forbidden_status, nrl.forbidden_status);
}

}  // namespace conform::openapi::detail
