#include "profile/profile.hpp"

#include <algorithm>
#include <functional>

namespace conform::profile {
namespace {

std::string join(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += items[i];
  }
  return out + "]";
}

}  // namespace

std::string_view to_string(environment e) {
  return e == environment::production ? "production" : "sandbox";
}

std::optional<environment> parse_environment(std::string_view s) {
  if (s == "sandbox") return environment::sandbox;
  if (s == "production") return environment::production;
  return std::nullopt;
}

std::string_view to_string(jwt_role r) {
  switch (r) {
    case jwt_role::admin:
      return "admin";
    case jwt_role::member:
      return "member";
    case jwt_role::viewer:
      return "viewer";
  }
  return "viewer";
}

std::optional<jwt_role> parse_role(std::string_view s) {
  if (s == "admin") return jwt_role::admin;
  if (s == "member") return jwt_role::member;
  if (s == "viewer") return jwt_role::viewer;
  return std::nullopt;
}

// The profile spells schemes as the description's x-credential does.
std::string_view scheme_name(credential_kind k) {
  return openapi::to_string(k);
}

std::optional<credential_kind> parse_scheme(std::string_view s) {
  return openapi::parse_credential_kind(s);
}

const std::string* tenant::fixture(std::string_view fixture_name) const {
  const auto it = fixtures.find(std::string(fixture_name));
  return it == fixtures.end() ? nullptr : &it->second;
}

bool credential::grants(std::string_view scope) const {
  return scopes && std::find(scopes->begin(), scopes->end(), scope) != scopes->end();
}

std::string credential_need::describe() const {
  std::string out = "a";
  if (expired) out += "n expired";
  if (other_environment) out += expired ? ", other-environment" : "n other-environment";
  if (rate_limited) out += (expired || other_environment) ? ", rate-limited" : " rate-limited";
  out += " ";
  out += scheme ? std::string(scheme_name(*scheme)) : std::string("any-scheme");
  out += " credential";
  if (role) out += " with role " + std::string(to_string(*role));
  if (!scopes.empty()) out += " granting " + join(scopes);
  if (!lacking_scopes.empty()) out += " lacking " + join(lacking_scopes);
  if (!fixtures.empty()) out += " whose tenant has fixtures " + join(fixtures);
  if (second_tenant) out += ", and a second tenant it cannot reach";
  return out;
}

