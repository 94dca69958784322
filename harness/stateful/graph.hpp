#pragma once
// The producer-consumer graph of a description: which answer's values feed
// which operation's parameters. Edges come from the description's response
// `links` (OpenAPI Link Objects, runtime expressions) and, for a parameter
// no link feeds, are inferred: a response's `id` or `<resource>_id` feeds a
// path or body parameter of another operation on the same resource path
// (`POST /items` -> `GET /items/{id}`), and a list feeds each item's id.

#include <boost/json/value.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/outcome.hpp"
#include "harness/run_report.hpp"
#include "openapi/model.hpp"

namespace conform::harness::stateful {

/// Where a value goes in a consumer's request.
struct slot {
  bool body = false;                                           // a body member
  openapi::param_location in = openapi::param_location::path;  // a parameter's location
  std::string name;  // the parameter's name, or the body member's JSON pointer ("" = the body)
  friend bool operator==(const slot&, const slot&) = default;
};

/// Where a value comes from in an exchange: a runtime expression
/// ($response.body#/data/id, $request.path.id, ...) or a constant.
struct source {
  enum class from : std::uint8_t {
    response_body,
    response_header,
    request_path,
    request_query,
    request_header,
    request_body,
    status_code,
    constant,
  } where = from::constant;
  std::string key;  // JSON pointer (bodies), header or parameter name, or the constant
  /// A list: `key` applies within each item of the array at `items` (the
  /// response body's pointer), so one answer gives one value per item.
  bool each_item = false;
  std::string items;
};

/// Parses a Link Object value: a whole runtime expression, else a constant.
/// An expression Conform cannot evaluate is an error that says which.
core::outcome<source> parse_expression(const std::string& text);

/// One edge: an answer of `producer` feeds `consumer`.
struct edge {
  const openapi::operation* producer = nullptr;
  const openapi::operation* consumer = nullptr;
  std::vector<std::pair<slot, source>> values;  // each value it sets
  /// The link it comes from (an index into graph::links), or npos when inferred.
  std::size_t link = static_cast<std::size_t>(-1);
  int status = 0;     // the link's response key (200, 2 for "2XX", 0 default); inferred: any 2xx
  std::string label;  // "link LaunchCampaign" or "inferred: /data/id -> path id"
  bool inferred() const { return link == static_cast<std::size_t>(-1); }
};

/// The graph of a run's operations.
struct graph {
  std::vector<edge> edges;
  /// Every response link of the description (the report's link_use rows),
  /// with why one can never be followed, when it cannot.
  std::vector<link_use> links;
  /// Indices of the edges whose producer is `op`, links first.
  std::vector<std::size_t> out_of(const openapi::operation& op) const;
};

/// The graph over `operations` (links between operations outside it are
/// listed, with why they are not followed).
graph build_graph(const openapi::api_spec& spec,
                  const std::vector<const openapi::operation*>& operations);

/// The pointer of the record id in `op`'s 2xx JSON answer ("/data/id",
/// "/id"): the shallowest `id` property outside arrays; "" when none.
std::string record_id_pointer(const openapi::operation& op);

/// Where a list's items are in `op`'s 2xx JSON answer and the id within an
/// item: x-pagination's `items` and `item_id`, else the shallowest array
/// whose items have an `id`. nullopt when the answer is no list.
struct list_shape {
  std::string items;    // "/data/items", "" for a top-level array
  std::string item_id;  // "/id"
};
std::optional<list_shape> list_of(const openapi::operation& op);

/// The values `s` gives on an exchange (`request_body` and `response_body`
/// parsed JSON, or null): one, or one per list item; text for parameters.
std::vector<boost::json::value> evaluate(const source& s, const http::request& request,
                                         const boost::json::value* request_body,
                                         const http::response& response,
                                         const boost::json::value* response_body,
                                         const openapi::operation& producer);

}  // namespace conform::harness::stateful
