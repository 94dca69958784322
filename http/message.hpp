#pragma once
// The HTTP vocabulary of the transport: a request to send, the response read
// back, and the transport failures that are values rather than exceptions.
// Methods and fields are Beast's enums, parsed once at the edge.

#include <boost/beast/http/field.hpp>
#include <boost/beast/http/verb.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/outcome.hpp"
#include "core/text.hpp"

namespace conform::http {

namespace beast_http = boost::beast::http;
using verb = beast_http::verb;
using field = beast_http::field;

/// "GET", "POST", ... (Beast's spelling; named so as not to clash with beast::http::to_string).
std::string_view method_name(verb v);
/// Parses a method name, case-insensitively; nullopt for unknown names.
std::optional<verb> parse_verb(std::string_view s);
struct request;
/// The method of `req` as it goes on the wire: `method_text` for verb::unknown.
std::string_view method_name(const request& req);
/// True for the methods RFC 9110 calls idempotent (GET, HEAD, PUT, DELETE, OPTIONS, TRACE).
bool is_idempotent(verb v);

/// Case-insensitive ASCII comparison of header names (core/text.hpp).
using core::iequals;

/// One request to send. `target` is the path and query relative to the base
/// URL's path, already percent-encoded ("/items/7?verbose=1").
/// Host and Content-Length are added by the connection (a Host header given
/// here wins; Content-Length and Transfer-Encoding given here are ignored).
struct request {
  verb method = verb::get;
  std::string target;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  /// The method as sent when `method` is verb::unknown: an extension method
  /// Beast has no verb for ("QUERY"). Ignored otherwise.
  std::string method_text;
  /// The client certificate to present in the TLS handshake, by the name
  /// client_options::identities gives it; empty: none.
  std::string client_identity;

  /// Appends a header.
  request& add_header(std::string name, std::string value);
  /// The first value of header `name` (case-insensitive), or nullptr.
  const std::string* find_header(std::string_view name) const;
  /// Drops every header `name` (case-insensitive).
  request& remove_header(std::string_view name);
  /// Replaces every header `name` with one of `value`.
  request& set_header(std::string name, std::string value);
};

/// One response header: its known name (field::unknown for others), the name
/// as received, and the value.
struct header {
  field known = field::unknown;
  std::string name;
  std::string value;
};

/// Time spent on one exchange.
struct timings {
  std::chrono::nanoseconds connect{0};  // connect and TLS handshake, 0 on a reused connection
  std::chrono::nanoseconds total{0};    // from send to the last byte read
};

/// A response as read from the wire. Redirects (3xx) are never followed.
struct response {
  unsigned status = 0;
  unsigned version = 11;  // 10 or 11
  std::vector<header> headers;
  std::string body;
  timings time;
  bool reused_connection = false;  // sent on a kept-alive connection

  /// The first value of `f`, or nullptr.
  const std::string* find(field f) const;
  /// The first value of header `name` (case-insensitive), or nullptr.
  const std::string* find(std::string_view name) const;
  /// Every value of header `name`, in order.
  std::vector<std::string_view> find_all(std::string_view name) const;
};

/// Why no response came back.
struct transport_error {
  enum class kind : std::uint8_t {
    resolve,          // host name did not resolve
    connect,          // TCP connect refused or unreachable
    tls,              // handshake or certificate verification failed
    timeout,          // connect or total timeout expired
    too_large,        // response header or body over the cap
    protocol,         // not a valid HTTP/1.x response
    closed,           // the server closed the connection before answering
    io,               // another read or write error
    invalid_request,  // the request cannot be written as given (CR/LF in a header)
  };
  kind what = kind::io;
  std::string message;  // what happened, with host:port; never a secret
};

/// "resolve", "connect", "tls", ...
std::string_view to_string(transport_error::kind k);

/// The outcome of a send: a response or a transport error, with what the
/// client did on the way (429 retries and their waits).
struct result {
  core::outcome<response, transport_error> outcome;  // a failure: core::fail(transport_error{...})
  unsigned retries_429 = 0;                          // 429 answers retried after waiting
  std::chrono::milliseconds waited_429{0};           // total time waited for Retry-After
  bool reconnected = false;                          // a stale kept-alive connection was replaced

  /// True when a response (of any status) came back.
  bool ok() const { return outcome.ok(); }
  /// The response; precondition ok().
  const response& value() const { return outcome.value(); }
  /// The response; precondition ok().
  response& value() { return outcome.value(); }
  /// The transport error; precondition !ok().
  const transport_error& error() const { return outcome.error(); }
};

}  // namespace conform::http
