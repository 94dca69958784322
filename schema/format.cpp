// Format checkers: hand-written scanners that allocate nothing.

#include "schema/format.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

#include "core/tz_names.hpp"

namespace conform::schema {

namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_hex(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/// Reads exactly `n` digits at `pos` into `out`; advances `pos`.
bool read_digits(std::string_view s, std::size_t& pos, std::size_t n, int& out) {
  if (pos + n > s.size()) return false;
  out = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const char c = s[pos + i];
    if (!is_digit(c)) return false;
    out = out * 10 + (c - '0');
  }
  pos += n;
  return true;
}

bool expect(std::string_view s, std::size_t& pos, char c) {
  if (pos >= s.size() || s[pos] != c) return false;
  ++pos;
  return true;
}

int days_in_month(int year, int month) {
  static constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : days[month - 1];
}

bool scan_date(std::string_view s, std::size_t& pos) {
  int y = 0, m = 0, d = 0;
  if (!read_digits(s, pos, 4, y) || !expect(s, pos, '-') || !read_digits(s, pos, 2, m) ||
      !expect(s, pos, '-') || !read_digits(s, pos, 2, d)) {
    return false;
  }
  return m >= 1 && m <= 12 && d >= 1 && d <= days_in_month(y, m);
}

/// partial-time time-offset (RFC 3339 full-time).
bool scan_time(std::string_view s, std::size_t& pos) {
  int h = 0, mi = 0, sec = 0;
  if (!read_digits(s, pos, 2, h) || !expect(s, pos, ':') || !read_digits(s, pos, 2, mi) ||
      !expect(s, pos, ':') || !read_digits(s, pos, 2, sec)) {
    return false;
  }
  if (h > 23 || mi > 59 || sec > 60) return false;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    const std::size_t start = pos;
    while (pos < s.size() && is_digit(s[pos])) ++pos;
    if (pos == start) return false;
  }
  if (pos >= s.size()) return false;
  if (s[pos] == 'Z' || s[pos] == 'z') {
    ++pos;
    return true;
  }
  if (s[pos] != '+' && s[pos] != '-') return false;
  ++pos;
  int oh = 0, om = 0;
  if (!read_digits(s, pos, 2, oh) || !expect(s, pos, ':') || !read_digits(s, pos, 2, om)) {
    return false;
  }
  return oh <= 23 && om <= 59;
}

bool check_date_time(std::string_view s) {
  std::size_t pos = 0;
  if (!scan_date(s, pos)) return false;
  if (pos >= s.size() || (s[pos] != 'T' && s[pos] != 't')) return false;
  ++pos;
  return scan_time(s, pos) && pos == s.size();
}

bool check_date(std::string_view s) {
  std::size_t pos = 0;
  return scan_date(s, pos) && pos == s.size();
}

bool check_time(std::string_view s) {
  std::size_t pos = 0;
  return scan_time(s, pos) && pos == s.size();
}

bool is_atext(char c) {
  if (is_alpha(c) || is_digit(c)) return true;
  constexpr std::string_view specials = "!#$%&'*+-/=?^_`{|}~";
  return specials.find(c) != std::string_view::npos;
}

bool check_hostname(std::string_view host) {
  if (host.empty() || host.size() > 253) return false;
  std::size_t label = 0;
  for (std::size_t i = 0; i <= host.size(); ++i) {
    if (i == host.size() || host[i] == '.') {
      if (label == 0 || label > 63) return false;
      if (host[i - 1] == '-' || host[i - label] == '-') return false;
      label = 0;
      continue;
    }
    const char c = host[i];
    if (!is_alpha(c) && !is_digit(c) && c != '-') return false;
    ++label;
  }
  return true;
}

bool check_email(std::string_view s) {
  const std::size_t at = s.rfind('@');
  if (at == std::string_view::npos || at == 0 || at > 64) return false;
  const std::string_view local = s.substr(0, at);
  if (local.front() == '.' || local.back() == '.') return false;
  for (std::size_t i = 0; i < local.size(); ++i) {
    if (local[i] == '.') {
      if (local[i + 1] == '.') return false;
      continue;
    }
    if (!is_atext(local[i])) return false;
  }
  return check_hostname(s.substr(at + 1));
}

bool is_uri_char(char c) {
  if (is_alpha(c) || is_digit(c)) return true;
  constexpr std::string_view allowed = "-._~:/?#[]@!$&'()*+,;=";
  return allowed.find(c) != std::string_view::npos;
}

bool check_uri(std::string_view s) {
  if (s.empty() || !is_alpha(s[0])) return false;
  std::size_t pos = 1;
  while (pos < s.size() && (is_alpha(s[pos]) || is_digit(s[pos]) || s[pos] == '+' ||
                            s[pos] == '-' || s[pos] == '.')) {
    ++pos;
  }
  if (pos >= s.size() || s[pos] != ':') return false;
  for (++pos; pos < s.size(); ++pos) {
    if (s[pos] == '%') {
      if (pos + 2 >= s.size() || !is_hex(s[pos + 1]) || !is_hex(s[pos + 2])) return false;
      pos += 2;
    } else if (!is_uri_char(s[pos])) {
      return false;
    }
  }
  return true;
}

