// The HAR writer and reader of --record and replay: what is written reads
// back the same (bodies that are not UTF-8, no answer, entries larger than
// the reader's chunk), another tool's HAR reads from its own fields, and a
// broken file is said with the entry and the JSON pointer.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <unistd.h>

#include <boost/json.hpp>

#include <filesystem>
#include <fstream>

#include "core/text.hpp"
#include "reports/har.hpp"
#include "reports/har_read.hpp"

namespace conform::reports {
namespace {

namespace fs = std::filesystem;

std::string temp(const std::string& name) {
  return (fs::temp_directory_path() / ("conform-har-" + std::to_string(::getpid()) + "-" + name))
      .string();
}

harness::recorded_exchange sample(std::uint64_t n) {
  harness::recorded_exchange e;
  e.phase = "exchanges";
  e.operation_id = "createItem";
  e.method_path = "POST /items";
  e.auth_model = "api_key (all)";
  e.mode = "invalid: body /name: too long";
  e.mutation = "invalid_body";
  e.where = "body /name";
  e.base_url = "http://127.0.0.1:1/api/v1";
  e.request.method = http::verb::post;
  e.request.target = "/items?tag=a%20b&x=${CONFORM_KEY}";
  e.request.headers = {{"X-Api-Key", "${CONFORM_KEY}"}, {"Content-Type", "application/json"}};
  e.request.body = R"({"name":")" + std::string(n, 'n') + R"("})";
  e.secrets = {"CONFORM_KEY"};
  http::response r;
  r.status = 422;
  r.headers.push_back({http::field::content_type, "Content-Type", "application/json"});
  r.body = R"({"error_code":"VALIDATION_ERROR"})";
  e.response = r;
  e.verdicts = {{"negative_data_rejection", harness::check_verdict::kind::pass, "", "", ""},
                {"status_code_conformance", harness::check_verdict::kind::violation,
                 "undocumented status 422", "a documented status (201)", "status 422"}};
  return e;
}

TEST(har, what_is_written_reads_back_the_same) {
  const auto file = temp("roundtrip.har");
  har_file out(file);
  ASSERT_TRUE(out.open({"0.1.0", "run", 7, "spec.yaml", "abc", "http://127.0.0.1:1/api/v1", "t"}));
  out.add(sample(10));
  auto big = sample(300000);  // larger than the reader's 64 KiB chunks
  out.add(big);
  auto binary = sample(1);
  binary.request.body = std::string("\xff\xfe\x00\x01", 4);
  binary.response->body = std::string("\x89PNG\r\n", 6);
  out.add(binary);
  auto lost = sample(1);
  lost.response.reset();
  lost.error = "connection refused";
  out.add(lost);
  auto query = sample(1);
  query.request.method = http::verb::unknown;
  query.request.method_text = "QUERY";
  query.request.client_identity = "bank-client";
  out.add(query);
  ASSERT_TRUE(out.close("done"));

  // Valid JSON, HAR 1.2.
  std::ifstream in(file);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  const auto v = boost::json::parse(text);
  EXPECT_EQ(v.at("log").at("version"), "1.2");
  EXPECT_EQ(v.at("log").at("entries").as_array().size(), 5u);

  har_reader reader(file);
  std::vector<harness::recorded_exchange> back;
  while (auto e = reader.next()) back.push_back(std::move(*e));
  ASSERT_EQ(reader.error(), "");
  ASSERT_EQ(back.size(), 5u);
  EXPECT_EQ(reader.origin().spec_file, "spec.yaml");
  EXPECT_EQ(reader.origin().spec_hash, "abc");
  const auto& a = back[0];
  EXPECT_EQ(a.seq, 0u);
  EXPECT_EQ(a.phase, "exchanges");
  EXPECT_EQ(a.operation_id, "createItem");
  EXPECT_EQ(a.mutation, "invalid_body");
  EXPECT_EQ(a.where, "body /name");
  EXPECT_EQ(a.request.method, http::verb::post);
  EXPECT_EQ(a.request.target, "/items?tag=a%20b&x=${CONFORM_KEY}");
  EXPECT_EQ(a.request.headers, sample(10).request.headers);
  EXPECT_EQ(a.request.body, sample(10).request.body);
  EXPECT_EQ(a.secrets, (std::vector<std::string>{"CONFORM_KEY"}));
  ASSERT_TRUE(a.response);
  EXPECT_EQ(a.response->status, 422u);
  EXPECT_EQ(a.response->body, R"({"error_code":"VALIDATION_ERROR"})");
  ASSERT_EQ(a.verdicts.size(), 2u);
  EXPECT_EQ(a.verdicts[1].what, harness::check_verdict::kind::violation);
  EXPECT_EQ(a.verdicts[1].cause, "undocumented status 422");
  EXPECT_EQ(back[1].request.body, big.request.body);
  EXPECT_EQ(back[1].seq, 1u);
  EXPECT_EQ(back[2].request.body, binary.request.body);
  EXPECT_EQ(back[2].response->body, binary.response->body);
  EXPECT_FALSE(back[3].response);
  EXPECT_EQ(back[3].error, "connection refused");
  EXPECT_EQ(back[4].request.method, http::verb::unknown);
  EXPECT_EQ(back[4].request.method_text, "QUERY");
  EXPECT_EQ(back[4].request.client_identity, "bank-client");
  fs::remove(file);
}

/// `s` with each byte that starts no UTF-8 sequence as U+FFFD.
std::string replaced(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = core::utf8_sequence_length(s, i);
    out += n == 0 ? std::string("\xEF\xBF\xBD") : s.substr(i, n);
    i += n == 0 ? 1 : n;
  }
  return out;
}

// The entry is written as text straight into a buffer: whatever bytes its
// fields hold (quotes, backslashes, control characters, UTF-8 and bytes that
// are not), it is one line of JSON whose strings read back as written, the
// bytes that are not UTF-8 as U+FFFD, and a body exactly.
RC_GTEST_PROP(har, any_text_in_an_entry_reads_back_from_its_json,
              (const std::string& header, const std::string& where, const std::string& body,
               const std::string& seen)) {
  auto e = sample(1);
  e.request.headers = {{"X-Text", header}};
  e.where = where;
  e.request.body = body;
  e.response->body = body;
  e.verdicts[1].seen = seen + "x";  // never empty: an empty one is left out
  const std::string line = har_entry(e, 3);
  RC_ASSERT(line.find('\n') == std::string::npos);
  boost::system::error_code ec;
  const auto v = boost::json::parse(line, ec);
  RC_ASSERT(!ec);
  const auto& request = v.at("request");
  RC_ASSERT(request.at("headers").at(0).at("value").as_string() == replaced(header));
  RC_ASSERT(v.at("_conform").at("where").as_string() == replaced(where));
  RC_ASSERT(v.at("_conform").at("verdicts").at(1).at("seen").as_string() == replaced(seen + "x"));
  RC_ASSERT(v.at("_conform").at("seq").to_number<std::uint64_t>() == 3u);
  if (!body.empty()) {
    const auto& text = request.at("postData").at("text").as_string();
    if (core::is_utf8(body)) {
      RC_ASSERT(text == body);
    } else {
      RC_ASSERT(request.at("postData").at("encoding") == "base64");
    }
  }
  RC_ASSERT(v.at("response").at("content").at("size").to_number<std::int64_t>() ==
            static_cast<std::int64_t>(body.size()));
}

TEST(har, times_are_plain_numbers_and_minus_one_is_not_known) {
  auto e = sample(1);
  e.response->time.total = std::chrono::microseconds(1500);
  e.response->reused_connection = true;
  const auto v = boost::json::parse(har_entry(e, 0));
  EXPECT_EQ(v.at("time").to_number<double>(), 1.5);
  EXPECT_EQ(v.at("timings").at("connect").to_number<double>(), -1.0);
  EXPECT_EQ(v.at("timings").at("wait").to_number<double>(), 1.5);
  EXPECT_NE(har_entry(e, 0).find("\"time\":1.5,"), std::string::npos);
  using namespace std::chrono;
  e.started =
      sys_days{year{2026} / 2 / 28} + hours(23) + minutes(59) + seconds(59) + milliseconds(7);
  EXPECT_EQ(boost::json::parse(har_entry(e, 0)).at("startedDateTime"), "2026-02-28T23:59:59.007Z");
  e.started = sys_days{year{1999} / 12 / 31} + milliseconds(999);
  EXPECT_EQ(boost::json::parse(har_entry(e, 0)).at("startedDateTime"), "1999-12-31T00:00:00.999Z");
}

TEST(har, another_tools_har_reads_from_its_own_fields) {
  const auto file = temp("browser.har");
  std::ofstream(file) << R"({
  "log": {
    "entries": [
      {
        "request": {
          "url": "https://shop.example/api/v1/items?page=2",
          "headers": [ { "name": ":authority", "value": "shop.example" },
                       { "name": "Host", "value": "shop.example" },
                       { "name": "Accept", "value": "application/json" } ],
          "method": "GET"
        },
        "response": { "status": 200, "content": { "text": "{}", "mimeType": "application/json" } }
      }
    ],
    "version": "1.2",
    "creator": { "name": "a browser", "version": "1" }
  }
})";
  har_reader reader(file);
  auto e = reader.next();
  ASSERT_TRUE(e) << reader.error();
  EXPECT_EQ(e->phase, "");  // not Conform's: no operation, mode or verdicts
  EXPECT_EQ(e->request.target, "/api/v1/items?page=2");
  EXPECT_EQ(e->base_url, "https://shop.example");
  ASSERT_EQ(e->request.headers.size(), 1u);  // no pseudo-header, no Host
  EXPECT_EQ(e->request.headers[0].first, "Accept");
  EXPECT_FALSE(reader.next());
  EXPECT_EQ(reader.error(), "");
  fs::remove(file);
}

