// An example partner integration of the Voice AI calling API, written to be
// certified by `conform certify` (docs/certification.md). It reads the
// target from CONFORM_PROFILE (a Conform target profile) and
// CONFORM_BASE_URL, then does what partners do:
//   1. list its tenants (page by page, to meta.pages);
//   2. allocate credit to a tenant and take some back (one Idempotency-Key
//      per intent, the same key on every retry of it);
//   3. read all voice sessions of the tenant (cursor by cursor, to the end),
//      then the first one by its id;
//   4. read its campaigns (page by page);
//   5. create a campaign, try once to launch it (no contacts yet: 422, not
//      retried), import contacts into it (multipart/form-data: a CSV file and
//      a JSON column mapping), and launch it.
// Every call retries network failures, 429 (after Retry-After) and 5xx, with
// a backoff from 100 ms that grows by half each time, at most 5 times (x-retry
// max_retries); after that it gives up on that call, says so, and goes on.
// It exits 0 when every task ended as the description says (a call given up
// after its retries included), 1 on anything unexpected.
//
// `--defect NAME` plants one mistake, so that tests can show each client rule
// catching it (see kDefects below; tests/certify/defects_test.cpp).
// `--exit-on-give-up` is a correct variant: after giving up on a call it
// says so with the request_id and exits 1 at the end, as batch jobs do.
#include <yaml-cpp/yaml.h>

#include <boost/json.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <thread>

#include "http/client.hpp"

namespace {

namespace json = boost::json;
using conform::http::verb;

// Each defect and the rule that must refuse it.
const std::map<std::string, std::string> kDefects = {
    {"no-idempotency-key", "client_idempotency_key_present"},
    {"new-key-on-retry", "client_idempotency_key_on_retry"},
    {"never-retry-dropped", "client_idempotency_key_on_retry"},
    {"shared-key", "client_idempotency_key_per_intent"},
    {"ignore-retry-after", "client_retry_after"},
    {"never-retry-429", "client_retry_after"},
    {"no-backoff", "client_retry_backoff"},
    {"constant-backoff", "client_retry_backoff"},
    {"never-retry-5xx", "client_retry_backoff"},
    {"short-timeout", "client_retry_backoff"},
    {"unbounded-retries", "client_retry_bound"},
    {"retry-4xx", "client_no_blind_retry"},
    {"cursor-change-size", "client_cursor_traversal"},
    {"cursor-stop-early", "client_cursor_traversal"},
    {"cursor-page-params", "client_cursor_traversal"},
    {"page-past-end", "client_page_traversal"},
    {"per-page-too-big", "client_page_traversal"},
    {"no-tenant-header", "client_tenant_header"},
    {"other-env-key", "client_key_environment"},
    {"invalid-body", "client_request_valid"},
    {"multipart-wrong-type", "client_request_valid"},
    {"two-credentials", "client_one_credential"},
    {"empty-credential", "client_one_credential"},
    {"exit-1", "client_completed"},
};

struct partner {
  std::string key;
  std::string key_header = "X-Partner-Api-Key";
  std::string tenant_id;  // the tenant it works on
  std::string agent_id, phone_number_id;
  std::string tenant_api_key;  // a key of the same tenant alone (the two-credentials defect)
};

/// What became of one call.
struct outcome {
  std::optional<conform::http::response> response;  // the last answer, if any
  bool gave_up = false;  // every retry failed: the failure was reported, the run goes on
};

class api {
 public:
  api(const std::string& base_url, std::string defect)
      : client_(conform::http::parse_url(base_url).value.value(), options(defect)),
        defect_(std::move(defect)) {}

  static conform::http::client_options options(const std::string& defect) {
    conform::http::client_options o;
    o.retry.retry_429 = false;  // this client decides how to retry
    if (defect == "short-timeout") o.connection.total_timeout = std::chrono::milliseconds(200);
    return o;
  }

  bool has(const char* d) const { return defect_ == d; }
  bool gave_up_somewhere = false;
  std::string gave_up_request_id = "no answer";  // of the last call given up

  /// A new key for a new business intent.
  std::string new_key(const std::string& intent) {
    static std::mt19937_64 rng{std::random_device{}()};
    return "example-" + intent + "-" + std::to_string(rng());
  }

