#pragma once
// Form bodies as a client sent them, read back the way a server reads them
// and judged against the description: multipart/form-data (each part's
// content type against `encoding`, the parts as an object against the
// schema) and application/x-www-form-urlencoded.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/outcome.hpp"
#include "generators/wire.hpp"
#include "openapi/model.hpp"

namespace conform::suites::client {

/// What is wrong with a form body of media type `media` (lower case, no
/// parameters) sent with `content_type` against `m`; "" when nothing.
std::string form_problem(std::string_view media, std::string_view content_type,
                         std::string_view body, const openapi::media_type& m);

}  // namespace conform::suites::client
