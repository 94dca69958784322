#pragma once
// Private to the spec loader: reads `x-assumption` in its three forms (a
// string, a mapping with source/reason/keywords, or a list of either).

#include <string>
#include <vector>

#include "openapi/detail/reader.hpp"
#include "schema/schema.hpp"

namespace conform::openapi::detail {

/// The entries of the `x-assumption` node `v`; malformed ones are reported
/// at their position and left out. `texts`, when given, gets each entry's
/// text (a string entry as written) for the model's `assumptions` lists.
std::vector<schema::provenance> read_provenance(doc_reader& r, const source_doc& doc, const node& v,
                                                std::vector<std::string>* texts = nullptr);

}  // namespace conform::openapi::detail
