// An example partner integration of the Voice AI calling API, written to be
// certified by `conform certify` (docs/certification.md). It reads the
// target from CONFORM_PROFILE (a Conform target profile) and
// CONFORM_BASE_URL, then does what partners do:
//   1. list its tenants (page by page, to meta.pages);
//   2. allocate credit to a tenant and take some back (one Idempotency-Key
//      per intent, the same key on every retry of it);
//   3. read all voice sessions of the tenant (cursor by cursor, to the end);
//   4. read its campaigns (page by page);
//   5. create a campaign, try to launch it once (a campaign without contacts
//      may not be launched: 422, not retried), and launch a draft that may.
// Every call retries network failures, 429 (after Retry-After) and 5xx (with
// a backoff that doubles and is capped), and nothing else.
//
// `--defect NAME` plants one mistake, so that tests can show each client rule
// catching it (see kDefects below). Exit 0 when every task completed.
#include <yaml-cpp/yaml.h>

#include <boost/json.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <random>
#include <set>
#include <string>
#include <thread>

#include "http/client.hpp"

namespace {

namespace json = boost::json;
using conform::http::verb;

const std::set<std::string> kDefects = {
    "no-idempotency-key", "new-key-on-retry", "shared-key",         "ignore-retry-after",
    "no-backoff",         "retry-4xx",        "cursor-change-size", "cursor-stop-early",
    "cursor-page-params", "page-past-end",    "per-page-too-big",   "no-tenant-header",
    "other-env-key",      "invalid-body",
};

struct partner {
  std::string key;
  std::string key_header = "X-Partner-Api-Key";
  std::string tenant_id;  // the tenant it works on
  std::string agent_id, phone_number_id;
};

class api {
 public:
  api(const std::string& base_url, std::string defect)
      : client_(conform::http::parse_url(base_url).value.value(), options()),
        defect_(std::move(defect)) {}

  static conform::http::client_options options() {
    conform::http::client_options o;
    o.retry.retry_429 = false;  // this client decides how to retry
    return o;
  }

  bool has(const char* d) const { return defect_ == d; }

  /// A new key for a new business intent.
  std::string new_key(const std::string& intent) {
    static std::mt19937_64 rng{std::random_device{}()};
    return "example-" + intent + "-" + std::to_string(rng());
  }

  /// Sends `req`, retrying as the description says; the last response, or
  /// nullopt when no answer came back after every retry.
  std::optional<conform::http::response> send(conform::http::request req) {
    std::chrono::milliseconds backoff{200};
    const std::chrono::milliseconds cap{5000};
    for (int attempt = 0;; ++attempt) {
      auto result = client_.send_once(0, req);
      const bool answered = result.ok();
      const unsigned status = answered ? result.value().status : 0;
      if (answered && status == 429) {
        long long wait = 1;
        if (const std::string* ra = result.value().find("Retry-After"))
          wait = std::atoll(ra->c_str());
        if (has("ignore-retry-after")) wait = 0;
        std::this_thread::sleep_for(std::chrono::seconds(wait));
        if (attempt < 8) continue;
      }
      const bool transient =
          !answered || status == 500 || status == 502 || status == 503 || status == 504;
      if (answered && has("retry-4xx") && status == 422 && attempt == 0) continue;
      if (!transient || attempt >= 5) {
        if (answered) return std::move(result.value());
        return std::nullopt;
      }
      std::cerr << "  transient failure ("
                << (answered ? std::to_string(status) : result.error().message) << "), retrying in "
                << backoff.count() << " ms\n";
      if (!has("no-backoff")) std::this_thread::sleep_for(backoff);
      backoff = std::min(backoff * 2, cap);
      if (has("new-key-on-retry") && req.find_header("Idempotency-Key")) {
        req.set_header("Idempotency-Key", new_key("retry"));
      }
    }
  }

  conform::http::request request(verb method, std::string target, const partner& p,
                                 bool tenant_header = true) {
    conform::http::request r;
    r.method = method;
    r.target = std::move(target);
    r.add_header(p.key_header, p.key);
    if (tenant_header && !has("no-tenant-header")) r.add_header("X-Tenant-Id", p.tenant_id);
    r.add_header("Accept", "application/json");
    return r;
  }

