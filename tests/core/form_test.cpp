// Form bodies read as a server reads them (core/form.hpp): every ending RFC
// 2046 allows, the refusals, and the equivalence that a retry is judged by.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "core/form.hpp"

namespace conform::core {
namespace {

/// A multipart body of `parts` with `boundary`, ending in `ending`.
std::string write(const std::vector<form_part>& parts, const std::string& boundary,
                  const std::string& ending = "\r\n") {
  std::string out;
  for (const auto& p : parts) {
    out += "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + p.name + "\"";
    if (!p.filename.empty()) out += "; filename=\"" + p.filename + "\"";
    out += "\r\n";
    if (!p.content_type.empty()) out += "Content-Type: " + p.content_type + "\r\n";
    out += "\r\n" + p.content + "\r\n";
  }
  return out + "--" + boundary + "--" + ending;
}

const std::vector<form_part> import_parts = {
    {"file", "text/csv", "contacts.csv", "Phone\n+14155550100\n"},
    {"column_mapping", "application/json", "", "{\"Phone\":\"phone_e164\"}"},
    {"note", "", "", ""},
};

void expect_parts(const outcome<std::vector<form_part>>& got, const std::vector<form_part>& want) {
  ASSERT_TRUE(got.ok()) << got.error();
  ASSERT_EQ(got.value().size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ((*got)[i].name, want[i].name);
    EXPECT_EQ((*got)[i].filename, want[i].filename);
    EXPECT_EQ((*got)[i].content_type, want[i].content_type);
    EXPECT_EQ((*got)[i].content, want[i].content);
  }
}

TEST(form_multipart, every_ending_rfc_2046_allows_is_read) {
  for (const std::string ending : {"", "\r\n", "\r\nan epilogue\r\n", "  ", "\t\r\n"}) {
    expect_parts(parse_multipart(write(import_parts, "b0"), "b0"), import_parts);
    expect_parts(parse_multipart(write(import_parts, "b0", ending), "b0"), import_parts);
  }
}

TEST(form_multipart, a_preamble_and_transport_padding_are_skipped) {
  std::string body = "a preamble\r\n" + write(import_parts, "XyZ");
  expect_parts(parse_multipart(body, "XyZ"), import_parts);
  std::string padded = write(import_parts, "XyZ");
  for (std::size_t at = padded.find("--XyZ\r\n"); at != std::string::npos;
       at = padded.find("--XyZ\r\n", at + 8)) {
    padded.insert(at + 5, " \t");
  }
  expect_parts(parse_multipart(padded, "XyZ"), import_parts);
}

TEST(form_multipart, quoted_parameters_keep_their_semicolons_and_escapes) {
  const std::string body =
      "--b\r\nContent-Disposition: form-data; filename=\"a;b \\\"c\\\".csv\"; name=\"f\"\r\n\r\n"
      "x\r\n--b--";
  expect_parts(parse_multipart(body, "b"), {{"f", "", "a;b \"c\".csv", "x"}});
  EXPECT_EQ(multipart_boundary("multipart/form-data; charset=utf-8; BOUNDARY=\"a b\""), "a b");
  EXPECT_EQ(multipart_boundary("multipart/form-data"), "");
}

TEST(form_multipart, what_is_not_multipart_is_refused_with_why) {
  struct bad_body {
    std::string body, boundary, why;
  };
  const std::vector<bad_body> cases = {
      {write(import_parts, "b"), "", "no boundary"},
      {write(import_parts, "b"), "other", "no boundary line"},
      {"--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx", "b", "no closing boundary"},
      {"--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--", "b", "Content-Disposition"},
      {"--b\r\nContent-Disposition: form-data; name=\"a\"\r\nx\r\n--b--", "b", "blank line"},
      {"--bx\r\n", "b", "not followed by CRLF"},
  };
  for (const auto& c : cases) {
    const auto got = parse_multipart(c.body, c.boundary);
    ASSERT_FALSE(got.ok()) << c.body;
    EXPECT_NE(got.error().find(c.why), std::string::npos) << got.error();
  }
}

TEST(form_multipart, more_parts_than_the_bound_are_refused) {
  std::vector<form_part> many(max_form_parts + 1, form_part{"p", "", "", "x"});
  const auto got = parse_multipart(write(many, "b"), "b");
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.error().find("more than"), std::string::npos);
}

TEST(form_urlencoded, fields_are_decoded_in_order) {
  const auto f = parse_urlencoded("a=1&b=x+y%26z&&a=2&c&%3D=%3d");
  const std::vector<std::pair<std::string, std::string>> want = {
      {"a", "1"}, {"b", "x y&z"}, {"a", "2"}, {"c", ""}, {"=", "="}};
  EXPECT_EQ(f, want);
}

TEST(form_same_body, multipart_bodies_with_the_same_parts_are_the_same_request) {
  const std::string a = write(import_parts, "----formdata-undici-1", "");
  const std::string b = write(import_parts, "XyZ");
  EXPECT_TRUE(same_body("multipart/form-data; boundary=----formdata-undici-1", a,
                        "multipart/form-data; boundary=XyZ", b));
  auto changed = import_parts;
  changed[0].content += "+14155550101\n";
  EXPECT_FALSE(same_body("multipart/form-data; boundary=XyZ", b,
                         "multipart/form-data; boundary=XyZ", write(changed, "XyZ")));
  changed = import_parts;
  changed[0].filename = "other.csv";
  EXPECT_FALSE(same_body("multipart/form-data; boundary=XyZ", b,
                         "multipart/form-data; boundary=XyZ", write(changed, "XyZ")));
}

TEST(form_same_body, urlencoded_bodies_with_the_same_fields_are_the_same_request) {
  const std::string ct = "application/x-www-form-urlencoded";
  EXPECT_TRUE(same_body(ct, "a=x+y&b=%2F", ct, "a=x%20y&b=/"));
  EXPECT_FALSE(same_body(ct, "a=1&b=2", ct, "b=2&a=1"));
  EXPECT_FALSE(same_body(ct, "a=1", ct, "a=2"));
}

TEST(form_same_body, other_bodies_are_compared_byte_for_byte) {
  EXPECT_TRUE(same_body("application/json", "{\"a\":1}", "application/json", "{\"a\":1}"));
  EXPECT_FALSE(same_body("application/json", "{\"a\":1}", "application/json", "{\"a\": 1}"));
  // A multipart body that does not parse is compared as bytes.
  EXPECT_FALSE(same_body("multipart/form-data; boundary=a", "--a\r\nbroken",
                         "multipart/form-data; boundary=b", "--b\r\nbroken"));
}

// Any parts with any boundary that occurs in none of them read back as
// written, whatever the ending, and two bodies of the same parts with two
// boundaries are the same request.
RC_GTEST_PROP(form_multipart_prop, parts_read_back_as_written_whatever_the_boundary, ()) {
  const auto text = rc::gen::container<std::string>(rc::gen::elementOf(std::string("ab\r\n-x;\"")));
  const auto parts = *rc::gen::container<std::vector<form_part>>(rc::gen::build<form_part>(
      rc::gen::set(&form_part::name,
                   rc::gen::nonEmpty(rc::gen::container<std::string>(rc::gen::inRange('a', 'z')))),
      rc::gen::set(&form_part::content, text)));
  const std::string b1 = "B" + *rc::gen::container<std::string>(rc::gen::inRange('0', '9'));
  const std::string b2 = "Q" + *rc::gen::container<std::string>(rc::gen::inRange('0', '9'));
  const std::string ending = *rc::gen::element<std::string>("", "\r\n", "\r\nepilogue");
  const auto got = parse_multipart(write(parts, b1, ending), b1);
  RC_ASSERT(got.ok());
  RC_ASSERT(got.value().size() == parts.size());
  for (std::size_t i = 0; i < parts.size(); ++i) {
    RC_ASSERT((*got)[i].name == parts[i].name);
    RC_ASSERT((*got)[i].content == parts[i].content);
  }
  RC_ASSERT(same_body("multipart/form-data; boundary=" + b1, write(parts, b1, ending),
                      "multipart/form-data; boundary=" + b2, write(parts, b2)));
}

}  // namespace
}  // namespace conform::core
