#pragma once
// x-columns-of in a form body: the keys of one part's JSON object name
// columns of the header row of a CSV part of the same request (a rule
// across two parts, as x-same-as is one across body and parameters).

#include <optional>
#include <string>
#include <vector>

#include "generators/wire.hpp"
#include "schema/schema.hpp"

namespace conform::generators::detail {

/// Adds to the header row of each CSV part an x-columns-of names the
/// columns its object's keys name and the header lacks (a cell empty in
/// every row), so that the request keeps every mapped column within it.
void keep_columns(std::vector<form_part>& ps, const schema::schema& body);

/// Renames one key of the first x-columns-of object of `ps` to a column
/// the CSV header lacks, the columns kept first (and a value mapped twice
/// kept once, so that the absent column is the one thing the request
/// gets wrong); the key's new name, or nullopt when there is none to rename.
std::optional<std::string> break_columns(std::vector<form_part>& ps, const schema::schema& body);

}  // namespace conform::generators::detail