const tenant* profile::find_tenant(std::string_view name) const {
  for (const auto& t : tenants) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

const tenant* profile::find_tenant_by_id(std::string_view id) const {
  for (const auto& t : tenants) {
    if (t.id == id) return &t;
  }
  return nullptr;
}

const credential* profile::find_credential(std::string_view name) const {
  for (const auto& c : credentials) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

std::vector<const credential*> profile::credentials_by_scheme(credential_kind scheme) const {
  std::vector<const credential*> out;
  for (const auto& c : credentials) {
    if (c.scheme == scheme) out.push_back(&c);
  }
  return out;
}

std::vector<const tenant*> profile::tenants_of(const credential& c) const {
  std::vector<const tenant*> out;
  for (std::size_t i : c.tenants) {
    if (i < tenants.size()) out.push_back(&tenants[i]);
  }
  return out;
}

const tenant* profile::home_tenant(const credential& c) const {
  return c.tenants.empty() || c.tenants.front() >= tenants.size() ? nullptr
                                                                  : &tenants[c.tenants.front()];
}

const std::string* profile::fixture(const credential& c, std::string_view fixture_name) const {
  const tenant* t = home_tenant(c);
  return t ? t->fixture(fixture_name) : nullptr;
}

const tenant* profile::other_tenant(const credential& c) const {
  for (std::size_t i = 0; i < tenants.size(); ++i) {
    if (std::find(c.tenants.begin(), c.tenants.end(), i) == c.tenants.end()) return &tenants[i];
  }
  return nullptr;
}

environment profile::environment_of(const credential& c) const {
  return c.env.value_or(env);
}

namespace {

/// One criterion of a need: a test, and what to say when nothing passes it.
struct criterion {
  std::function<bool(const credential&)> test;
  std::string unmet;
  bool about_scopes = false;
};

std::vector<criterion> criteria(const profile& p, const credential_need& need) {
  std::vector<criterion> out;
  const std::string kind =
      need.scheme ? std::string(scheme_name(*need.scheme)) + " credential" : "credential";
  if (need.scheme) {
    out.push_back({[&need](const credential& c) { return c.scheme == *need.scheme; },
                   "no " + kind + " in the profile"});
  }
  out.push_back(
      {[&p, &need](const credential& c) {
         return (p.environment_of(c) != p.env) == need.other_environment;
       },
       need.other_environment
           ? "no " + kind + " of the other environment than " + std::string(to_string(p.env)) +
                 " (environment: on a credential)"
           : "no " + kind + " of the profile's environment " + std::string(to_string(p.env))});
  out.push_back({[&need](const credential& c) { return c.expired == need.expired; },
                 need.expired ? "no expired " + kind + " (expired: true)"
                              : "no " + kind + " that is not marked expired"});
  out.push_back({[&need](const credential& c) { return c.rate_limited == need.rate_limited; },
                 need.rate_limited ? "no rate-limited " + kind + " (rate_limited: true)"
                                   : "no " + kind + " that is not marked rate_limited"});
  if (need.role) {
    out.push_back({[&need](const credential& c) { return c.role == need.role; },
                   "no " + kind + " with role " + std::string(to_string(*need.role))});
  }
  if (!need.scopes.empty()) {
    out.push_back({[&need](const credential& c) {
                     return std::all_of(need.scopes.begin(), need.scopes.end(),
                                        [&c](const std::string& s) { return c.grants(s); });
                   },
                   "no " + kind + " with stated scopes granting " + join(need.scopes), true});
  }
  if (!need.lacking_scopes.empty()) {
    out.push_back({[&need](const credential& c) {
                     return c.scopes.has_value() &&
                            std::none_of(need.lacking_scopes.begin(), need.lacking_scopes.end(),
                                         [&c](const std::string& s) { return c.grants(s); });
                   },
                   "no " + kind + " with stated scopes lacking " + join(need.lacking_scopes),
                   true});
  }
  if (need.second_tenant) {
    out.push_back({[&p](const credential& c) { return p.other_tenant(c) != nullptr; },
                   "no second tenant beyond those the " + kind + " reaches"});
  }
  for (const auto& f : need.fixtures) {
    out.push_back({[&p, f](const credential& c) { return p.fixture(c, f) != nullptr; },
                   "no fixture '" + f + "' in the tenant of a matching " + kind});
  }
  return out;
}

}  // namespace

std::vector<const credential*> profile::matching(const credential_need& need) const {
  const auto tests = criteria(*this, need);
  std::vector<const credential*> out;
  for (const auto& c : credentials) {
    if (std::all_of(tests.begin(), tests.end(), [&c](const criterion& t) { return t.test(c); })) {
      out.push_back(&c);
    }
  }
  return out;
}

std::vector<std::string> profile::missing(const credential_need& need) const {
  if (!matching(need).empty()) return {};
  std::vector<const credential*> candidates;
  for (const auto& c : credentials) candidates.push_back(&c);
  if (candidates.empty()) return {"the profile has no credentials"};
  // Narrow criterion by criterion; the first that leaves nothing is the reason.
  std::vector<std::string> out;
  for (const auto& t : criteria(*this, need)) {
    std::vector<const credential*> next;
    for (const credential* c : candidates) {
      if (t.test(*c)) next.push_back(c);
    }
    if (next.empty()) {
      out.push_back(t.unmet);
      // Say which candidates fell short only because their scopes are not stated.
      if (t.about_scopes) {
        std::vector<std::string> unknown;
        for (const credential* c : candidates) {
          if (!c->scopes) unknown.push_back(c->name);
        }
        if (!unknown.empty()) out.push_back("scopes not stated for " + join(unknown));
      }
      return out;
    }
    candidates = std::move(next);
  }
  return {"no credential meets " + need.describe()};
}

http::secret_redactor make_redactor(const profile& p) {
  http::secret_redactor out;
  for (const auto& c : p.credentials) {
    if (!c.value.empty()) out.secret_value(c.value.reveal(), c.value.env_name());
  }
  return out;
}

}  // namespace conform::profile
