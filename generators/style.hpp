#pragma once
// Parameter serialisation by OpenAPI `style` and `explode` (RFC 6570
// expansions: simple, label, matrix, form, spaceDelimited, pipeDelimited,
// deepObject) and `content` parameters, and the reverse: what a server reads
// back from what was sent, coerced by the parameter's schema.

#include <boost/json/value.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "openapi/model.hpp"
#include "schema/schema.hpp"

namespace conform::generators {

/// (name, text) pairs. Path: one pair whose text is the expansion,
/// percent-encoded, with its prefix ("." label, ";" matrix). Header: one
/// pair, as sent. Query and cookie: the pairs as sent, before
/// percent-encoding (delimiters included: "3,4,5", "3|4|5").
using wire_pairs = std::vector<std::pair<std::string, std::string>>;

/// How one parameter is written.
struct param_format {
  openapi::param_location in = openapi::param_location::query;
  openapi::param_style style = openapi::param_style::form;
  bool explode = true;
  std::string name;
  std::string media;  // a `content` parameter's media type ("" = a schema parameter)
  /// The parameter's schema: an in: querystring object written as a form
  /// reads its properties' types from it (nullptr: none given).
  const schema::schema* schema = nullptr;
};

/// The format a parameter declares (defaults filled in).
param_format format_of(const openapi::parameter& p);

/// `v` written as `f` says; nullopt when the style cannot carry it (an
/// array or a scalar in deepObject, a value nested past one level in a
/// style that has no way to say it is sent as JSON text instead).
std::optional<wire_pairs> write_param(const param_format& f, const boost::json::value& v);

/// What a server reads back from `w`, written as `f`, for schema `s`:
/// split by the style's delimiters, percent-decoded (path), and coerced by
/// the schema (see from_wire); `content` parameters parsed as JSON.
boost::json::value read_param(const param_format& f, const schema::schema& s, const wire_pairs& w);

/// An object body as application/x-www-form-urlencoded pairs (before
/// percent-encoding): each property written like a query parameter by its
/// `encoding` entry (style, explode; default form, exploded). A property
/// whose contentType is JSON, or an object property without a style, is
/// written as JSON text (the Encoding Object's default for objects).
wire_pairs form_body(const boost::json::object& o, const schema::schema& s,
                     const std::map<std::string, openapi::property_encoding>& encoding);

/// What a server reads back from a urlencoded body written by form_body.
boost::json::value read_form_body(
    const schema::schema& s, const wire_pairs& w,
    const std::map<std::string, openapi::property_encoding>& encoding);

/// True when written pairs can travel in `where` as one parameter: a path
/// text that is a segment (not empty, ".", ".."), a header value that is
/// visible ASCII in every item, cookie names and values of cookie-octets.
bool travels(openapi::param_location where, const wire_pairs& w);

/// What HTTP servers take, whatever a schema allows: RFC 9110 (section
/// 4.1) asks for URIs of 8000 octets at least and leaves fields to the
/// server, and servers commonly take 8 KiB per request line and per header
/// line (414 and 431 beyond). A generated parameter stays within these
/// unless its schema forces more (a minLength above them).
inline constexpr std::size_t max_url_bytes = 8000;        // path and query, as sent
inline constexpr std::size_t max_param_url_bytes = 4000;  // one path or query parameter
inline constexpr std::size_t max_field_bytes = 4096;  // one header value, or a parameter's cookies

/// The words every `oversized` reason carries, so that a generator that
/// gave up for that reason can be told from one that found no value.
inline constexpr std::string_view beyond_servers = " bytes HTTP servers take in one";

/// Why `w`, written for `where`, is longer than servers take (above), or
/// nullopt when it is not.
std::optional<std::string> oversized(openapi::param_location where, const wire_pairs& w);

/// True when the smallest value `p`'s schema admits is already longer than
/// `oversized` allows where `p` travels: its values may be as long as they must.
bool forced_oversized(const openapi::parameter& p);

/// The path template with each `{name}` replaced by its written value (a
/// name without one stays as it is) and the template's own text
/// percent-encoded where a path needs it ('?', '#', ' ').
std::string fill_path(const std::string& tmpl, const std::map<std::string, std::string>& values);

/// Percent-encodes what may not appear literally in a path: keeps RFC 3986
/// pchar (unreserved, sub-delims, ':', '@'), '/' and existing "%XX" triples;
/// "?" and "#" become "%3F" and "%23". For the literal text of a path template.
std::string encode_path_literal(std::string_view text);

}  // namespace conform::generators
