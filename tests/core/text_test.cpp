// The text helpers reports stand on: UTF-8 checked as RFC 3629 defines it,
// bytes that are not UTF-8 escaped, and bodies shown as text or summarised.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>

#include "core/text.hpp"

namespace conform::core {
namespace {

TEST(Utf8, WellFormedSequencesAreAcceptedAndMalformedOnesRefused) {
  EXPECT_TRUE(is_utf8(""));
  EXPECT_TRUE(is_utf8("plain ascii"));
  EXPECT_TRUE(is_utf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x93\x9e"));  // é € 📞
  EXPECT_FALSE(is_utf8("\xff"));
  EXPECT_FALSE(is_utf8("\xc3"));              // cut short
  EXPECT_FALSE(is_utf8("\xc0\xaf"));          // overlong '/'
  EXPECT_FALSE(is_utf8("\xe0\x80\xaf"));      // overlong
  EXPECT_FALSE(is_utf8("\xed\xa0\x80"));      // a surrogate
  EXPECT_FALSE(is_utf8("\xf4\x90\x80\x80"));  // above U+10FFFF
  EXPECT_FALSE(is_utf8("\x80"));              // a lone continuation byte
  EXPECT_EQ(utf8_sequence_length("\xe2\x82\xac", 0), 3u);
  EXPECT_EQ(utf8_sequence_length("a\xe2\x82", 1), 0u);
}

TEST(Utf8, InvalidBytesAreEscapedAndValidTextKept) {
  EXPECT_EQ(escape_invalid_utf8("ok \xc3\xa9"), "ok \xc3\xa9");
  EXPECT_EQ(escape_invalid_utf8("a\xff"
                                "b\xc3"),
            "a\\xffb\\xc3");
  EXPECT_EQ(escape_invalid_utf8("bell\x07\ttab\n"), "bell\x07\ttab\n");
  EXPECT_EQ(escape_invalid_utf8("bell\x07\ttab\n\x1b[2J\r", true), "bell\\x07\ttab\n\\x1b[2J\\x0d");
}

RC_GTEST_PROP(Utf8, EscapingAlwaysGivesUtf8AndKeepsUtf8Unchanged, (const std::string& bytes)) {
  const std::string out = escape_invalid_utf8(bytes);
  RC_ASSERT(is_utf8(out));
  RC_ASSERT(is_utf8(escape_invalid_utf8(bytes, true)));
  if (is_utf8(bytes)) RC_ASSERT(out == bytes);
}

TEST(BodyExcerpt, BinaryIsSummarisedAndTextIsCut) {
  const std::string png = std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16) + std::string(1218, 'x');
  EXPECT_EQ(body_excerpt(png, "image/png", 300), "1,234 bytes of image/png");
  EXPECT_EQ(body_excerpt(std::string("\0\x01\x02", 3), "", 300), "3 bytes of an undeclared type");
  EXPECT_EQ(body_excerpt("{\"a\":1}", "application/json; charset=utf-8", 300), "{\"a\":1}");
  EXPECT_EQ(body_excerpt("hello world", "text/plain", 5), "hello...");
  EXPECT_EQ(body_excerpt("caf\xc3\xa9", "text/plain", 4), "caf...");  // never half a character
  EXPECT_EQ(body_excerpt("bad \xff\xfe text", "text/html", 300), "bad \\xff\\xfe text");
  EXPECT_EQ(body_excerpt("", "image/png", 300), "");
  EXPECT_EQ(body_excerpt(std::string(1000, '\x80'), "text/plain", 10),
            "\\x80\\x80\\x80\\x80\\x80\\x80\\x80...");
}

RC_GTEST_PROP(BodyExcerpt, IsAlwaysUtf8, (const std::string& bytes, bool typed)) {
  const std::string out = body_excerpt(bytes, typed ? "text/plain" : "", 40);
  RC_ASSERT(is_utf8(out));
}

}  // namespace
}  // namespace conform::core
