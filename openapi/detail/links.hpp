#pragma once
// Private to the spec loader: response `links` (OpenAPI Link Objects) and
// the `example`/`examples` of parameters and media types. Links are read
// with each response and resolved once every operation is known (an
// operationRef names an operation by its path and method).

#include <vector>

#include "openapi/detail/reader.hpp"
#include "openapi/model.hpp"

namespace conform::openapi::detail {

/// The `links` of a response (`n`, a mapping), each followed through a local
/// `$ref` ("#/components/links/X"). A malformed link is a warning and is
/// left out: other tools read links, Conform only follows them.
std::vector<link> parse_links(doc_reader& r, const source_doc& doc, const node& n);

/// `example`, then each `examples.<name>.value` (a `$ref` to
/// components/examples followed), of a parameter or a media type.
std::vector<boost::json::value> parse_examples(const source_doc& doc, const node& owner);

/// Resolves every link's operationRef to an operationId and warns about
/// links naming no operation of the description (they are then not
/// followed: `operation_id` stays empty).
void resolve_links(doc_reader& r, api_spec& spec);

}  // namespace conform::openapi::detail
