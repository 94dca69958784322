#include "reference/certification.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <map>
#include <mutex>
#include <thread>

#include "reference/detail/operations.hpp"
#include "reference/detail/pipeline.hpp"
#include "reference/detail/recording.hpp"
#include "reference/detail/util.hpp"

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
    case adversity_kind::slow:
      return "slow";
  }
  return "none";
}

namespace {

using clock = std::chrono::steady_clock;

std::uint64_t draw(std::uint64_t seed, std::uint64_t salt, std::uint64_t range) {
  return detail::mix64(seed * 0x9e3779b97f4a7c15ULL + salt) % range;
}

/// What one request meets.
struct decision {
  adversity_kind kind = adversity_kind::none;
  int status = 0;  // server_error
  std::string detail;
};

}  // namespace

struct traffic_recorder::impl {
  explicit impl(adversity_options o) : opts(o), start(clock::now()) {
    const std::uint64_t s = opts.seed;
    rate_limited_at = 2 + draw(s, 1, 3);                    // the 2nd..4th fresh read
    server_error_at = rate_limited_at + 2 + draw(s, 2, 3);  // a few fresh reads later
    dropped_at = 1 + draw(s, 3, 2);  // the 1st or 2nd fresh keyed credit move
    slow_a = 3 + draw(s, 4, 4);
    slow_b = slow_a + 5 + draw(s, 5, 5);
    first_error = draw(s, 6, 2) == 0 ? 503 : 500;
  }

  decision decide(const httplib::Request& req, std::uint64_t seq) {
    decision d;
    if (!opts.enabled) return d;
    const auto route = detail::match_route(req.path, req.method);
    const std::string fp = req.method + " " + req.target + "\x1f" +
                           req.get_header_value("X-Tenant-Id") + "\x1f" + req.body;
    const int attempt = attempts[fp]++;
    if (attempt > 0) {
      auto chain = chains.find(fp);
      if (chain != chains.end() && !chain->second.empty()) {
        d.kind = adversity_kind::server_error;
        d.status = chain->second.front();
        chain->second.erase(chain->second.begin());
        d.detail = std::to_string(d.status) + " INTERNAL_ERROR again (attempt " +
                   std::to_string(attempt + 1) + "); the next attempt is answered";
        return d;
      }
      return slow_or_none(seq);
    }
    const bool authenticated = route.op != nullptr && route.op->authenticated;
    if (authenticated && req.method == "GET") {
      ++fresh_reads;
      if (!rate_limited_done && fresh_reads >= rate_limited_at) {
        rate_limited_done = true;
        d.kind = adversity_kind::rate_limited;
        d.detail = "429 RATE_LIMITED, Retry-After: " + std::to_string(opts.retry_after_seconds) +
                   " (fresh read " + std::to_string(fresh_reads) + ")";
        return d;
      }
      if (!server_error_done && fresh_reads >= server_error_at) {
        server_error_done = true;
        d.kind = adversity_kind::server_error;
        d.status = first_error;
        chains[fp] = {first_error == 503 ? 500 : 503};
        d.detail = std::to_string(d.status) +
                   " INTERNAL_ERROR (attempt 1); attempt 2 fails too, attempt 3 is answered";
        return d;
      }
    }
    if (authenticated && route.op->idempotency_required && req.has_header("Idempotency-Key")) {
      ++fresh_keyed;
      if (!dropped_done && fresh_keyed >= dropped_at) {
        dropped_done = true;
        d.kind = adversity_kind::connection_dropped;
        d.detail =
            "processed, then the connection closed before the answer's body; only a retry with "
            "the same Idempotency-Key gets the answer without a second effect";
        return d;
      }
    }
    return slow_or_none(seq);
  }

  decision slow_or_none(std::uint64_t seq) const {
    decision d;
    if (seq == slow_a || seq == slow_b) {
      d.kind = adversity_kind::slow;
      d.detail = "answered after " + std::to_string(opts.slow.count()) + " ms";
    }
    return d;
  }

  std::vector<std::string> plan() const {
    if (!opts.enabled) return {"no adversity (--no-adversity)"};
    return {
        "rate_limited: fresh authenticated read number " + std::to_string(rate_limited_at) +
            " gets 429 RATE_LIMITED with Retry-After: " + std::to_string(opts.retry_after_seconds),
        "server_error: fresh authenticated read number " + std::to_string(server_error_at) +
            " gets " + std::to_string(first_error) + " then " +
            std::to_string(first_error == 503 ? 500 : 503) +
            " INTERNAL_ERROR; its third attempt is answered",
        "connection_dropped: keyed credit move number " + std::to_string(dropped_at) +
            " is processed and its connection closed before the answer's body",
        "slow: requests number " + std::to_string(slow_a) + " and " + std::to_string(slow_b) +
            " are answered after " + std::to_string(opts.slow.count()) + " ms",
    };
  }

  std::chrono::microseconds since_start() const {
    return std::chrono::duration_cast<std::chrono::microseconds>(clock::now() - start);
  }

  adversity_options opts;
  clock::time_point start;
  mutable std::mutex mutex;
  std::vector<recorded_exchange> log;
  std::uint64_t next_seq = 1;
  std::map<std::string, int> attempts;
  std::map<std::string, std::vector<int>> chains;
  std::uint64_t fresh_reads = 0, fresh_keyed = 0;
  bool rate_limited_done = false, server_error_done = false, dropped_done = false;
  std::uint64_t rate_limited_at = 0, server_error_at = 0, dropped_at = 0, slow_a = 0, slow_b = 0;
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

std::vector<std::string> traffic_recorder::plan() const {
  return impl_->plan();
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

}  // namespace

void serve_recorded(traffic_recorder& recorder, server_state& state, const httplib::Request& req,
                    httplib::Response& res) {
  auto& in = recorder.internals();
  recorded_exchange e;
  decision d;
  {
    std::lock_guard lock(in.mutex);
    e.seq = in.next_seq++;
    e.received = in.since_start();
    d = in.decide(req, e.seq);
  }
  e.method = req.method;
  e.target = req.target;
  for (const auto& [k, v] : req.headers) e.request_headers.emplace_back(k, v);
  e.request_body = req.body;
  e.adversity = d.kind;
  e.adversity_detail = d.detail;
  const std::string rid = "req_adv_" + std::to_string(e.seq);
  switch (d.kind) {
    case adversity_kind::rate_limited:
      scripted_error(res, 429, "RATE_LIMITED", "too many requests for this credential", rid);
      res.set_header("Retry-After", std::to_string(in.opts.retry_after_seconds));
      break;
    case adversity_kind::server_error:
      scripted_error(res, d.status, "INTERNAL_ERROR", "a transient failure; retry with backoff",
                     rid);
      break;
    case adversity_kind::connection_dropped:
      handle_request(state, req, res);
      e.processed_status = res.status;
      e.response_body = res.body;
      // The head of a 500 goes out, then the connection closes before any
      // byte of the body: whatever the client's HTTP library, the answer is lost.
      res.status = 500;
      res.body.clear();
      res.set_chunked_content_provider("application/json",
                                       [](std::size_t, httplib::DataSink&) { return false; });
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

}  // namespace detail

}  // namespace conform::reference
