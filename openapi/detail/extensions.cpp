#include "openapi/detail/extensions.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

#include "schema/validator.hpp"

namespace conform::openapi::detail {

namespace {

std::string join(std::string_view a, std::string_view b) {
  return std::string(a) + "." + std::string(b);
}

/// Reads `key` of `n` into `out` when present; false on a wrong type.
bool get_str(doc_reader& r, const source_doc& doc, const node& n, std::string_view key,
             std::string_view what, std::string& out, bool required = false) {
  const node& v = required ? r.required(doc, n, key, what) : doc_reader::child(n, key);
  if (!v.defined()) return !required;
  auto s = r.str(doc, v, join(what, key));
  if (s) out = *s;
  return s.has_value();
}

bool get_strs(doc_reader& r, const source_doc& doc, const node& n, std::string_view key,
              std::string_view what, std::vector<std::string>& out, bool required = false) {
  const node& v = required ? r.required(doc, n, key, what) : doc_reader::child(n, key);
  if (!v.defined()) return !required;
  auto s = r.strings(doc, v, join(what, key));
  if (s) out = *s;
  return s.has_value();
}

template <typename T>
bool get_int(doc_reader& r, const source_doc& doc, const node& n, std::string_view key,
             std::string_view what, T& out, bool required = false) {
  const node& v = required ? r.required(doc, n, key, what) : doc_reader::child(n, key);
  if (!v.defined()) return !required;
  auto s = r.count(doc, v, join(what, key));
  if (s) out = static_cast<T>(*s);
  return s.has_value();
}

bool get_bool(doc_reader& r, const source_doc& doc, const node& n, std::string_view key,
              std::string_view what, bool& out) {
  const node& v = doc_reader::child(n, key);
  if (!v.defined()) return true;
  auto s = r.boolean(doc, v, join(what, key));
  if (s) out = *s;
  return s.has_value();
}

bool get_status(doc_reader& r, const source_doc& doc, const node& n, std::string_view key,
                std::string_view what, int& status, std::string& code, bool required = false) {
  const node& v = required ? r.required(doc, n, key, what) : doc_reader::child(n, key);
  if (!v.defined()) return !required;
  return r.status_code(doc, v, join(what, key), status, code);
}

bool valid_json_pointer(const std::string& p) {
  return p.empty() || p.front() == '/';
}

bool get_pointer(doc_reader& r, const source_doc& doc, const node& n, std::string_view key,
                 std::string_view what, std::string& out) {
  if (!get_str(r, doc, n, key, what, out)) return false;
  if (!valid_json_pointer(out)) {
    r.error(doc_reader::pos(doc, doc_reader::child(n, key)),
            join(what, key) + " must be a JSON pointer starting with '/', got '" + out + "'");
    return false;
  }
  return true;
}

}  // namespace

void warn_unknown_keys(doc_reader& r, const source_doc& doc, const node& n, std::string_view what,
                       std::initializer_list<std::string_view> known) {
  if (!n.is_map()) return;
  for (auto it = n.entries().begin(); it != n.entries().end(); ++it) {
    const std::string key = it->key;
    if (key.rfind("x-", 0) == 0) continue;
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      r.warning(doc_reader::pos(doc, *it),
                "unknown key '" + key + "' in " + std::string(what) + " (ignored)");
    }
  }
}

std::optional<tenant_context> parse_tenant_context(doc_reader& r, const source_doc& doc,
                                                   const node& n) {
  constexpr std::string_view what = "x-tenant-context";
  if (!r.expect_map(doc, n, what)) return std::nullopt;
  warn_unknown_keys(r, doc, n, what, {"source", "name", "header", "missing"});
  const std::size_t before = r.error_count();
  tenant_context t;
  t.pos = doc_reader::pos(doc, n);
  std::string source;
  if (get_str(r, doc, n, "source", what, source, true)) {
    if (source == "none") {
      t.from = tenant_context::source::none;
    } else if (source == "header") {
      t.from = tenant_context::source::header;
    } else if (source == "path") {
      t.from = tenant_context::source::path;
    } else if (source == "body") {
      t.from = tenant_context::source::body;
    } else {
      r.error(doc_reader::pos(doc, doc_reader::child(n, "source")),
              "x-tenant-context.source must be none, header, path or body, got '" + source + "'");
    }
  }
  get_str(r, doc, n, "name", what, t.name, t.from != tenant_context::source::none);
  get_str(r, doc, n, "header", what, t.header_name);
  if (t.from == tenant_context::source::header && t.header_name.empty()) t.header_name = t.name;
  get_status(r, doc, n, "missing", what, t.missing_status, t.missing_code);
  if (r.error_count() != before) return std::nullopt;
  return t;
}