bool check_uuid(std::string_view s) {
  if (s.size() != 36) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? s[i] != '-' : !is_hex(s[i])) return false;
  }
  return true;
}

bool check_e164(std::string_view s) {
  if (s.size() < 3 || s.size() > 16 || s[0] != '+' || s[1] < '1' || s[1] > '9') return false;
  return std::all_of(s.begin() + 2, s.end(), is_digit);
}

bool check_decimal(std::string_view s) {
  std::size_t pos = 0;
  if (pos < s.size() && s[pos] == '-') ++pos;
  const std::size_t int_start = pos;
  while (pos < s.size() && is_digit(s[pos])) ++pos;
  if (pos == int_start) return false;
  if (pos == s.size()) return true;
  if (s[pos] != '.') return false;
  const std::size_t frac_start = ++pos;
  while (pos < s.size() && is_digit(s[pos])) ++pos;
  return pos > frac_start && pos == s.size();
}

/// Base64 of RFC 4648 section 4: the standard alphabet, in quanta of four
/// characters, the last padded with "=" (or left unpadded, as many encoders
/// write it, but never one character short of a byte).
bool check_base64(std::string_view s) {
  std::size_t end = s.size();
  std::size_t pad = 0;
  while (end > 0 && s[end - 1] == '=' && pad < 2) {
    --end;
    ++pad;
  }
  const bool alphabet =
      std::all_of(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(end), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || is_digit(c) || c == '+' ||
               c == '/';
      });
  if (!alphabet || end % 4 == 1) return false;
  return pad == 0 || s.size() % 4 == 0;
}

}  // namespace

format_kind parse_format(std::string_view name) {
  struct entry {
    std::string_view name;
    format_kind kind;
  };
  static constexpr entry names[] = {
      {"date-time", format_kind::date_time},
      {"date", format_kind::date},
      {"time", format_kind::time},
      {"email", format_kind::email},
      {"uri", format_kind::uri},
      {"uuid", format_kind::uuid},
      {"e164", format_kind::e164},
      {"e.164", format_kind::e164},
      {"phone-e164", format_kind::e164},
      {"timezone", format_kind::timezone},
      {"time-zone", format_kind::timezone},
      {"iana-timezone", format_kind::timezone},
      {"iana-time-zone", format_kind::timezone},
      {"decimal", format_kind::decimal},
      {"decimal-string", format_kind::decimal},
      {"byte", format_kind::byte},
      {"binary", format_kind::binary},
      {"int32", format_kind::int32},
      {"int64", format_kind::int64},
  };
  for (const auto& e : names) {
    if (e.name == name) return e.kind;
  }
  return format_kind::unknown;
}

bool check_format(format_kind kind, std::string_view value) {
  switch (kind) {
    case format_kind::unknown:
      return true;
    case format_kind::date_time:
      return check_date_time(value);
    case format_kind::date:
      return check_date(value);
    case format_kind::time:
      return check_time(value);
    case format_kind::email:
      return check_email(value);
    case format_kind::uri:
      return check_uri(value);
    case format_kind::uuid:
      return check_uuid(value);
    case format_kind::e164:
      return check_e164(value);
    case format_kind::timezone:
      return core::is_time_zone(value);
    case format_kind::decimal:
      return check_decimal(value);
    case format_kind::byte:
      return check_base64(value);
    case format_kind::binary:
      return true;  // any octets
    case format_kind::int32:
    case format_kind::int64:
      return true;  // number formats: a string is not theirs to judge
  }
  return true;
}

bool is_number_format(format_kind kind) {
  return kind == format_kind::int32 || kind == format_kind::int64;
}

bool check_number_format(format_kind kind, const json_number& n) {
  if (!is_number_format(kind)) return true;
  const bool narrow = kind == format_kind::int32;
  const std::int64_t lo =
      narrow ? std::numeric_limits<std::int32_t>::min() : std::numeric_limits<std::int64_t>::min();
  const std::int64_t hi =
      narrow ? std::numeric_limits<std::int32_t>::max() : std::numeric_limits<std::int64_t>::max();
  switch (n.form) {
    case json_number::kind::int64:
      return n.i >= lo && n.i <= hi;
    case json_number::kind::uint64:
      return n.u <= static_cast<std::uint64_t>(hi);
    case json_number::kind::real:
      // A whole number in range: 2^63 itself is the first double out of
      // int64's range, and -2^63 the last one in it.
      return std::isfinite(n.d) && std::trunc(n.d) == n.d && n.d >= static_cast<double>(lo) &&
             n.d < static_cast<double>(hi) + 1.0;
  }
  return true;
}

}  // namespace conform::schema
