#include "http/url.hpp"

#include <charconv>

namespace conform::http {
namespace {

url_result fail(std::string message) {
  return url_result{std::nullopt, std::move(message)};
}

/// The URL as it may appear in a message: never with userinfo (it may hold a password).
std::string shown(std::string_view text) {
  if (text.find('@') != std::string_view::npos) return "<URL with credentials>";
  return std::string(text);
}

bool is_host_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_';
}

bool is_ipv6_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == ':' ||
         c == '.';
}

}  // namespace

std::string_view to_string(url_scheme s) {
  return s == url_scheme::https ? "https" : "http";
}

bool url::default_port() const {
  return (scheme == url_scheme::http && port == 80) || (scheme == url_scheme::https && port == 443);
}

std::string url::authority() const {
  std::string out;
  if (ipv6_literal) {
    out.append("[").append(host).append("]");
  } else {
    out = host;
  }
  if (!default_port()) out.append(":").append(std::to_string(port));
  return out;
}

std::string url::to_string() const {
  std::string out(http::to_string(scheme));
  out.append("://").append(authority()).append(base_path);
  return out;
}

url_result parse_url(std::string_view text) {
  const std::string_view original = text;
  if (text.empty()) return fail("empty URL");
  url u;
  const auto sep = text.find("://");
  if (sep == std::string_view::npos) {
    return fail("'" + shown(original) + "' is not an absolute URL (expected http:// or https://)");
  }
  std::string scheme(text.substr(0, sep));
  for (auto& c : scheme) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  if (scheme == "http") {
    u.scheme = url_scheme::http;
  } else if (scheme == "https") {
    u.scheme = url_scheme::https;
  } else {
    return fail("unsupported scheme '" + scheme + "' (expected http or https)");
  }
  text.remove_prefix(sep + 3);
  const auto end_authority = text.find_first_of("/?#");
  std::string_view authority = text.substr(0, end_authority);
  std::string_view rest =
      end_authority == std::string_view::npos ? std::string_view{} : text.substr(end_authority);
  if (authority.find('@') != std::string_view::npos) {
    return fail("credentials in the URL are not supported; put them in the profile's credentials");
  }
  std::string_view port_text;
  if (!authority.empty() && authority.front() == '[') {
    const auto close = authority.find(']');
    if (close == std::string_view::npos)
      return fail("unterminated IPv6 literal in '" + shown(original) + "'");
    const std::string_view literal = authority.substr(1, close - 1);
    if (literal.empty() || literal.find(':') == std::string_view::npos) {
      return fail("invalid IPv6 literal '[" + std::string(literal) + "]'");
    }
    for (char c : literal) {
      if (!is_ipv6_char(c)) return fail("invalid IPv6 literal '[" + std::string(literal) + "]'");
    }
    u.host = std::string(literal);
    u.ipv6_literal = true;
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':')
        return fail("unexpected text after IPv6 literal in '" + shown(original) + "'");
      port_text = after.substr(1);
      if (port_text.empty()) return fail("empty port in '" + shown(original) + "'");
    }
  } else {
    const auto colon = authority.rfind(':');
    std::string_view host = authority.substr(0, colon);
    if (colon != std::string_view::npos) {
      port_text = authority.substr(colon + 1);
      if (port_text.empty()) return fail("empty port in '" + shown(original) + "'");
    }
    if (host.empty()) return fail("missing host in '" + shown(original) + "'");
    for (char c : host) {
      if (!is_host_char(c)) {
        return fail("invalid character '" + std::string(1, c) + "' in host '" + std::string(host) +
                    "'");
      }
    }
    u.host = std::string(host);
  }
  if (!port_text.empty()) {
    unsigned port = 0;
    const auto [ptr, ec] =
        std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    if (ec != std::errc{} || ptr != port_text.data() + port_text.size() || port == 0 ||
        port > 65535) {
      return fail("invalid port '" + std::string(port_text) + "' (expected 1..65535)");
    }
    u.port = static_cast<std::uint16_t>(port);
  } else {
    u.port = u.scheme == url_scheme::https ? 443 : 80;
  }
  if (!rest.empty() && (rest.front() == '?' || rest.front() == '#' ||
                        rest.find_first_of("?#") != std::string_view::npos)) {
    return fail("a base URL takes no query or fragment: '" + shown(original) + "'");
  }
  for (char c : rest) {
    if (static_cast<unsigned char>(c) <= 0x20 || static_cast<unsigned char>(c) >= 0x7f) {
      return fail("invalid character in path of '" + shown(original) + "'");
    }
  }
  while (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
  u.base_path = std::string(rest);
  return url_result{std::move(u), {}};
}

}  // namespace conform::http
