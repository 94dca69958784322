#include "generators/detail/sequence.hpp"

#include <boost/json/serialize.hpp>

#include "generators/detail/memo.hpp"
#include "generators/value.hpp"

namespace conform::generators::detail {
namespace {

rc::Gen<std::vector<boost::json::value>> items_of(const schema::schema& item,
                                                  const gen_options& options) {
  const rc::Gen<boost::json::value> one = valid_value(item, options);
  return detail::mapcat(rc::gen::inRange(0, 4), [one](int n) {
    return rc::gen::container<std::vector<boost::json::value>>(static_cast<std::size_t>(n), one);
  });
}

}  // namespace

std::string sequence_text(std::string_view media, const std::vector<boost::json::value>& items) {
  std::string out;
  for (const auto& v : items) {
    const std::string text = boost::json::serialize(v);
    if (media.find("json-seq") != std::string_view::npos) {
      out += '\x1e' + text + '\n';
    } else if (media.find("event-stream") != std::string_view::npos) {
      out += "data: " + text + "\n\n";
    } else {
      out += text + '\n';
    }
  }
  return out;
}

rc::Gen<std::string> valid_sequence(std::string media, const schema::schema& item,
                                    const gen_options& options, std::size_t max_bytes) {
  return detail::such_that_kept(
      rc::gen::map(items_of(item, options),
                   [media](const std::vector<boost::json::value>& items) {
                     return sequence_text(media, items);
                   }),
      [max_bytes](const std::string& bytes) { return bytes.size() <= max_bytes; });
}

std::optional<rc::Gen<std::pair<std::string, invalid_value>>> broken_sequence(
    std::string media, const schema::schema& item, const gen_options& options) {
  auto bad = invalid_values(item, options);
  if (!bad) return std::nullopt;
  return rc::gen::map(rc::gen::tuple(items_of(item, options), std::move(*bad)),
                      [media](std::tuple<std::vector<boost::json::value>, invalid_value> t) {
                        auto& [items, iv] = t;
                        const std::string index = std::to_string(items.size());
                        if (iv.json) items.push_back(*iv.json);
                        std::string bytes = sequence_text(media, items);
                        if (!iv.json) bytes += iv.raw + "\n";
                        iv.pointer = "/" + index + iv.pointer;
                        iv.description = "item " + index + ": " + iv.description;
                        return std::make_pair(std::move(bytes), std::move(iv));
                      });
}

}  // namespace conform::generators::detail
