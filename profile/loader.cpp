#include "profile/loader.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <filesystem>
#include <cstdlib>
#include <set>
#include <string_view>

#include "core/parse.hpp"
#include "core/document.hpp"
#include "core/outcome.hpp"
#include "profile/detail/pem.hpp"

namespace conform::profile {
namespace {

using core::diagnostic;
using core::node;
using core::node_entry;
using core::severity;

/// Builds a profile from a YAML (or JSON) document, collecting diagnostics.
class builder {
 public:
  builder(std::string file, const env_lookup& env) : file_(std::move(file)), env_(env) {}

  load_result run(std::string_view text) {
    // The one reader of every input: UTF-8, one document, no duplicate key,
    // and the bounds of core/limits.hpp (no alias bomb, no endless nesting).
    core::parsed_document parsed = core::parse_document(text, file_);
    if (parsed.error) {
      diags_.push_back(*parsed.error);
      return finish(std::nullopt);
    }
    const node& root = parsed.root;
    if (root.is_null()) {
      error(root, "the profile is empty (expected base_url, environment, tenants, credentials)");
      return finish(std::nullopt);
    }
    if (!root.is_map()) {
      error(root,
            "the profile must be a mapping with base_url, environment, tenants and credentials");
      return finish(std::nullopt);
    }
    target p;
    p.file = file_;
    const node* base_url = nullptr;
    const node* env = nullptr;
    const node* tenants = nullptr;
    const node* credentials = nullptr;
    for_each_entry(root, "the profile", [&](const node_entry& e) {
      if (e.key == "base_url") {
        base_url = &e.value;
      } else if (e.key == "environment") {
        env = &e.value;
      } else if (e.key == "tenants") {
        tenants = &e.value;
      } else if (e.key == "credentials") {
        credentials = &e.value;
      } else if (e.key == "disposable") {
        p.disposable = boolean(e.value, "disposable").value_or(false);
      } else if (e.key == "ca_file") {
        if (auto f = scalar(e.value, "ca_file")) {
          const auto path = std::filesystem::path(file_).parent_path() / *f;
          std::error_code ec;
          if (std::filesystem::is_regular_file(path, ec)) {
            p.ca_file = path.string();
          } else {
            error(e.value, "ca_file: '" + path.string() + "' is not a readable file");
          }
        }
      } else {
        warning(e, "unknown key '" + e.key + "' (ignored)");
      }
    });
    if (!base_url) {
      error(root, "base_url: missing (e.g. base_url: http://127.0.0.1:8080/api/v1)");
    } else if (auto text_value = scalar(*base_url, "base_url")) {
      auto parsed = http::parse_url(*text_value);
      if (parsed.ok()) {
        p.base_url = std::move(*parsed.value);
      } else {
        error(*base_url, "base_url: " + parsed.error);
      }
    }
    if (!env) {
      warning(root, "environment: missing, assuming sandbox");
    } else if (auto e = scalar(*env, "environment")) {
      if (auto parsed = parse_environment(*e)) {
        p.env = *parsed;
      } else {
        error(*env, "environment: '" + *e + "' is not one of sandbox, production");
      }
    }
    // A target without tenants is valid: an API with no tenancy.
    if (tenants && !tenants->is_null()) read_tenants(*tenants, p);
    if (credentials && !credentials->is_null()) read_credentials(*credentials, p);
    return finish(std::move(p));
  }

 private:
  core::source_pos pos(const node& n) const {
    return {file_, static_cast<int>(n.line()), static_cast<int>(n.column())};
  }
  core::source_pos pos(const node_entry& e) const {
    return {file_, static_cast<int>(e.line), static_cast<int>(e.column)};
  }
  template <class At>
  void error(const At& at, std::string message) {
    diags_.push_back({pos(at), severity::error, std::move(message)});
  }
  template <class At>
  void warning(const At& at, std::string message) {
    diags_.push_back({pos(at), severity::warning, std::move(message)});
  }

  load_result finish(std::optional<target> p) {
    load_result out;
    out.diagnostics = std::move(diags_);
    if (p && !core::has_errors(out.diagnostics)) out.value = std::move(p);
    return out;
  }

  /// Calls `f(entry)` per entry (the reader has refused duplicate keys).
  template <class F>
  void for_each_entry(const node& map, const std::string&, F&& f) {
    for (const auto& e : map.entries()) f(e);
  }

