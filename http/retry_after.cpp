#include "http/retry_after.hpp"

#include <array>
#include <charconv>
#include <cstdint>

namespace conform::http {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

/// Reads exactly `digits` decimal digits (or 1..digits when `at_most`).
bool read_int(std::string_view& s, std::size_t digits, int& out, bool at_most = false) {
  std::size_t n = 0;
  while (n < s.size() && n < digits && s[n] >= '0' && s[n] <= '9') ++n;
  if (n == 0 || (!at_most && n != digits)) return false;
  std::from_chars(s.data(), s.data() + n, out);
  s.remove_prefix(n);
  return true;
}

bool expect(std::string_view& s, std::string_view lit) {
  if (s.substr(0, lit.size()) != lit) return false;
  s.remove_prefix(lit.size());
  return true;
}

bool read_month(std::string_view& s, int& month) {
  static constexpr std::array<std::string_view, 12> names = {
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (s.substr(0, 3) == names[i]) {
      month = static_cast<int>(i) + 1;
      s.remove_prefix(3);
      return true;
    }
  }
  return false;
}

bool skip_day_name(std::string_view& s, bool long_form) {
  static constexpr std::array<std::string_view, 7> short_names = {"Mon", "Tue", "Wed", "Thu",
                                                                  "Fri", "Sat", "Sun"};
  static constexpr std::array<std::string_view, 7> long_names = {
      "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"};
  for (auto name : long_form ? long_names : short_names) {
    if (s.substr(0, name.size()) == name) {
      s.remove_prefix(name.size());
      return true;
    }
  }
  return false;
}

bool read_time(std::string_view& s, int& h, int& m, int& sec) {
  return read_int(s, 2, h) && expect(s, ":") && read_int(s, 2, m) && expect(s, ":") &&
         read_int(s, 2, sec) && h < 24 && m < 60 && sec <= 60;
}

std::optional<std::chrono::system_clock::time_point> make_time(int y, int mo, int d, int h, int mi,
                                                               int s) {
  using namespace std::chrono;
  const year_month_day ymd{year{y}, month{static_cast<unsigned>(mo)},
                           day{static_cast<unsigned>(d)}};
  if (!ymd.ok()) return std::nullopt;
  return sys_days{ymd} + hours{h} + minutes{mi} + seconds{s};
}

}  // namespace

std::optional<std::chrono::system_clock::time_point> parse_http_date(std::string_view text) {
  std::string_view s = trim(text);
  int day = 0, month = 0, year = 0, h = 0, m = 0, sec = 0;
  // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
  {
    std::string_view t = s;
    if (skip_day_name(t, false) && expect(t, ", ") && read_int(t, 2, day) && expect(t, " ") &&
        read_month(t, month) && expect(t, " ") && read_int(t, 4, year) && expect(t, " ") &&
        read_time(t, h, m, sec) && expect(t, " GMT") && t.empty()) {
      return make_time(year, month, day, h, m, sec);
    }
  }
  // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT (two-digit years: 70..99 -> 19xx)
  {
    std::string_view t = s;
    if (skip_day_name(t, true) && expect(t, ", ") && read_int(t, 2, day) && expect(t, "-") &&
        read_month(t, month) && expect(t, "-") && read_int(t, 2, year) && expect(t, " ") &&
        read_time(t, h, m, sec) && expect(t, " GMT") && t.empty()) {
      return make_time(year + (year >= 70 ? 1900 : 2000), month, day, h, m, sec);
    }
  }
  // asctime: Sun Nov  6 08:49:37 1994
  {
    std::string_view t = s;
    if (skip_day_name(t, false) && expect(t, " ") && read_month(t, month) && expect(t, " ")) {
      if (!t.empty() && t.front() == ' ') t.remove_prefix(1);
      if (read_int(t, 2, day, true) && expect(t, " ") && read_time(t, h, m, sec) &&
          expect(t, " ") && read_int(t, 4, year) && t.empty()) {
        return make_time(year, month, day, h, m, sec);
      }
    }
  }
  return std::nullopt;
}

std::optional<std::chrono::seconds> parse_retry_after(std::string_view value,
                                                      std::chrono::system_clock::time_point now) {
  const std::string_view s = trim(value);
  if (s.empty()) return std::nullopt;
  if (s.front() >= '0' && s.front() <= '9') {
    std::uint64_t n = 0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (ptr != s.data() + s.size()) return std::nullopt;
    if (ec == std::errc::result_out_of_range || n > 1'000'000'000) {
      return std::chrono::seconds(1'000'000'000);  // absurdly long: the caller caps it
    }
    if (ec != std::errc{}) return std::nullopt;
    return std::chrono::seconds(static_cast<std::int64_t>(n));
  }
  const auto date = parse_http_date(s);
  if (!date) return std::nullopt;
  if (*date <= now) return std::chrono::seconds(0);
  return std::chrono::ceil<std::chrono::seconds>(*date - now);
}

}  // namespace conform::http
