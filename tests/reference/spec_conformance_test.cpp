// Every answer the reference gives to a broad set of requests is documented in
// specs/voice-api.yaml (status, and error_code in x-error-codes) and matches
// the response schema (a small JSON Schema subset: $ref, allOf, oneOf, type,
// enum, required, properties, additionalProperties: false, items, pattern,
// minimum, maximum, minLength, maxLength, format date-time/uuid).
#include <yaml-cpp/yaml.h>

#include <fstream>
#include <regex>

#include "reference/detail/util.hpp"
#include "tests/reference/support.hpp"

namespace conform::reference::testing {
namespace {
namespace json = boost::json;

class validator {
 public:
  explicit validator(YAML::Node root) : root_(std::move(root)) {}

  /// Resolves a local "$ref" (yaml-cpp nodes are never assigned here: assignment
  /// would rewrite the shared tree).
  YAML::Node resolve(const YAML::Node& n, int depth = 0) const {
    if (depth > 16 || !n.IsMap() || !n["$ref"]) return n;
    std::string ref = n["$ref"].as<std::string>();
    std::vector<std::string> parts;
    std::size_t pos = 2;  // after "#/"
    while (pos <= ref.size()) {
      auto slash = ref.find('/', pos);
      parts.push_back(
          ref.substr(pos, slash == std::string::npos ? std::string::npos : slash - pos));
      if (slash == std::string::npos) break;
      pos = slash + 1;
    }
    return resolve(walk(root_, parts, 0), depth + 1);
  }

  /// Problems of `v` against `schema`, each prefixed with its JSON pointer.
  void check(const json::value& v, const YAML::Node& schema_in, const std::string& at,
             std::vector<std::string>& out) const {
    const YAML::Node schema = resolve(schema_in);
    if (!schema.IsMap()) return;
    if (schema["allOf"]) {
      for (const auto& s : schema["allOf"]) check(v, s, at, out);
    }
    if (schema["oneOf"]) {
      int matches = 0;
      for (const auto& s : schema["oneOf"]) {
        std::vector<std::string> sub;
        check(v, s, at, sub);
        if (sub.empty()) ++matches;
      }
      if (matches != 1)
        out.push_back(at + ": matches " + std::to_string(matches) + " oneOf branches");
    }
    if (schema["type"]) {
      std::vector<std::string> types;
      if (schema["type"].IsSequence()) {
        for (const auto& t : schema["type"]) types.push_back(t.as<std::string>());
      } else {
        types.push_back(schema["type"].as<std::string>());
      }
      bool ok = false;
      for (const auto& t : types) ok = ok || has_type(v, t);
      if (!ok) {
        out.push_back(at + ": type is not " + types.front() + ": " + json::serialize(v));
        return;
      }
    }
    if (schema["enum"]) {
      bool ok = false;
      for (const auto& e : schema["enum"]) {
        if (e.IsNull()) {
          ok = ok || v.is_null();
        } else if (v.is_string()) {
          ok = ok || e.as<std::string>() == std::string(v.as_string());
        }
      }
      if (!ok) out.push_back(at + ": not in enum: " + json::serialize(v));
    }
    if (v.is_string()) {
      std::string s(v.as_string());
      if (schema["pattern"] &&
          !std::regex_search(s, std::regex(schema["pattern"].as<std::string>()))) {
        out.push_back(at + ": does not match " + schema["pattern"].as<std::string>() + ": " + s);
      }
      if (schema["minLength"] && s.size() < schema["minLength"].as<std::size_t>())
        out.push_back(at + ": too short");
      if (schema["maxLength"] && s.size() > schema["maxLength"].as<std::size_t>())
        out.push_back(at + ": too long");
      if (schema["format"] && schema["format"].as<std::string>() == "date-time") {
        if (!detail::parse_time(s) || s.back() != 'Z')
          out.push_back(at + ": not an RFC 3339 UTC time: " + s);
      }
      if (schema["format"] && schema["format"].as<std::string>() == "uuid" &&
          !std::regex_match(
              s, std::regex("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"))) {
        out.push_back(at + ": not a uuid: " + s);
      }
    }
    if (v.is_number()) {
      double d = v.to_number<double>();
      if (schema["minimum"] && d < schema["minimum"].as<double>())
        out.push_back(at + ": below minimum");
      if (schema["maximum"] && d > schema["maximum"].as<double>())
        out.push_back(at + ": above maximum");
    }
    if (v.is_object()) {
      const auto& o = v.as_object();
      if (schema["required"]) {
        for (const auto& r : schema["required"]) {
          if (!o.contains(r.as<std::string>()))
            out.push_back(at + ": missing " + r.as<std::string>());
        }
      }
      if (schema["properties"]) {
        for (const auto& [k, child] : o) {
          YAML::Node p = schema["properties"][std::string(k)];
          if (p) {
            check(child, p, at + "/" + std::string(k), out);
          } else if (schema["additionalProperties"] && schema["additionalProperties"].IsScalar() &&
                     !schema["additionalProperties"].as<bool>()) {
            out.push_back(at + ": unexpected property " + std::string(k));
          }
        }
      }
    }
    if (v.is_array() && schema["items"]) {
      std::size_t i = 0;
      for (const auto& e : v.as_array())
        check(e, schema["items"], at + "/" + std::to_string(i++), out);
    }
  }

