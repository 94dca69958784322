#include "profile/loader.hpp"

#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

namespace conform::profile {
namespace {

using core::diagnostic;
using core::severity;

/// Builds a profile from a YAML document, collecting diagnostics.
class builder {
 public:
  builder(std::string file, const env_lookup& env) : file_(std::move(file)), env_(env) {}

  load_result run(std::string_view text) {
    YAML::Node root;
    try {
      root = YAML::Load(std::string(text));
    } catch (const YAML::Exception& e) {
      error(e.mark, "invalid YAML: " + e.msg);
      return finish(std::nullopt);
    }
    if (!root.IsDefined() || root.IsNull()) {
      error(YAML::Mark{},
            "the profile is empty (expected base_url, environment, tenants, credentials)");
      return finish(std::nullopt);
    }
    if (!root.IsMap()) {
      error(root.Mark(),
            "the profile must be a mapping with base_url, environment, tenants and credentials");
      return finish(std::nullopt);
    }
    target p;
    p.file = file_;
    // Optional nodes: a default YAML::Node counts as defined, and assigning to
    // one rebinds the document, so keep copies in optionals.
    std::optional<YAML::Node> base_url, env, tenants, credentials;
    for_each_entry(root, "the profile",
                   [&](const std::string& key, const YAML::Node& k, const YAML::Node& v) {
                     if (key == "base_url") {
                       base_url.emplace(v);
                     } else if (key == "environment") {
                       env.emplace(v);
                     } else if (key == "tenants") {
                       tenants.emplace(v);
                     } else if (key == "credentials") {
                       credentials.emplace(v);
                     } else {
                       warning(k.Mark(), "unknown key '" + key + "' (ignored)");
                     }
                   });
    if (!base_url) {
      error(root.Mark(), "base_url: missing (e.g. base_url: http://127.0.0.1:8080/api/v1)");
    } else if (auto text_value = scalar(*base_url, "base_url")) {
      auto parsed = http::parse_url(*text_value);
      if (parsed.ok()) {
        p.base_url = std::move(*parsed.value);
      } else {
        error(base_url->Mark(), "base_url: " + parsed.error);
      }
    }
    if (!env) {
      warning(root.Mark(), "environment: missing, assuming sandbox");
    } else if (auto e = scalar(*env, "environment")) {
      if (auto parsed = parse_environment(*e)) {
        p.env = *parsed;
      } else {
        error(env->Mark(), "environment: '" + *e + "' is not one of sandbox, production");
      }
    }
    // A target without tenants is valid: an API with no tenancy.
    if (tenants && !tenants->IsNull()) read_tenants(*tenants, p);
    if (credentials && !credentials->IsNull()) read_credentials(*credentials, p);
    return finish(std::move(p));
  }

 private:
  core::source_pos pos(const YAML::Mark& m) const {
    if (m.line < 0) return {file_, 0, 0};
    return {file_, m.line + 1, m.column + 1};
  }
  void error(const YAML::Mark& m, std::string message) {
    diags_.push_back({pos(m), severity::error, std::move(message)});
  }
  void warning(const YAML::Mark& m, std::string message) {
    diags_.push_back({pos(m), severity::warning, std::move(message)});
  }

  load_result finish(std::optional<target> p) {
    load_result out;
    if (p) {
      for (const auto& [index, mark] : scheme_marks_) {
        p->credentials[index].pos = pos(mark);  // where the scheme name is, for bind()
      }
    }
    out.diagnostics = std::move(diags_);
    if (p && !core::has_errors(out.diagnostics)) out.value = std::move(p);
    return out;
  }

  /// Calls `f(key, key_node, value_node)` per entry, reporting duplicate keys.
  template <class F>
  void for_each_entry(const YAML::Node& map, const std::string& where, F&& f) {
    std::set<std::string> seen;
    for (const auto& entry : map) {
      // Copies: the iterator's pair is a temporary proxy.
      const YAML::Node k = entry.first;
      const YAML::Node v = entry.second;
      if (!k.IsScalar()) {
        error(k.Mark(), where + ": keys must be plain text");
        continue;
      }
      const std::string key = k.Scalar();
      if (!seen.insert(key).second) {
        error(k.Mark(), where + ": duplicate key '" + key + "'");
        continue;
      }
      f(key, k, v);
    }
  }