  /// The text of a scalar node; an error (and nullopt) for anything else.
  std::optional<std::string> scalar(const node& n, const std::string& what) {
    if (n.is_scalar() && !n.text().empty()) return n.text();
    error(n, what + ": expected a non-empty text value");
    return std::nullopt;
  }

  /// true/false, and the YAML 1.1 words profiles have always accepted
  /// (yes/no, on/off, y/n), in lower, upper or capitalised case.
  std::optional<bool> boolean(const node& n, const std::string& what) {
    static constexpr std::string_view yes[] = {"true", "True", "TRUE", "yes", "Yes", "YES",
                                               "on",   "On",   "ON",   "y",   "Y"};
    static constexpr std::string_view no[] = {"false", "False", "FALSE", "no", "No", "NO",
                                              "off",   "Off",   "OFF",   "n",  "N"};
    if (n.is_scalar()) {
      const std::string& t = n.text();
      if (std::find(std::begin(yes), std::end(yes), t) != std::end(yes)) return true;
      if (std::find(std::begin(no), std::end(no), t) != std::end(no)) return false;
    }
    error(n, what + ": expected true or false");
    return std::nullopt;
  }

  std::optional<std::vector<std::string>> string_list(const node& n, const std::string& what) {
    if (!n.is_sequence()) {
      error(n, what + ": expected a list (e.g. [a, b], or [] for none)");
      return std::nullopt;
    }
    std::vector<std::string> out;
    bool ok = true;
    for (const auto& item : n.items()) {
      if (auto s = scalar(item, what + " item")) {
        out.push_back(std::move(*s));
      } else {
        ok = false;
      }
    }
    if (!ok) return std::nullopt;
    return out;
  }

  /// `writable: [name, ...]`: the fixtures of `t` a safe run may write to.
  void read_writable(const node& n, const std::string& where, tenant& t) {
    const std::string what = where + ".writable";
    if (!n.is_sequence()) {
      error(n, what + ": expected a list of fixture names (e.g. [contact_id])");
      return;
    }
    for (const auto& item : n.items()) {
      auto name = scalar(item, what + " item");
      if (!name) continue;
      if (!t.fixtures.count(*name)) {
        error(item, what + ": '" + *name + "' is no fixture of " + t.name);
        continue;
      }
      t.writable.insert(std::move(*name));
    }
  }

  void read_tenants(const node& n, target& p) {
    if (!n.is_map()) {
      error(n, "tenants: expected a mapping from tenant name to {id, fixtures}");
      return;
    }
    for_each_entry(n, "tenants", [&](const node_entry& k) {
      const std::string where = "tenants." + k.key;
      const node& v = k.value;
      tenant t;
      t.name = k.key;
      t.pos = pos(k);
      if (!v.is_map()) {
        error(v, where + ": expected a mapping with id and fixtures");
        return;
      }
      bool has_id = false;
      const node* writable = nullptr;
      for_each_entry(v, where, [&](const node_entry& kk) {
        const node& vv = kk.value;
        if (kk.key == "id") {
          has_id = true;
          if (auto id = scalar(vv, where + ".id")) t.id = *id;
        } else if (kk.key == "fixtures") {
          if (vv.is_null()) return;
          if (!vv.is_map()) {
            error(vv, where + ".fixtures: expected a mapping from fixture name to id");
            return;
          }
          for_each_entry(vv, where + ".fixtures", [&](const node_entry& f) {
            if (auto id = scalar(f.value, where + ".fixtures." + f.key)) {
              t.fixtures.emplace(f.key, *id);
            }
          });
        } else if (kk.key == "writable") {
          writable = &vv;
        } else {
          warning(kk, where + ": unknown key '" + kk.key + "' (ignored)");
        }
      });
      if (!has_id) error(k, where + ".id: missing (the tenant id the API uses)");
      if (writable && !writable->is_null()) read_writable(*writable, where, t);
      for (const auto& other : p.tenants) {
        if (!t.id.empty() && other.id == t.id) {
          error(k, where + ".id: '" + t.id + "' is also the id of tenant " + other.name);
        }
      }
      p.tenants.push_back(std::move(t));
    });
  }

  void read_credentials(const node& n, target& p) {
    if (!n.is_sequence()) {
      error(n, "credentials: expected a list of credentials");
      return;
    }
    std::size_t index = 0;
    for (const auto& item : n.items()) read_credential(item, index++, p);
  }

