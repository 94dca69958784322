#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "http/url.hpp"

namespace conform::http {
namespace {

TEST(url, parses_scheme_host_port_and_base_path) {
  const auto r = parse_url("http://127.0.0.1:8080/api/v1");
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.value->scheme, url_scheme::http);
  EXPECT_EQ(r.value->host, "127.0.0.1");
  EXPECT_EQ(r.value->port, 8080);
  EXPECT_EQ(r.value->base_path, "/api/v1");
  EXPECT_EQ(r.value->to_string(), "http://127.0.0.1:8080/api/v1");
}

TEST(url, default_ports_and_trailing_slash) {
  const auto r = parse_url("HTTPS://api.example.com/api/v1/");
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.value->scheme, url_scheme::https);
  EXPECT_EQ(r.value->port, 443);
  EXPECT_EQ(r.value->base_path, "/api/v1");
  EXPECT_EQ(r.value->authority(), "api.example.com");
  const auto bare = parse_url("http://localhost");
  ASSERT_TRUE(bare.ok());
  EXPECT_EQ(bare.value->port, 80);
  EXPECT_EQ(bare.value->base_path, "");
}

TEST(url, ipv6_literals) {
  const auto r = parse_url("https://[::1]:8443/api/v1");
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.value->host, "::1");
  EXPECT_TRUE(r.value->ipv6_literal);
  EXPECT_EQ(r.value->port, 8443);
  EXPECT_EQ(r.value->authority(), "[::1]:8443");
  const auto no_port = parse_url("http://[fe80::1]");
  ASSERT_TRUE(no_port.ok()) << no_port.error;
  EXPECT_EQ(no_port.value->authority(), "[fe80::1]");
}

TEST(url, errors_are_values_with_a_message) {
  struct bad_case {
    const char* text;
    const char* says;
  };
  for (const auto& c :
       {bad_case{"", "empty"}, bad_case{"127.0.0.1:8080", "absolute"},
        bad_case{"ftp://host/", "unsupported scheme 'ftp'"},
        bad_case{"http://:80/", "missing host"}, bad_case{"http://host:0/", "invalid port '0'"},
        bad_case{"http://host:99999/", "invalid port"}, bad_case{"http://host:/", "empty port"},
        bad_case{"http://host:8x/", "invalid port"}, bad_case{"http://[::1/", "unterminated IPv6"},
        bad_case{"http://[zz]/", "invalid IPv6"},
        bad_case{"http://user:pw@host/", "credentials in the URL"},
        bad_case{"http://host/a?b=1", "no query"},
        bad_case{"http://ho st/", "invalid character"}}) {
    const auto r = parse_url(c.text);
    EXPECT_FALSE(r.ok()) << c.text;
    EXPECT_NE(r.error.find(c.says), std::string::npos) << c.text << " -> " << r.error;
  }
}

TEST(url, errors_never_echo_userinfo) {
  for (const char* text : {"user:hunter2@host/x", "http://user:hunter2@host/", "http://a@[::1/"}) {
    const auto r = parse_url(text);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error.find("hunter2"), std::string::npos) << r.error;
  }
}

RC_GTEST_PROP(url, round_trips_through_to_string, ()) {
  const auto label = *rc::gen::nonEmpty(rc::gen::container<std::string>(
      rc::gen::elementOf(std::string("abcdefghijklmnopqrstuvwxyz0123456789-"))));
  const auto port = *rc::gen::inRange<unsigned>(1, 65536);
  const auto segments = *rc::gen::container<std::vector<std::string>>(rc::gen::nonEmpty(
      rc::gen::container<std::string>(rc::gen::elementOf(std::string("abcxyz0123456789-._~")))));
  const bool https = *rc::gen::arbitrary<bool>();
  std::string path;
  for (const auto& s : segments) path += "/" + s;
  url u;
  u.scheme = https ? url_scheme::https : url_scheme::http;
  u.host = label;
  u.port = static_cast<std::uint16_t>(port);
  u.base_path = path;
  const auto parsed = parse_url(u.to_string());
  RC_ASSERT(parsed.ok());
  RC_ASSERT(parsed.value->host == u.host);
  RC_ASSERT(parsed.value->port == u.port);
  RC_ASSERT(parsed.value->base_path == u.base_path);
  RC_ASSERT(parsed.value->scheme == u.scheme);
}

}  // namespace
}  // namespace conform::http
