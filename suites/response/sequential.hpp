#pragma once
// The items of a sequential response body (OpenAPI 3.2 `itemSchema`): JSON
// Lines, NDJSON, json-seq and server-sent events, taken apart so that each
// item is judged against the media type's item schema.

#include <boost/json/value.hpp>

#include <cstddef>
#include <string_view>
#include <vector>

namespace conform::suites::response {

/// The items of a sequential body: JSON Lines and NDJSON a value a line,
/// json-seq a value after each record separator, an event stream an object
/// per event ({data, event, id, retry}, as 3.2's itemSchema describes it).
/// A JSON item that does not parse is a string holding its text, kept aside
/// in `broken`.
std::vector<boost::json::value> sequential_items(std::string_view media, std::string_view body,
                                                 std::vector<std::size_t>& broken);

}  // namespace conform::suites::response
