// Page lists (D3.1, C15) and cursor lists (D3.2), filters and sort (D3.3).
#include <algorithm>
#include <set>

#include "tests/reference/support.hpp"

namespace conform::reference::testing {
namespace {
namespace json = boost::json;

class lists_test : public server_test {
 protected:
  static void SetUpTestSuite() { start(); }

  /// Walks pages 1..meta.pages and returns every item id in order.
  static std::vector<std::string> walk_pages(const std::string& path, const header_list& h,
                                             int per_page, int& count) {
    std::vector<std::string> ids;
    const std::string sep = path.find('?') == std::string::npos ? "?" : "&";
    auto first =
        http().send("GET", path + sep + "per_page=" + std::to_string(per_page) + "&page=1", h);
    EXPECT_EQ(first.status, 200) << first.raw;
    if (first.status != 200) return ids;
    count = static_cast<int>(first.json.at("meta").at("count").to_number<double>());
    int pages = static_cast<int>(first.json.at("meta").at("pages").to_number<double>());
    EXPECT_EQ(pages, (count + per_page - 1) / per_page);
    for (int p = 1; p <= pages; ++p) {
      auto a = http().send(
          "GET", path + sep + "per_page=" + std::to_string(per_page) + "&page=" + std::to_string(p),
          h);
      EXPECT_EQ(a.status, 200);
      EXPECT_EQ(a.json.at("meta").at("page"), p);
      const auto& items = a.data().at("items").as_array();
      EXPECT_LE(items.size(), static_cast<std::size_t>(per_page));
      if (p < pages) {
        EXPECT_EQ(items.size(), static_cast<std::size_t>(per_page));
      }
      for (const auto& it : items) ids.push_back(str(it.at("id")));
    }
    auto past = http().send(
        "GET",
        path + sep + "per_page=" + std::to_string(per_page) + "&page=" + std::to_string(pages + 1),
        h);
    EXPECT_EQ(past.status, 200);
    EXPECT_TRUE(past.data().at("items").as_array().empty());
    EXPECT_EQ(past.json.at("meta").at("page"), pages + 1);
    return ids;
  }

