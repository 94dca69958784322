// One generator per format, built from small parts so that shrinking stays
// inside the format (towards earlier dates, shorter names, fewer digits).

#include "generators/detail/format_gen.hpp"

#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

#include "core/base64.hpp"
#include "core/tz_names.hpp"
#include "generators/detail/lazy_tree.hpp"
#include "generators/detail/memo.hpp"

namespace conform::generators::detail {

namespace {

using rc::Gen;
namespace gen = rc::gen;

std::string two(int v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%02d", v);
  return buf;
}

int days_in_month(int year, int month) {
  static constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : days[month - 1];
}

/// Uniform in [lo, hi) at every generation size.
Gen<int> uniform(int lo, int hi) {
  return gen::resize(rc::kNominalSize, gen::inRange(lo, hi));
}

Gen<std::string> chars_from(std::string alphabet, std::size_t min, std::size_t max) {
  auto tree = detail::mapcat(gen::inRange<std::size_t>(min, max + 1), [alphabet](std::size_t n) {
    return gen::container<std::string>(n, gen::elementOf(alphabet));
  });
  return value_first(std::move(tree), [alphabet, min, max](const rc::Random& r, int size) {
    std::string out;
    draw_repeat(
        r, size, min, max,
        [&alphabet](const rc::Random& c, int, std::string& text) {
          text += alphabet[draw_index(c, alphabet.size())];
        },
        out);
    return out;
  });
}

/// Every octet, 0x00 to 0xff.
std::string all_octets() {
  std::string out(256, '\0');
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<char>(i);
  return out;
}

Gen<std::string> date_gen() {
  return detail::mapcat(
      gen::tuple(uniform(2000, 2040), uniform(1, 13)), [](std::tuple<int, int> ym) {
        const auto [y, m] = ym;
        return gen::map(uniform(1, days_in_month(y, m) + 1), [y = y, m = m](int d) {
          return std::to_string(y) + "-" + two(m) + "-" + two(d);
        });
      });
}

Gen<std::string> offset_gen() {
  return detail::weighted_one_of<std::string>(
      {{3, gen::just(std::string("Z"))},
       {1, gen::map(gen::tuple(gen::arbitrary<bool>(), uniform(0, 15),
                               gen::elementOf(std::vector<int>{0, 30, 45})),
                    [](std::tuple<bool, int, int> t) {
                      return std::string(std::get<0>(t) ? "+" : "-") + two(std::get<1>(t)) + ":" +
                             two(std::get<2>(t));
                    })}});
}

Gen<std::string> time_gen() {
  return gen::map(gen::tuple(uniform(0, 24), uniform(0, 60), uniform(0, 60), uniform(0, 4),
                             uniform(100, 1000), offset_gen()),
                  [](std::tuple<int, int, int, int, int, std::string> t) {
                    std::string out =
                        two(std::get<0>(t)) + ":" + two(std::get<1>(t)) + ":" + two(std::get<2>(t));
                    if (std::get<3>(t) == 3) out += "." + std::to_string(std::get<4>(t));
                    return out + std::get<5>(t);
                  });
}

Gen<std::string> host_gen() {
  const std::string lower = "abcdefghijklmnopqrstuvwxyz";
  return gen::map(gen::tuple(chars_from(lower, 1, 10), chars_from(lower, 2, 6)),
                  [](const std::tuple<std::string, std::string>& t) {
                    return std::get<0>(t) + "." + std::get<1>(t);
                  });
}

}  // namespace

std::optional<Gen<std::string>> format_generator(schema::format_kind kind) {
  using schema::format_kind;
  const std::string lower_digits = "abcdefghijklmnopqrstuvwxyz0123456789";
  const std::string hex = "0123456789abcdef";
  switch (kind) {
    case format_kind::unknown:
      return std::nullopt;
    case format_kind::int32:
    case format_kind::int64:
      // A number format on a string: the decimal string that carries the
      // number, as the proto3 JSON mapping writes 64-bit integers (every
      // grpc-gateway description). Any string conforms; a server reads these.
      return gen::map(gen::inRange<std::int64_t>(0, std::int64_t{1} << 31),
                      [](std::int64_t n) { return std::to_string(n); });
    case format_kind::date_time:
      return gen::map(gen::tuple(date_gen(), time_gen()),
                      [](const std::tuple<std::string, std::string>& t) {
                        return std::get<0>(t) + "T" + std::get<1>(t);
                      });
    case format_kind::date:
      return date_gen();
    case format_kind::time:
      return time_gen();
    case format_kind::email:
      return gen::map(gen::tuple(chars_from(lower_digits, 1, 12), host_gen()),
                      [](const std::tuple<std::string, std::string>& t) {
                        return std::get<0>(t) + "@" + std::get<1>(t);
                      });
    case format_kind::uri:
      return gen::map(
          gen::tuple(gen::elementOf(std::vector<std::string>{"https", "http"}), host_gen(),
                     gen::container<std::vector<std::string>>(chars_from(lower_digits, 1, 8))),
          [](const std::tuple<std::string, std::string, std::vector<std::string>>& t) {
            std::string out = std::get<0>(t) + "://" + std::get<1>(t);
            for (const auto& segment : std::get<2>(t)) out += "/" + segment;
            return out;
          });
    case format_kind::uuid:
      return gen::map(chars_from(hex, 32, 32), [](std::string h) {
        h[12] = '4';  // a version 4 shape, like most servers produce
        return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" +
               h.substr(16, 4) + "-" + h.substr(20);
      });
    case format_kind::e164:
      return gen::map(
          gen::tuple(gen::elementOf(std::string("123456789")), chars_from("0123456789", 1, 14)),
          [](const std::tuple<char, std::string>& t) {
            return "+" + std::string(1, std::get<0>(t)) + std::get<1>(t);
          });
    case format_kind::timezone: {
      const auto zones = core::canonical_time_zones();
      std::vector<std::string> names(zones.begin(), zones.end());
      return gen::elementOf(std::move(names));
    }
    case format_kind::byte:  // base64 of any octets (RFC 4648 section 4): shrinks to fewer
      return gen::map(chars_from(all_octets(), 0, 24),
                      [](const std::string& bytes) { return core::base64_encode(bytes); });
    case format_kind::binary:  // the octets themselves, any of the 256
      return chars_from(all_octets(), 0, 32);
    case format_kind::decimal:
      return gen::map(gen::tuple(gen::arbitrary<bool>(), chars_from("0123456789", 1, 6),
                                 chars_from("0123456789", 2, 4)),
                      [](const std::tuple<bool, std::string, std::string>& t) {
                        return (std::get<0>(t) ? "-" : "") + std::get<1>(t) + "." + std::get<2>(t);
                      });
  }
  return std::nullopt;
}

std::vector<std::string> format_violations(schema::format_kind kind) {
  using schema::format_kind;
  switch (kind) {
    case format_kind::unknown:
      return {};
    case format_kind::date_time:
      return {"2026-13-45T10:00:00Z", "2026-11-20 10:00", "yesterday", ""};
    case format_kind::date:
      return {"2026-02-30", "20261120", "not-a-date"};
    case format_kind::time:
      return {"25:00:00Z", "10:00", "noon"};
    case format_kind::email:
      return {"not-an-email", "a@", "@example.com", "a b@example.com"};
    case format_kind::uri:
      return {"not a uri", "/relative/path", "://missing-scheme"};
    case format_kind::uuid:
      return {"not-a-uuid", "123e4567e89b12d3a456426614174000",
              "123e4567-e89b-12d3-a456-42661417400z"};
    case format_kind::e164:
      return {"14155550100", "+0123456", "+1", "+1234567890123456", "+1 415 555"};
    case format_kind::timezone:
      return {"Mars/Olympus_Mons", "EST5EDT6", "europe/paris", "+05:30"};
    case format_kind::decimal:
      return {"1.2.3", "abc", "1e5", ".5"};
    case format_kind::byte:  // outside the alphabet, a dangling character, padding inside
      return {"not base64!", "QUJD=", "QQ=A", "A"};
    case format_kind::binary:
      return {};  // any octets are binary
    case format_kind::int32:
    case format_kind::int64:
      return {};  // number formats: number_sites breaks them
  }
  return {};
}

std::vector<boost::json::value> number_format_violations(schema::format_kind kind) {
  using limits32 = std::numeric_limits<std::int32_t>;
  switch (kind) {
    case schema::format_kind::int32:  // one past each end
      return {boost::json::value(std::int64_t{limits32::max()} + 1),
              boost::json::value(std::int64_t{limits32::min()} - 1)};
    case schema::format_kind::int64:  // 2^63; -2^63 - 1 has no exact JSON number a parser keeps
      return {boost::json::value(
          static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + 1)};
    default:
      return {};
  }
}

}  // namespace conform::generators::detail
