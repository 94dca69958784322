// State machines (D5.1-D5.3), imports (D5.4), run analysis (D5.5),
// telephony (D5.6), contact memory (D5.7) and campaign create (C5).
#include <atomic>
#include <thread>

#include "tests/reference/support.hpp"

namespace conform::reference::testing {
namespace {
namespace json = boost::json;

class states_test : public server_test {
 protected:
  static void SetUpTestSuite() { start(); }
  static answer campaign_move(const std::string& id, const std::string& move,
                              const std::string& tenant = "t1") {
    return http().send("POST", "/bulk_call_campaigns/" + id + "/" + move,
                       api_key(cred(tenant + "-all")));
  }
};

TEST_F(states_test, campaign_allowed_moves) {
  const std::string id = fx("t1", "campaign_draft_id");
  auto launched = campaign_move(id, "launch");
  ASSERT_EQ(launched.status, 200) << launched.raw;
  EXPECT_EQ(str(launched.data().at("status")), "running");
  auto paused = campaign_move(id, "pause");
  EXPECT_EQ(str(paused.data().at("status")), "paused");
  auto relaunched = campaign_move(id, "launch");
  EXPECT_EQ(str(relaunched.data().at("status")), "running");
}

TEST_F(states_test, campaign_refused_moves) {
  struct refused {
    std::string fixture, move, code;
  };
  for (const auto& r : std::vector<refused>{
           {"campaign_no_contacts_id", "pause", "INVALID_STATE_TRANSITION"},
           {"campaign_paused_id", "pause", "INVALID_STATE_TRANSITION"},
           {"campaign_completed_id", "pause", "INVALID_STATE_TRANSITION"},
           {"campaign_completed_id", "launch", "INVALID_STATE_TRANSITION"},
           {"campaign_cancelled_id", "pause", "INVALID_STATE_TRANSITION"},
           {"campaign_cancelled_id", "launch", "INVALID_STATE_TRANSITION"},
           {"campaign_no_contacts_id", "launch", "CAMPAIGN_HAS_NO_CONTACTS"},
           {"campaign_no_phone_numbers_id", "launch", "CAMPAIGN_HAS_NO_PHONE_NUMBERS"},
       }) {
    auto a = campaign_move(fx("t1", r.fixture), r.move);
    EXPECT_EQ(a.status, 422) << r.fixture << " " << r.move;
    EXPECT_EQ(a.code(), r.code) << r.fixture << " " << r.move;
  }
  // running cannot be launched again
  const std::string running = fx("t2", "campaign_running_id");
  auto again = campaign_move(running, "launch", "t2");
  EXPECT_EQ(again.code(), "INVALID_STATE_TRANSITION");
  // a body on launch/pause is ignored (C11)
  auto with_body = http().send("POST", "/bulk_call_campaigns/" + running + "/pause",
                               api_key(cred("t2-all")), "this is not json", "text/plain");
  EXPECT_EQ(with_body.status, 200) << with_body.raw;
}

TEST_F(states_test, created_campaign_without_contacts_cannot_launch) {
  auto created = http().send(
      "POST", "/bulk_call_campaigns", api_key(cred("t1-all")),
      R"({"name":"Empty","agent_id":)" + fx("t1", "agent_id") + R"(,"timezone":"Asia/Kolkata"})");
  ASSERT_EQ(created.status, 201);
  auto a = campaign_move(str(created.data().at("id")), "launch");
  EXPECT_EQ(a.code(), "CAMPAIGN_HAS_NO_CONTACTS");
}

TEST_F(states_test, campaign_create_validation) {
  const std::string agent = fx("t1", "agent_id");
  for (const std::string& body :
       {std::string(R"({"agent_id":)") + agent + R"(,"timezone":"UTC"})",
        R"({"name":"","agent_id":)" + agent + R"(,"timezone":"UTC"})",
        R"({"name":")" + std::string(201, 'n') + R"(","agent_id":)" + agent +
            R"(,"timezone":"UTC"})",
        R"({"name":"x","agent_id":")" + agent + R"(","timezone":"UTC"})",
        R"({"name":"x","agent_id":)" + agent + R"(,"timezone":"Mars/Olympus"})",
        R"({"name":"x","agent_id":)" + agent + R"(})",
        R"({"name":"x","agent_id":)" + agent +
            R"(,"timezone":"UTC","campaign_phone_number_ids":"21"})",
        R"({"name":"x","agent_id":)" + agent +
            R"(,"timezone":"UTC","campaign_phone_number_ids":[1,1]})",
        R"({"name":"x","agent_id":)" + fx("t2", "agent_id") + R"(,"timezone":"UTC"})",
        R"({"name":"x","agent_id":)" + agent +
            R"(,"timezone":"UTC","campaign_phone_number_ids":[)" + fx("t2", "phone_number_id") +
            "]}"}) {
    auto a = http().send("POST", "/bulk_call_campaigns", api_key(cred("t1-all")), body);
    EXPECT_EQ(a.status, 422) << body;
    EXPECT_EQ(a.code(), "VALIDATION_ERROR") << body;
    EXPECT_TRUE(a.json.at("errors").is_object()) << body;
  }
  auto missing_all = http().send("POST", "/bulk_call_campaigns", api_key(cred("t1-all")), "{}");
  const auto& errors = missing_all.json.at("errors").as_object();
  EXPECT_TRUE(errors.contains("name") && errors.contains("agent_id") &&
              errors.contains("timezone"));
}

TEST_F(states_test, follow_up_cancel_by_status) {
  auto key = api_key(cred("t2-all"));
  for (const char* status : {"scheduled", "pending"}) {
    auto a = http().send(
        "DELETE", "/follow-ups/" + fx("t2", std::string("follow_up_") + status + "_id"), key);
    EXPECT_EQ(a.status, 200) << status;
    EXPECT_EQ(str(a.data().at("status")), "cancelled");
    EXPECT_EQ(str(a.data().at("cancellation_reason")), "cancelled_by_user");
  }
  for (const char* status : {"in_progress", "completed", "cancelled", "expired", "failed"}) {
    auto a = http().send(
        "DELETE", "/follow-ups/" + fx("t2", std::string("follow_up_") + status + "_id"), key);
    EXPECT_EQ(a.status, 422) << status;
    EXPECT_EQ(a.code(), "INVALID_STATE_TRANSITION") << status;
  }
  // cancelling twice: the second is refused
  auto again = http().send("DELETE", "/follow-ups/" + fx("t2", "follow_up_scheduled_id"), key);
  EXPECT_EQ(again.code(), "INVALID_STATE_TRANSITION");
  auto empty_reason =
      http().send("DELETE", "/follow-ups/" + fx("t2", "follow_up_pending_id") + "?reason=", key);
  EXPECT_EQ(empty_reason.code(), "VALIDATION_ERROR");
  auto unknown = http().send("DELETE", "/follow-ups/abc", key);
  EXPECT_EQ(unknown.code(), "FOLLOW_UP_NOT_FOUND");
}

TEST_F(states_test, knowledge_base_source_rules) {
  auto key = api_key(cred("t1-all"));
  const std::string kb = fx("t1", "knowledge_base_id");
  const std::string path =
      "/knowledge-bases/" + kb + "/sources/" + fx("t1", "knowledge_base_source_id");
  auto title_only = http().send("PATCH", path, key, R"({"title":"Only the title"})");
  ASSERT_EQ(title_only.status, 200);
  const std::string status_before = str(title_only.data().at("status"));
  auto text =
      http().send("PATCH", path, key, R"({"source_type":"text","raw_text_input":"new text"})");
  EXPECT_EQ(str(text.data().at("status")), "pending");
  EXPECT_EQ(str(text.data().at("ingest_stage")), "queued");
  for (const std::string& body :
       {std::string(R"({"refresh_interval_hours":0})"),
        std::string(R"({"refresh_interval_hours":721})"), std::string(R"({"source_type":"video"})"),
        std::string(R"({"knowledge_base_id":"1"})"),
        std::string(R"({"knowledge_base_source":{"knowledge_basis_id":"2"}})"),
        std::string(R"({"selected_urls":"x"})"), std::string(R"({"discover_pages":"yes"})"),
        std::string(R"({"knowledge_base_source":[]})"), std::string("{}"),
        std::string(R"({"knowledge_base_source":{}})"), std::string(R"({"colour":"red"})"),
        std::string(R"({"knowledge_base_source":{"title":"x"},"title":"y"})"),
        std::string(R"({"source_uri":"not a uri"})"), std::string(R"({"title":""})")}) {
    auto a = http().send("PATCH", path, key, body);
    EXPECT_EQ(a.status, 422) << body;
    EXPECT_EQ(a.code(), "VALIDATION_ERROR") << body;
  }
  auto same_kb = http().send(
      "PATCH", path, key, R"({"knowledge_base_id":")" + kb + R"(","refresh_interval_hours":720})");
  EXPECT_EQ(same_kb.status, 200);
  auto wrong_kb = http().send("PATCH",
                              "/knowledge-bases/" + fx("t1", "knowledge_base_other_id") +
                                  "/sources/" + fx("t1", "knowledge_base_source_id"),
                              key, "{}");
  EXPECT_EQ(wrong_kb.code(), "KNOWLEDGE_BASE_SOURCE_NOT_FOUND");
  auto no_kb = http().send("PATCH", "/knowledge-bases/1/sources/1", key, "{}");
  EXPECT_EQ(no_kb.code(), "KNOWLEDGE_BASE_NOT_FOUND");
}

TEST_F(states_test, import_good_and_bad_mappings) {
  auto key = api_key(cred("t1-all"));
  const std::string csv =
      "Phone,First,Last,Mail\n+14155550100,Ann,Lee,a@x.io\n12345,Bad,Row,b@x.io\n"
      "\"+14155550102\",\"Quoted, Name\",X,c@x.io\n";
  auto run = [&](const std::string& file, const std::string& mapping,
                 const std::string& campaign = "") {
    httplib::MultipartFormDataItems items = {{"file", file, "c.csv", "text/csv"},
                                             {"column_mapping", mapping, "", ""}};
    if (!campaign.empty()) items.push_back({"bulk_call_campaign_id", campaign, "", ""});
    return http().multipart("/contacts/import", key, items);
  };
  const std::string campaign = fx("t1", "campaign_no_contacts_id");
  auto good =
      run(csv, R"({"Phone":"phone_e164","First":"first_name","Last":"last_name","Mail":"email"})",
          campaign);
  ASSERT_EQ(good.status, 200) << good.raw;
  EXPECT_EQ(good.data().at("imported_count"), 2);
  EXPECT_EQ(good.data().at("rejected_count"), 1);
  EXPECT_EQ(good.data().at("errors").as_array().size(), 1U);
  EXPECT_EQ(str(good.data().at("errors").at(0).at("field")), "phone_e164");
  EXPECT_EQ(str(good.data().at("bulk_call_campaign_id")), campaign);
  // the campaign now has contacts and no longer fails on that
  auto launch = http().send("POST", "/bulk_call_campaigns/" + campaign + "/launch", key);
  EXPECT_EQ(launch.status, 200) << launch.raw;
  for (const std::string& mapping :
       {std::string(R"({"First":"first_name"})"),
        std::string(R"({"Phone":"phone_e164","First":"nickname"})"),
        std::string(R"({"Cell":"phone_e164"})"), std::string("not json"),
        std::string(R"(["Phone"])"), std::string(R"({"Phone":1})"),
        std::string(R"({"Phone":"phone_e164","Mail":"phone_e164"})")}) {
    auto a = run(csv, mapping);
    EXPECT_EQ(a.status, 422) << mapping;
    EXPECT_EQ(a.code(), "INVALID_COLUMN_MAPPING") << mapping;
  }
  for (const std::string& file :
       {std::string(""), std::string("Phone\n\"+1415"), std::string("Phone\nab\"c\n"),
        std::string("Phone,Phone\n+14155550100,+14155550100\n")}) {
    auto a = run(file, R"({"Phone":"phone_e164"})");
    EXPECT_EQ(a.status, 422) << file;
    EXPECT_EQ(a.code(), "INVALID_CSV") << file;
  }
  auto no_campaign = run(csv, R"({"Phone":"phone_e164"})", fx("t2", "bulk_call_campaign_id"));
  EXPECT_EQ(no_campaign.code(), "CAMPAIGN_NOT_FOUND");
  httplib::MultipartFormDataItems no_file = {
      {"column_mapping", R"({"Phone":"phone_e164"})", "", ""}};
  auto missing = http().multipart("/contacts/import", key, no_file);
  EXPECT_EQ(missing.code(), "VALIDATION_ERROR");
  auto as_json = http().send("POST", "/contacts/import", key, "{}");
  EXPECT_EQ(as_json.status, 415);
}

TEST_F(states_test, run_analysis_needs_a_completed_session_and_a_known_prompt) {
  auto key = api_key(cred("t1-all"));
  const std::string prompt =
      R"({"call_analysis_prompt_id":")" + fx("t1", "call_analysis_prompt_id") + "\"}";
  auto running = http().send(
      "POST", "/voice_sessions/" + fx("t1", "voice_session_running_id") + "/run_analysis", key,
      prompt);
  EXPECT_EQ(running.status, 422);
  EXPECT_EQ(running.code(), "SESSION_NOT_COMPLETED");
  const std::string done = "/voice_sessions/" + fx("t1", "voice_session_id") + "/run_analysis";
  EXPECT_EQ(http().send("POST", done, key, R"({"call_analysis_prompt_id":"999999"})").code(),
            "CALL_ANALYSIS_PROMPT_NOT_FOUND");
  EXPECT_EQ(http().send("POST", done, key, "{}").code(), "VALIDATION_ERROR");
  EXPECT_EQ(http().send("POST", done, key, R"({"call_analysis_prompt_id":61})").code(),
            "VALIDATION_ERROR");
  EXPECT_EQ(http().send("POST", done, key, R"({"call_analysis_prompt_id":"p-61"})").code(),
            "VALIDATION_ERROR");
}

TEST_F(states_test, telephony_answer_rules) {
  auto first = http().send("GET", "/telephony/plivo/answer?call_id=abc-1");
  auto second = http().send("GET", "/telephony/plivo/answer?call_id=abc-1", api_key("anything"));
  EXPECT_EQ(first.status, 200);
  EXPECT_EQ(first.raw, second.raw);
  EXPECT_NE(http().send("GET", "/telephony/plivo/answer?call_id=abc-2").raw, first.raw);
  for (const char* p : {"twilio", "plivo", "exotel", "telnyx"}) {
    EXPECT_EQ(http().send("GET", std::string("/telephony/") + p + "/answer?call_id=1").status, 200)
        << p;
  }
  auto unknown = http().send("GET", "/telephony/skype/answer?call_id=1");
  EXPECT_EQ(unknown.status, 404);
  EXPECT_EQ(unknown.code(), "PROVIDER_NOT_FOUND");
  auto missing = http().send("GET", "/telephony/twilio/answer");
  EXPECT_EQ(missing.status, 422);
  // C10: empty is refused like missing; no upper bound is the description's.
  EXPECT_EQ(http().send("GET", "/telephony/twilio/answer?call_id=").status, 422);
  EXPECT_EQ(http().send("GET", "/telephony/twilio/answer?call_id=" + std::string(129, 'c')).status,
            200);
}

TEST_F(states_test, contact_memory_rules) {
  auto key = api_key(cred("t1-all"));
  const std::string path = "/contacts/" + fx("t1", "contact_id") + "/memory";
  const std::string agent = fx("t1", "agent_id");
  auto first = http().send("PATCH", path, key, R"({"agent_id":")" + agent + R"(","memory":"one"})");
  auto second =
      http().send("PATCH", path, key, R"({"agent_id":")" + agent + R"(","summary":"two"})");
  ASSERT_EQ(second.status, 200);
  EXPECT_EQ(str(first.data().at("id")), str(second.data().at("id")));
  EXPECT_EQ(str(second.data().at("interaction_log")), "one");
  EXPECT_EQ(str(second.data().at("summary")), "two");
  for (const std::string& body : {std::string("{}"), std::string(R"({"agent_id":11})"),
                                  R"({"agent_id":")" + fx("t2", "agent_id") + "\"}",
                                  R"({"agent_id":")" + agent + R"(","contact_id":"1"})",
                                  R"({"agent_id":")" + agent + R"(","memory":5})"}) {
    auto a = http().send("PATCH", path, key, body);
    EXPECT_EQ(a.status, 422) << body;
    EXPECT_EQ(a.code(), "VALIDATION_ERROR") << body;
  }
}

