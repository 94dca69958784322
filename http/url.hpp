#pragma once
// The target's base URL: scheme, host, port and base path, parsed once at the
// edge. Requests carry a target relative to the base path.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace conform::http {

/// The schemes Conform speaks.
enum class url_scheme : std::uint8_t { http, https };

/// "http" or "https".
std::string_view to_string(url_scheme s);

/// A parsed base URL such as `https://[::1]:8443/api/v1`.
struct url {
  url_scheme scheme = url_scheme::http;
  std::string host;        // without brackets for IPv6 literals
  std::uint16_t port = 0;  // explicit or the scheme's default
  std::string base_path;   // "" or "/api/v1" (never a trailing '/')
  bool ipv6_literal = false;

  /// True when the port is the scheme's default (80 or 443).
  bool default_port() const;
  /// "host" or "host:port" for the Host header ("[::1]:8080" for IPv6).
  std::string authority() const;
  /// "scheme://authority" plus the base path.
  std::string to_string() const;
};

/// A parsed URL, or what is wrong with the text.
struct url_result {
  std::optional<url> value;
  std::string error;  // set when value is empty
  bool ok() const { return value.has_value(); }
};

/// Parses an absolute http:// or https:// URL; no userinfo, query or fragment.
url_result parse_url(std::string_view text);

}  // namespace conform::http