  /// Sends `req`, retrying as the description says.
  outcome send(conform::http::request req) {
    double backoff_ms = 100;
    const int max_retries = has("unbounded-retries") ? 1000 : 5;
    for (int attempt = 0;; ++attempt) {
      auto result = client_.send_once(0, req);
      const bool answered = result.ok();
      const unsigned status = answered ? result.value().status : 0;
      if (answered && status == 429 && !has("never-retry-429")) {
        long long wait = 1;
        if (const std::string* ra = result.value().find("Retry-After"))
          wait = std::atoll(ra->c_str());
        if (has("ignore-retry-after")) wait = 0;
        std::this_thread::sleep_for(std::chrono::seconds(wait));
        if (attempt < 8) continue;
      }
      bool transient =
          !answered || status == 500 || status == 502 || status == 503 || status == 504;
      if (has("never-retry-5xx") && answered) transient = false;
      if (has("never-retry-dropped") && !answered) transient = false;
      if (answered && has("retry-4xx") && status == 422 && attempt == 0) continue;
      if (!transient) {
        outcome o;
        if (answered) o.response = std::move(result.value());
        return o;
      }
      if (attempt >= max_retries) {
        std::cerr << "  gave up after " << attempt
                  << " retries: " << (answered ? std::to_string(status) : result.error().message)
                  << "\n";
        gave_up_somewhere = true;
        if (const std::string* rid = answered ? result.value().find("X-Request-Id") : nullptr) {
          gave_up_request_id = "request_id " + *rid;
        }
        outcome o;
        o.gave_up = true;
        if (answered) o.response = std::move(result.value());
        return o;
      }
      const auto wait = std::chrono::milliseconds(
          has("constant-backoff") ? 150 : static_cast<long long>(backoff_ms));
      if (!has("no-backoff")) std::this_thread::sleep_for(wait);
      backoff_ms = std::min(backoff_ms * 1.5, 5000.0);
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
    if (has("two-credentials")) r.add_header("X-Api-Key", p.tenant_api_key);
    if (has("empty-credential")) r.add_header("Authorization", "");
    if (tenant_header && !has("no-tenant-header")) r.add_header("X-Tenant-Id", p.tenant_id);
    r.add_header("Accept", "application/json");
    return r;
  }

 private:
  conform::http::client client_;
  std::string defect_;
};

std::optional<json::value> body_of(const outcome& o) {
  if (!o.response) return std::nullopt;
  boost::system::error_code ec;
  json::value v = json::parse(o.response->body, ec);
  if (ec) return std::nullopt;
  return v;
}

std::string status_text(const outcome& o) {
  if (o.gave_up) return "given up";
  return o.response ? std::to_string(o.response->status) : "no answer";
}

/// A task's end: true when it ended as the description says (given up after
/// every retry included).
bool expected(const outcome& o, unsigned status) {
  return o.gave_up || (o.response && o.response->status == status);
}

/// 1 and 4: a page list, page by page up to meta.pages; the items, or
/// nullopt with `ok` false when a page did not come back as expected.
std::optional<json::array> read_pages(api& a, const partner& p, const std::string& path,
                                      bool tenant_header, bool& ok) {
  json::array items;
  const int per_page = a.has("per-page-too-big") ? 500 : 20;
  for (int page = 1, pages = 1; page <= pages; ++page) {
    auto r = a.send(a.request(
        verb::get, path + "?page=" + std::to_string(page) + "&per_page=" + std::to_string(per_page),
        p, tenant_header));
    auto v = body_of(r);
    if (!v || !r.response || r.response->status != 200) {
      ok = ok && r.gave_up;
      return std::nullopt;
    }
    for (const auto& item : v->at("data").at("items").as_array()) items.push_back(item);
    pages = static_cast<int>(v->at("meta").at("pages").to_number<long long>());
    if (a.has("page-past-end") && page == pages) pages = page + 1;
  }
  return items;
}

/// 3: every voice session of the tenant, cursor by cursor; the first one's id.
std::optional<std::string> read_sessions(api& a, const partner& p, bool& ok) {
  std::string cursor, first_id;
  std::size_t count = 0;
  int page_size = 30;
  for (int page = 0;; ++page) {
    std::string target =
        "/voice_sessions?page_size=" + std::to_string(page_size) + "&sort=-updated_at";
    if (!cursor.empty()) target += "&cursor=" + cursor;  // opaque, URL-safe
    if (a.has("cursor-page-params")) target += "&page=" + std::to_string(page + 1);
    auto r = a.send(a.request(verb::get, target, p));
    auto v = body_of(r);
    if (!v || !r.response || r.response->status != 200) {
      ok = ok && r.gave_up;
      return std::nullopt;
    }
    const auto& items = v->at("data").at("items").as_array();
    if (first_id.empty() && !items.empty()) first_id = items[0].at("id").as_string();
    count += items.size();
    const json::value& next = v->at("data").at("next_cursor");
    if (!next.is_string() || a.has("cursor-stop-early")) break;
    cursor = std::string(next.as_string());
    if (a.has("cursor-change-size")) page_size = 40;
  }
  std::cout << "  " << count << " sessions\n";
  return first_id;
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
  std::cout << "  " << path << " " << amount << ": " << status_text(r)
            << (r.response && r.response->find("Idempotent-Replayed") ? " (replayed)" : "") << "\n";
  return expected(r, 200);
}

/// 5: contacts for campaign `id`, as multipart/form-data.
bool import_contacts(api& a, const partner& p, const std::string& id) {
  const std::string boundary = "example-boundary-7MA4YWxkTrZu0gW";
  const std::string mapping_type =
      a.has("multipart-wrong-type") ? "text/plain" : "application/json";
  auto part = [&](const std::string& name, const std::string& type, const std::string& file,
                  const std::string& content) {
    return "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + name + "\"" +
           (file.empty() ? "" : "; filename=\"" + file + "\"") + "\r\nContent-Type: " + type +
           "\r\n\r\n" + content + "\r\n";
  };
  auto req = a.request(verb::post, "/contacts/import", p);
  req.add_header("Content-Type", "multipart/form-data; boundary=" + boundary);
  req.add_header("Idempotency-Key", a.new_key("import"));
  req.body = part("file", "text/csv", "contacts.csv",
                  "Phone,Given name\n+14155550100,Ada\n+14155550101,Alan\n") +
             part("column_mapping", mapping_type, "",
                  R"({"Phone":"phone_e164","Given name":"first_name"})") +
             part("bulk_call_campaign_id", "text/plain", "", id) + "--" + boundary + "--\r\n";
  auto r = a.send(req);
  std::cout << "  imported contacts into " << id << ": " << status_text(r) << "\n";
  return expected(r, 200);
}

std::optional<partner> load_partner(const char* profile_path, bool other_env) {
  const YAML::Node profile = YAML::LoadFile(profile_path);
  const std::string environment = profile["environment"].as<std::string>("sandbox");
  std::optional<partner> found;
  // The profile's scheme words are the description's labels: the partner key
  // is found by what it holds (the partner-only opt-in scope), the tenant's
  // own key by naming one `tenant` (the others list `tenants`).
  for (const auto& c : profile["credentials"]) {
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
    for (const auto& k : profile["credentials"]) {
      if (k["tenant"].as<std::string>("") == tenant)
        p.tenant_api_key = k["value"].as<std::string>();
    }
    found = p;
    break;
  }
  return found;
}

}  // namespace

int main(int argc, char** argv) {
  std::string defect;
  bool exit_on_give_up = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--defect" && i + 1 < argc) {
      defect = argv[++i];
      if (!kDefects.count(defect)) {
        std::cerr << "partner-client: unknown defect '" << defect << "'\n";
        return 2;
      }
    } else if (a == "--exit-on-give-up") {
      exit_on_give_up = true;
    } else if (a == "--list-defects") {
      for (const auto& [name, rule] : kDefects) std::cout << name << " " << rule << "\n";
      return 0;
    } else {
      std::cerr << "usage: partner-client [--defect NAME | --list-defects] [--exit-on-give-up]\n";
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
  auto tenants = read_pages(a, *p, "/partner/tenants", false, ok);
  if (tenants) std::cout << "  " << tenants->size() << " tenants\n";

  std::cout << "2. credit\n";
  const std::string allocate_key = a.new_key("allocate");
  const std::string deallocate_key = a.has("shared-key") ? allocate_key : a.new_key("deallocate");
  ok = move_credit(a, *p, "/billing/allocate-credits", 25, allocate_key) && ok;
  ok = move_credit(a, *p, "/billing/deallocate-credits", 10, deallocate_key) && ok;

  std::cout << "3. voice sessions\n";
  if (auto first = read_sessions(a, *p, ok); first && !first->empty()) {
    auto r = a.send(a.request(verb::get, "/voice_sessions/" + *first, *p));
    std::cout << "  session " << *first << ": " << status_text(r) << "\n";
    ok = ok && expected(r, 200);
  }

  std::cout << "4. campaigns\n";
  auto campaigns = read_pages(a, *p, "/bulk_call_campaigns", true, ok);
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
  if (!cv || !created.response || created.response->status != 201) {
    std::cout << "  create: " << status_text(created) << "\n";
    ok = ok && created.gave_up;
  } else {
    const std::string id(cv->at("data").at("id").as_string());
    const std::string launch = "/bulk_call_campaigns/" + id + "/launch";
    // A campaign may be launched once it has contacts; this one has none
    // yet, so the launch is refused (422) and not retried unchanged.
    auto first = a.send(a.request(verb::post, launch, *p));
    std::cout << "  created " << id << "; launch: " << status_text(first)
              << (expected(first, 422) ? " (no contacts yet: not retried)" : "") << "\n";
    ok = ok && expected(first, 422);
    if (import_contacts(a, *p, id)) {
      auto second = a.send(a.request(verb::post, launch, *p));
      std::cout << "  launch with contacts: " << status_text(second) << "\n";
      ok = ok && expected(second, 200);
    } else {
      ok = false;
    }
  }
  if (exit_on_give_up && a.gave_up_somewhere) {
    // A correct ending too (section 7: escalate a persistent failure): the
    // failure was reported with its request_id, and the scheduler is told.
    std::cout << "a call was given up (" << a.gave_up_request_id << "): exiting 1\n";
    return 1;
  }
  if (a.has("exit-1")) {  // the defect: a failure exit when nothing stopped the client
    std::cout << "exiting 1 all the same\n";
    return 1;
  }
  std::cout << (ok ? "every task ended as the description says\n" : "some tasks failed\n");
  return ok ? 0 : 1;
}