  /// Walks a cursor list and returns every item.
  static std::vector<json::object> walk_cursor(const std::string& query, const header_list& h) {
    std::vector<json::object> items;
    std::string cursor;
    for (int guard = 0; guard < 1000; ++guard) {
      std::string path = "/voice_sessions?" + query + (cursor.empty() ? "" : "&cursor=" + cursor);
      auto a = http().send("GET", path, h);
      EXPECT_EQ(a.status, 200) << a.raw;
      if (a.status != 200) break;
      for (const auto& it : a.data().at("items").as_array()) items.push_back(it.as_object());
      const auto& next = a.data().at("next_cursor");
      if (next.is_null()) break;
      cursor = str(next);
    }
    return items;
  }
};

TEST_F(lists_test, page_walk_yields_every_campaign_once_for_any_page_size) {
  auto key = api_key(cred("t1-all"));
  for (int per_page : {1, 2, 3, 7, 10, 25, 33, 67, 68, 99, 100}) {
    int count = 0;
    auto ids = walk_pages("/bulk_call_campaigns", key, per_page, count);
    std::set<std::string> unique(ids.begin(), ids.end());
    EXPECT_EQ(ids.size(), unique.size()) << per_page;
    EXPECT_EQ(static_cast<int>(ids.size()), count) << per_page;
  }
}

TEST_F(lists_test, agents_and_partner_tenants_page_too) {
  int count = 0;
  auto agents = walk_pages("/agents", bearer(cred("jwt-admin")), 10, count);
  EXPECT_EQ(count, 32);
  EXPECT_EQ(agents.size(), 32U);
  auto tenants = walk_pages("/partner/tenants", partner_key(cred("partner-default")), 7, count);
  EXPECT_EQ(count, 30);
  std::set<std::string> unique(tenants.begin(), tenants.end());
  EXPECT_EQ(unique.size(), 30U);
  EXPECT_EQ(unique.count("103"), 0U);
  EXPECT_EQ(unique.count("101"), 1U);
}

TEST_F(lists_test, page_parameters_out_of_range_are_422) {
  auto key = api_key(cred("t1-all"));
  for (const char* q : {"per_page=0", "per_page=101", "per_page=abc", "page=0", "page=-1",
                        "page=1.5", "per_page=", "sort=id", "sort=updated_at", "status=open"}) {
    auto a = http().send("GET", std::string("/bulk_call_campaigns?") + q, key);
    EXPECT_EQ(a.status, 422) << q;
    EXPECT_EQ(a.code(), "VALIDATION_ERROR") << q;
    EXPECT_TRUE(a.json.at("errors").is_object()) << q;
  }
}

TEST_F(lists_test, campaign_status_filter_and_sort) {
  auto key = api_key(cred("t1-all"));
  int total = 0;
  for (const char* status : {"draft", "running", "paused", "completed", "cancelled"}) {
    auto a =
        http().send("GET", std::string("/bulk_call_campaigns?per_page=100&status=") + status, key);
    ASSERT_EQ(a.status, 200);
    for (const auto& it : a.data().at("items").as_array()) EXPECT_EQ(str(it.at("status")), status);
    total += static_cast<int>(a.json.at("meta").at("count").to_number<double>());
  }
  EXPECT_EQ(total, 68);
  for (const char* sort : {"name", "-name", "created_at", "-created_at"}) {
    auto a = http().send("GET", std::string("/bulk_call_campaigns?per_page=100&sort=") + sort, key);
    ASSERT_EQ(a.status, 200);
    std::vector<std::string> keys;
    std::string field =
        std::string(sort).back() == 'e' && std::string(sort).find("name") != std::string::npos
            ? "name"
            : "created_at";
    for (const auto& it : a.data().at("items").as_array()) keys.push_back(str(it.at(field)));
    auto sorted = keys;
    if (sort[0] == '-')
      std::sort(sorted.rbegin(), sorted.rend());
    else
      std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(keys, sorted) << sort;
  }
}

TEST_F(lists_test, cursor_walk_yields_every_session_once_for_any_page_size) {
  auto key = api_key(cred("t1-all"));
  for (int size : {1, 4, 10, 25, 84, 85, 100}) {
    auto items = walk_cursor("page_size=" + std::to_string(size), key);
    std::set<std::string> ids;
    for (const auto& it : items) ids.insert(str(it.at("id")));
    EXPECT_EQ(items.size(), 85U) << size;
    EXPECT_EQ(ids.size(), 85U) << size;
  }
}

TEST_F(lists_test, cursor_sort_and_filters) {
  auto key = api_key(cred("t1-all"));
  auto desc = walk_cursor("page_size=10", key);  // newest first by default
  ASSERT_EQ(desc.size(), 85U);
  for (std::size_t i = 1; i < desc.size(); ++i) {
    EXPECT_GE(str(desc[i - 1].at("updated_at")), str(desc[i].at("updated_at")));
  }
  auto asc = walk_cursor("page_size=9&sort=updated_at", key);
  ASSERT_EQ(asc.size(), 85U);
  for (std::size_t i = 1; i < asc.size(); ++i) {
    EXPECT_LE(str(asc[i - 1].at("updated_at")), str(asc[i].at("updated_at")));
  }
  auto completed = walk_cursor("page_size=7&status=completed", key);
  EXPECT_FALSE(completed.empty());
  for (const auto& it : completed) EXPECT_EQ(str(it.at("status")), "completed");
  const std::string since = str(desc[20].at("updated_at"));
  auto recent = walk_cursor("page_size=5&updated_since=" + since, key);
  EXPECT_GE(recent.size(), 21U);
  for (const auto& it : recent) EXPECT_GE(str(it.at("updated_at")), since);
  for (const char* q : {"sort=created_at", "status=done", "updated_since=yesterday", "page_size=0",
                        "page_size=101"}) {
    auto a = http().send("GET", std::string("/voice_sessions?") + q, key);
    EXPECT_EQ(a.status, 422) << q;
  }
  // page and per_page are ignored on the cursor route
  auto ignored = http().send("GET", "/voice_sessions?page=abc&per_page=0", key);
  EXPECT_EQ(ignored.status, 200);
}

TEST_F(lists_test, cursors_are_tamper_proof_and_bound) {
  auto key = api_key(cred("t1-all"));
  auto first = http().send("GET", "/voice_sessions?page_size=5&status=completed", key);
  ASSERT_EQ(first.status, 200);
  std::string cursor = str(first.data().at("next_cursor"));
  EXPECT_EQ(http()
                .send("GET", "/voice_sessions?page_size=5&status=completed&cursor=" + cursor, key)
                .status,
            200);
  // other filters, other sort, other tenant
  for (const char* q : {"status=failed", "sort=updated_at&status=completed", ""}) {
    auto a = http().send(
        "GET", std::string("/voice_sessions?page_size=5&") + q + "&cursor=" + cursor, key);
    EXPECT_EQ(a.status, 422) << q;
    EXPECT_EQ(a.code(), "INVALID_CURSOR") << q;
  }
  auto other = http().send("GET", "/voice_sessions?page_size=5&status=completed&cursor=" + cursor,
                           api_key(cred("t2-all")));
  EXPECT_EQ(other.code(), "INVALID_CURSOR");
  // tampered
  std::string tampered = cursor;
  tampered[3] = tampered[3] == 'A' ? 'B' : 'A';
  for (const std::string& bad :
       {tampered, std::string("garbage"), std::string("a.b"), cursor + "x", std::string()}) {
    auto a = http().send("GET", "/voice_sessions?page_size=5&status=completed&cursor=" + bad, key);
    EXPECT_EQ(a.status, 422) << bad;
    EXPECT_EQ(a.code(), "INVALID_CURSOR") << bad;
  }
}

}  // namespace
}  // namespace conform::reference::testing