  void read_credential(const node& n, std::size_t index, target& p) {
    std::string where = "credentials[" + std::to_string(index) + "]";
    if (!n.is_map()) {
      error(n, where + ": expected a mapping with name, scheme, value or value_env");
      return;
    }
    credential c;
    c.pos = pos(n);
    const node& name = n.get("name");
    if (name.defined()) {
      if (auto s = scalar(name, where + ".name")) c.name = *s;
    }
    if (c.name.empty()) {
      if (!name.defined()) error(n, where + ".name: missing");
    } else {
      where += " (" + c.name + ")";
      if (std::any_of(p.credentials.begin(), p.credentials.end(),
                      [&c](const credential& other) { return other.name == c.name; }))
        error(name, where + ": duplicate credential name");
    }
    const node* value = nullptr;
    const node* value_env = nullptr;
    const node* tenant_node = nullptr;
    const node* tenants_node = nullptr;
    const node* role_node = nullptr;
    const node* scheme_node = nullptr;
    const node* certificate_node = nullptr;
    const node* key_node = nullptr;
    for_each_entry(n, where, [&](const node_entry& k) {
      const std::string& key = k.key;
      const node& v = k.value;
      if (key == "name") {
        return;
      } else if (key == "scheme") {
        scheme_node = &v;
        // A label of the description, a kind, or a scheme's key: bind()
        // finds which against the description.
        if (auto s = scalar(v, where + ".scheme")) c.kind = *s;
        c.scheme_pos = pos(v);
      } else if (key == "value") {
        value = &v;
      } else if (key == "value_env") {
        value_env = &v;
      } else if (key == "certificate") {
        certificate_node = &v;
      } else if (key == "key") {
        key_node = &v;
      } else if (key == "tenant") {
        tenant_node = &v;
      } else if (key == "tenants") {
        tenants_node = &v;
      } else if (key == "scopes") {
        if (v.is_null()) {
          error(k, where +
                       ".scopes: empty; write [] for a key with no scopes, or leave "
                       "scopes out when unknown");
        } else {
          c.scopes = string_list(v, where + ".scopes");
        }
      } else if (key == "role") {
        role_node = &v;
        c.role_pos = pos(v);
        // Which roles there are is the scheme's x-roles: bind() checks it.
        if (auto s = scalar(v, where + ".role")) c.role = *s;
      } else if (key == "expired") {
        c.expired = boolean(v, where + ".expired").value_or(false);
      } else if (key == "rate_limited") {
        c.rate_limited = boolean(v, where + ".rate_limited").value_or(false);
      } else if (key == "environment") {
        if (auto s = scalar(v, where + ".environment")) {
          if (auto e = parse_environment(*s)) {
            c.other_environment = *e != p.env;
          } else {
            error(v, where + ".environment: '" + *s + "' is not one of sandbox, production");
          }
        }
      } else {
        warning(k, where + ": unknown key '" + key + "' (kept as an attribute)");
        if (v.is_scalar()) {
          c.extra.emplace(key, v.text());
        } else {
          c.extra.emplace(key, boost::json::serialize(core::to_json(v)));  // JSON is flow YAML
        }
      }
    });
    if (scheme_node == nullptr)
      error(n, where +
                   ".scheme: missing (an x-credential label of the description, a security "
                   "scheme's key, or a kind: bearer, basic, digest, api_key, mutual_tls)");
    read_certificate(certificate_node, key_node, where, c);
    // A client certificate may be the whole credential (mutual_tls).
    const bool tls_only = c.kind == openapi::to_string(credential_kind::mutual_tls);
    if (!tls_only && (value || value_env || !c.has_certificate())) {
      read_secret(n, value, value_env, where, c);
    }
    if (tls_only && !c.has_certificate() && certificate_node == nullptr) {
      error(n, where + ": a mutual_tls credential needs certificate and key (files, or ${ENV})");
    }
    read_reach(n, tenant_node, tenants_node, where, p, c);
    p.credentials.push_back(std::move(c));
  }

