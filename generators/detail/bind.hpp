#pragma once
// Values a request must carry, put into a body value that was made without
// them: the profile's fixture at each x-fixture property (an example body
// names the example's own ids), and values pinned by a JSON pointer (an id
// another answer gave, for a stateful chain). Each is kept only where the
// body stays valid for its schema.

#include <boost/json/value.hpp>

#include <string>
#include <utility>
#include <vector>

#include "generators/options.hpp"
#include "schema/schema.hpp"

namespace conform::generators::detail {

/// Sets the x-fixture properties of `v` (through properties, allOf branches
/// and array items) to `options.fixture`'s values, then each pinned
/// (pointer, value), each kept where `v` stays valid for `s`. True when `v`
/// changed.
bool bind_values(boost::json::value& v, const schema::schema& s, const gen_options& options,
                 const std::vector<std::pair<std::string, boost::json::value>>& pinned);

}  // namespace conform::generators::detail