TEST(har, broken_files_are_said_with_the_entry_and_the_pointer) {
  struct broken {
    std::string text, says;
  };
  const std::vector<broken> cases = {
      {R"({"log":{"entries":[{"request":{"method":"GET","url":"http://x/a"},"response":{"status":200}},
           {"request":{"url":"http://x/a"},"response":{}}]}})",
       "entry 1: /request/method: missing"},
      {R"({"log":{"entries":[{"request":{"method":"GET","url":"http://x/a","headers":{}},"response":{}}]}})",
       "entry 0: /request/headers: expected an array"},
      {R"({"log":{"entries":[{"request":{"method":"GET","url":"http://x/a"},"response":{"status":200}})",
       "the file ends before entries closes"},
      {R"({"log":{"entries":[{"request":{"method":"GET","url":"ht)",
       "the file ends inside entry 0"},
      {R"({"other":{"entries":[]}})", "the file ends before log.entries"},
      {R"({"log":{"entries":[{"request":{"method":"GET","url":"http://x/a"},"response":{},
           "_conform":{"verdicts":[{"check":"c","verdict":"maybe"}]}}]}})",
       "entry 0: /_conform/verdicts/0/verdict: expected pass, violation, not_applicable or "
       "not_run"},
  };
  for (const auto& c : cases) {
    const auto file = temp("broken.har");
    std::ofstream(file) << c.text;
    har_reader reader(file);
    while (reader.next()) {
    }
    EXPECT_NE(reader.error().find(c.says), std::string::npos) << reader.error() << "\n" << c.text;
    fs::remove(file);
  }
}

}  // namespace
}  // namespace conform::reports
