#include "reference/detail/pagination.hpp"

#include "core/base64.hpp"
#include "reference/detail/util.hpp"

namespace conform::reference::detail {
namespace json = boost::json;

std::optional<reply> int_param(const httplib::Request& req, const std::string& name,
                               std::int64_t default_value, std::int64_t min, std::int64_t max,
                               std::int64_t& out) {
  if (!req.has_param(name.c_str())) {
    out = default_value;
    return std::nullopt;
  }
  std::string v = req.get_param_value(name.c_str());
  std::string_view digits = v;
  bool negative = !digits.empty() && digits.front() == '-';
  if (negative) digits.remove_prefix(1);
  std::string rule = "must be an integer from " + std::to_string(min) +
                     (max < INT64_MAX ? " to " + std::to_string(max) : std::string(" up"));
  if (!is_digits(digits) || digits.size() > 15) return validation_error(name, rule);
  std::int64_t n = std::stoll(std::string(digits)) * (negative ? -1 : 1);
  if (n < min || n > max) return validation_error(name, rule);
  out = n;
  return std::nullopt;
}

std::pair<std::size_t, std::size_t> page_window(const server_state& st, std::size_t count,
                                                std::int64_t page, std::int64_t per_page) {
  const auto size = static_cast<std::size_t>(per_page);
  const std::size_t first = std::min(count, static_cast<std::size_t>(page - 1) * size);
  std::size_t last = std::min(count, first + size);
  if (st.fault_on(fault::page_gap) && last > first) --last;
  return {first, last};
}

reply page_answer(const server_state& st, json::array items, std::size_t count, std::int64_t page,
                  std::int64_t per_page) {
  const auto size = static_cast<std::size_t>(per_page);
  const std::size_t pages = (count + size - 1) / size;
  const std::size_t shown_count = count + (st.fault_on(fault::page_count_off) ? 1 : 0);
  return ok(json::object{{"items", std::move(items)}},
            json::object{{"page", page}, {"pages", pages}, {"count", shown_count}});
}

namespace {

std::string payload_of(id_t tenant, const std::string& binding, cursor_position pos) {
  return "v1|" + std::to_string(tenant) + "|" +
         to_hex(hmac_sha256("binding", binding)).substr(0, 16) + "|" + std::to_string(pos.key) +
         "|" + std::to_string(pos.id);
}

}  // namespace

std::string encode_cursor(const std::string& mac_key, id_t tenant, const std::string& binding,
                          cursor_position pos) {
  std::string payload = payload_of(tenant, binding, pos);
  return core::base64url_encode(payload) + "." +
         core::base64url_encode(hmac_sha256(mac_key, payload).substr(0, 16));
}

std::optional<cursor_position> decode_cursor(const std::string& mac_key, const std::string& token,
                                             id_t tenant, const std::string& binding,
                                             bool unbound) {
  if (token.size() > 512) return std::nullopt;
  auto dot = token.find('.');
  if (dot == std::string::npos) return std::nullopt;
  auto payload =
      core::base64_decode(std::string_view(token).substr(0, dot), core::base64_alphabet::url);
  auto mac =
      core::base64_decode(std::string_view(token).substr(dot + 1), core::base64_alphabet::url);
  if (!payload || !mac) return std::nullopt;
  if (!equal_constant_time(*mac, hmac_sha256(mac_key, *payload).substr(0, 16))) return std::nullopt;
  // v1|tenant|binding|key|id
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    auto bar = payload->find('|', start);
    parts.push_back(
        payload->substr(start, bar == std::string::npos ? std::string::npos : bar - start));
    if (bar == std::string::npos) break;
    start = bar + 1;
  }
  if (parts.size() != 5 || parts[0] != "v1") return std::nullopt;
  if (parts[1] != std::to_string(tenant)) return std::nullopt;
  if (!unbound && parts[2] != to_hex(hmac_sha256("binding", binding)).substr(0, 16))
    return std::nullopt;
  std::string_view key = parts[3];
  bool neg = !key.empty() && key.front() == '-';
  if (neg) key.remove_prefix(1);
  if (!is_digits(key) || key.size() > 18 || !is_digits(parts[4]) || parts[4].size() > 18)
    return std::nullopt;
  cursor_position pos;
  pos.key = std::stoll(std::string(key)) * (neg ? -1 : 1);
  pos.id = std::stoull(parts[4]);
  return pos;
}

}  // namespace conform::reference::detail
