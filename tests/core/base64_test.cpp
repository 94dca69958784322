// Base64 (RFC 4648): the test vectors of section 10 in both alphabets, a
// round trip of any bytes, and what each decoding mode refuses.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>

#include "core/base64.hpp"

namespace conform::core {
namespace {

TEST(base64, encodes_the_rfc_4648_vectors) {
  const std::pair<const char*, const char*> vectors[] = {{"", ""},
                                                         {"f", "Zg=="},
                                                         {"fo", "Zm8="},
                                                         {"foo", "Zm9v"},
                                                         {"foob", "Zm9vYg=="},
                                                         {"fooba", "Zm9vYmE="},
                                                         {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, encoded] : vectors) {
    EXPECT_EQ(base64_encode(plain), encoded) << plain;
    std::string unpadded(encoded);
    while (!unpadded.empty() && unpadded.back() == '=') unpadded.pop_back();
    EXPECT_EQ(base64url_encode(plain), unpadded) << plain;
    EXPECT_EQ(base64_decode(encoded), plain) << encoded;
    EXPECT_EQ(base64_decode(encoded, base64_alphabet::url), plain) << encoded;
    EXPECT_EQ(base64_decode(unpadded, base64_alphabet::url), plain) << unpadded;
  }
}

TEST(base64, the_url_alphabet_writes_dash_and_underscore) {
  const std::string bytes("\xfb\xff\xbf", 3);
  EXPECT_EQ(base64_encode(bytes), "+/+/");
  EXPECT_EQ(base64url_encode(bytes), "-_-_");
  EXPECT_EQ(base64_decode("-_-_", base64_alphabet::either), bytes);
  EXPECT_EQ(base64_decode("+/+/", base64_alphabet::either), bytes);
  EXPECT_EQ(base64_decode("-_-_", base64_alphabet::url), bytes);
  EXPECT_FALSE(base64_decode("-_-_"));  // standard refuses the URL-safe characters
}

TEST(base64, the_url_mode_refuses_what_a_jws_verifier_refuses) {
  EXPECT_FALSE(base64_decode("+/+/", base64_alphabet::url));       // the standard characters
  EXPECT_FALSE(base64_decode("Zm9vY", base64_alphabet::url));      // a dangling character
  EXPECT_FALSE(base64_decode("Zg==Zg", base64_alphabet::url));     // '=' inside
  EXPECT_FALSE(base64_decode("Zm9v YmFy", base64_alphabet::url));  // a space
  // The lenient modes stop at the first '=', as they always have.
  EXPECT_EQ(base64_decode("Zg==Zg"), "f");
}

RC_GTEST_PROP(base64, any_bytes_come_back_from_either_encoding, (const std::string& bytes)) {
  RC_ASSERT(base64_decode(base64_encode(bytes)) == bytes);
  RC_ASSERT(base64_decode(base64url_encode(bytes), base64_alphabet::url) == bytes);
  RC_ASSERT(base64url_encode(bytes).find_first_of("+/=") == std::string::npos);
}

}  // namespace
}  // namespace conform::core
