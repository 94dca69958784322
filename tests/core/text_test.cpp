// The text helpers reports stand on: UTF-8 checked as RFC 3629 defines it,
// bytes that are not UTF-8 escaped, and bodies shown as text or summarised.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/text.hpp"

namespace conform::core {
namespace {

TEST(utf8, well_formed_sequences_are_accepted_and_malformed_ones_refused) {
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

TEST(utf8, invalid_bytes_are_escaped_and_valid_text_kept) {
  EXPECT_EQ(escape_invalid_utf8("ok \xc3\xa9"), "ok \xc3\xa9");
  EXPECT_EQ(escape_invalid_utf8("a\xff"
                                "b\xc3"),
            "a\\xffb\\xc3");
  EXPECT_EQ(escape_invalid_utf8("bell\x07\ttab\n"), "bell\x07\ttab\n");
  EXPECT_EQ(escape_invalid_utf8("bell\x07\ttab\n\x1b[2J\r", true), "bell\\x07\ttab\n\\x1b[2J\\x0d");
}

// is_utf8 skips plain ASCII eight bytes at a time: a bad byte anywhere in
// or after such a run, at any offset, is still found.
RC_GTEST_PROP(utf8, the_check_agrees_with_decoding_sequence_by_sequence,
              (const std::string& ascii, const std::string& bytes, unsigned at)) {
  std::string text = ascii;
  for (char& c : text) c = static_cast<char>(static_cast<unsigned char>(c) & 0x7f);
  text.insert(text.size() == 0 ? 0 : at % (text.size() + 1), bytes);
  bool decodes = true;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_sequence_length(text, i);
    if (n == 0) {
      decodes = false;
      break;
    }
    i += n;
  }
  RC_ASSERT(is_utf8(text) == decodes);
}

RC_GTEST_PROP(utf8, escaping_always_gives_utf8_and_keeps_utf8_unchanged,
              (const std::string& bytes)) {
  const std::string out = escape_invalid_utf8(bytes);
  RC_ASSERT(is_utf8(out));
  RC_ASSERT(is_utf8(escape_invalid_utf8(bytes, true)));
  if (is_utf8(bytes)) RC_ASSERT(out == bytes);
}

TEST(body_excerpt, binary_is_summarised_and_text_is_cut) {
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

RC_GTEST_PROP(body_excerpt, is_always_utf8, (const std::string& bytes, bool typed)) {
  const std::string out = body_excerpt(bytes, typed ? "text/plain" : "", 40);
  RC_ASSERT(is_utf8(out));
}

TEST(excerpt, cuts_at_a_character_and_says_so) {
  EXPECT_EQ(excerpt("short", 10), "short");
  EXPECT_EQ(excerpt("exactly10!", 10), "exactly10!");
  EXPECT_EQ(excerpt("hello world", 5), "hello...");
  // "é" is C3 A9: a cut at byte 4 would split it; the cut backs off to byte 3.
  EXPECT_EQ(excerpt("caf\xc3\xa9!", 4), "caf...");
  // A 4-byte character (U+1F4DE) cut anywhere inside is left out whole.
  for (std::size_t at = 2; at <= 4; ++at) {
    EXPECT_EQ(excerpt("a\xf0\x9f\x93\x9e"
                      "b",
                      at),
              "a...")
        << at;
  }
  EXPECT_EQ(excerpt("bad \xff", 300), "bad \\xff");
  EXPECT_EQ(excerpt("", 0), "");
  EXPECT_EQ(excerpt("abc", 0), "...");
}

// Any valid UTF-8 input gives a valid UTF-8 excerpt no longer than the
// limit and the ellipsis, which begins with as much of the input as fits.
RC_GTEST_PROP(excerpt, of_utf8_is_utf8_and_within_the_limit, (const std::string& raw)) {
  // Text of characters of every length: build it from code points.
  std::string text;
  for (const char c : raw) {
    const auto b = static_cast<unsigned char>(c);
    if (b % 4 == 0) {
      text += static_cast<char>(b & 0x7f);
    } else if (b % 4 == 1) {
      text += "\xc3\xa9";
    } else if (b % 4 == 2) {
      text += "\xe2\x82\xac";
    } else {
      text += "\xf0\x9f\x93\x9e";
    }
  }
  RC_PRE(is_utf8(text));
  const std::size_t max = *rc::gen::inRange<std::size_t>(0, text.size() + 2);
  const std::string out = excerpt(text, max);
  RC_ASSERT(is_utf8(out));
  RC_ASSERT(out.size() <= max + 3);
  if (text.size() <= max) {
    RC_ASSERT(out == text);
  } else {
    RC_ASSERT(out.ends_with("..."));
    const std::string kept = out.substr(0, out.size() - 3);
    RC_ASSERT(text.starts_with(kept));
    RC_ASSERT(kept.size() + 3 >= max);  // it backs off by less than a character
  }
}

RC_GTEST_PROP(excerpt, of_any_bytes_is_utf8, (const std::string& bytes)) {
  const std::size_t max = *rc::gen::inRange<std::size_t>(0, bytes.size() + 2);
  RC_ASSERT(is_utf8(excerpt(bytes, max)));
}

TEST(xml_escape, escapes_markup_and_what_xml_forbids) {
  EXPECT_EQ(xml_escape("<a href=\"x\">&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;");
  EXPECT_EQ(xml_escape("tab\tline\n caf\xc3\xa9"), "tab\tline\n caf\xc3\xa9");
  EXPECT_EQ(xml_escape("bell\x07 \xff \xef\xbf\xbe"), "bell\\x07 \\xff \\xef\\xbf\\xbe");
}

RC_GTEST_PROP(xml_escape, is_always_utf8_without_markup, (const std::string& bytes)) {
  const std::string out = xml_escape(bytes);
  RC_ASSERT(is_utf8(out));
  RC_ASSERT(out.find_first_of("<>\"'") == std::string::npos);
}

TEST(join, puts_the_separator_between_every_two_items_empty_ones_too) {
  EXPECT_EQ(core::join({}), "");
  EXPECT_EQ(core::join({"a"}), "a");
  EXPECT_EQ(core::join({"a", "b", "c"}), "a, b, c");
  // An empty item still has its separators: the bug was ("", "b") -> "b".
  EXPECT_EQ(core::join({"", "b"}, ","), ",b");
  EXPECT_EQ(core::join({"a", ""}, ","), "a,");
  EXPECT_EQ(core::join({"", "", ""}, "/"), "//");
  EXPECT_EQ(core::join({"x", "y"}, ""), "xy");
}

RC_GTEST_PROP(join, has_one_separator_fewer_than_items, (const std::vector<std::string>& raw)) {
  // Items without the separator's character, so counting it counts separators.
  std::vector<std::string> items;
  for (auto s : raw) {
    std::erase(s, '|');
    items.push_back(std::move(s));
  }
  const std::string joined = core::join(items, "|");
  const auto seps = static_cast<std::size_t>(std::count(joined.begin(), joined.end(), '|'));
  RC_ASSERT(seps == (items.empty() ? 0 : items.size() - 1));
}

TEST(number_text, shortest_round_trip_form_and_whole_numbers_in_full) {
  EXPECT_EQ(core::number_text(0.01), "0.01");
  EXPECT_EQ(core::number_text(5.0), "5");
  EXPECT_EQ(core::number_text(-2.5), "-2.5");
  EXPECT_EQ(core::number_text(1e7), "1e+07");
  EXPECT_EQ(core::number_text(0.1234567), "0.1234567");
  EXPECT_EQ(core::whole_number_text(1e7), "10000000");
  EXPECT_EQ(core::whole_number_text(-42.0), "-42");
  EXPECT_EQ(core::whole_number_text(0.1234567), "0.1234567");
  EXPECT_EQ(core::whole_number_text(1e15), "1e+15");
}

RC_GTEST_PROP(number_text, reads_back_as_the_same_number, (double d)) {
  RC_PRE(std::isfinite(d));
  RC_ASSERT(std::stod(core::number_text(d)) == d);
  RC_ASSERT(std::stod(core::whole_number_text(d)) == d);
}

TEST(percent_decode, decodes_hex_pairs_and_keeps_a_stray_percent) {
  EXPECT_EQ(percent_decode("a%20b%2Fc%2f"), "a b/c/");
  EXPECT_EQ(percent_decode("%zz%4"), "%zz%4");  // not two hex digits: kept
  EXPECT_EQ(percent_decode("100%"), "100%");
  EXPECT_EQ(percent_decode("%00"), std::string(1, '\0'));
  EXPECT_EQ(percent_decode("a+b"), "a+b");            // a path: + is a plus
  EXPECT_EQ(percent_decode("a+b%2B", true), "a b+");  // a query value: + is a space
}

RC_GTEST_PROP(percent_decode, undoes_percent_encode,
              (const std::string& text, bool plus_is_space)) {
  RC_ASSERT(percent_decode(percent_encode(text), plus_is_space) == text);
}

TEST(iequals, ignores_the_case_of_ascii_letters_only) {
  EXPECT_TRUE(core::iequals("Content-Type", "content-TYPE"));
  EXPECT_TRUE(core::iequals("", ""));
  EXPECT_FALSE(core::iequals("Content-Type", "Content-Typ"));
  EXPECT_FALSE(core::iequals("a-b", "a_b"));
  // Only ASCII letters fold: '@' (0x40) and '`' (0x60) differ by the same bit.
  EXPECT_FALSE(core::iequals("@", "`"));
  EXPECT_FALSE(core::iequals("\xC3\x89", "\xC3\xA9"));
  EXPECT_EQ(core::ascii_lower("BeArEr-1\xC3\x89"), "bearer-1\xC3\x89");
}

TEST(media_type_of, lower_cased_without_parameters_or_spaces) {
  EXPECT_EQ(core::media_type_of("Application/JSON; charset=utf-8"), "application/json");
  EXPECT_EQ(core::media_type_of(" \ttext/plain\t ;q=1"), "text/plain");
  EXPECT_EQ(core::media_type_of("multipart/form-data;boundary=x"), "multipart/form-data");
  EXPECT_EQ(core::media_type_of(""), "");
  EXPECT_EQ(core::media_type_of("; charset=utf-8"), "");
}

}  // namespace
}  // namespace conform::core
