#include "reference/certification.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <map>
#include <mutex>
#include <thread>

#include "core/form.hpp"
#include "reference/detail/operations.hpp"
#include "reference/detail/pipeline.hpp"
#include "reference/detail/recording.hpp"
#include "reference/detail/util.hpp"
#include "reference/detail/wire.hpp"

namespace conform::reference {

const char* to_string(adversity_kind k) {
  switch (k) {
    case adversity_kind::none:
      return "none";
    case adversity_kind::rate_limited:
      return "rate_limited";
    case adversity_kind::server_error:
      return "server_error";
    case adversity_kind::connection_dropped:
      return "connection_dropped";
    case adversity_kind::outage:
      return "outage";
    case adversity_kind::slow:
      return "slow";
  }
  return "none";
}

std::string describe(const planned_adversity& p) {
  std::string out = std::string(to_string(p.kind)) + " on " + p.where + ": " + p.what;
  out += p.met_at ? " (met at #" + std::to_string(p.met_at) + ")" : " (not met)";
  return out;
}

namespace detail {

/// The classes of fresh requests an adversity can meet.
enum class request_class : std::uint8_t {
  none,         // unauthenticated, unknown route, or another write
  keyed_write,  // a POST with an Idempotency-Key
  list_read,    // the first page of a list
  later_page,   // a page after the first (a cursor, or page > 1)
  record_read,  // any other authenticated GET
  any,          // slow: any fresh authenticated request no other adversity took
};

const char* class_name(request_class c) {
  switch (c) {
    case request_class::keyed_write:
      return "keyed_write";
    case request_class::list_read:
      return "list_read";
    case request_class::later_page:
      return "later_page";
    case request_class::record_read:
      return "record_read";
    case request_class::any:
      return "any";
    case request_class::none:
      break;
  }
  return "none";
}

/// "the first keyed write (...)", "the second keyed write (...)": the
/// `nth` (1-based) adversity of its class meets the nth such request.
std::string adversity_where(request_class c, int nth) {
  const char* ordinal = nth == 1 ? "first" : nth == 2 ? "second" : "next";
  switch (c) {
    case request_class::keyed_write:
      return std::string("the ") + ordinal + " keyed write (a POST with an Idempotency-Key)";
    case request_class::list_read:
      return std::string("the ") + ordinal + " list read (the first page of a list)";
    case request_class::later_page:
      return std::string("the ") + ordinal +
             " page after a first page (a cursor, or page 2 or later)";
    case request_class::record_read:
      return std::string("the ") + ordinal + " record read (a GET that is not a list)";
    case request_class::any:
      return "the next fresh authenticated request no other adversity took";
    case request_class::none:
      break;
  }
  return "";
}

/// The failures still to come for the later attempts of one request.
struct adversity_chain {
  adversity_kind kind = adversity_kind::none;
  std::vector<int> statuses;
  int total = 0;  // attempts that fail
};

}  // namespace detail

namespace {

using detail::adversity_chain;
using detail::request_class;
using clock = std::chrono::steady_clock;

std::uint64_t draw(std::uint64_t seed, std::uint64_t salt, std::uint64_t range) {
  return detail::mix64(seed * 0x9e3779b97f4a7c15ULL + salt) % range;
}

/// What one request meets.
struct decision {
  adversity_kind kind = adversity_kind::none;
  int status = 0;  // rate_limited, server_error, outage: the status sent
  std::string detail;
};

request_class class_of(const httplib::Request& req, const detail::operation* op) {
  if (op == nullptr || !op->authenticated) return request_class::none;
  if (req.method == "POST") {
    return req.get_header_value("Idempotency-Key").empty() ? request_class::none
                                                           : request_class::keyed_write;
  }
  if (req.method != "GET") return request_class::none;
  if (!op->operation_id.starts_with("list")) return request_class::record_read;
  const std::string page = req.get_param_value("page");
  const bool later = req.has_param("cursor") || (!page.empty() && page != "1");
  return later ? request_class::later_page : request_class::list_read;
}

}  // namespace

struct traffic_recorder::impl {
  explicit impl(adversity_options o) : opts(o), start(clock::now()) {
    const std::uint64_t s = opts.seed;
    const bool limited_on_lists = draw(s, 1, 2) == 0;
    const bool drop_first = draw(s, 2, 2) == 0;
    first_error = draw(s, 3, 2) == 0 ? 503 : 500;
    const std::string retry_after = std::to_string(opts.retry_after_seconds);
    const std::string outage_what =
        std::to_string(opts.outage_attempts) + " attempts answered 503 " +
        "INTERNAL_ERROR, unprocessed (more than a client may make); " + "attempt " +
        std::to_string(opts.outage_attempts + 1) + " is answered";
    // One pass of the plan scripts some kinds, on the classes in the scope.
    auto wanted = [&](adversity_kind k, request_class c) {
      if (!opts.kinds.empty() &&
          std::find(opts.kinds.begin(), opts.kinds.end(), k) == opts.kinds.end()) {
        return false;
      }
      return c == request_class::any || opts.classes.empty() ||
             std::find(opts.classes.begin(), opts.classes.end(), detail::class_name(c)) !=
                 opts.classes.end();
    };
    // Each adversity meets the first class of its candidates that the scope
    // has (the seed orders the list classes): a 429 or a 5xx can come on any
    // request of a key, so a scope without lists meets them elsewhere.
    auto add = [&](adversity_kind k, std::vector<request_class> candidates, std::string what) {
      for (request_class c : candidates) {
        if (!wanted(k, c)) continue;
        const int nth = 1 + static_cast<int>(std::count(classes.begin(), classes.end(), c));
        plan.push_back({k, adversity_where(c, nth), std::move(what), 0});
        classes.push_back(c);
        return true;
      }
      return false;
    };
    using rc = request_class;
    const rc first_list = limited_on_lists ? rc::list_read : rc::later_page;
    const rc other_list = limited_on_lists ? rc::later_page : rc::list_read;
    add(adversity_kind::rate_limited, {first_list, other_list, rc::record_read, rc::keyed_write},
        "429 RATE_LIMITED with Retry-After: " + retry_after + ", unprocessed");
    add(adversity_kind::server_error, {other_list, first_list, rc::record_read, rc::keyed_write},
        std::to_string(first_error) + " then " + std::to_string(first_error == 503 ? 500 : 503) +
            " INTERNAL_ERROR, unprocessed; attempt 3 is answered");
    const std::string dropped =
        "processed, then the connection closed before any byte of the answer; a retry with "
        "the same Idempotency-Key gets the answer, replayed";
    const auto first_write =
        drop_first ? adversity_kind::connection_dropped : adversity_kind::outage;
    const auto second_write =
        drop_first ? adversity_kind::outage : adversity_kind::connection_dropped;
    add(first_write, {rc::keyed_write}, drop_first ? dropped : outage_what);
    add(second_write, {rc::keyed_write}, drop_first ? outage_what : dropped);
    add(adversity_kind::outage, {rc::record_read}, outage_what);
    // A scope of lists alone meets its outage on a list.
    if (std::none_of(plan.begin(), plan.end(),
                     [](const auto& p) { return p.kind == adversity_kind::outage; })) {
      add(adversity_kind::outage, {other_list, first_list}, outage_what);
    }
    const std::string slow = "answered after " + std::to_string(opts.slow.count()) + " ms";
    add(adversity_kind::slow, {rc::any}, slow);
    // One slow answer in the plan's slow pass; two beside every other kind.
    if (opts.kinds.empty()) add(adversity_kind::slow, {rc::any}, slow);
  }