 private:
  conform::http::client client_;
  std::string defect_;
};

std::optional<json::value> body_of(const std::optional<conform::http::response>& r) {
  if (!r) return std::nullopt;
  boost::system::error_code ec;
  json::value v = json::parse(r->body, ec);
  if (ec) return std::nullopt;
  return v;
}

/// 1 and 4: a page list, page by page up to meta.pages; the items.
std::optional<json::array> read_pages(api& a, const partner& p, const std::string& path,
                                      bool tenant_header) {
  json::array items;
  const int per_page = a.has("per-page-too-big") ? 500 : 20;
  for (int page = 1, pages = 1; page <= pages; ++page) {
    auto r = a.send(a.request(
        verb::get, path + "?page=" + std::to_string(page) + "&per_page=" + std::to_string(per_page),
        p, tenant_header));
    auto v = body_of(r);
    if (!r || r->status != 200 || !v) return std::nullopt;
    for (const auto& item : v->at("data").at("items").as_array()) items.push_back(item);
    pages = static_cast<int>(v->at("meta").at("pages").to_number<long long>());
    if (a.has("page-past-end") && page == pages) pages = page + 1;
  }
  return items;
}

/// 3: every voice session of the tenant, cursor by cursor.
std::optional<std::size_t> read_sessions(api& a, const partner& p) {
  std::size_t count = 0;
  std::string cursor;
  int page_size = 30;
  for (int page = 0;; ++page) {
    std::string target =
        "/voice_sessions?page_size=" + std::to_string(page_size) + "&sort=-updated_at";
    if (!cursor.empty()) target += "&cursor=" + cursor;  // opaque, URL-safe
    if (a.has("cursor-page-params")) target += "&page=" + std::to_string(page + 1);
    auto r = a.send(a.request(verb::get, target, p));
    auto v = body_of(r);
    if (!r || r->status != 200 || !v) return std::nullopt;
    count += v->at("data").at("items").as_array().size();
    const json::value& next = v->at("data").at("next_cursor");
    if (!next.is_string() || a.has("cursor-stop-early")) return count;
    cursor = std::string(next.as_string());
    if (a.has("cursor-change-size")) page_size = 40;
  }
}

bool move_credit(api& a, const partner& p, const std::string& path, int amount,
                 const std::string& key) {
  auto req = a.request(verb::post, path, p, false);
  req.add_header("Content-Type", "application/json");
  if (!a.has("no-idempotency-key")) req.add_header("Idempotency-Key", key);
  json::object body{{"tenant_id", std::stoll(p.tenant_id)}};
  if (a.has("invalid-body")) {
    body["amount_major"] = std::to_string(amount);
  } else {
    body["amount_major"] = amount;
  }
  req.body = json::serialize(body);
  auto r = a.send(req);
  std::cout << "  " << path << " " << amount << ": "
            << (r ? std::to_string(r->status) : "no answer")
            << (r && r->find("Idempotent-Replayed") ? " (replayed)" : "") << "\n";
  return r && r->status == 200;
}

std::optional<partner> load_partner(const char* profile_path, bool other_env) {
  const YAML::Node profile = YAML::LoadFile(profile_path);
  const std::string environment = profile["environment"].as<std::string>("sandbox");
  for (const auto& c : profile["credentials"]) {
    if (c["scheme"].as<std::string>() != "partner_key") continue;
    const bool this_env = c["environment"].as<std::string>(environment) == environment;
    if (this_env == other_env) continue;
    bool allocate = false;
    for (const auto& s : c["scopes"])
      allocate = allocate || s.as<std::string>() == "billing:partner:allocate";
    if (!allocate || c["rate_limited"].as<bool>(false)) continue;
    partner p;
    p.key = c["value"].as<std::string>();
    const std::string tenant = c["tenants"][0].as<std::string>();
    const YAML::Node t = profile["tenants"][tenant];
    p.tenant_id = t["id"].as<std::string>();
    p.agent_id = t["fixtures"]["agent_id"].as<std::string>();
    p.phone_number_id = t["fixtures"]["phone_number_id"].as<std::string>();
    return p;
  }
  return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
  std::string defect;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--defect" && i + 1 < argc) {
      defect = argv[++i];
      if (!kDefects.count(defect)) {
        std::cerr << "partner-client: unknown defect '" << defect << "'\n";
        return 2;
      }
    } else {
      std::cerr << "usage: partner-client [--defect NAME]\n";
      return 2;
    }
  }
  const char* profile_path = std::getenv("CONFORM_PROFILE");
  const char* base_url = std::getenv("CONFORM_BASE_URL");
  if (!profile_path || !base_url) {
    std::cerr << "partner-client: CONFORM_PROFILE and CONFORM_BASE_URL must be set\n";
    return 2;
  }
  auto p = load_partner(profile_path, defect == "other-env-key");
  if (!p) {
    std::cerr << "partner-client: the profile has no partner key that may allocate credit\n";
    return 2;
  }
  api a(base_url, defect);
  bool ok = true;

  std::cout << "1. tenants\n";
  auto tenants = read_pages(a, *p, "/partner/tenants", false);
  ok = ok && tenants;
  if (tenants) std::cout << "  " << tenants->size() << " tenants\n";

  std::cout << "2. credit\n";
  const std::string allocate_key = a.new_key("allocate");
  const std::string deallocate_key = a.has("shared-key") ? allocate_key : a.new_key("deallocate");
  ok = move_credit(a, *p, "/billing/allocate-credits", 25, allocate_key) && ok;
  ok = move_credit(a, *p, "/billing/deallocate-credits", 10, deallocate_key) && ok;

  std::cout << "3. voice sessions\n";
  auto sessions = read_sessions(a, *p);
  ok = ok && sessions;
  if (sessions) std::cout << "  " << *sessions << " sessions\n";

  std::cout << "4. campaigns\n";
  auto campaigns = read_pages(a, *p, "/bulk_call_campaigns", true);
  ok = ok && campaigns;
  if (campaigns) std::cout << "  " << campaigns->size() << " campaigns\n";

  std::cout << "5. a new campaign\n";
  auto create = a.request(verb::post, "/bulk_call_campaigns", *p);
  create.add_header("Content-Type", "application/json");
  create.add_header("Idempotency-Key", a.new_key("create-campaign"));
  create.body = json::serialize(
      json::object{{"name", "Partner example campaign"},
                   {"agent_id", std::stoll(p->agent_id)},
                   {"timezone", "Europe/Paris"},
                   {"campaign_phone_number_ids", json::array{std::stoll(p->phone_number_id)}}});
  auto created = a.send(create);
  auto cv = body_of(created);
  if (!created || created->status != 201 || !cv) {
    std::cout << "  create failed: " << (created ? std::to_string(created->status) : "no answer")
              << "\n";
    ok = false;
  } else {
    const std::string id(cv->at("data").at("id").as_string());
    // A campaign may be launched once it has contacts; this one has none
    // yet, so the launch is refused (422) and not retried unchanged.
    auto launch = a.send(a.request(verb::post, "/bulk_call_campaigns/" + id + "/launch", *p));
    std::cout << "  created " << id
              << "; launch: " << (launch ? std::to_string(launch->status) : "no answer")
              << (launch && launch->status == 422 ? " (no contacts yet: not retried)" : "") << "\n";
  }
  // A draft that has contacts may be launched.
  if (campaigns) {
    for (const auto& c : *campaigns) {
      const auto& o = c.as_object();
      if (o.at("status") != "draft" || o.at("contact_count").to_number<long long>() == 0) continue;
      const std::string id(o.at("id").as_string());
      auto launch = a.send(a.request(verb::post, "/bulk_call_campaigns/" + id + "/launch", *p));
      std::cout << "  launched draft " << id << ": "
                << (launch ? std::to_string(launch->status) : "no answer") << "\n";
      ok = ok && launch && launch->status == 200;
      break;
    }
  }
  std::cout << (ok ? "every task completed\n" : "some tasks failed\n");
  return ok ? 0 : 1;
}
