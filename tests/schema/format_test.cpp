// Format checkers, and formats as the validator applies them.

#include <gtest/gtest.h>

#include <algorithm>

#include "core/tz_names.hpp"
#include "schema/format.hpp"
#include "tests/schema/test_support.hpp"

namespace conform::schema {
namespace {

TEST(format, names_map_to_kinds) {
  EXPECT_EQ(parse_format("date-time"), format_kind::date_time);
  EXPECT_EQ(parse_format("e164"), format_kind::e164);
  EXPECT_EQ(parse_format("timezone"), format_kind::timezone);
  EXPECT_EQ(parse_format("int32"), format_kind::int32);
  EXPECT_EQ(parse_format("int64"), format_kind::int64);
  EXPECT_EQ(parse_format("float"), format_kind::unknown);
}

TEST(format, date_time_is_rfc_3339) {
  for (const char* ok : {"2026-11-20T10:00:00Z", "2026-11-20T10:00:00.123Z",
                         "2024-02-29T23:59:60+05:30", "2026-01-01t00:00:00-00:00"}) {
    EXPECT_TRUE(check_format(format_kind::date_time, ok)) << ok;
  }
  for (const char* bad : {"2026-11-20", "2026-11-20 10:00:00Z", "2026-11-20T10:00:00",
                          "2023-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-11-20T24:00:00Z",
                          "2026-11-20T10:00:00.Z", "2026-11-20T10:00:00+0530", ""}) {
    EXPECT_FALSE(check_format(format_kind::date_time, bad)) << bad;
  }
}

TEST(format, date_and_time) {
  EXPECT_TRUE(check_format(format_kind::date, "2000-02-29"));
  EXPECT_FALSE(check_format(format_kind::date, "1900-02-29"));
  EXPECT_TRUE(check_format(format_kind::time, "10:00:00Z"));
  EXPECT_FALSE(check_format(format_kind::time, "10:00"));
}

TEST(format, email) {
  EXPECT_TRUE(check_format(format_kind::email, "a.b+c@example.com"));
  EXPECT_TRUE(check_format(format_kind::email, "x@localhost"));
  for (const char* bad : {"plain", "@example.com", "a@", "a..b@example.com", ".a@example.com",
                          "a@-example.com", "a b@example.com", "a@exa_mple.com"}) {
    EXPECT_FALSE(check_format(format_kind::email, bad)) << bad;
  }
}

TEST(format, uri) {
  EXPECT_TRUE(check_format(format_kind::uri, "https://example.com/a?b=c#d"));
  EXPECT_TRUE(check_format(format_kind::uri, "urn:isbn:0451450523"));
  EXPECT_TRUE(check_format(format_kind::uri, "https://example.com/%20"));
  for (const char* bad :
       {"/relative", "example.com", "https://exa mple.com", "1http://x", "https://x/%zz"}) {
    EXPECT_FALSE(check_format(format_kind::uri, bad)) << bad;
  }
}

TEST(format, uuid) {
  EXPECT_TRUE(check_format(format_kind::uuid, "123e4567-e89b-12d3-a456-426614174000"));
  EXPECT_FALSE(check_format(format_kind::uuid, "123e4567e89b12d3a456426614174000"));
  EXPECT_FALSE(check_format(format_kind::uuid, "123e4567-e89b-12d3-a456-42661417400g"));
}

TEST(format, e164) {
  EXPECT_TRUE(check_format(format_kind::e164, "+14155550100"));
  EXPECT_TRUE(check_format(format_kind::e164, "+12"));
  EXPECT_TRUE(check_format(format_kind::e164, "+123456789012345"));
  for (const char* bad : {"14155550100", "+0123", "+1", "+1234567890123456", "+1 415", ""}) {
    EXPECT_FALSE(check_format(format_kind::e164, bad)) << bad;
  }
}

TEST(format, time_zones_are_iana_names) {
  EXPECT_TRUE(core::is_time_zone("Europe/Paris"));
  EXPECT_TRUE(core::is_time_zone("America/Argentina/Buenos_Aires"));
  EXPECT_TRUE(core::is_time_zone("UTC"));
  EXPECT_TRUE(core::is_time_zone("Asia/Calcutta"));  // a link
  EXPECT_FALSE(core::is_time_zone("Europe/Pariss"));
  EXPECT_FALSE(core::is_time_zone("europe/paris"));
  EXPECT_FALSE(core::is_time_zone("+05:30"));
  const auto zones = core::canonical_time_zones();
  EXPECT_GT(zones.size(), 300u);
  EXPECT_TRUE(std::is_sorted(zones.begin(), zones.end()));
  EXPECT_TRUE(
      std::all_of(zones.begin(), zones.end(), [](auto z) { return core::is_time_zone(z); }));
}

TEST(format, decimal) {
  EXPECT_TRUE(check_format(format_kind::decimal, "-12.50"));
  EXPECT_TRUE(check_format(format_kind::decimal, "7"));
  EXPECT_FALSE(check_format(format_kind::decimal, "1."));
  EXPECT_FALSE(check_format(format_kind::decimal, ".5"));
  EXPECT_FALSE(check_format(format_kind::decimal, "1e5"));
}

// OpenAPI's `byte` is base64 (RFC 4648 section 4); `binary` is any octets.
TEST(format, byte_is_base64_and_binary_is_any_octets) {
  EXPECT_EQ(parse_format("byte"), format_kind::byte);
  EXPECT_EQ(parse_format("binary"), format_kind::binary);
  for (const char* ok : {"", "QQ==", "QUI=", "QUJD", "QUJDRA==", "+/+/", "QQ"}) {
    EXPECT_TRUE(check_format(format_kind::byte, ok)) << ok;
  }
  for (const char* bad : {"not base64!", "QUJD=", "QQ=A", "A", "QQ=", "QQ===", "-_-_", "QU JD"}) {
    EXPECT_FALSE(check_format(format_kind::byte, bad)) << bad;
  }
  EXPECT_TRUE(check_format(format_kind::binary, std::string_view("\xff\x00\x80", 3)));
}

TEST(format, validator_asserts_known_formats_only) {
  testing::schemas make;
  const schema& tz = make(R"({"type": "string", "format": "timezone"})");
  EXPECT_TRUE(testing::check(tz, R"("Asia/Kolkata")").ok());
  const auto r = testing::check(tz, R"("Mars/Olympus")");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].schema_location, "#/format");
  EXPECT_EQ(r.errors[0].message, "\"Mars/Olympus\" is not a valid timezone");
  const schema& unknown = make(R"({"type": "string", "format": "color"})");
  EXPECT_TRUE(testing::check(unknown, R"("anything")").ok());
  const schema& non_string = make(R"({"format": "email"})");
  EXPECT_TRUE(testing::check(non_string, "12").ok());
}