std::optional<pagination> parse_pagination(doc_reader& r, const source_doc& doc, const node& n) {
  constexpr std::string_view what = "x-pagination";
  if (!r.expect_map(doc, n, what)) return std::nullopt;
  warn_unknown_keys(r, doc, n, what,
                    {"style", "page_param", "cursor_param", "size_param", "default_size",
                     "min_size", "max_size", "items", "count", "pages", "page", "next_cursor",
                     "item_id", "filters", "sort", "ignored", "invalid_cursor"});
  const std::size_t before = r.error_count();
  pagination p;
  p.pos = doc_reader::pos(doc, n);
  std::string style;
  if (get_str(r, doc, n, "style", what, style, true)) {
    if (style == "page") {
      p.kind = pagination::style::page;
    } else if (style == "cursor") {
      p.kind = pagination::style::cursor;
    } else {
      r.error(doc_reader::pos(doc, doc_reader::child(n, "style")),
              "x-pagination.style must be page or cursor, got '" + style + "'");
      return std::nullopt;
    }
  }
  const bool page = p.kind == pagination::style::page;
  get_str(r, doc, n, "page_param", what, p.page_param, page);
  get_str(r, doc, n, "cursor_param", what, p.cursor_param, !page);
  get_str(r, doc, n, "size_param", what, p.size_param, true);
  get_int(r, doc, n, "default_size", what, p.default_size, true);
  get_int(r, doc, n, "min_size", what, p.min_size);
  get_int(r, doc, n, "max_size", what, p.max_size, true);
  get_pointer(r, doc, n, "items", what, p.items);
  if (p.items.empty()) p.items = "/data/items";
  get_pointer(r, doc, n, "count", what, p.count);
  get_pointer(r, doc, n, "pages", what, p.pages);
  get_pointer(r, doc, n, "page", what, p.page);
  get_pointer(r, doc, n, "next_cursor", what, p.next_cursor);
  get_pointer(r, doc, n, "item_id", what, p.item_id);
  if (page && (p.count.empty() || p.pages.empty() || p.page.empty())) {
    r.error(p.pos, "x-pagination with style page needs count, pages and page pointers");
  }
  if (!page && p.next_cursor.empty()) {
    r.error(p.pos, "x-pagination with style cursor needs the next_cursor pointer");
  }
  get_strs(r, doc, n, "filters", what, p.filter_params);
  get_str(r, doc, n, "sort", what, p.sort_param);
  get_strs(r, doc, n, "ignored", what, p.ignored_params);
  get_status(r, doc, n, "invalid_cursor", what, p.invalid_cursor_status, p.invalid_cursor_code);
  if (r.error_count() == before && (p.min_size > p.default_size || p.default_size > p.max_size)) {
    r.error(p.pos, "x-pagination sizes must satisfy min_size <= default_size <= max_size, got " +
                       std::to_string(p.min_size) + ", " + std::to_string(p.default_size) + ", " +
                       std::to_string(p.max_size));
  }
  if (r.error_count() != before) return std::nullopt;
  return p;
}