  void read_secret(const node& n, const node* value, const node* value_env,
                   const std::string& where, credential& c) {
    if (value && value_env) {
      error(*value_env, where + ": give either value or value_env, not both");
      return;
    }
    if (!value && !value_env) {
      error(n,
            where + ": missing value or value_env (the secret, inline or by environment variable)");
      return;
    }
    if (value) {
      // Never echo a secret: the message names the key, not its text.
      if (!value->is_scalar() || value->text().empty()) {
        error(*value, where + ".value: expected a non-empty text value");
        return;
      }
      c.value = secret(value->text(), derived_env_name(c.name), false);
      return;
    }
    const auto var = scalar(*value_env, where + ".value_env");
    if (!var) return;
    const bool valid_name =
        !var->empty() && !((*var)[0] >= '0' && (*var)[0] <= '9') &&
        var->find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") ==
            std::string::npos;
    if (!valid_name) {
      error(*value_env, where + ".value_env: '" + *var + "' is not an environment variable name");
      return;
    }
    const auto found = env_ ? env_(*var) : std::nullopt;
    if (!found || found->empty()) {
      error(*value_env,
            where + ": environment variable " + *var + " is " + (found ? "empty" : "not set"));
      return;
    }
    c.value = secret(*found, *var, true);
  }

  /// `certificate` and `key`: the client certificate of mutual TLS, each a
  /// PEM file (relative to the profile) or ${NAME}.
  void read_certificate(const node* certificate, const node* key, const std::string& where,
                        credential& c) {
    if (!certificate && !key) return;
    if (!certificate || !key) {
      error(certificate ? *certificate : *key,
            where + ": give both certificate and key (the client certificate and its private key)");
      return;
    }
    const auto cert_text = scalar(*certificate, where + ".certificate");
    const auto key_text = scalar(*key, where + ".key");
    if (!cert_text || !key_text) return;
    const std::filesystem::path folder = std::filesystem::path(file_).parent_path();
    auto cert = detail::read_pem(*cert_text, folder, env_, "CERTIFICATE");
    if (!cert) {
      error(*certificate, where + ".certificate: " + cert.error());
      return;
    }
    auto private_key = detail::read_pem(*key_text, folder, env_, "PRIVATE KEY");
    if (!private_key) {
      error(*key, where + ".key: " + private_key.error());
      return;
    }
    c.certificate_pem = std::move(cert->pem);
    const std::string env_name =
        private_key->env_name.empty() ? derived_env_name(c.name) + "_KEY" : private_key->env_name;
    c.key = secret(std::move(private_key->pem), env_name, !private_key->env_name.empty());
  }

  void read_reach(const node& n, const node* tenant_node, const node* tenants_node,
                  const std::string& where, const target& p, credential& c) {
    if (tenant_node && tenants_node) {
      error(*tenants_node, where + ": give either tenant or tenants, not both");
      return;
    }
    if (!tenant_node && !tenants_node) {
      // A credential of no tenant; a profile with tenants must say which.
      if (!p.tenants.empty()) {
        error(n, where + ": missing tenant (or tenants: the tenants it reaches)");
      }
      return;
    }
    c.tenants_pos = pos(tenant_node ? *tenant_node : *tenants_node);
    std::vector<std::pair<std::string, const node*>> names;
    if (tenant_node) {
      if (auto s = scalar(*tenant_node, where + ".tenant")) names.emplace_back(*s, tenant_node);
    } else if (!tenants_node->is_sequence()) {
      error(*tenants_node, where + ".tenants: expected a list of tenant names");
      return;
    } else {
      for (const auto& item : tenants_node->items()) {
        if (auto s = scalar(item, where + ".tenants item")) names.emplace_back(*s, &item);
      }
      if (tenants_node->size() == 0) {
        error(*tenants_node, where + ".tenants: empty; name at least one tenant");
      }
    }
    for (const auto& [name, at] : names) {
      const node& mark = *at;
      const auto it = std::find_if(p.tenants.begin(), p.tenants.end(),
                                   [&name = name](const tenant& t) { return t.name == name; });
      if (it == p.tenants.end()) {
        std::string known;
        for (const auto& k : p.tenants) known += (known.empty() ? "" : ", ") + k.name;
        error(mark, where + ": unknown tenant '" + name +
                        "' (tenants: " + (known.empty() ? "none" : known) + ")");
        continue;
      }
      // The tenants are all read by now: these pointers stay valid, also
      // when the target is moved.
      const tenant* t = &*it;
      if (std::find(c.tenants.begin(), c.tenants.end(), t) != c.tenants.end()) {
        error(mark, where + ": tenant '" + name + "' named twice");
        continue;
      }
      c.tenants.push_back(t);
    }
  }