TEST(format, int32_and_int64_are_ranges_of_whole_numbers) {
  testing::schemas make;
  const schema& i32 = make(R"({"type": "integer", "format": "int32"})");
  for (const char* ok : {"0", "2147483647", "-2147483648", "12.0"}) {
    EXPECT_TRUE(testing::valid(i32, ok)) << ok;
  }
  for (const char* bad : {"2147483648", "-2147483649", "9223372036854775808", "1e10"}) {
    EXPECT_FALSE(testing::valid(i32, bad)) << bad;
  }
  const auto r = testing::check(i32, "2147483648");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].schema_location, "#/format");
  EXPECT_EQ(r.errors[0].message, "2147483648 is not a valid int32");
  const schema& i64 = make(R"({"format": "int64"})");
  for (const char* ok : {"9223372036854775807", "-9223372036854775808", "2147483648"}) {
    EXPECT_TRUE(testing::valid(i64, ok)) << ok;
  }
  for (const char* bad : {"9223372036854775808", "18446744073709551615", "1e19", "0.5"}) {
    EXPECT_FALSE(testing::valid(i64, bad)) << bad;
  }
  // A number format says nothing of a string, nor a string format of a number.
  EXPECT_TRUE(testing::valid(make(R"({"format": "int32"})"), R"("99999999999")"));
  EXPECT_TRUE(testing::valid(make(R"({"format": "date"})"), "2147483648"));
}

}  // namespace
}  // namespace conform::schema
