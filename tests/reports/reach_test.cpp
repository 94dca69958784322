// Reach in every report: per operation and auth model whether a 2xx came
// back and why not, the links followed, what the run learned; read back
// from JSON and added up across shards; absent from a report that has none.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "reports/console.hpp"
#include "reports/html.hpp"
#include "reports/json.hpp"
#include "reports/json_read.hpp"
#include "reports/junit.hpp"
#include "reports/markdown.hpp"
#include "reports/merge.hpp"
#include "reports/reach.hpp"

namespace conform {
namespace {

harness::run_report with_reach() {
  harness::run_report r;
  r.info.seed = 9;
  r.info.learned = {"$JWT: role admin (claim role) read from the token's payload, not verified"};
  harness::operation_reach ok;
  ok.operation_id = "listItems";
  ok.method_path = "GET /items";
  ok.auth_model = "jwt ($JWT)";
  ok.sent = 3;
  ok.succeeded = 3;
  harness::operation_reach refused = ok;
  refused.operation_id = "deleteItem";
  refused.method_path = "DELETE /items/{id}";
  refused.succeeded = 0;
  refused.forbidden = 3;
  refused.why = "refused: every answer was 403 (the credential may not call it)";
  r.reach = {ok, refused};
  harness::link_use followed{"createItem", "201", "GetItem", "getItem", 2, ""};
  harness::link_use not_followed{"listItems",  "200", "First",
                                 "deleteItem", 0,     "no 2xx answer came back"};
  r.links = {followed, not_followed};
  return r;
}

// On an RPC-style API most operations may be ones safe mode never sends:
// past eight, they are named on one line (each has its "not run" line),
// while the other reasons are still listed one by one.
TEST(reach, many_operations_never_sent_in_this_write_mode_are_one_line) {
  for (const int count : {2, 10}) {
    auto r = with_reach();
    for (int k = 0; k < count; ++k) {
      harness::operation_reach held;
      held.operation_id = "action" + std::to_string(k);
      held.method_path = "POST /action" + std::to_string(k);
      held.auth_model = "jwt ($JWT)";
      held.why =
          "not sent: safe mode: POST /action" + std::to_string(k) + " is not documented to create";
      r.reach.push_back(held);
    }
    const std::string text = reports::reach_text(r);
    EXPECT_NE(text.find("deleteItem as jwt ($JWT): refused"), std::string::npos) << text;
    const bool one_line =
        text.find(std::to_string(count) +
                  " never sent in this write mode (see Not run for why): "
                  "action0 as jwt ($JWT), action1 as jwt ($JWT)") != std::string::npos;
    const bool each = text.find("action1 as jwt ($JWT): not sent: safe mode") != std::string::npos;
    EXPECT_EQ(one_line, count == 10) << text;
    EXPECT_EQ(each, count == 2) << text;
  }
}

TEST(reach, every_format_says_what_was_reached_and_why_not) {
  const auto r = with_reach();
  const std::string text = reports::reach_text(r);
  EXPECT_NE(text.find("Reach: 1 of 2 operations answered 2xx"), std::string::npos) << text;
  EXPECT_NE(text.find("deleteItem as jwt ($JWT): refused: every answer was 403"), std::string::npos)
      << text;
  EXPECT_NE(text.find("Links: 1 of 2"), std::string::npos) << text;
  EXPECT_NE(text.find("not followed: First (listItems 200 -> deleteItem)"), std::string::npos);
  EXPECT_NE(text.find("read from the token's payload, not verified"), std::string::npos);

  std::ostringstream console;
  {
    reports::console_writer w(console, false);
    w.run_started({r.info, 0});
    w.run_finished({r});
  }
  EXPECT_NE(console.str().find("learned: $JWT: role admin"), std::string::npos) << console.str();
  EXPECT_NE(console.str().find("Reach: 1 of 2"), std::string::npos) << console.str();

  const std::string junit = reports::render_junit(r);
  EXPECT_NE(junit.find("<property name=\"reach\" value=\"1 of 2 operations answered 2xx\"/>"),
            std::string::npos)
      << junit;
  EXPECT_NE(junit.find("not_reached.deleteItem as jwt ($JWT)"), std::string::npos) << junit;
  const std::string html = reports::render_html(r);
  EXPECT_NE(html.find("<section id=\"reach\">"), std::string::npos);
  EXPECT_NE(html.find("refused: every answer was 403"), std::string::npos) << html;
  const std::string md = reports::render_markdown(r);
  EXPECT_NE(md.find("<summary>Reach</summary>"), std::string::npos);
  EXPECT_NE(md.find("deleteItem as jwt ($JWT): refused: every answer was 403"), std::string::npos)
      << md;
}

TEST(reach, what_a_server_said_is_escaped_in_markup_formats) {
  auto r = with_reach();
  r.reach[1].why = "refused: 403 (<script>alert(1)</script>)";
  const std::string html = reports::render_html(r);
  EXPECT_EQ(html.find("<script>alert"), std::string::npos) << html;
  EXPECT_NE(html.find("&lt;script&gt;alert"), std::string::npos) << html;
  const std::string junit = reports::render_junit(r);
  EXPECT_EQ(junit.find("<script>alert"), std::string::npos) << junit;
}

TEST(reach, the_json_report_keeps_it_and_reads_it_back) {
  const auto r = with_reach();
  const std::string path = testing::TempDir() + "reach_report.json";
  {
    std::ofstream f(path);
    f << reports::render_json(r);
  }
  auto back = reports::read_json_report(path);
  std::remove(path.c_str());
  ASSERT_TRUE(back) << back.error();
  ASSERT_EQ(back->reach.size(), 2u);
  EXPECT_EQ(back->reach[1].operation_id, "deleteItem");
  EXPECT_EQ(back->reach[1].forbidden, 3u);
  EXPECT_EQ(back->reach[1].why, r.reach[1].why);
  EXPECT_TRUE(back->reach[0].reached());
  ASSERT_EQ(back->links.size(), 2u);
  EXPECT_EQ(back->links[0].followed, 2u);
  EXPECT_EQ(back->links[1].why, "no 2xx answer came back");
  EXPECT_EQ(back->info.learned, r.info.learned);
}

TEST(reach, shards_add_up_and_a_report_without_it_renders_as_before) {
  auto a = with_reach();
  auto b = with_reach();
  b.reach[1].succeeded = 1;  // another shard reached it
  b.links[1].followed = 1;
  harness::run_report merged;
  reports::merge_reach(a, merged);
  reports::merge_reach(b, merged);
  ASSERT_EQ(merged.reach.size(), 2u);
  EXPECT_EQ(merged.reach[0].sent, 6u);
  EXPECT_TRUE(merged.reach[1].reached());
  EXPECT_TRUE(merged.reach[1].why.empty());
  EXPECT_EQ(merged.links[1].followed, 1u);
  EXPECT_EQ(merged.info.learned.size(), 1u);  // the same note once

  harness::run_report none;
  EXPECT_TRUE(reports::reach_text(none).empty());
  const auto json = boost::json::parse(reports::render_json(none));
  EXPECT_FALSE(json.as_object().contains("reach"));
  EXPECT_FALSE(json.as_object().contains("links"));
  EXPECT_EQ(reports::render_junit(none).find("reach"), std::string::npos);
}

}  // namespace
}  // namespace conform