  /// The text of a scalar node; an error (and nullopt) for anything else.
  std::optional<std::string> scalar(const YAML::Node& n, const std::string& what) {
    if (n.IsScalar() && !n.Scalar().empty()) return n.Scalar();
    error(n.Mark(), what + ": expected a non-empty text value");
    return std::nullopt;
  }

  std::optional<bool> boolean(const YAML::Node& n, const std::string& what) {
    bool b = false;
    if (n.IsScalar() && YAML::convert<bool>::decode(n, b)) return b;
    error(n.Mark(), what + ": expected true or false");
    return std::nullopt;
  }

  std::optional<std::vector<std::string>> string_list(const YAML::Node& n,
                                                      const std::string& what) {
    if (!n.IsSequence()) {
      error(n.Mark(), what + ": expected a list (e.g. [a, b], or [] for none)");
      return std::nullopt;
    }
    std::vector<std::string> out;
    bool ok = true;
    for (const auto& item : n) {
      if (auto s = scalar(item, what + " item")) {
        out.push_back(std::move(*s));
      } else {
        ok = false;
      }
    }
    if (!ok) return std::nullopt;
    return out;
  }

  void read_tenants(const YAML::Node& node, target& p) {
    if (!node.IsMap()) {
      error(node.Mark(), "tenants: expected a mapping from tenant name to {id, fixtures}");
      return;
    }
    for_each_entry(
        node, "tenants", [&](const std::string& name, const YAML::Node& k, const YAML::Node& v) {
          const std::string where = "tenants." + name;
          tenant t;
          t.name = name;
          t.pos = pos(k.Mark());
          if (!v.IsMap()) {
            error(v.Mark(), where + ": expected a mapping with id and fixtures");
            return;
          }
          bool has_id = false;
          for_each_entry(
              v, where, [&](const std::string& key, const YAML::Node& kk, const YAML::Node& vv) {
                if (key == "id") {
                  has_id = true;
                  if (auto id = scalar(vv, where + ".id")) t.id = *id;
                } else if (key == "fixtures") {
                  if (vv.IsNull()) return;
                  if (!vv.IsMap()) {
                    error(vv.Mark(),
                          where + ".fixtures: expected a mapping from fixture name to id");
                    return;
                  }
                  for_each_entry(
                      vv, where + ".fixtures",
                      [&](const std::string& f, const YAML::Node&, const YAML::Node& fv) {
                        if (auto id = scalar(fv, where + ".fixtures." + f))
                          t.fixtures.emplace(f, *id);
                      });
                } else {
                  warning(kk.Mark(), where + ": unknown key '" + key + "' (ignored)");
                }
              });
          if (!has_id) error(k.Mark(), where + ".id: missing (the tenant id the API uses)");
          for (const auto& other : p.tenants) {
            if (!t.id.empty() && other.id == t.id) {
              error(k.Mark(), where + ".id: '" + t.id + "' is also the id of tenant " + other.name);
            }
          }
          p.tenants.push_back(std::move(t));
        });
  }

  void read_credentials(const YAML::Node& node, target& p) {
    if (!node.IsSequence()) {
      error(node.Mark(), "credentials: expected a list of credentials");
      return;
    }
    std::size_t index = 0;
    for (const auto& item : node) {
      read_credential(item, index++, p);
    }
  }