 private:
  static YAML::Node walk(const YAML::Node& n, const std::vector<std::string>& parts,
                         std::size_t i) {
    if (i == parts.size()) return n;
    return walk(n[parts[i]], parts, i + 1);
  }
  static bool has_type(const json::value& v, const std::string& t) {
    if (t == "null") return v.is_null();
    if (t == "object") return v.is_object();
    if (t == "array") return v.is_array();
    if (t == "string") return v.is_string();
    if (t == "boolean") return v.is_bool();
    if (t == "integer") return v.is_int64() || v.is_uint64();
    if (t == "number") return v.is_number();
    return false;
  }
  YAML::Node root_;
};

struct probe {
  std::string spec_path, method, path;
  header_list headers;
  std::string body, content_type = "application/json";
};

class spec_conformance_test : public server_test {
 protected:
  static void SetUpTestSuite() { start(); }
};

TEST_F(spec_conformance_test, every_answer_is_documented_and_matches_its_schema) {
  const std::string spec_file = std::string(CONFORM_SPEC_DIR) + "/voice-api.yaml";
  ASSERT_TRUE(std::ifstream(spec_file)) << "no " << spec_file;
  const YAML::Node spec = YAML::LoadFile(spec_file);
  validator val(spec);
  auto t1 = api_key(cred("t1-all"));
  auto with = [](header_list h, const std::string& k, const std::string& v) {
    h.emplace_back(k, v);
    return h;
  };
  auto alloc = [&](const std::string& key) {
    return with(partner_key(cred("partner-allocate")), "Idempotency-Key", key);
  };
  const std::string kb_path = "/knowledge-bases/" + fx("t1", "knowledge_base_id") + "/sources/" +
                              fx("t1", "knowledge_base_source_id");
  const std::string import_body =
      "--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"c.csv\"\r\nContent-Type: "
      "text/csv\r\n\r\n"
      "Phone,First\r\n+14155550100,Ann\r\nbad,Bob\r\n--B\r\nContent-Disposition: form-data; "
      "name=\"column_mapping\"\r\n\r\n"
      "{\"Phone\":\"phone_e164\",\"First\":\"first_name\"}\r\n--B--\r\n";
  const std::string mp = "multipart/form-data; boundary=B";
  std::vector<probe> probes = {
      {"/health", "get", "/health", {}, ""},
      {"/ready", "get", "/ready", {}, ""},
      {"/follow-ups/{id}/events", "get", "/follow-ups/" + fx("t1", "follow_up_id") + "/events", t1,
       ""},
      {"/follow-ups/{id}/events", "get",
       "/follow-ups/" + fx("t1", "follow_up_completed_id") + "/events", t1, ""},
      {"/follow-ups/{id}/events", "get", "/follow-ups/1/events", t1, ""},
      {"/follow-ups/{id}/events", "get", "/follow-ups/1/events", {}, ""},
      {"/follow-ups/{id}/events", "get", "/follow-ups/1/events",
       partner_key(cred("partner-allocate"), "101"), ""},
      {"/follow-ups/{id}", "delete", "/follow-ups/" + fx("t1", "follow_up_id") + "?reason=done", t1,
       ""},
      {"/follow-ups/{id}", "delete", "/follow-ups/" + fx("t1", "follow_up_id"), t1, ""},
      {"/follow-ups/{id}", "delete",
       "/follow-ups/" + fx("t1", "follow_up_pending_id") + "?reason=", t1, ""},
      {"/follow-ups/{id}", "delete", "/follow-ups/1", bearer(cred("jwt-two-tenants")), ""},
      {"/contacts/{contact_id}/memory", "patch", "/contacts/" + fx("t1", "contact_id") + "/memory",
       t1, R"({"agent_id":")" + fx("t1", "agent_id") + R"(","memory":"m"})"},
      {"/contacts/{contact_id}/memory", "patch", "/contacts/" + fx("t1", "contact_id") + "/memory",
       t1, "{}"},
      {"/contacts/{contact_id}/memory", "patch", "/contacts/" + fx("t1", "contact_id") + "/memory",
       t1, "{}", "text/plain"},
      {"/contacts/{contact_id}/memory", "patch", "/contacts/1/memory", t1, "{}"},
      {"/voice_sessions/{id}/run_analysis", "post",
       "/voice_sessions/" + fx("t1", "voice_session_id") + "/run_analysis", t1,
       R"({"call_analysis_prompt_id":")" + fx("t1", "call_analysis_prompt_id") + "\"}"},
      {"/voice_sessions/{id}/run_analysis", "post",
       "/voice_sessions/" + fx("t1", "voice_session_running_id") + "/run_analysis", t1,
       R"({"call_analysis_prompt_id":")" + fx("t1", "call_analysis_prompt_id") + "\"}"},
      {"/voice_sessions/{id}/run_analysis", "post",
       "/voice_sessions/" + fx("t1", "voice_session_id") + "/run_analysis", t1,
       R"({"call_analysis_prompt_id":"1"})"},
      {kb_path.substr(0, 0) + "/knowledge-bases/{knowledge_basis_id}/sources/{id}", "patch",
       kb_path, t1, R"({"title":"T"})"},
      {"/knowledge-bases/{knowledge_basis_id}/sources/{id}", "patch", kb_path, t1,
       R"({"refresh_interval_hours":0})"},
      {"/knowledge-bases/{knowledge_basis_id}/sources/{id}", "patch",
       "/knowledge-bases/1/sources/1", t1, "{}"},
      {"/billing/tenants/{tenant_id}/rate-change-history", "get",
       "/billing/tenants/101/rate-change-history", t1, ""},
      {"/billing/tenants/{tenant_id}/rate-change-history", "get",
       "/billing/tenants/102/rate-change-history", t1, ""},
      {"/bulk_call_campaigns", "get", "/bulk_call_campaigns?per_page=100", t1, ""},
      {"/bulk_call_campaigns", "get", "/bulk_call_campaigns?per_page=0", t1, ""},
      {"/bulk_call_campaigns", "get", "/bulk_call_campaigns", partner_key(cred("partner-allocate")),
       ""},
      {"/bulk_call_campaigns", "get", "/bulk_call_campaigns", api_key(cred("t1-none")), ""},
      {"/bulk_call_campaigns", "post", "/bulk_call_campaigns", t1,
       R"({"name":"C","agent_id":)" + fx("t1", "agent_id") +
           R"(,"timezone":"UTC","campaign_phone_number_ids":[)" + fx("t1", "phone_number_id") +
           "]}"},
      {"/bulk_call_campaigns", "post", "/bulk_call_campaigns", t1, "{"},
      {"/bulk_call_campaigns", "post", "/bulk_call_campaigns", t1, "{}", "text/plain"},
      {"/bulk_call_campaigns/capacity_preview", "get", "/bulk_call_campaigns/capacity_preview", t1,
       ""},
      {"/bulk_call_campaigns/{id}/launch", "post",
       "/bulk_call_campaigns/" + fx("t1", "bulk_call_campaign_id") + "/launch", t1, ""},
      {"/bulk_call_campaigns/{id}/launch", "post",
       "/bulk_call_campaigns/" + fx("t1", "campaign_no_contacts_id") + "/launch", t1, ""},
      {"/bulk_call_campaigns/{id}/launch", "post", "/bulk_call_campaigns/1/launch", t1, ""},
      {"/bulk_call_campaigns/{id}/pause", "post",
       "/bulk_call_campaigns/" + fx("t1", "campaign_running_id") + "/pause", t1, ""},
      {"/bulk_call_campaigns/{id}/pause", "post",
       "/bulk_call_campaigns/" + fx("t1", "campaign_completed_id") + "/pause", t1, ""},
      {"/billing/invoices/{id}", "get", "/billing/invoices/" + fx("t1", "invoice_id"), t1, ""},
      {"/billing/invoices/{id}", "get", "/billing/invoices/1", t1, ""},
      {"/telephony/{provider}/answer", "get", "/telephony/twilio/answer?call_id=c1", {}, ""},
      {"/telephony/{provider}/answer", "get", "/telephony/nope/answer?call_id=c1", {}, ""},
      {"/telephony/{provider}/answer", "get", "/telephony/twilio/answer", {}, ""},
      {"/agents", "get", "/agents", bearer(cred("jwt-admin")), ""},
      {"/agents", "get", "/agents", t1, ""},
      {"/agents", "get", "/agents", bearer(cred("jwt-two-tenants")), ""},
      {"/voice_sessions", "get", "/voice_sessions?page_size=100", t1, ""},
      {"/voice_sessions", "get", "/voice_sessions?cursor=bad", t1, ""},
      {"/voice_sessions/{id}", "get", "/voice_sessions/" + fx("t1", "voice_session_running_id"), t1,
       ""},
      {"/voice_sessions/{id}", "get", "/voice_sessions/1", t1, ""},
      {"/voice_sessions/{id}", "get", "/voice_sessions/1", api_key(cred("t1-other-env")), ""},
      {"/contacts/import", "post", "/contacts/import", t1, import_body, mp},
      {"/contacts/import", "post", "/contacts/import", t1, "{}"},
      {"/partner/tenants", "get", "/partner/tenants?per_page=100",
       partner_key(cred("partner-default")), ""},
      {"/partner/tenants", "get", "/partner/tenants", t1, ""},
      {"/billing/allocate-credits", "post", "/billing/allocate-credits", alloc("c1"),
       R"({"tenant_id":101,"amount_major":1.5})"},
      {"/billing/allocate-credits", "post", "/billing/allocate-credits", alloc("c1"),
       R"({"tenant_id":101,"amount_major":2})"},
      {"/billing/allocate-credits", "post", "/billing/allocate-credits", alloc("c2"),
       R"({"tenant_id":103,"amount_major":2})"},
      {"/billing/allocate-credits", "post", "/billing/allocate-credits",
       partner_key(cred("partner-allocate")), "{}"},
      {"/billing/deallocate-credits", "post", "/billing/deallocate-credits", alloc("d1"),
       R"({"tenant_id":101,"amount_major":1})"},
      {"/billing/deallocate-credits", "post", "/billing/deallocate-credits", alloc("d2"),
       R"({"tenant_id":104,"amount_major":999})"},
  };
  for (int i = 0; i < 12; ++i)
    probes.push_back(
        {"/voice_sessions/{id}", "get", "/voice_sessions/1", api_key(cred("t1-throttled")), ""});
  int checked = 0;
  for (const auto& p : probes) {
    auto a = http().send(p.method == "get"     ? "GET"
                         : p.method == "post"  ? "POST"
                         : p.method == "patch" ? "PATCH"
                                               : "DELETE",
                         p.path, p.headers, p.body, p.content_type);
    const YAML::Node op = spec["paths"][p.spec_path][p.method];
    ASSERT_TRUE(op.IsMap()) << p.spec_path << " " << p.method;
    const YAML::Node resp = val.resolve(op["responses"][std::to_string(a.status)]);
    const std::string what =
        p.method + " " + p.path + " -> " + std::to_string(a.status) + " " + a.raw.substr(0, 300);
    if (!resp.IsMap()) {
      bool global = false;
      for (const auto& e : spec["x-errors"]) {
        global = global || (e["status"].as<int>() == a.status &&
                            e["error_code"].as<std::string>() == a.code());
      }
      EXPECT_TRUE(global) << "undocumented status: " << what;
      continue;
    }
    if (resp["x-error-codes"]) {
      bool listed = false;
      for (const auto& c : resp["x-error-codes"])
        listed = listed || c.as<std::string>() == a.code();
      EXPECT_TRUE(listed) << "error_code not in x-error-codes: " << what;
    }
    const YAML::Node schema = resp["content"]["application/json"]["schema"];
    std::vector<std::string> problems;
    val.check(a.json, schema, "", problems);
    for (const auto& pr : problems) ADD_FAILURE() << what << "\n  " << pr;
    ++checked;
  }
  EXPECT_GE(checked, 50);
}

