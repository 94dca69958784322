#pragma once
// Bodies of sequential media types (OpenAPI 3.2 `itemSchema`): JSON Lines
// and NDJSON a value a line, json-seq a value after a record separator, an
// event stream a `data:` event each; valid ones, and ones with one item
// broken.

#include <boost/json/value.hpp>
#include <rapidcheck.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "generators/invalid.hpp"
#include "generators/options.hpp"
#include "schema/schema.hpp"

namespace conform::generators::detail {

/// `items` written as a body of `media`.
std::string sequence_text(std::string_view media, const std::vector<boost::json::value>& items);

/// Bodies of 0 to 3 items valid by `item`, at most `max_bytes` long.
rc::Gen<std::string> valid_sequence(std::string media, const schema::schema& item,
                                    const gen_options& options, std::size_t max_bytes);

/// Bodies of valid items and then one that breaks `item` (its pointer and
/// description name the item); nullopt when `item` admits every value.
std::optional<rc::Gen<std::pair<std::string, invalid_value>>> broken_sequence(
    std::string media, const schema::schema& item, const gen_options& options);

}  // namespace conform::generators::detail