  void read_credential(const YAML::Node& node, std::size_t index, target& p) {
    std::string where = "credentials[" + std::to_string(index) + "]";
    if (!node.IsMap()) {
      error(node.Mark(), where + ": expected a mapping with name, scheme, value or value_env");
      return;
    }
    credential c;
    c.pos = pos(node.Mark());
    if (const YAML::Node name = node["name"]; name) {
      if (auto s = scalar(name, where + ".name")) c.name = *s;
    }
    if (c.name.empty()) {
      if (!node["name"]) error(node.Mark(), where + ".name: missing");
    } else {
      where += " (" + c.name + ")";
      if (std::any_of(p.credentials.begin(), p.credentials.end(),
                      [&c](const credential& other) { return other.name == c.name; }))
        error(node["name"].Mark(), where + ": duplicate credential name");
    }
    std::optional<YAML::Node> value, value_env, tenant_node, tenants_node, role_node, scheme_node;
    bool scheme_ok = false;
    for_each_entry(
        node, where, [&](const std::string& key, const YAML::Node& k, const YAML::Node& v) {
          if (key == "name") {
            return;
          } else if (key == "scheme") {
            scheme_node.emplace(v);
            if (auto s = scalar(v, where + ".scheme")) {
              if (auto parsed = parse_scheme(*s)) {
                c.kind = *parsed;
                scheme_ok = true;
              } else {
                // A scheme of the description by its key: bind() checks it.
                c.scheme = *s;
                scheme_marks_.emplace_back(p.credentials.size(), v.Mark());
              }
            }
          } else if (key == "value") {
            value.emplace(v);
          } else if (key == "value_env") {
            value_env.emplace(v);
          } else if (key == "tenant") {
            tenant_node.emplace(v);
          } else if (key == "tenants") {
            tenants_node.emplace(v);
          } else if (key == "scopes") {
            if (v.IsNull()) {
              error(k.Mark(), where +
                                  ".scopes: empty; write [] for a key with no scopes, or leave "
                                  "scopes out when unknown");
            } else {
              c.scopes = string_list(v, where + ".scopes");
            }
          } else if (key == "role") {
            role_node.emplace(v);
            if (auto s = scalar(v, where + ".role")) {
              if (parse_role(*s)) {
                c.role = *s;
              } else {
                error(v.Mark(), where + ".role: '" + *s + "' is not one of admin, member, viewer");
              }
            }
          } else if (key == "expired") {
            c.expired = boolean(v, where + ".expired").value_or(false);
          } else if (key == "rate_limited") {
            c.rate_limited = boolean(v, where + ".rate_limited").value_or(false);
          } else if (key == "environment") {
            if (auto s = scalar(v, where + ".environment")) {
              if (auto e = parse_environment(*s)) {
                c.other_environment = *e != p.env;
              } else {
                error(v.Mark(),
                      where + ".environment: '" + *s + "' is not one of sandbox, production");
              }
            }
          } else {
            warning(k.Mark(), where + ": unknown key '" + key + "' (kept as an attribute)");
            if (v.IsScalar()) {
              c.extra.emplace(key, v.Scalar());
            } else {
              YAML::Emitter out;
              out << YAML::Flow << v;
              c.extra.emplace(key, out.c_str());
            }
          }
        });
    if (!scheme_node)
      error(node.Mark(), where +
                             ".scheme: missing (a kind: jwt, tenant_key, partner_key, bearer, "
                             "basic, digest, api_key; or a security scheme's key)");
    if (role_node && scheme_ok && c.kind != credential_kind::jwt) {
      error(role_node->Mark(), where + ".role: only a jwt credential has a role");
    }
    read_secret(node, value, value_env, where, c);
    read_reach(node, tenant_node, tenants_node, where, scheme_ok, p, c);
    p.credentials.push_back(std::move(c));
  }

  void read_secret(const YAML::Node& node, const std::optional<YAML::Node>& value,
                   const std::optional<YAML::Node>& value_env, const std::string& where,
                   credential& c) {
    if (value && value_env) {
      error(value_env->Mark(), where + ": give either value or value_env, not both");
      return;
    }
    if (!value && !value_env) {
      error(node.Mark(),
            where + ": missing value or value_env (the secret, inline or by environment variable)");
      return;
    }
    if (value) {
      // Never echo a secret: the message names the key, not its text.
      if (!value->IsScalar() || value->Scalar().empty()) {
        error(value->Mark(), where + ".value: expected a non-empty text value");
        return;
      }
      c.value = secret(value->Scalar(), derived_env_name(c.name), false);
      return;
    }
    const auto var = scalar(*value_env, where + ".value_env");
    if (!var) return;
    const bool valid_name =
        !var->empty() && !((*var)[0] >= '0' && (*var)[0] <= '9') &&
        var->find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") ==
            std::string::npos;
    if (!valid_name) {
      error(value_env->Mark(),
            where + ".value_env: '" + *var + "' is not an environment variable name");
      return;
    }
    const auto found = env_ ? env_(*var) : std::nullopt;
    if (!found || found->empty()) {
      error(value_env->Mark(),
            where + ": environment variable " + *var + " is " + (found ? "empty" : "not set"));
      return;
    }
    c.value = secret(*found, *var, true);
  }