  /// True when `op` is in the scope's operations (all, when none are named).
  bool in_scope(const detail::operation* op) const {
    if (op == nullptr) return false;
    return opts.operations.empty() || std::find(opts.operations.begin(), opts.operations.end(),
                                                op->operation_id) != opts.operations.end();
  }

  decision decide(const httplib::Request& req, const std::string& body, std::uint64_t seq) {
    decision d;
    const auto route = detail::match_route(req.path, req.method);
    const request_class cls = in_scope(route.op) ? class_of(req, route.op) : request_class::none;
    if (cls != request_class::none &&
        std::find(seen.begin(), seen.end(), detail::class_name(cls)) == seen.end()) {
      seen.push_back(detail::class_name(cls));
    }
    if (!opts.enabled) return d;
    // One attempt of an intent is the same request as the others, its body
    // as the server reads it (a retry that rebuilds a multipart body with a
    // new boundary is one request): core::canonical_body.
    const std::string fp = req.method + " " + req.target + "\x1f" +
                           req.get_header_value("X-Tenant-Id") + "\x1f" +
                           core::canonical_body(req.get_header_value("Content-Type"), body);
    const int attempt = attempts[fp]++;
    if (attempt > 0) {
      auto c = chains.find(fp);
      if (c == chains.end() || c->second.statuses.empty()) return d;
      d.kind = c->second.kind;
      d.status = c->second.statuses.front();
      c->second.statuses.erase(c->second.statuses.begin());
      d.detail = std::to_string(d.status) + " INTERNAL_ERROR again (attempt " +
                 std::to_string(attempt + 1) + " of " + std::to_string(c->second.total) +
                 " that fail); " +
                 (c->second.statuses.empty() ? "the next attempt is answered"
                                             : "the next attempt fails too");
      return d;
    }
    if (cls == request_class::none) return d;
    std::size_t pick = plan.size();
    for (std::size_t i = 0; i < plan.size() && pick == plan.size(); ++i) {
      if (plan[i].met_at == 0 && classes[i] == cls) pick = i;
    }
    for (std::size_t i = 0; i < plan.size() && pick == plan.size(); ++i) {
      if (plan[i].met_at == 0 && classes[i] == request_class::any) pick = i;
    }
    if (pick == plan.size()) return d;
    plan[pick].met_at = seq;
    d.kind = plan[pick].kind;
    switch (d.kind) {
      case adversity_kind::rate_limited:
        d.status = 429;
        d.detail = "429 RATE_LIMITED, Retry-After: " + std::to_string(opts.retry_after_seconds) +
                   " (" + plan[pick].where + ")";
        break;
      case adversity_kind::server_error:
        d.status = first_error;
        chains[fp] = {d.kind, {first_error == 503 ? 500 : 503}, 2};
        d.detail = std::to_string(d.status) +
                   " INTERNAL_ERROR (attempt 1 of 2 that fail); attempt 3 is answered";
        break;
      case adversity_kind::outage:
        d.status = 503;
        chains[fp] = {d.kind,
                      std::vector<int>(static_cast<std::size_t>(opts.outage_attempts - 1), 503),
                      opts.outage_attempts};
        d.detail = "503 INTERNAL_ERROR, an outage (attempt 1 of " +
                   std::to_string(opts.outage_attempts) + " that fail; attempt " +
                   std::to_string(opts.outage_attempts + 1) + " is answered)";
        break;
      case adversity_kind::connection_dropped:
        d.detail =
            "processed, then the connection closed before any byte of the answer; only a retry "
            "with the same Idempotency-Key gets the answer without a second effect";
        break;
      case adversity_kind::slow:
        d.detail = "answered after " + std::to_string(opts.slow.count()) + " ms";
        break;
      case adversity_kind::none:
        break;
    }
    return d;
  }

