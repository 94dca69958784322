#pragma once
// Private to the loader: a Swagger 2.0 document converted in place to the
// OpenAPI 3.0 shape the loader reads (servers from host/basePath/schemes,
// definitions/parameters/responses/securityDefinitions into components,
// body and formData parameters into request bodies with consumes, response
// schemas into content with produces, parameter types into schemas,
// collectionFormat into style/explode, basic/apiKey/oauth2 schemes). Moved
// nodes keep their positions in the original file.

#include "openapi/detail/reader.hpp"

namespace conform::openapi::detail {

/// A 2.0 non-body parameter's type keywords into its `schema` (no-op on a 3.x one).
void swagger2_parameter(node& p);

/// Converts the root of `doc` (a Swagger 2.0 document) in place; false and an
/// error at its position for what cannot be converted.
bool convert_swagger2(source_doc& doc, doc_reader& r);

}  // namespace conform::openapi::detail
