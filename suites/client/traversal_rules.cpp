// Client rules of section 8 (x-pagination): a cursor traversal keeps its
// filters, sort and page size, follows next_cursor to the end and sends no
// page counters; a page traversal stays within the documented sizes, keeps
// its filters and stops at meta.pages.
#include <boost/json.hpp>

#include <map>

#include "harness/results.hpp"
#include "suites/client/client.hpp"
#include "suites/client/support.hpp"

namespace conform::suites::client {

namespace {

using harness::traffic_judgement;
using harness::traffic_violation;

constexpr std::string_view cursor_check = "client_cursor_traversal";
constexpr std::string_view page_check = "client_page_traversal";

/// The value at JSON pointer `ptr` of `e`'s answer, or null.
boost::json::value answer_at(const traffic_exchange& e, const std::string& ptr) {
  boost::system::error_code ec;
  boost::json::value body = boost::json::parse(e.response_body, ec);
  if (ec) return nullptr;
  const boost::json::value* v = body.find_pointer(ptr, ec);
  return (v && !ec) ? *v : boost::json::value(nullptr);
}

/// What a traversal must keep: the filters, the sort and the page size, as sent.
std::string kept_params(const traffic_exchange& e, const openapi::pagination& p) {
  std::string out;
  std::vector<std::string> names = p.filter_params;
  if (!p.sort_param.empty()) names.push_back(p.sort_param);
  names.push_back(p.size_param);
  for (const auto& n : names) {
    const std::string* v = e.query_value(n);
    out += n + "=" + (v ? *v : std::string("(absent)")) + " ";
  }
  if (!out.empty()) out.pop_back();
  return out;
}

/// The group a traversal lives in: operation, credential, tenant.
std::string group_of(const traffic_exchange& e) {
  return e.op->operation_id + "\x1f" + e.auth_model() + "\x1f" +
         (e.op->tenant.header_name.empty() ? std::string()
                                           : header_or_empty(e, e.op->tenant.header_name));
}

struct cursor_walk {
  std::vector<const traffic_exchange*> pages;  // every request of the walk
  std::string kept;                            // of its first request
  std::string next;                            // next_cursor of the last answered page
  bool ended = false;                          // a page answered with no next_cursor
  bool answered = false;                       // some page was answered 2xx
  bool broken = false;                         // already reported
};

void fail(traffic_judgement& j, std::vector<const traffic_exchange*> evidence, std::string expected,
          std::string seen, std::string cause) {
  traffic_violation v;
  if (evidence.size() > 6) evidence.erase(evidence.begin() + 1, evidence.end() - 4);
  v.evidence = std::move(evidence);
  v.expected = std::move(expected);
  v.seen = std::move(seen);
  v.cause = std::move(cause);
  j.broken(v);
}

void finish_walk(cursor_walk& w, traffic_judgement& j) {
  if (w.pages.empty() || w.broken) return;
  const traffic_exchange& last = *w.pages.back();
  if (!w.answered) {
    j.not_exercised(
        last, "no page of the traversal ending at #" + std::to_string(last.seq) + " was answered");
    return;
  }
  // A traversal that ends on a failure the client did not retry to an
  // answer was cut short by that failure: the retry rules judge it, not
  // this one.
  if (!last.succeeded()) {
    j.not_exercised(last,
                    "the traversal ended at #" + std::to_string(last.seq) + ", which got " +
                        (last.status ? std::to_string(last.status) : std::string("no answer")) +
                        "; the retry rules judge what followed");
    return;
  }
  const auto& p = *last.op->paging;
  if (!w.ended) {
    fail(j, w.pages,
         "a cursor traversal follows " + p.next_cursor + " until it is null (section 8.3)",
         "the traversal stopped after request #" + std::to_string(last.seq) +
             " although the last page answered had a next cursor",
         "stopped before the end");
    return;
  }
  j.held(last);
}

void judge_cursor(const traffic& t, traffic_judgement& j) {
  std::map<std::string, cursor_walk> walks;
  for (std::size_t i = 0; i < t.exchanges.size(); ++i) {
    const traffic_exchange& e = t.exchanges[i];
    if (!e.op || !e.op->paging || e.op->paging->kind != openapi::pagination::style::cursor) {
      continue;
    }
    const auto& p = *e.op->paging;
    cursor_walk& w = walks[group_of(e)];
    for (const auto& ignored : p.ignored_params) {
      if (!e.query_value(ignored)) continue;
      fail(j, {&e},
           "a cursor list takes " + p.cursor_param + " and " + p.size_param + ", never " + ignored +
               " (section 8.3: the two styles are not interchangeable)",
           "request #" + std::to_string(e.seq) + " sent " + ignored + "=" + *e.query_value(ignored),
           "page parameter on a cursor route");
      w.broken = true;
    }
    const std::string* cursor = e.query_value(p.cursor_param);
    const bool retry = !w.pages.empty() && harness::same_request(*w.pages.back(), e);
    if (!cursor && !retry) {  // a new traversal starts
      finish_walk(w, j);
      w = cursor_walk{};
      w.kept = kept_params(e, p);
    } else if (cursor && w.pages.empty()) {
      w.kept = kept_params(e, p);  // the traffic starts mid-walk: judge from here
      w.next = *cursor;
    } else if (cursor && !retry && !w.broken) {
      if (*cursor != w.next) {
        fail(j, {w.pages.back(), &e},
             "each page's " + p.cursor_param + " is the " + p.next_cursor +
                 " of the page before (section 8.3)",
             "request #" + std::to_string(e.seq) +
                 " sent a cursor that is not the next cursor "
                 "of #" +
                 std::to_string(w.pages.back()->seq),
             "cursor not followed");
        w.broken = true;
      } else if (kept_params(e, p) != w.kept) {
        fail(j, {w.pages.front(), &e},
             "filters, sort and page size stay identical during a traversal (section 8.4)",
             "the traversal began with [" + w.kept + "] and request #" + std::to_string(e.seq) +
                 " sent [" + kept_params(e, p) + "]",
             "parameters changed mid-traversal");
        w.broken = true;
      }
    }
    w.pages.push_back(&e);
    if (e.succeeded()) {
      w.answered = true;
      const boost::json::value next = answer_at(e, p.next_cursor);
      if (next.is_string() && !next.as_string().empty()) {
        w.next = std::string(next.as_string());
        w.ended = false;
      } else {
        w.ended = true;
      }
    }
  }
  for (auto& [group, w] : walks) finish_walk(w, j);
}

/// The integer value of query parameter `name`, `fallback` when absent,
/// nullopt when not an integer.
std::optional<long long> int_param(const traffic_exchange& e, const std::string& name,
                                   long long fallback) {
  const std::string* v = e.query_value(name);
  if (!v) return fallback;
  if (v->empty() || v->size() > 12) return std::nullopt;
  std::size_t at = (*v)[0] == '-' ? 1 : 0;
  if (at == v->size()) return std::nullopt;
  for (std::size_t k = at; k < v->size(); ++k) {
    if ((*v)[k] < '0' || (*v)[k] > '9') return std::nullopt;
  }
  return std::stoll(*v);
}

void judge_page(const traffic& t, traffic_judgement& j) {
  struct walk {
    const traffic_exchange* first = nullptr;
    std::string kept;
    long long pages = -1;  // meta.pages of the last answer, -1 unknown
  };
  std::map<std::string, walk> walks;
  for (const auto& e : t.exchanges) {
    if (!e.op || !e.op->paging || e.op->paging->kind != openapi::pagination::style::page) continue;
    const auto& p = *e.op->paging;
    const auto page = int_param(e, p.page_param, 1);
    const auto size = int_param(e, p.size_param, p.default_size);
    if (!page || !size || *page < 1 || *size < p.min_size || *size > p.max_size) {
      fail(j, {&e},
           p.page_param + " is an integer from 1 and " + p.size_param + " an integer from " +
               std::to_string(p.min_size) + " to " + std::to_string(p.max_size) + " (" +
               cited(t, page_check, "x-pagination") + ")",
           "request #" + std::to_string(e.seq) + " sent " + p.page_param + "=" +
               (e.query_value(p.page_param) ? *e.query_value(p.page_param)
                                            : std::string("(absent)")) +
               ", " + p.size_param + "=" +
               (e.query_value(p.size_param) ? *e.query_value(p.size_param)
                                            : std::string("(absent)")),
           "page or size out of range");
      continue;
    }
    walk& w = walks[group_of(e)];
    const std::string kept = kept_params(e, p);
    if (*page == 1 || !w.first) {
      w = walk{&e, kept, -1};
    } else if (kept != w.kept) {
      fail(j, {w.first, &e},
           "filters, sort and page size stay identical during a traversal (section 8.4)",
           "the traversal began with [" + w.kept + "] and request #" + std::to_string(e.seq) +
               " sent [" + kept + "]",
           "parameters changed mid-traversal");
      w = walk{&e, kept, -1};
      continue;
    } else if (w.pages >= 0 && *page > std::max(w.pages, 1LL)) {
      fail(j, {w.first, &e},
           "a page traversal stops at " + p.pages + " (" + cited(t, page_check, "x-pagination") +
               ")",
           "request #" + std::to_string(e.seq) + " asked for page " + std::to_string(*page) +
               " of a list whose " + p.pages + " was " + std::to_string(w.pages),
           "page past the last");
      continue;
    }
    if (e.succeeded()) {
      const boost::json::value pages = answer_at(e, p.pages);
      if (pages.is_int64()) w.pages = pages.as_int64();
    }
    j.held(e);
  }
}

}  // namespace

void add_traversal_rules(harness::check_catalogue& catalogue) {
  catalogue.add(harness::traffic_check{
      {std::string(cursor_check),
       "a cursor traversal keeps filters, sort and page size, sends each next_cursor, goes to "
       "the end, and sends no page counters",
       "x-pagination style cursor"},
      harness::rule_level::core,
      "call to a cursor list (x-pagination style cursor)",
      judge_cursor,
      {},
      [](const openapi::operation& op) {
        return op.paging && op.paging->kind == openapi::pagination::style::cursor;
      }});
  catalogue.add(harness::traffic_check{
      {std::string(page_check),
       "a page traversal sends page >= 1 and a size within x-pagination's bounds, keeps "
       "filters, sort and size, and asks for no page past meta.pages",
       "x-pagination style page"},
      harness::rule_level::core,
      "call to a page list (x-pagination style page)",
      judge_page,
      {},
      [](const openapi::operation& op) {
        return op.paging && op.paging->kind == openapi::pagination::style::page;
      }});
}

}  // namespace conform::suites::client