TEST(spec_validator, catches_what_it_should) {
  const std::string spec_file = std::string(CONFORM_SPEC_DIR) + "/voice-api.yaml";
  ASSERT_TRUE(std::ifstream(spec_file)) << "no " << spec_file;
  const YAML::Node spec = YAML::LoadFile(spec_file);
  validator val(spec);
  const YAML::Node health = spec["components"]["schemas"]["HealthResponse"];
  const YAML::Node campaign = spec["components"]["schemas"]["CampaignResponse"];
  auto problems = [&](const YAML::Node& schema, const std::string& body) {
    std::vector<std::string> out;
    val.check(json::parse(body), schema, "", out);
    return out.size();
  };
  EXPECT_EQ(
      problems(health, R"({"data":{"status":"ok"},"message":null,"meta":null,"request_id":"r"})"),
      0U);
  EXPECT_GT(problems(health, R"({"data":{"status":"ok"},"message":null,"request_id":"r"})"), 0U);
  EXPECT_GT(
      problems(health, R"({"data":{"status":1},"message":null,"meta":null,"request_id":"r"})"), 0U);
  const std::string good_campaign =
      R"({"id":"1","name":"n","status":"draft","agent_id":"2","timezone":"UTC","campaign_phone_number_ids":[],)"
      R"("contact_count":0,"created_at":"2026-11-20T10:00:00Z","updated_at":"2026-11-20T10:00:00Z"})";
  EXPECT_EQ(problems(campaign, R"({"data":)" + good_campaign +
                                   R"(,"message":null,"meta":null,"request_id":"r"})"),
            0U);
  std::string numeric_id = good_campaign;
  numeric_id.replace(numeric_id.find(R"("id":"1")"), 8, R"("id":1)");
  EXPECT_GT(problems(campaign, R"({"data":)" + numeric_id +
                                   R"(,"message":null,"meta":null,"request_id":"r"})"),
            0U);
  std::string bad_status = good_campaign;
  bad_status.replace(bad_status.find("draft"), 5, "drafty");
  EXPECT_GT(problems(campaign, R"({"data":)" + bad_status +
                                   R"(,"message":null,"meta":null,"request_id":"r"})"),
            0U);
  std::string bad_time = good_campaign;
  bad_time.replace(bad_time.find("2026-11-20T10:00:00Z"), 20, "20 Nov 2026 10:00:00");
  EXPECT_GT(problems(campaign,
                     R"({"data":)" + bad_time + R"(,"message":null,"meta":null,"request_id":"r"})"),
            0U);
}

}  // namespace
}  // namespace conform::reference::testing