  std::chrono::microseconds since_start(clock::time_point at = clock::now()) const {
    return std::chrono::duration_cast<std::chrono::microseconds>(at - start);
  }

  adversity_options opts;
  clock::time_point start;
  mutable std::mutex mutex;
  std::vector<recorded_exchange> log;
  std::uint64_t next_seq = 1;
  std::map<std::string, int> attempts;
  std::map<std::string, adversity_chain> chains;
  std::vector<planned_adversity> plan;
  std::vector<request_class> classes;
  std::vector<std::string> seen;  // classes_seen()
  int first_error = 503;
};

traffic_recorder::traffic_recorder(adversity_options options)
    : impl_(std::make_unique<impl>(options)) {}

traffic_recorder::~traffic_recorder() = default;

std::vector<recorded_exchange> traffic_recorder::snapshot() const {
  std::vector<recorded_exchange> out;
  {
    std::lock_guard lock(impl_->mutex);
    out = impl_->log;
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.seq < b.seq; });
  return out;
}

std::vector<planned_adversity> traffic_recorder::planned() const {
  if (!impl_->opts.enabled) return {};
  std::lock_guard lock(impl_->mutex);
  return impl_->plan;
}

std::vector<std::string> traffic_recorder::plan() const {
  if (!impl_->opts.enabled) return {"no adversity (--no-adversity)"};
  std::vector<std::string> out;
  for (const auto& p : planned()) out.push_back(describe(p));
  return out;
}

