#include "reference/detail/credentials.hpp"

#include "reference/detail/jwt.hpp"
#include "reference/detail/util.hpp"

namespace conform::reference::detail {

std::string_view to_string(scheme s) {
  switch (s) {
    case scheme::jwt:
      return "jwt";
    case scheme::tenant_key:
      return "tenant_key";
    case scheme::partner_key:
      return "partner_key";
  }
  return "jwt";
}

const std::set<std::string>& default_tenant_scopes() {
  static const std::set<std::string> scopes = {"agents:read",
                                               "billing:tenant:read",
                                               "bulk_call_campaigns:read",
                                               "bulk_call_campaigns:write",
                                               "contacts:read",
                                               "contacts:write",
                                               "follow_ups:read",
                                               "follow_ups:write",
                                               "knowledge_bases:write",
                                               "phone_numbers:read",
                                               "phone_numbers:write",
                                               "voice_sessions:read",
                                               "voice_sessions:write"};
  return scopes;
}

const std::set<std::string>& default_partner_scopes() {
  static const std::set<std::string> scopes = {"agents:read",
                                               "billing:partner:read",
                                               "bulk_call_campaigns:read",
                                               "bulk_call_campaigns:write",
                                               "contacts:read",
                                               "contacts:write",
                                               "phone_numbers:read",
                                               "phone_numbers:write",
                                               "tenants:read",
                                               "voice_sessions:read"};
  return scopes;
}

namespace {

std::string derive_key(std::uint64_t seed, const std::string& prefix, const std::string& name) {
  std::string material = "conform-reference-key:" + std::to_string(seed);
  return prefix + to_hex(hmac_sha256(material, name)).substr(0, 32);
}

std::string key_prefix(scheme s, const std::string& environment) {
  bool live = environment == "production";
  if (s == scheme::tenant_key) return live ? "tk_live_" : "tk_test_";
  return live ? "pk_live_" : "pk_test_";
}

std::string other_environment(const std::string& environment) {
  return environment == "production" ? "sandbox" : "production";
}

}  // namespace

credential_registry::credential_registry(std::uint64_t seed, const std::string& environment,
                                         const std::string& jwt_secret, std::int64_t now) {
  auto tenant_key = [&](const std::string& name, id_t tenant, const std::string& profile_tenant,
                        std::set<std::string> scopes) -> credential_record& {
    credential_record c;
    c.name = name;
    c.kind = scheme::tenant_key;
    c.secret = derive_key(seed, key_prefix(scheme::tenant_key, environment), name);
    c.tenant_id = tenant;
    c.tenants = {profile_tenant};
    c.scopes = std::move(scopes);
    c.environment = environment;
    all_.push_back(std::move(c));
    return all_.back();
  };
  auto partner_key = [&](const std::string& name, id_t partner, std::vector<std::string> tenants,
                         std::set<std::string> scopes) -> credential_record& {
    credential_record c;
    c.name = name;
    c.kind = scheme::partner_key;
    c.secret = derive_key(seed, key_prefix(scheme::partner_key, environment), name);
    c.partner_id = partner;
    c.tenants = std::move(tenants);
    c.scopes = std::move(scopes);
    c.environment = environment;
    all_.push_back(std::move(c));
    return all_.back();
  };
  auto jwt = [&](const std::string& name, const std::string& role,
                 std::vector<std::string> profile_tenants, std::vector<std::string> tenant_ids,
                 bool expired) {
    credential_record c;
    c.name = name;
    c.kind = scheme::jwt;
    c.role = role;
    c.tenants = std::move(profile_tenants);
    c.expired = expired;
    c.environment = environment;
    jwt_claims claims{"user-" + name, expired ? now - 3600 : now + 30 * 86400,
                      std::move(tenant_ids), role};
    c.secret = sign_jwt(claims, jwt_secret);
    all_.push_back(std::move(c));
  };

  tenant_key("t1-all", 101, "t1", default_tenant_scopes());
  tenant_key("t2-all", 102, "t2", default_tenant_scopes());
  tenant_key("t3-all", 103, "t3", default_tenant_scopes());
  tenant_key("t1-none", 101, "t1", {});
  for (const auto& scope : default_tenant_scopes()) {
    tenant_key("t1-only-" + scope, 101, "t1", {scope});
  }
  auto all_plus = default_tenant_scopes();
  all_plus.insert("call_traces:admin_read");
  tenant_key("t1-with-opt-in", 101, "t1", all_plus);
  {
    credential_record& live = tenant_key("t1-other-env", 101, "t1", default_tenant_scopes());
    live.environment = other_environment(environment);
    live.secret = derive_key(seed, key_prefix(scheme::tenant_key, live.environment), live.name);
  }
  tenant_key("t1-throttled", 101, "t1", default_tenant_scopes()).rate_limited = true;

  auto allocate = default_partner_scopes();
  allocate.insert("billing:partner:allocate");
  partner_key("partner-allocate", 1, {"t1", "t2"}, allocate);
  partner_key("partner-default", 1, {"t1", "t2"}, default_partner_scopes());
  partner_key("partner-none", 1, {"t1", "t2"}, {});
  for (const auto& scope : default_partner_scopes()) {
    partner_key("partner-only-" + scope, 1, {"t1", "t2"}, {scope});
  }
  partner_key("partner-only-billing:partner:allocate", 1, {"t1", "t2"},
              {"billing:partner:allocate"});
  partner_key("partner2-allocate", 2, {"t3"}, allocate);
  {
    credential_record& live = partner_key("partner-other-env", 1, {"t1", "t2"}, allocate);
    live.environment = other_environment(environment);
    live.secret = derive_key(seed, key_prefix(scheme::partner_key, live.environment), live.name);
  }

  jwt("jwt-admin", "admin", {"t1"}, {"101"}, false);
  jwt("jwt-member", "member", {"t1"}, {"101"}, false);
  jwt("jwt-viewer", "viewer", {"t1"}, {"101"}, false);
  jwt("jwt-two-tenants", "member", {"t1", "t2"}, {"101", "102"}, false);
  jwt("jwt-t2-admin", "admin", {"t2"}, {"102"}, false);
  jwt("jwt-t3-admin", "admin", {"t3"}, {"103"}, false);
  jwt("jwt-expired", "admin", {"t1"}, {"101"}, true);

  for (std::size_t i = 0; i < all_.size(); ++i) {
    if (all_[i].kind != scheme::jwt) by_secret_.emplace(all_[i].secret, i);
  }
}

const credential_record* credential_registry::find_key(std::string_view secret) const {
  auto it = by_secret_.find(std::string(secret));
  return it == by_secret_.end() ? nullptr : &all_[it->second];
}

const credential_record* credential_registry::find_name(std::string_view name) const {
  for (const auto& c : all_) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

}  // namespace conform::reference::detail