std::optional<idempotency> parse_idempotency(doc_reader& r, const source_doc& doc, const node& n) {
  constexpr std::string_view what = "x-idempotency";
  if (!r.expect_map(doc, n, what)) return std::nullopt;
  warn_unknown_keys(r, doc, n, what,
                    {"header", "required", "missing", "max_key_length", "replayed_header", "reused",
                     "conflict", "effect"});
  const std::size_t before = r.error_count();
  idempotency i;
  i.pos = doc_reader::pos(doc, n);
  get_str(r, doc, n, "header", what, i.header, true);
  get_bool(r, doc, n, "required", what, i.required);
  get_status(r, doc, n, "missing", what, i.missing_status, i.missing_code, i.required);
  get_int(r, doc, n, "max_key_length", what, i.max_key_length);
  get_str(r, doc, n, "replayed_header", what, i.replayed_header);
  get_status(r, doc, n, "reused", what, i.reused_status, i.reused_code);
  get_status(r, doc, n, "conflict", what, i.conflict_status, i.conflict_code);
  const node& e = doc_reader::child(n, "effect");
  if (e.defined() && r.expect_map(doc, e, "x-idempotency.effect")) {
    constexpr std::string_view ew = "x-idempotency.effect";
    warn_unknown_keys(r, doc, e, ew, {"operation", "match_field", "match_body_property", "field"});
    i.effect.pos = doc_reader::pos(doc, e);
    get_str(r, doc, e, "operation", ew, i.effect.operation_id, true);
    get_str(r, doc, e, "match_field", ew, i.effect.match_field, true);
    get_str(r, doc, e, "match_body_property", ew, i.effect.match_body_property, true);
    get_str(r, doc, e, "field", ew, i.effect.field, true);
  }
  if (r.error_count() != before) return std::nullopt;
  return i;
}

std::optional<transition_ref> parse_transition(doc_reader& r, const source_doc& doc,
                                               const node& n) {
  constexpr std::string_view what = "x-transition";
  if (!r.expect_map(doc, n, what)) return std::nullopt;
  warn_unknown_keys(r, doc, n, what, {"machine", "parameter"});
  transition_ref t;
  t.pos = doc_reader::pos(doc, n);
  const bool ok = get_str(r, doc, n, "machine", what, t.machine, true) &&
                  get_str(r, doc, n, "parameter", what, t.parameter, true);
  if (!ok) return std::nullopt;
  return t;
}

std::optional<resource_ref> parse_resource(doc_reader& r, const source_doc& doc, const node& n) {
  constexpr std::string_view what = "x-resource";
  if (!r.expect_map(doc, n, what)) return std::nullopt;
  warn_unknown_keys(r, doc, n, what, {"name", "fixture", "not_found_code", "fixture_state"});
  const std::size_t before = r.error_count();
  resource_ref res;
  get_str(r, doc, n, "name", what, res.name, true);
  get_str(r, doc, n, "fixture", what, res.fixture, true);
  get_str(r, doc, n, "not_found_code", what, res.not_found_code, true);
  std::string state;
  if (doc_reader::child(n, "fixture_state").defined() &&
      get_str(r, doc, n, "fixture_state", what, state)) {
    res.fixture_state = state;
  }
  if (r.error_count() != before) return std::nullopt;
  return res;
}