  std::string file_;
  const env_lookup& env_;
  std::vector<diagnostic> diags_;
};

}  // namespace

std::optional<std::string> process_env(const std::string& name) {
  const char* v = std::getenv(name.c_str());
  if (v == nullptr) return std::nullopt;
  return std::string(v);
}

load_result load_profile(const std::filesystem::path& path, const env_lookup& env) {
  // A regular file within core::limits::max_file_bytes: never /dev/zero or a pipe.
  load_result out;
  core::doc_reader r(out.diagnostics);
  const auto text = core::read_text_file(path, r, core::source_pos{path.string(), 0, 0});
  if (!text) return out;
  return parse_profile(*text, path.string(), env);
}

load_result parse_profile(std::string_view text, const std::string& display_name,
                          const env_lookup& env) {
  return builder(display_name, env).run(text);
}

namespace {

/// "a, b" or "none", for a message.
std::string listed(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out.empty() ? "none" : out;
}

/// The scheme credential `c` names in `spec` (nullptr: a kind the
/// description has no scheme of), or an error saying what it may name.
core::outcome<const openapi::security_scheme*> resolve(credential& c,
                                                       const openapi::api_spec& spec) {
  if (!c.scheme.empty()) {  // set by whoever built the target (--url)
    if (const auto* s = spec.find_scheme(c.scheme)) {
      c.kind = s->kind_name();
      return s;
    }
  } else {
    const auto* named = spec.find_scheme_named_by(c.kind);
    const auto* keyed = spec.find_scheme(c.kind);
    // A word that is both a label (or kind) and a scheme's key names that scheme.
    if (keyed && (!named || keyed->named_by(c.kind))) {
      c.scheme = keyed->name;
      c.kind = keyed->kind_name();
      return keyed;
    }
    if (named || openapi::parse_credential_kind(c.kind)) return named;
  }
  std::vector<std::string> keys;
  for (const auto& s : spec.schemes) keys.push_back(s->name);
  const std::string word = c.scheme.empty() ? c.kind : c.scheme;
  return core::fail("credential '" + c.name + "': scheme '" + word + "' names nothing in " +
                    spec.file + ": it is neither one of its x-credential labels (" +
                    listed(spec.credential_labels()) +
                    "), a kind (bearer, basic, digest, api_key, mutual_tls) nor a key of its "
                    "security schemes (" +
                    listed(keys) + ")");
}

/// What the scheme says a credential of it must be, against what the profile gives.
void check_against_scheme(const credential& c, const openapi::security_scheme& s,
                          std::vector<core::diagnostic>& out) {
  const std::string what = "credential '" + c.name + "': scheme '" + s.name + "'";
  if (s.credential == credential_kind::mutual_tls && !c.has_certificate()) {
    out.push_back({c.scheme_pos, severity::error,
                   what + " is mutualTLS, so the credential needs certificate and key"});
  } else if (s.credential != credential_kind::mutual_tls && c.value.empty()) {
    out.push_back({c.scheme_pos, severity::error,
                   what + " takes a value or value_env besides the certificate"});
  }
  if (!c.role.empty() && !s.is_jwt() && s.roles.empty()) {
    out.push_back({c.role_pos, severity::error,
                   what + " (" + s.kind_name() +
                       ") declares no x-roles and is no JWT, so the credential has no role"});
  } else if (!c.role.empty() && !s.roles.empty() &&
             std::find(s.roles.begin(), s.roles.end(), c.role) == s.roles.end()) {
    out.push_back({c.role_pos, severity::error,
                   "credential '" + c.name + "': role '" + c.role + "' is not one of " +
                       listed(s.roles) + " (x-roles of scheme '" + s.name + "')"});
  }
  if (s.tenants == openapi::security_scheme::tenant_reach::one && c.tenants.size() > 1) {
    out.push_back({c.tenants_pos, severity::error,
                   what + " (" + s.kind_name() +
                       ") says x-tenants: one: a credential of it belongs to exactly one "
                       "tenant, and this one names " +
                       std::to_string(c.tenants.size())});
  }
}

}  // namespace

std::vector<core::diagnostic> bind(target& t, const openapi::api_spec& spec) {
  std::vector<core::diagnostic> out;
  for (auto& c : t.credentials) {
    auto s = resolve(c, spec);
    if (!s) {
      out.push_back({c.scheme_pos, severity::error, s.error()});
      continue;
    }
    if (*s) check_against_scheme(c, **s, out);
  }
  return out;
}

}  // namespace conform::profile
