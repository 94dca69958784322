#pragma once
// How values travel in a request: parameter text (OpenAPI style simple for
// path and header, form/explode for query), the reverse coercion a server
// applies, percent-encoding, and multipart/form-data bodies.

#include <boost/json/value.hpp>

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/form.hpp"
#include "core/text.hpp"
#include "schema/schema.hpp"

namespace conform::generators {

/// The text of a scalar: strings as they are, numbers shortest, true/false, null "".
std::string scalar_text(const boost::json::value& v);

/// A parameter value as wire texts: one per array item, else one (objects as JSON).
std::vector<std::string> to_wire(const boost::json::value& v);

/// What a server reads back from wire texts, by the schema's types: integers,
/// numbers and booleans where the schema admits them and the text parses,
/// else strings; an array schema gets one item per text.
boost::json::value from_wire(const schema::schema& s, const std::vector<std::string>& texts);

/// The types a schema admits, looking through `$ref` and allOf (any: none said).
schema::type_set wire_types(const schema::schema& s);

/// The items schema of an array schema, looking through `$ref` and allOf.
const schema::schema* wire_items(const schema::schema& s);

/// True when `text` can be an HTTP header value as sent (visible ASCII and
/// inner spaces, no leading or trailing whitespace).
bool header_safe(std::string_view text);

/// True when `text` can fill a path segment (not empty, not "." or "..").
bool segment_safe(std::string_view text);

/// A query value percent-encoded: all but unreserved characters and ',';
/// with `allow_reserved`, also the reserved characters a query may hold
/// literally (":/@!$'()*,;"; not "&+#[]", nor "?" and "=", which servers split on).
std::string encode_query_value(std::string_view text, bool allow_reserved);

/// One part of a multipart/form-data body (core's: the one every reader shares).
using form_part = core::form_part;

/// A multipart/form-data body with `boundary` (which must not occur in any part).
std::string multipart_body(const std::vector<form_part>& parts, std::string_view boundary);

/// The parts of a multipart body built from an object value: a part per
/// property, content types from `encoding`, text/csv parts sent as files.
std::vector<form_part> form_parts(const boost::json::object& o,
                                  const std::map<std::string, std::string>& encoding);

/// The same with the body's schema, by the Encoding Object's defaults: an
/// array property is one part per item (unless its contentType is JSON),
/// objects are application/json parts, strings with `contentMediaType` that
/// type, `format: binary` strings application/octet-stream files, other
/// primitives text/plain.
std::vector<form_part> form_parts(const boost::json::object& o,
                                  const std::map<std::string, std::string>& encoding,
                                  const schema::schema& s);

/// The object a server reads back from parts: JSON parts parsed, text parts
/// coerced by their property schema (see from_wire); repeated parts of an
/// array property are its items.
boost::json::value from_parts(const schema::schema& s, const std::vector<form_part>& parts);

}  // namespace conform::generators