std::optional<state_machine> parse_state_machine(doc_reader& r, const source_doc& doc,
                                                 const std::string& name, const node& n) {
  const std::string what = "state machine '" + name + "'";
  if (!r.expect_map(doc, n, what)) return std::nullopt;
  warn_unknown_keys(r, doc, n, what,
                    {"resource", "field", "read_operation", "states", "initial", "terminal",
                     "transitions", "preconditions", "refused", "fixtures"});
  const std::size_t before = r.error_count();
  state_machine m;
  m.name = name;
  m.pos = doc_reader::pos(doc, n);
  get_str(r, doc, n, "resource", what, m.resource, true);
  get_str(r, doc, n, "field", what, m.field);
  if (m.field.empty()) m.field = "status";
  get_str(r, doc, n, "read_operation", what, m.read_operation_id);
  get_strs(r, doc, n, "states", what, m.states, true);
  get_str(r, doc, n, "initial", what, m.initial, true);
  get_strs(r, doc, n, "terminal", what, m.terminal);
  const node& ts = r.required(doc, n, "transitions", what);
  if (ts.defined() && r.expect_seq(doc, ts, what + ".transitions")) {
    for (const auto& t : ts.items()) {
      const std::string tw = what + " transition";
      if (!r.expect_map(doc, t, tw)) continue;
      state_machine::transition tr;
      tr.pos = doc_reader::pos(doc, t);
      get_str(r, doc, t, "from", tw, tr.from, true);
      get_str(r, doc, t, "operation", tw, tr.operation_id, true);
      get_str(r, doc, t, "to", tw, tr.to, true);
      m.transitions.push_back(tr);
    }
  }
  const node& ps = doc_reader::child(n, "preconditions");
  if (ps.defined() && r.expect_seq(doc, ps, what + ".preconditions")) {
    for (const auto& p : ps.items()) {
      const std::string pw = what + " precondition";
      if (!r.expect_map(doc, p, pw)) continue;
      state_machine::precondition pre;
      pre.pos = doc_reader::pos(doc, p);
      get_str(r, doc, p, "operation", pw, pre.operation_id, true);
      get_str(r, doc, p, "error_code", pw, pre.error_code, true);
      get_str(r, doc, p, "description", pw, pre.description);
      get_str(r, doc, p, "fixture", pw, pre.fixture);
      m.preconditions.push_back(pre);
    }
  }
  get_status(r, doc, n, "refused", what, m.refused_status, m.refused_code);
  const node& fs = doc_reader::child(n, "fixtures");
  if (fs.defined() && r.expect_map(doc, fs, what + ".fixtures")) {
    for (auto it = fs.entries().begin(); it != fs.entries().end(); ++it) {
      const std::string state = it->key;
      if (state.rfind("x-", 0) == 0) continue;
      // Checked here rather than with the other state names: a fixture under
      // a misspelt state would otherwise just never be used.
      if (std::find(m.states.begin(), m.states.end(), state) == m.states.end()) {
        r.error(doc_reader::pos(doc, *it),
                what + ": fixtures names '" + state + "', which is not one of its states");
        continue;
      }
      if (auto f = r.str(doc, it->value, what + ".fixtures." + state)) m.fixtures[state] = *f;
    }
  }
  if (r.error_count() != before) return std::nullopt;
  return m;
}

namespace {

/// x-tenants: what a credential of the scheme does with tenants; without it,
/// x-tenant-claim says claimed. With x-credential one of them is required: a
/// label says nothing of what its credentials do.
void parse_tenant_reach(doc_reader& r, const source_doc& doc, const node& n,
                        const std::string& what, security_scheme& s) {
  using reach_t = security_scheme::tenant_reach;
  const node& reach = doc_reader::child(n, "x-tenants");
  if (!reach.defined()) {
    // A claim that lists a token's tenants says it: claimed.
    if (doc_reader::child(n, "x-tenant-claim").defined()) {
      s.tenants = reach_t::claimed;
    } else if (!s.credential_label.empty()) {
      r.error(doc_reader::pos(doc, doc_reader::child(n, "x-credential")),
              what + ": x-credential '" + s.credential_label +
                  "' needs x-tenants beside it, saying what a credential of the scheme does "
                  "with tenants: one (it acts for its own tenant alone), named (each request "
                  "names its tenant, e.g. in a header), claimed (its token's x-tenant-claim "
                  "lists them) or none (no check of tenants runs for it); a label no longer "
                  "implies it (docs/spec-extensions.md, \"Security schemes\")");
    }
    return;
  }
  const auto v = r.str(doc, reach, "x-tenants");
  if (!v) return;
  if (*v == "one") {
    s.tenants = reach_t::one;
  } else if (*v == "named") {
    s.tenants = reach_t::named;
  } else if (*v == "claimed") {
    s.tenants = reach_t::claimed;
  } else if (*v != "none") {
    r.error(doc_reader::pos(doc, reach),
            what + ": x-tenants must be one of one, named, claimed, none, got '" + *v + "'");
  }
}

}  // namespace

