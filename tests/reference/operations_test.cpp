// Every operation's success path, with the envelope of D1.1 and D1.5.
#include "tests/reference/support.hpp"

namespace conform::reference::testing {
namespace {
namespace json = boost::json;

class operations_test : public server_test {
 protected:
  static void SetUpTestSuite() { start(); }

  /// Asserts the success envelope: the four keys, request_id = X-Request-Id.
  static void expect_envelope(const answer& a, int status = 200) {
    ASSERT_EQ(a.status, status) << a.raw;
    ASSERT_TRUE(a.json.is_object()) << a.raw;
    const auto& o = a.json.as_object();
    for (const char* key : {"data", "message", "meta", "request_id"}) {
      EXPECT_TRUE(o.contains(key)) << key << " missing in " << a.raw;
    }
    EXPECT_FALSE(a.header("X-Request-Id").empty());
    EXPECT_EQ(json::value_to<std::string>(o.at("request_id")), a.header("X-Request-Id"));
    EXPECT_EQ(a.header("Content-Type"), "application/json");
  }

  static bool is_digit_string(const json::value& v) {
    if (!v.is_string() || v.as_string().empty()) return false;
    for (char c : v.as_string()) {
      if (c < '0' || c > '9') return false;
    }
    return true;
  }
};

TEST_F(operations_test, health_and_ready) {
  auto h = http().send("GET", "/health");
  expect_envelope(h);
  EXPECT_EQ(h.data().at("status"), "ok");
  auto r = http().send("GET", "/ready");
  expect_envelope(r);
  EXPECT_EQ(r.data().at("status"), "ready");
  EXPECT_EQ(r.data().at("checks").at("store"), "ok");
}

TEST_F(operations_test, list_agents_with_a_jwt) {
  auto a = http().send("GET", "/agents", bearer(cred("jwt-admin")));
  expect_envelope(a);
  EXPECT_EQ(a.data().at("items").as_array().size(), 25U);
  const auto& meta = a.json.at("meta");
  EXPECT_EQ(meta.at("page"), 1);
  EXPECT_EQ(meta.at("count"), 32);
  EXPECT_EQ(meta.at("pages"), 2);
  const auto& agent = a.data().at("items").as_array().front().as_object();
  EXPECT_TRUE(is_digit_string(agent.at("id")));
  for (const char* k : {"name", "status", "language", "created_at"}) EXPECT_TRUE(agent.contains(k));
}

TEST_F(operations_test, list_and_get_voice_sessions) {
  auto a = http().send("GET", "/voice_sessions", api_key(cred("t1-all")));
  expect_envelope(a);
  EXPECT_EQ(a.data().at("items").as_array().size(), 25U);
  EXPECT_TRUE(a.data().at("next_cursor").is_string());
  auto one = http().send("GET", "/voice_sessions/" + fx("t1", "voice_session_id"),
                         api_key(cred("t1-all")));
  expect_envelope(one);
  EXPECT_EQ(str(one.data().at("id")), fx("t1", "voice_session_id"));
  EXPECT_EQ(one.data().at("status"), "completed");
  for (const char* k :
       {"uuid", "direction", "agent_id", "contact_id", "bulk_call_campaign_id", "from_number",
        "to_number", "duration_seconds", "started_at", "ended_at", "created_at", "updated_at"}) {
    EXPECT_TRUE(one.data().contains(k)) << k;
  }
}

TEST_F(operations_test, run_analysis_on_a_completed_session) {
  auto a =
      http().send("POST", "/voice_sessions/" + fx("t1", "voice_session_id") + "/run_analysis",
                  api_key(cred("t1-all")),
                  R"({"call_analysis_prompt_id":")" + fx("t1", "call_analysis_prompt_id") + "\"}");
  expect_envelope(a);
  EXPECT_EQ(a.data().at("status"), "queued");
  EXPECT_TRUE(is_digit_string(a.data().at("analysis_run_id")));
  EXPECT_EQ(str(a.data().at("voice_session_id")), fx("t1", "voice_session_id"));
}

/// A server of its own: these creations must not shift other tests' counts.
class time_zone_test : public server_test {
 protected:
  static void SetUpTestSuite() { start(); }
};

TEST_F(time_zone_test, campaign_time_zones_are_the_descriptions_iana_list) {
  // Every name `format: timezone` admits (links and legacy names included)
  // is taken; a made-up one is not.
  for (const char* tz : {"MET", "Asia/Tashkent", "America/Argentina/Buenos_Aires", "Etc/GMT+5"}) {
    auto a = http().send(
        "POST", "/bulk_call_campaigns", api_key(cred("t1-all")),
        R"({"name":"tz","agent_id":)" + fx("t1", "agent_id") + R"(,"timezone":")" + tz + R"("})");
    EXPECT_EQ(a.status, 201) << tz << " " << a.raw;
  }
  auto bad = http().send(
      "POST", "/bulk_call_campaigns", api_key(cred("t1-all")),
      R"({"name":"tz","agent_id":)" + fx("t1", "agent_id") + R"(,"timezone":"Mars/Olympus_Mons"})");
  EXPECT_EQ(bad.status, 422) << bad.raw;
  EXPECT_EQ(bad.code(), "VALIDATION_ERROR");
}

TEST_F(operations_test, campaigns_list_create_launch_pause_capacity) {
  auto list = http().send("GET", "/bulk_call_campaigns", api_key(cred("t1-all")));
  expect_envelope(list);
  EXPECT_EQ(list.json.at("meta").at("count"), 68);
  auto created = http().send("POST", "/bulk_call_campaigns", api_key(cred("t1-all")),
                             R"({"name":"Spring","agent_id":)" + fx("t1", "agent_id") +
                                 R"(,"timezone":"Europe/Berlin","campaign_phone_number_ids":[)" +
                                 fx("t1", "phone_number_id") + "]}");
  expect_envelope(created, 201);
  EXPECT_TRUE(is_digit_string(created.data().at("id")));
  EXPECT_EQ(created.data().at("status"), "draft");
  EXPECT_EQ(created.data().at("contact_count"), 0);
  auto launched =
      http().send("POST", "/bulk_call_campaigns/" + fx("t1", "bulk_call_campaign_id") + "/launch",
                  api_key(cred("t1-all")));
  expect_envelope(launched);
  EXPECT_EQ(launched.data().at("status"), "running");
  auto paused =
      http().send("POST", "/bulk_call_campaigns/" + fx("t1", "campaign_running_id") + "/pause",
                  api_key(cred("t1-all")));
  expect_envelope(paused);
  EXPECT_EQ(paused.data().at("status"), "paused");
  auto cap = http().send("GET", "/bulk_call_campaigns/capacity_preview", api_key(cred("t1-all")));
  expect_envelope(cap);
  for (const char* k :
       {"tenant_id", "phone_number_count", "max_concurrent_calls", "active_calls",
        "available_concurrent_calls", "running_campaign_count", "estimated_calls_per_hour"}) {
    EXPECT_TRUE(cap.data().contains(k)) << k;
  }
  EXPECT_EQ(cap.data().at("tenant_id"), "101");
}

TEST_F(operations_test, import_contacts) {
  httplib::MultipartFormDataItems items = {
      {"file", "phone,first\n+14155550100,Ann\n+14155550101,Bob\n", "contacts.csv", "text/csv"},
      {"column_mapping", R"({"phone":"phone_e164","first":"first_name"})", "", "application/json"}};
  auto a = http().multipart("/contacts/import", api_key(cred("t1-all")), items);
  expect_envelope(a);
  EXPECT_EQ(a.data().at("status"), "completed");
  EXPECT_EQ(a.data().at("imported_count"), 2);
  EXPECT_EQ(a.data().at("rejected_count"), 0);
}

TEST_F(operations_test, partner_tenants_and_credit_moves) {
  auto list = http().send("GET", "/partner/tenants", partner_key(cred("partner-default")));
  expect_envelope(list);
  EXPECT_EQ(list.json.at("meta").at("count"), 30);
  EXPECT_EQ(list.json.at("meta").at("pages"), 2);
  auto h = partner_key(cred("partner-allocate"));
  h.emplace_back("Idempotency-Key", "op-alloc-1");
  auto alloc = http().send("POST", "/billing/allocate-credits", h,
                           R"({"tenant_id":102,"amount_major":12.5})");
  expect_envelope(alloc);
  EXPECT_EQ(alloc.data().at("amount_major"), "12.50");
  EXPECT_EQ(alloc.data().at("tenant_balance_major"), "112.50");
  EXPECT_EQ(alloc.data().at("direction"), "allocate");
  h.back().second = "op-dealloc-1";
  auto dealloc = http().send("POST", "/billing/deallocate-credits", h,
                             R"({"tenant_id":102,"amount_major":2})");
  expect_envelope(dealloc);
  EXPECT_EQ(dealloc.data().at("tenant_balance_major"), "110.50");
  EXPECT_EQ(dealloc.data().at("direction"), "deallocate");
}

TEST_F(operations_test, billing_reads) {
  auto rates =
      http().send("GET", "/billing/tenants/101/rate-change-history", api_key(cred("t1-all")));
  expect_envelope(rates);
  EXPECT_EQ(rates.data().at("tenant_id"), "101");
  EXPECT_EQ(rates.data().at("items").as_array().size(), 4U);
  auto inv =
      http().send("GET", "/billing/invoices/" + fx("t1", "invoice_id"), api_key(cred("t1-all")));
  expect_envelope(inv);
  EXPECT_EQ(str(inv.data().at("id")), fx("t1", "invoice_id"));
  EXPECT_FALSE(inv.data().at("line_items").as_array().empty());
}

TEST_F(operations_test, follow_up_events_and_cancel) {
  const std::string id = fx("t1", "follow_up_id");
  auto ev = http().send("GET", "/follow-ups/" + id + "/events", api_key(cred("t1-all")));
  expect_envelope(ev);
  EXPECT_EQ(ev.data().at("status"), "scheduled");
  EXPECT_TRUE(ev.data().at("executed_at").is_null());
  auto del = http().send("DELETE", "/follow-ups/" + id + "?reason=customer_asked",
                         api_key(cred("t1-all")));
  expect_envelope(del);
  EXPECT_EQ(del.data().at("status"), "cancelled");
  EXPECT_EQ(del.data().at("cancellation_reason"), "customer_asked");
}

TEST_F(operations_test, contact_memory_upsert) {
  auto a = http().send(
      "PATCH", "/contacts/" + fx("t1", "contact_id") + "/memory", api_key(cred("t1-all")),
      R"({"agent_id":")" + fx("t1", "agent_id") + R"(","memory":"log","summary":"sum"})");
  expect_envelope(a);
  EXPECT_EQ(a.data().at("interaction_log"), "log");
  EXPECT_EQ(a.data().at("summary"), "sum");
  EXPECT_EQ(str(a.data().at("contact_id")), fx("t1", "contact_id"));
}

TEST_F(operations_test, knowledge_base_source_update) {
  const std::string path = "/knowledge-bases/" + fx("t1", "knowledge_base_id") + "/sources/" +
                           fx("t1", "knowledge_base_source_id");
  auto a = http().send(
      "PATCH", path, api_key(cred("t1-all")),
      R"({"knowledge_base_source":{"title":"New","source_uri":"https://example.com/new"}})");
  expect_envelope(a);
  EXPECT_EQ(a.data().at("title"), "New");
  EXPECT_EQ(a.data().at("status"), "pending");
  EXPECT_EQ(a.data().at("ingest_stage"), "queued");
  auto top =
      http().send("PATCH", path, api_key(cred("t1-all")), R"({"refresh_interval_hours":48})");
  expect_envelope(top);
}

TEST_F(operations_test, telephony_answer_is_a_json_string) {
  auto a = http().send("GET", "/telephony/twilio/answer?call_id=CA123");
  ASSERT_EQ(a.status, 200) << a.raw;
  ASSERT_TRUE(a.json.is_string());
  EXPECT_NE(std::string(a.json.as_string()).find("CA123"), std::string::npos);
  EXPECT_FALSE(a.header("X-Request-Id").empty());
}

}  // namespace
}  // namespace conform::reference::testing
