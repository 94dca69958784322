#include <gtest/gtest.h>

#include "http/message.hpp"

namespace conform::http {
namespace {

TEST(message, verbs_parse_once_at_the_edge) {
  EXPECT_EQ(parse_verb("get"), verb::get);
  EXPECT_EQ(parse_verb("PATCH"), verb::patch);
  EXPECT_EQ(parse_verb("Delete"), verb::delete_);
  EXPECT_FALSE(parse_verb("FETCH").has_value());
  EXPECT_EQ(method_name(verb::delete_), "DELETE");
  EXPECT_TRUE(is_idempotent(verb::delete_));
  EXPECT_FALSE(is_idempotent(verb::post));
  EXPECT_FALSE(is_idempotent(verb::patch));
}

TEST(message, header_lookup_is_case_insensitive) {
  response r;
  r.headers.push_back({field::content_type, "Content-Type", "application/json"});
  r.headers.push_back({field::unknown, "X-Request-Id", "abc"});
  r.headers.push_back({field::set_cookie, "set-cookie", "a=1"});
  r.headers.push_back({field::set_cookie, "Set-Cookie", "b=2"});
  ASSERT_NE(r.find("content-type"), nullptr);
  EXPECT_EQ(*r.find("CONTENT-TYPE"), "application/json");
  EXPECT_EQ(*r.find(field::content_type), "application/json");
  EXPECT_EQ(*r.find("x-request-id"), "abc");
  EXPECT_EQ(r.find("x-missing"), nullptr);
  EXPECT_EQ(r.find_all("SET-COOKIE").size(), 2u);

  request q;
  q.add_header("X-Tenant-Id", "101");
  ASSERT_NE(q.find_header("x-tenant-id"), nullptr);
  EXPECT_EQ(*q.find_header("x-tenant-id"), "101");
}

TEST(message, result_holds_a_response_or_an_error) {
  result ok;
  ok.outcome = response{};
  EXPECT_TRUE(ok.ok());
  result bad;
  bad.outcome = core::fail(transport_error{transport_error::kind::timeout, "late"});
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(to_string(bad.error().what), "timeout");
}

}  // namespace
}  // namespace conform::http