void parse_scheme_extensions(doc_reader& r, const source_doc& doc, const node& n,
                             security_scheme& s) {
  const std::string what = "security scheme '" + s.name + "'";
  // x-credential is optional: a free label that profiles and reports name the
  // scheme by; what OpenAPI says the scheme takes stays its kind.
  const node& cred = doc_reader::child(n, "x-credential");
  if (cred.defined()) {
    if (auto c = r.str(doc, cred, "x-credential")) {
      if (c->empty()) {
        r.error(doc_reader::pos(doc, cred),
                what + ": x-credential is empty (a label, e.g. org_token)");
      } else if (parse_credential_kind(*c) && *c != to_string(s.credential)) {
        // A label that is another kind's word would name two things in a profile.
        r.error(doc_reader::pos(doc, cred), what + ": x-credential '" + *c +
                                                "' is the word of another kind of credential (" +
                                                std::string(to_string(s.credential)) +
                                                " is this scheme's): choose another label");
      } else {
        s.credential_label = *c;
      }
      std::string lower = *c;
      std::transform(lower.begin(), lower.end(), lower.begin(),
                     [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
      if (lower.find("jwt") != std::string::npos && !s.is_jwt()) {
        r.warning(doc_reader::pos(doc, cred),
                  what + ": x-credential '" + *c +
                      "' is a label and does not make the scheme a JWT; the JWT checks need "
                      "an http bearer with bearerFormat: JWT");
      }
    }
  }
  parse_tenant_reach(r, doc, n, what, s);
  const node& prefixes = doc_reader::child(n, "x-key-prefixes");
  if (prefixes.defined() && r.expect_map(doc, prefixes, "x-key-prefixes")) {
    for (auto it = prefixes.entries().begin(); it != prefixes.entries().end(); ++it) {
      if (auto p = r.str(doc, it->value, "x-key-prefixes." + it->key)) {
        s.key_prefixes[it->key] = *p;
      }
    }
  }
  const node& roles = doc_reader::child(n, "x-roles");
  if (roles.defined() && r.expect_map(doc, roles, "x-roles")) {
    warn_unknown_keys(r, doc, roles, "x-roles", {"claim", "values", "read_only"});
    get_str(r, doc, roles, "claim", "x-roles", s.role_claim, true);
    get_strs(r, doc, roles, "values", "x-roles", s.roles, true);
    get_strs(r, doc, roles, "read_only", "x-roles", s.read_only_roles);
    for (const auto& ro : s.read_only_roles) {
      if (std::find(s.roles.begin(), s.roles.end(), ro) == s.roles.end()) {
        r.error(doc_reader::pos(doc, doc_reader::child(roles, "read_only")),
                "x-roles.read_only names '" + ro + "', which is not in x-roles.values");
      }
    }
  }
  const node& tenant_claim = doc_reader::child(n, "x-tenant-claim");
  if (tenant_claim.defined()) {
    if (auto c = r.str(doc, tenant_claim, "x-tenant-claim")) s.tenant_claim = *c;
  }
}

namespace {

/// x-request-id: the header (and body field) an answer echoes the request's id in.
void read_rules_request_id(doc_reader& r, const source_doc& doc, const node& root,
                           api_rules& rules) {
  const node& rid = doc_reader::child(root, "x-request-id");
  if (!rid.defined() || !r.expect_map(doc, rid, "x-request-id")) return;
  warn_unknown_keys(r, doc, rid, "x-request-id", {"header", "body_field", "pattern"});
  get_str(r, doc, rid, "header", "x-request-id", rules.request_id_header, true);
  get_str(r, doc, rid, "body_field", "x-request-id", rules.request_id_body_field);
  if (get_str(r, doc, rid, "pattern", "x-request-id", rules.request_id_pattern) &&
      !rules.request_id_pattern.empty()) {
    if (const std::string why = schema::pattern_error(rules.request_id_pattern); !why.empty()) {
      r.error(doc_reader::pos(doc, doc_reader::child(rid, "pattern")),
              "x-request-id.pattern is not a valid ECMAScript regex: " + why);
    }
  }
}

/// How the API refuses: x-rate-limit, x-one-credential and x-auth-refusals.
void read_rules_refusals(doc_reader& r, const source_doc& doc, const node& root, api_rules& rules) {
  const node& rl = doc_reader::child(root, "x-rate-limit");
  if (rl.defined() && r.expect_map(doc, rl, "x-rate-limit")) {
    warn_unknown_keys(r, doc, rl, "x-rate-limit", {"status", "error_code", "retry_after_header"});
    r.status_code(doc, rl, "x-rate-limit", rules.rate_limited_status, rules.rate_limited_code);
    get_str(r, doc, rl, "retry_after_header", "x-rate-limit", rules.retry_after_header);
  }
  const node& one = doc_reader::child(root, "x-one-credential");
  if (one.defined() && r.expect_map(doc, one, "x-one-credential")) {
    warn_unknown_keys(r, doc, one, "x-one-credential", {"status", "error_code"});
    r.status_code(doc, one, "x-one-credential", rules.one_credential_status,
                  rules.one_credential_code);
  }
  const node& refusals = doc_reader::child(root, "x-auth-refusals");
  if (!refusals.defined() || !r.expect_map(doc, refusals, "x-auth-refusals")) return;
  warn_unknown_keys(r, doc, refusals, "x-auth-refusals", {"unauthenticated", "forbidden"});
  for (auto [key, into] : {std::pair{"unauthenticated", &rules.unauthenticated_status},
                           std::pair{"forbidden", &rules.forbidden_status}}) {
    const node& v = doc_reader::child(refusals, key);
    if (!v.defined()) continue;
    auto status = r.count(doc, v, join("x-auth-refusals", key));
    if (!status) continue;
    if (*status != 401 && *status != 403) {
      r.error(doc_reader::pos(doc, v), join("x-auth-refusals", key) + ": " +
                                           std::to_string(*status) + " is neither 401 nor 403");
      continue;
    }
    *into = static_cast<int>(*status);
  }
}

/// x-retry: which answers a client may retry, and how it backs off.
void read_rules_retry(doc_reader& r, const source_doc& doc, const node& root, api_rules& rules) {
  const node& retry = doc_reader::child(root, "x-retry");
  if (!retry.defined() || !r.expect_map(doc, retry, "x-retry")) return;
  warn_unknown_keys(r, doc, retry, "x-retry",
                    {"retryable_statuses", "network_failures", "never_retry_unchanged",
                     "min_backoff_ms", "max_backoff_ms", "max_retries"});
  auto& policy = rules.retry;
  for (const auto* key : {"retryable_statuses", "never_retry_unchanged"}) {
    const node& list = doc_reader::child(retry, key);
    if (!list.defined() || !r.expect_seq(doc, list, join("x-retry", key))) continue;
    for (const auto& item : list.items()) {
      auto status = r.count(doc, item, join("x-retry", key));
      if (!status) continue;
      if (*status < 100 || *status > 599) {
        r.error(doc_reader::pos(doc, item),
                join("x-retry", key) + ": " + std::to_string(*status) + " is not an HTTP status");
        continue;
      }
      (std::string_view(key) == "retryable_statuses" ? policy.retryable_statuses
                                                     : policy.never_retry_unchanged)
          .push_back(static_cast<int>(*status));
    }
  }
  get_bool(r, doc, retry, "network_failures", "x-retry", policy.network_failures);
  get_int(r, doc, retry, "min_backoff_ms", "x-retry", policy.min_backoff_ms);
  get_int(r, doc, retry, "max_backoff_ms", "x-retry", policy.max_backoff_ms);
  get_int(r, doc, retry, "max_retries", "x-retry", policy.max_retries);
  if (policy.max_backoff_ms != 0 && policy.max_backoff_ms < policy.min_backoff_ms) {
    r.error(doc_reader::pos(doc, retry), "x-retry: max_backoff_ms is below min_backoff_ms");
  }
}

/// x-errors: the errors any operation (or route) may answer.
void read_rules_generic_errors(doc_reader& r, const source_doc& doc, const node& root,
                               api_rules& rules) {
  const node& errs = doc_reader::child(root, "x-errors");
  if (!errs.defined() || !r.expect_seq(doc, errs, "x-errors")) return;
  for (const auto& e : errs.items()) {
    api_rules::generic_error g;
    if (r.status_code(doc, e, "x-errors entry", g.status, g.code)) {
      warn_unknown_keys(r, doc, e, "x-errors entry", {"status", "error_code", "scope"});
      std::string scope;
      get_str(r, doc, e, "scope", "x-errors entry", scope);
      if (scope == "route") {
        g.route_level = true;
      } else if (!scope.empty() && scope != "operation") {
        r.error(doc_reader::pos(doc, doc_reader::child(e, "scope")),
                "x-errors entry: scope must be 'route' or 'operation', not '" + scope + "'");
      }
      rules.generic_errors.push_back(g);
    }
  }
}

/// x-success-envelope and x-error-envelope: the schemas every answer's body is wrapped in.
void read_rules_envelopes(doc_reader& r, const source_doc& doc, const node& root,
                          schema_loader& schemas, api_rules& rules) {
  if (const node& env = doc_reader::child(root, "x-success-envelope"); env.defined()) {
    if (auto ref = r.str(doc, env, "x-success-envelope")) {
      rules.success_envelope = schemas.resolve(doc, *ref, doc_reader::pos(doc, env));
    }
  }
  // x-error-envelope: a schema reference, or {schema, code, validation_codes}.
  const node& env = doc_reader::child(root, "x-error-envelope");
  if (!env.defined()) return;
  const node& ref_node = env.is_map() ? r.required(doc, env, "schema", "x-error-envelope") : env;
  if (env.is_map()) {
    warn_unknown_keys(r, doc, env, "x-error-envelope", {"schema", "code", "validation_codes"});
    if (get_str(r, doc, env, "code", "x-error-envelope", rules.error_code_pointer) &&
        !rules.error_code_pointer.empty() && rules.error_code_pointer.front() != '/') {
      r.error(doc_reader::pos(doc, doc_reader::child(env, "code")),
              "x-error-envelope.code must be a JSON pointer into the error body, like "
              "'/error_code', not '" +
                  rules.error_code_pointer + "'");
    }
    if (const node& codes = doc_reader::child(env, "validation_codes"); codes.defined()) {
      if (auto list = r.strings(doc, codes, "x-error-envelope.validation_codes")) {
        rules.validation_codes = std::move(*list);
      }
    }
  }
  if (ref_node.defined()) {
    if (auto ref = r.str(doc, ref_node, "x-error-envelope")) {
      rules.error_envelope = schemas.resolve(doc, *ref, doc_reader::pos(doc, ref_node));
    }
  }
}

/// x-rule-citations: {check: "citation"} or {check: {rule, expected}}.
void read_rules_citations(doc_reader& r, const source_doc& doc, const node& root,
                          api_rules& rules) {
  const node& cites = doc_reader::child(root, "x-rule-citations");
  if (!cites.defined() || !r.expect_map(doc, cites, "x-rule-citations")) return;
  for (auto it = cites.entries().begin(); it != cites.entries().end(); ++it) {
    const std::string what = join("x-rule-citations", it->key);
    api_rules::citation c;
    if (!it->value.is_map()) {
      auto text = r.str(doc, it->value, what);
      if (!text) continue;
      c.rule = *text;
    } else {
      warn_unknown_keys(r, doc, it->value, what, {"rule", "expected"});
      get_str(r, doc, it->value, "rule", what, c.rule, true);
      get_str(r, doc, it->value, "expected", what, c.expected);
    }
    if (c.rule.empty()) {
      r.error(doc_reader::pos(doc, it->value), what + ": the citation is empty");
      continue;
    }
    rules.citations[it->key] = std::move(c);
  }
}

}  // namespace

void parse_root_rules(doc_reader& r, const source_doc& doc, const node& root,
                      schema_loader& schemas, api_rules& rules) {
  const node& envs = doc_reader::child(root, "x-environments");
  if (envs.defined()) {
    if (auto l = r.strings(doc, envs, "x-environments")) rules.environments = *l;
  }
  read_rules_request_id(r, doc, root, rules);
  read_rules_refusals(r, doc, root, rules);
  const node& lim = doc_reader::child(root, "x-limits");
  if (lim.defined() && r.expect_map(doc, lim, "x-limits")) {
    warn_unknown_keys(r, doc, lim, "x-limits", {"max_body_bytes", "max_multipart_bytes"});
    get_int(r, doc, lim, "max_body_bytes", "x-limits", rules.max_body_bytes);
    get_int(r, doc, lim, "max_multipart_bytes", "x-limits", rules.max_multipart_bytes);
  }
  read_rules_retry(r, doc, root, rules);
  read_rules_generic_errors(r, doc, root, rules);
  read_rules_envelopes(r, doc, root, schemas, rules);
  if (const node& f = doc_reader::child(root, "x-tenant-id-fixture"); f.defined()) {
    if (auto name = r.str(doc, f, "x-tenant-id-fixture")) rules.tenant_id_fixture = *name;
  }
  read_rules_citations(r, doc, root, rules);
}

}  // namespace conform::openapi::detail
