#pragma once
// Base64 (RFC 4648): HAR bodies, http basic credentials, JWT segments and
// the reference's cursors (base64url, section 5, unpadded as RFC 7515 has it).

#include <optional>
#include <string>
#include <string_view>

namespace conform::core {

/// Standard base64 with '=' padding.
std::string base64_encode(std::string_view bytes);

/// Base64url (RFC 4648 section 5) without padding, as JWS segments are written.
std::string base64url_encode(std::string_view bytes);

/// Which alphabet a decode accepts.
enum class base64_alphabet : unsigned char {
  standard,  // '+' and '/'
  either,    // standard or URL-safe ('-' and '_'), as JWT claims are read leniently
  url,       // URL-safe only, '=' padding at the end only: as a JWS verifier reads
};

/// The bytes of `text`; nullopt on a character outside the alphabet. With
/// `standard` and `either` padding is optional and decoding stops at '='.
/// With `url` trailing '=' are dropped, and a '=' elsewhere or a dangling
/// last character (a length of 4n + 1) is refused.
std::optional<std::string> base64_decode(std::string_view text,
                                         base64_alphabet alphabet = base64_alphabet::standard);

}  // namespace conform::core