std::vector<std::string> traffic_recorder::classes_seen() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->seen;
}

std::vector<std::string> request_class_names() {
  return {"keyed_write", "list_read", "later_page", "record_read"};
}

const adversity_options& traffic_recorder::options() const {
  return impl_->opts;
}

namespace detail {

namespace {

void scripted_error(httplib::Response& res, int status, std::string_view code,
                    std::string_view message, const std::string& rid) {
  reply r = error(status, code, message);
  r.body["request_id"] = rid;
  res.status = status;
  res.set_header("X-Request-Id", rid);
  res.set_content(boost::json::serialize(r.body), "application/json");
}

/// The headers httplib adds to a request itself, not sent by the client.
bool added_by_httplib(const std::string& name) {
  return name == "REMOTE_ADDR" || name == "REMOTE_PORT" || name == "LOCAL_ADDR" ||
         name == "LOCAL_PORT";
}

}  // namespace

void serve_recorded(traffic_recorder& recorder, server_state& state, const httplib::Request& req,
                    httplib::Response& res) {
  auto& in = recorder.internals();
  wire_request* wire = current_wire();
  recorded_exchange e;
  e.method = req.method;
  e.target = req.target;
  if (wire) {
    e.request_headers = wire->headers();
    e.request_body = wire->body().value_or(req.body);
  } else {
    for (const auto& [k, v] : req.headers) {
      if (!added_by_httplib(k)) e.request_headers.emplace_back(k, v);
    }
    e.request_body = req.body;
  }
  decision d;
  {
    std::lock_guard lock(in.mutex);
    e.seq = in.next_seq++;
    e.received = wire && wire->arrived != clock::time_point{} ? in.since_start(wire->arrived)
                                                              : in.since_start();
    d = in.decide(req, e.request_body, e.seq);
  }
  if (wire) wire->tag = e.seq;
  e.adversity = d.kind;
  e.adversity_detail = d.detail;
  const std::string rid = "req_adv_" + std::to_string(e.seq);
  switch (d.kind) {
    case adversity_kind::rate_limited:
      scripted_error(res, 429, "RATE_LIMITED", "too many requests for this credential", rid);
      res.set_header("Retry-After", std::to_string(in.opts.retry_after_seconds));
      break;
    case adversity_kind::server_error:
    case adversity_kind::outage:
      scripted_error(res, d.status, "INTERNAL_ERROR", "a transient failure; retry with backoff",
                     rid);
      break;
    case adversity_kind::connection_dropped:
      handle_request(state, req, res);
      e.processed_status = res.status;
      e.response_body = res.body;
      // The wire stream writes nothing of this answer and closes the
      // connection: whatever the client's HTTP library, no status line.
      if (wire) wire->drop = true;
      break;
    case adversity_kind::slow:
      std::this_thread::sleep_for(in.opts.slow);
      handle_request(state, req, res);
      break;
    case adversity_kind::none:
      handle_request(state, req, res);
      break;
  }
  e.status = d.kind == adversity_kind::connection_dropped ? 0 : res.status;
  for (const auto& [k, v] : res.headers) e.response_headers.emplace_back(k, v);
  if (d.kind != adversity_kind::connection_dropped) e.response_body = res.body;
  std::lock_guard lock(in.mutex);
  e.answered = in.since_start();
  in.log.push_back(std::move(e));
}

void answered_recorded(traffic_recorder& recorder, const wire_request& wire, bool delivered) {
  auto& in = recorder.internals();
  std::lock_guard lock(in.mutex);
  for (auto it = in.log.rbegin(); it != in.log.rend(); ++it) {
    if (it->seq != wire.tag) continue;
    it->answered = in.since_start(wire.handed_over);
    if (!delivered && it->status != 0) {
      it->status = 0;
      it->adversity_detail += std::string(it->adversity_detail.empty() ? "" : "; ") +
                              "the client closed the connection before the answer was written";
    }
    return;
  }
}

}  // namespace detail

}  // namespace conform::reference
