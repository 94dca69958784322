#pragma once
// Base64 (RFC 4648): HAR bodies, http basic credentials, JWT segments.

#include <optional>
#include <string>
#include <string_view>

namespace conform::core {

/// Standard base64 with '=' padding.
std::string base64_encode(std::string_view bytes);

/// Which alphabet a decode accepts.
enum class base64_alphabet : unsigned char {
  standard,  // '+' and '/'
  either,    // standard or URL-safe ('-' and '_'), as JWT segments are read
};

/// The bytes of `text` (padding optional: decoding stops at '='); nullopt on
/// a character outside the alphabet.
std::optional<std::string> base64_decode(std::string_view text,
                                         base64_alphabet alphabet = base64_alphabet::standard);

}  // namespace conform::core
