#pragma once
// Page lists (D3.1) and cursor lists (D3.2): query parsing, the page slice and
// meta, and the tamper-proof cursor bound to tenant, filters and sort.

#include <boost/json.hpp>
#include <httplib.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "reference/detail/context.hpp"

namespace conform::reference::detail {

/// Reads integer query parameter `name` (default when absent) within
/// [min, max]; a 422 VALIDATION_ERROR reply when it is not.
std::optional<reply> int_param(const httplib::Request& req, const std::string& name,
                               std::int64_t default_value, std::int64_t min, std::int64_t max,
                               std::int64_t& out);

/// The window [first, last) of page `page` over `count` items (D3.1; the
/// fault page_gap drops the last item of the window).
std::pair<std::size_t, std::size_t> page_window(const server_state& st, std::size_t count,
                                                std::int64_t page, std::int64_t per_page);

/// The D3.1 answer: data.items (the rendered window) and meta.page/pages/count
/// (fault page_count_off).
reply page_answer(const server_state& st, boost::json::array items, std::size_t count,
                  std::int64_t page, std::int64_t per_page);

/// Where a cursor list continues: after the item with this sort key and id.
struct cursor_position {
  std::int64_t key = 0;
  id_t id = 0;
};

/// An opaque cursor for `pos`, MAC'd with `mac_key`, bound to `tenant` and
/// `binding` (the filter and sort values).
std::string encode_cursor(const std::string& mac_key, id_t tenant, const std::string& binding,
                          cursor_position pos);
/// The position of a cursor, or nullopt when it was tampered with or was
/// issued for another tenant or binding (binding not checked when `unbound`).
std::optional<cursor_position> decode_cursor(const std::string& mac_key, const std::string& token,
                                             id_t tenant, const std::string& binding, bool unbound);

}  // namespace conform::reference::detail
