#pragma once
// Walking a paginated list the way its x-pagination says: one page after
// another by page number or by next cursor, keeping every answer so that a
// finding can point at the requests that reproduce it.

#include <boost/json/value.hpp>

#include <cstdint>
#include <deque>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/scenario.hpp"

namespace conform::suites::pagination {

/// A walk stops here even when the list says there is more, so that a server
/// that never ends a list cannot hold the run.
constexpr std::int64_t max_walk_pages = 120;

using query_list = std::vector<std::pair<std::string, std::string>>;

/// Something a scenario saw that the description does not allow.
struct finding {
  std::string cause, expected, seen, steps;
  std::vector<const harness::probe*> evidence;
};

/// The request every probe of one (operation, auth model) starts from: a
/// valid request without the paging, filter and sort parameters, so that a
/// walk sees the whole list.
struct list_target {
  const openapi::operation* op = nullptr;
  harness::auth_choice auth;
  generators::generated_request base;
  std::string label;

  const openapi::pagination& paging() const { return *op->paging; }
};

/// The list targets of `op`: one per auth model with a sufficient credential;
/// the others are recorded as not run for `checks`.
std::vector<list_target> targets_for(harness::scenario_context& ctx, harness::results_sink& results,
                                     const openapi::operation& op,
                                     const std::vector<std::string_view>& checks);

/// Sends `t.base` with `extra` query parameters.
harness::probe send(harness::scenario_context& ctx, const list_target& t, const query_list& extra);

/// `v` as an int64 when it is an integer that fits, else nullopt (absent,
/// not an integer, or a uint64 past INT64_MAX).
std::optional<std::int64_t> as_integer(const boost::json::value* v);

/// The identities (`item_id` values, "(no id)" for an item without one) of
/// the items at `items`, in order; empty when `items` is not an array.
std::vector<std::string> item_ids(const boost::json::value* items, const std::string& id_ptr);

/// A short rendering of a JSON value for a message ("absent" for none).
std::string describe(const boost::json::value* v);
/// An enum value as a query parameter value.
std::string query_value(const boost::json::value& v);

/// A page size that splits `count` items into a few pages within the bounds.
std::int64_t small_size(const openapi::pagination& paging, std::int64_t count);
/// The largest page size the list allows.
std::int64_t largest_size(const openapi::pagination& paging);

/// The next cursor of a cursor page: a non-empty string, else nullopt (the last page).
std::optional<std::string> next_cursor(const harness::probe& p, const openapi::pagination& paging);

/// One traversal of a list and what it saw.
struct walk {
  std::int64_t size = 0;
  std::deque<harness::probe> probes;  // a deque: findings point into it
  std::vector<std::string> ids;
  std::set<std::string> seen_ids;
  std::int64_t items = 0;
  std::optional<std::int64_t> count, pages;
  bool complete = false;  // ran to the list's end without an answer that stopped it
  bool capped = false;    // stopped at max_walk_pages
  /// Why the walk stopped at a page that says nothing about the list (no
  /// answer, or rate-limited past the retries): the rest was not judged.
  std::optional<std::string> unjudged;
  std::vector<finding> findings;

  /// Counts `item`; true when its identity was already seen.
  bool add(const boost::json::value& item, const std::string& id_ptr);
};

/// Pages 1..last with `size` items each: the counters agree with each other
/// and with the walk, every page but the last is full, no item twice.
walk walk_pages(harness::scenario_context& ctx, const list_target& t, std::int64_t size);

/// The first page, then each next cursor until there is none: pages within
/// `size`, no cursor twice, no item twice. `fixed` goes with every page.
walk walk_cursor(harness::scenario_context& ctx, const list_target& t, std::int64_t size,
                 const query_list& fixed = {});

/// The ids one walk saw and the other did not, for a message.
std::string difference(const walk& a, const walk& b);

}  // namespace conform::suites::pagination