TEST_F(states_test, concurrent_moves_and_creates_never_lose_an_effect) {
  auto key = api_key(cred("t3-all"));
  const std::string id = fx("t3", "campaign_draft_id");
  const auto count_before =
      http().send("GET", "/bulk_call_campaigns", key).json.at("meta").at("count");
  constexpr int threads = 6, rounds = 15;
  std::atomic<int> launched{0}, paused{0}, refused{0}, created{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      for (int i = 0; i < rounds; ++i) {
        const bool launch = (t + i) % 2 == 0;
        auto a = http().send("POST", "/bulk_call_campaigns/" + id + (launch ? "/launch" : "/pause"),
                             key);
        if (a.status == 200)
          (launch ? launched : paused).fetch_add(1);
        else if (a.code() == "INVALID_STATE_TRANSITION")
          refused.fetch_add(1);
        auto c = http().send(
            "POST", "/bulk_call_campaigns", key,
            R"({"name":"Concurrent","agent_id":)" + fx("t3", "agent_id") + R"(,"timezone":"UTC"})");
        if (c.status == 201) created.fetch_add(1);
      }
    });
  }
  for (auto& th : pool) th.join();
  EXPECT_EQ(launched + paused + refused, threads * rounds);
  EXPECT_EQ(created.load(), threads * rounds);
  // Moves alternate draft/paused -> running -> paused: the final state follows from the counts.
  auto list = http().send("GET", "/bulk_call_campaigns?per_page=100&status=running", key);
  bool running = false;
  for (const auto& c : list.data().at("items").as_array())
    running = running || str(c.at("id")) == id;
  EXPECT_EQ(launched.load(), paused.load() + (running ? 1 : 0));
  const auto count_after =
      http().send("GET", "/bulk_call_campaigns", key).json.at("meta").at("count");
  EXPECT_EQ(count_after.to_number<std::int64_t>() - count_before.to_number<std::int64_t>(),
            threads * rounds);
}

}  // namespace
}  // namespace conform::reference::testing
