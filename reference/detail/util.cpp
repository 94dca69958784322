#include "reference/detail/util.hpp"

#include "core/tz_names.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>

namespace conform::reference::detail {

std::int64_t now_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string format_time(std::int64_t epoch_seconds) {
  std::time_t t = static_cast<std::time_t>(epoch_seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  std::array<char, 32> buf{};
  std::strftime(buf.data(), buf.size(), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf.data();
}

namespace {

bool read_int(std::string_view s, std::size_t pos, std::size_t len, int& out) {
  if (pos + len > s.size()) return false;
  int v = 0;
  for (std::size_t i = pos; i < pos + len; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  out = v;
  return true;
}

}  // namespace

std::optional<std::int64_t> parse_time(std::string_view s) {
  int year = 0, mon = 0, day = 0, hour = 0, min = 0, sec = 0;
  if (s.size() < 20) return std::nullopt;
  if (!read_int(s, 0, 4, year) || s[4] != '-' || !read_int(s, 5, 2, mon) || s[7] != '-' ||
      !read_int(s, 8, 2, day) || (s[10] != 'T' && s[10] != 't') || !read_int(s, 11, 2, hour) ||
      s[13] != ':' || !read_int(s, 14, 2, min) || s[16] != ':' || !read_int(s, 17, 2, sec)) {
    return std::nullopt;
  }
  if (mon < 1 || mon > 12 || day < 1 || day > 31 || hour > 23 || min > 59 || sec > 60) {
    return std::nullopt;
  }
  std::size_t pos = 19;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    std::size_t start = pos;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') ++pos;
    if (pos == start) return std::nullopt;
  }
  int offset = 0;
  if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
    ++pos;
  } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    int oh = 0, om = 0;
    if (!read_int(s, pos + 1, 2, oh) || pos + 3 >= s.size() || s[pos + 3] != ':' ||
        !read_int(s, pos + 4, 2, om) || oh > 23 || om > 59) {
      return std::nullopt;
    }
    offset = (oh * 60 + om) * 60 * (s[pos] == '-' ? -1 : 1);
    pos += 6;
  } else {
    return std::nullopt;
  }
  if (pos != s.size()) return std::nullopt;
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = mon - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = min;
  tm.tm_sec = sec;
  std::time_t t = timegm(&tm);
  return static_cast<std::int64_t>(t) - offset;
}

std::string format_cents(std::int64_t cents) {
  bool neg = cents < 0;
  std::uint64_t v =
      neg ? static_cast<std::uint64_t>(-(cents + 1)) + 1 : static_cast<std::uint64_t>(cents);
  std::string out =
      std::to_string(v / 100) + "." + (v % 100 < 10 ? "0" : "") + std::to_string(v % 100);
  return neg ? "-" + out : out;
}

std::string format_milli4(std::int64_t units) {
  bool neg = units < 0;
  std::uint64_t v =
      neg ? static_cast<std::uint64_t>(-(units + 1)) + 1 : static_cast<std::uint64_t>(units);
  std::array<char, 8> frac{};
  std::snprintf(frac.data(), frac.size(), "%04llu", static_cast<unsigned long long>(v % 10000));
  std::string out = std::to_string(v / 10000) + "." + frac.data();
  return neg ? "-" + out : out;
}

std::string hmac_sha256(std::string_view key, std::string_view data) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> md{};
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), md.data(), &len);
  return std::string(reinterpret_cast<const char*>(md.data()), len);
}

std::string to_hex(std::string_view bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (char c : bytes) {
    auto b = static_cast<unsigned char>(c);
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

bool equal_constant_time(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

bool is_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

std::uint64_t parse_id(std::string_view s) {
  if (!is_digits(s) || s.size() > 18) return 0;
  std::uint64_t v = 0;
  for (char c : s) v = v * 10 + static_cast<std::uint64_t>(c - '0');
  return v;
}

std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

bool is_iana_time_zone(std::string_view tz) {
  // The same zone list the description's `format: timezone` names, so that
  // what a client may send and what the server takes cannot drift apart.
  return core::is_time_zone(tz);
}

bool is_e164(std::string_view s) {
  // ^\+[1-9][0-9]{1,14}$, as the description's E164 schema says.
  if (s.size() < 3 || s.size() > 16 || s[0] != '+' || s[1] == '0') return false;
  return is_digits(s.substr(1));
}

}  // namespace conform::reference::detail