  void read_reach(const YAML::Node& node, const std::optional<YAML::Node>& tenant_node,
                  const std::optional<YAML::Node>& tenants_node, const std::string& where,
                  bool scheme_ok, const target& p, credential& c) {
    if (tenant_node && tenants_node) {
      error(tenants_node->Mark(), where + ": give either tenant or tenants, not both");
      return;
    }
    if (!tenant_node && !tenants_node) {
      // A credential of no tenant; a profile with tenants must say which.
      if (!p.tenants.empty()) {
        error(node.Mark(), where + ": missing tenant (or tenants: the tenants it reaches)");
      }
      return;
    }
    std::vector<std::pair<std::string, YAML::Mark>> names;
    if (tenant_node) {
      if (auto s = scalar(*tenant_node, where + ".tenant")) {
        names.emplace_back(*s, tenant_node->Mark());
      }
    } else if (!tenants_node->IsSequence()) {
      error(tenants_node->Mark(), where + ".tenants: expected a list of tenant names");
      return;
    } else {
      for (const auto& item : *tenants_node) {
        if (auto s = scalar(item, where + ".tenants item")) names.emplace_back(*s, item.Mark());
      }
      if (tenants_node->size() == 0) {
        error(tenants_node->Mark(), where + ".tenants: empty; name at least one tenant");
      }
    }
    for (const auto& [name, mark] : names) {
      const auto it = std::find_if(p.tenants.begin(), p.tenants.end(),
                                   [&name](const tenant& t) { return t.name == name; });
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
    if (scheme_ok && c.kind == credential_kind::tenant_key && names.size() > 1) {
      error((tenants_node ? *tenants_node : node).Mark(),
            where + ": a tenant_key belongs to exactly one tenant");
    }
  }

  std::string file_;
  /// Credentials whose scheme names a description's scheme, and where.
  std::vector<std::pair<std::size_t, YAML::Mark>> scheme_marks_;
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
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    load_result out;
    out.diagnostics.push_back(
        {core::source_pos{path.string(), 0, 0}, severity::error, "cannot read the profile file"});
    return out;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parse_profile(text.str(), path.string(), env);
}

load_result parse_profile(std::string_view text, const std::string& display_name,
                          const env_lookup& env) {
  return builder(display_name, env).run(text);
}

std::vector<core::diagnostic> bind(target& t, const openapi::api_spec& spec) {
  std::vector<core::diagnostic> out;
  for (auto& c : t.credentials) {
    if (c.scheme.empty()) {
      // A kind word that is also a scheme's key names that scheme.
      if (const auto* s = spec.find_scheme(scheme_name(c.kind)); s && s->credential == c.kind) {
        c.scheme = s->name;
      }
      continue;
    }
    if (const auto* s = spec.find_scheme(c.scheme)) {
      c.kind = s->credential;
      continue;
    }
    std::string known;
    for (const auto& s : spec.schemes) known += (known.empty() ? "" : ", ") + s->name;
    out.push_back({c.pos, severity::error,
                   "credential '" + c.name + "': scheme '" + c.scheme +
                       "' is neither a kind (jwt, tenant_key, partner_key, bearer, basic, "
                       "digest, api_key) nor a security scheme of " +
                       spec.file + " (" + (known.empty() ? "it has none" : "it has " + known) +
                       ")"});
  }
  return out;
}

}  // namespace conform::profile
