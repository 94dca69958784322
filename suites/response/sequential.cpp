#include "suites/response/sequential.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string>

namespace conform::suites::response {

std::vector<boost::json::value> sequential_items(std::string_view media, std::string_view body,
                                                 std::vector<std::size_t>& broken) {
  std::vector<boost::json::value> out;
  auto add_json = [&](std::string_view text) {
    while (!text.empty() && (text.back() == '\r' || text.back() == '\n' || text.back() == ' '))
      text.remove_suffix(1);
    if (text.empty()) return;
    boost::system::error_code ec;
    auto v = boost::json::parse(text, ec);
    if (ec) broken.push_back(out.size());
    out.push_back(ec ? boost::json::value(boost::json::string(text)) : std::move(v));
  };
  if (media.find("event-stream") != std::string_view::npos) {
    boost::json::object event;
    std::string data;
    bool has_data = false;
    auto flush = [&] {
      if (has_data) event["data"] = data;
      if (!event.empty()) out.emplace_back(std::move(event));
      event = {};
      data.clear();
      has_data = false;
    };
    std::size_t start = 0;
    while (start <= body.size()) {
      std::size_t end = body.find('\n', start);
      if (end == std::string_view::npos) end = body.size();
      std::string_view line = body.substr(start, end - start);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (line.empty()) {
        flush();
      } else if (line.front() != ':') {
        const std::size_t colon = line.find(':');
        const std::string_view field = line.substr(0, colon);
        std::string_view value =
            colon == std::string_view::npos ? std::string_view() : line.substr(colon + 1);
        if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
        if (field == "data") {
          data += (has_data ? "\n" : "") + std::string(value);
          has_data = true;
        } else if (field == "retry") {
          std::int64_t ms = 0;
          const auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), ms);
          if (ec == std::errc() && p == value.data() + value.size()) event["retry"] = ms;
        } else if (field == "event" || field == "id") {
          event[field] = value;
        }
      }
      if (end == body.size()) break;
      start = end + 1;
    }
    flush();
    return out;
  }
  const char separator = media.find("json-seq") != std::string_view::npos ? '\x1e' : '\n';
  std::size_t start = 0;
  while (start <= body.size()) {
    const std::size_t end = std::min(body.find(separator, start), body.size());
    add_json(body.substr(start, end - start));
    if (end == body.size()) break;
    start = end + 1;
  }
  return out;
}

}  // namespace conform::suites::response
