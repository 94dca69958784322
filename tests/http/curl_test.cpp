#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "http/curl.hpp"

namespace conform::http {
namespace {

url base() {
  return *parse_url("http://127.0.0.1:8080/api/v1").value;
}

TEST(curl, renders_method_url_headers_and_body) {
  request r;
  r.method = verb::patch;
  r.target = "/contacts/3001/memory";
  r.add_header("Content-Type", "application/json");
  r.body = R"({"summary":"it's fine"})";
  EXPECT_EQ(to_curl(r, base()),
            "curl -sS -g -X PATCH 'http://127.0.0.1:8080/api/v1/contacts/3001/memory' "
            "-H 'Content-Type: application/json' -H 'Accept:' "
            "--data-binary '{\"summary\":\"it'\\''s fine\"}'");
}

TEST(curl, control_characters_keep_the_command_on_one_line) {
  request r;
  r.method = verb::post;
  r.target = "/contacts/import";
  r.body = "a\nb\t'c'\x01";
  const std::string line = to_curl(r, base());
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_NE(line.find(R"(--data-binary $'a\nb\t\'c\'\x01')"), std::string::npos) << line;
}

TEST(curl, secret_values_become_environment_references) {
  const std::string token = "eyJhbGciOiJIUzI1NiJ9.c2VjcmV0.sig";
  const std::string key = "tk_test_SUPERSECRET";
  request r;
  r.target = "/follow-ups/5001/events";
  r.add_header("Authorization", "Bearer " + token);
  r.add_header("X-Api-Key", key);
  r.add_header("X-Partner-Api-Key", "pk_test_other");
  r.body = "{\"echo\":\"" + key + "\"}";
  secret_redactor redactor;
  redactor.secret_value(token, "CONFORM_JWT_VIEWER")
      .secret_value(key, "CONFORM_TENANT_ALL")
      .secret_header("x-partner-api-key", "CONFORM_PARTNER");
  const std::string line = to_curl(r, base(), redactor);
  EXPECT_EQ(line.find(token), std::string::npos) << line;
  EXPECT_EQ(line.find(key), std::string::npos) << line;
  EXPECT_EQ(line.find("pk_test_other"), std::string::npos) << line;
  EXPECT_NE(line.find(R"(-H 'Authorization: Bearer '"${CONFORM_JWT_VIEWER}")"), std::string::npos)
      << line;
  EXPECT_NE(line.find(R"(-H 'X-Api-Key: '"${CONFORM_TENANT_ALL}")"), std::string::npos) << line;
  EXPECT_NE(line.find(R"(-H 'X-Partner-Api-Key: '"${CONFORM_PARTNER}")"), std::string::npos)
      << line;
  EXPECT_NE(line.find(R"('{"echo":"'"${CONFORM_TENANT_ALL}"'"}')"), std::string::npos) << line;
}

TEST(curl, head_ipv6_and_odd_env_names) {
  request r;
  r.method = verb::head;
  r.target = "/health?x=$(rm -rf /)";
  r.add_header("X-Api-Key", "s3cr3t");
  secret_redactor redactor;
  redactor.secret_value("s3cr3t", "bad name!");
  const std::string line = to_curl(r, *parse_url("https://[::1]:8443/api/v1").value, redactor);
  EXPECT_EQ(line,
            "curl -sS -g -I 'https://[::1]:8443/api/v1/health?x=$(rm -rf /)' "
            "-H 'X-Api-Key: '\"${bad_name_}\" -H 'Accept:'");
}

// Issue 37: a request sent with no Accept is reproduced only if curl sends
// none either (its own default is `Accept: */*`); one that names a type,
// `*/*` included, keeps it as it is and gets nothing more.
TEST(curl, the_accept_sent_or_its_absence_is_reproduced) {
  request none;
  none.target = "/things/1";
  EXPECT_EQ(to_curl(none, base()),
            "curl -sS -g -X GET 'http://127.0.0.1:8080/api/v1/things/1' -H 'Accept:'");
  request any = none;
  any.add_header("Accept", "*/*");
  EXPECT_EQ(to_curl(any, base()),
            "curl -sS -g -X GET 'http://127.0.0.1:8080/api/v1/things/1' -H 'Accept: */*'");
  request json = none;
  json.add_header("accept", "application/json");
  const std::string line = to_curl(json, base());
  EXPECT_NE(line.find("-H 'accept: application/json'"), std::string::npos) << line;
  EXPECT_EQ(line.find("-H 'Accept:'"), std::string::npos) << line;
}

RC_GTEST_PROP(curl, secret_never_appears_in_the_command, ()) {
  // Letters and digits, long enough not to occur in the command's fixed text by chance.
  const auto length = *rc::gen::inRange<std::size_t>(11, 40);
  std::string secret = *rc::gen::container<std::string>(
      length, rc::gen::elementOf(
                  std::string("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")));
  secret += std::to_string(*rc::gen::inRange(0, 10));
  const auto prefix = *rc::gen::string<std::string>();
  const auto suffix = *rc::gen::string<std::string>();
  request r;
  r.method = verb::post;
  r.target = "/x";
  r.add_header("Authorization", "Bearer " + secret);
  r.add_header("X-Other", prefix + secret + suffix);
  r.body = prefix + secret + suffix + secret;
  secret_redactor redactor;
  redactor.secret_value(secret, "CONFORM_SECRET");
  const std::string line = to_curl(r, base(), redactor);
  RC_ASSERT(line.find(secret) == std::string::npos);
  RC_ASSERT(line.find("${CONFORM_SECRET}") != std::string::npos);
}

/// The pieces as text: variables as ${NAME}.
std::string joined(const std::vector<secret_redactor::piece>& pieces) {
  std::string out;
  for (const auto& p : pieces) {
    if (p.variable) {
      out.append("${").append(p.text).append("}");
    } else {
      out.append(p.text);
    }
  }
  return out;
}

RC_GTEST_PROP(curl, split_replaces_as_a_scan_position_by_position_would, ()) {
  // Secrets and text from two letters, so that secrets overlap, contain each
  // other and occur often; the longest secret wins at a position.
  const auto word = rc::gen::container<std::string>(rc::gen::elementOf(std::string("ab")));
  const auto secrets =
      *rc::gen::container<std::vector<std::string>>(rc::gen::resize(4, rc::gen::nonEmpty(word)));
  const auto text = *rc::gen::resize(40, word);
  secret_redactor redactor;
  std::vector<std::pair<std::string, std::string>> by_length;
  for (std::size_t k = 0; k < secrets.size(); ++k) {
    redactor.secret_value(secrets[k], "S" + std::to_string(k));
    by_length.emplace_back(secrets[k], "S" + std::to_string(k));
  }
  std::stable_sort(by_length.begin(), by_length.end(),
                   [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  std::string expected;
  for (std::size_t i = 0; i < text.size();) {
    const auto hit = std::find_if(by_length.begin(), by_length.end(), [&](const auto& v) {
      return text.compare(i, v.first.size(), v.first) == 0;
    });
    if (hit == by_length.end()) {
      expected.push_back(text[i++]);
      continue;
    }
    expected.append("${").append(hit->second).append("}");
    i += hit->first.size();
  }
  RC_ASSERT(joined(redactor.split(text)) == expected);
}

}  // namespace
}  // namespace conform::http
