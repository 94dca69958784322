// Form bodies read back as a server reads them, on a description of our own
// (the shipped one has no urlencoded body): application/x-www-form-urlencoded
// fields coerced by their property schema and validated; multipart parts
// against `encoding` with its lists and wildcards.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/client/traffic_builder.hpp"

namespace conform::testing {
namespace {

const char* forms_spec = R"(openapi: 3.1.0
info: { title: Forms, version: 1.0.0 }
paths:
  /forms:
    post:
      operationId: postForm
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [name]
              properties:
                name: { type: string, minLength: 1 }
                count: { type: integer, minimum: 1 }
                tags: { type: array, items: { type: string } }
          multipart/form-data:
            schema:
              type: object
              required: [picture]
              properties:
                picture: { type: string, format: binary }
                note: { type: string }
            encoding:
              picture: { contentType: 'image/png, image/jpeg' }
              note: { contentType: 'text/*' }
      responses:
        '200': { description: ok }
)";

const openapi::api_spec& forms() {
  static const auto loaded = [] {
    const auto file = std::filesystem::temp_directory_path() /
                      ("conform-forms-" + std::to_string(::getpid()) + ".yaml");
    std::ofstream(file) << forms_spec;
    auto l = openapi::load(file, {});
    std::filesystem::remove(file);
    if (!l.ok()) throw std::runtime_error("the forms description does not load");
    return std::move(l.spec);
  }();
  return *loaded;
}

harness::rule_verdict::status judged(const std::string& content_type, const std::string& body,
                                     std::string* seen = nullptr) {
  harness::traffic t;
  t.spec = &forms();
  harness::traffic_exchange e;
  e.seq = 1;
  e.request.method = http::verb::post;
  e.request.target = "/forms";
  e.request.add_header("Content-Type", content_type);
  e.request.body = body;
  e.status = 200;
  t.exchanges.push_back(e);
  harness::annotate(t);
  const auto j = judge(t, "client_request_valid");
  if (seen && !j.failures.empty()) *seen = j.failures[0].seen;
  return j.verdict.what;
}

using status = harness::rule_verdict::status;

TEST(forms, urlencoded_fields_are_read_back_by_their_schema) {
  const char* type = "application/x-www-form-urlencoded";
  EXPECT_EQ(judged(type, "name=Ada+Lovelace&count=2&tags=a&tags=b"), status::passed);
  EXPECT_EQ(judged(type, "name=%41da"), status::passed);
  std::string seen;
  EXPECT_EQ(judged(type, "name=Ada&count=0", &seen), status::failed);
  EXPECT_NE(seen.find("count"), std::string::npos) << seen;
  EXPECT_EQ(judged(type, "count=2", &seen), status::failed);
  EXPECT_NE(seen.find("name"), std::string::npos) << seen;
}

std::string part(const std::string& name, const std::string& type, const std::string& content) {
  return "--x\r\nContent-Disposition: form-data; name=\"" + name + "\"; filename=\"f\"\r\n" +
         (type.empty() ? "" : "Content-Type: " + type + "\r\n") + "\r\n" + content + "\r\n";
}

TEST(forms, multipart_part_types_follow_encoding_lists_and_wildcards) {
  const char* type = "multipart/form-data; boundary=x";
  EXPECT_EQ(judged(type, part("picture", "image/jpeg", "\xff\xd8") + "--x--\r\n"), status::passed);
  EXPECT_EQ(judged(type, part("picture", "image/png", "png") + part("note", "text/markdown", "*") +
                             "--x--\r\n"),
            status::passed);
  std::string seen;
  EXPECT_EQ(judged(type, part("picture", "image/gif", "gif") + "--x--\r\n", &seen), status::failed);
  EXPECT_NE(seen.find("encoding.picture.contentType"), std::string::npos) << seen;
  // No Content-Type: text/plain (RFC 7578), which text/* accepts and image/png does not.
  EXPECT_EQ(judged(type, part("picture", "image/png", "p") + part("note", "", "n") + "--x--\r\n"),
            status::passed);
  EXPECT_EQ(judged(type, part("picture", "", "p") + "--x--\r\n"), status::failed);
  EXPECT_EQ(judged(type, part("note", "text/plain", "n") + "--x--\r\n", &seen), status::failed);
  EXPECT_NE(seen.find("picture"), std::string::npos) << seen;
}

}  // namespace
}  // namespace conform::testing
