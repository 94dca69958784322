// A target that stops answering in the middle of a run (issue 37 item 8):
// the request that killed it is a failure with its own reproduction, and
// the run stops, saying why, rather than filing every later request as a
// transport failure or "not run".

#include "harness/detail/engine.hpp"

namespace conform::harness::detail {

void engine::remember(taken t) {
  const bool answered = t.result.ok();
  t.order = taken_order_.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard lock(taken_mutex_);
  if (!answered && t.op) {
    unanswered_ops_.emplace_back(t.order, t.op->method_path());
    if (unanswered_ops_.size() > 16) unanswered_ops_.pop_front();
  }
  auto& slot = answered ? answered_last_ : unanswered_;
  if (!slot || slot->order < t.order) slot = std::move(t);
}

bool engine::watch(const http::result& res) {
  if (res.ok()) {
    answered_.store(true, std::memory_order_relaxed);
    return false;
  }
  // A refused connection before any answer is a target that was never up:
  // the transport failure says so. After answers, nothing listens any more.
  if (res.error().what != http::transport_error::kind::connect ||
      !answered_.load(std::memory_order_relaxed)) {
    return target_gone();
  }
  if (gone_.exchange(true)) return true;
  std::optional<taken> last;
  std::vector<std::string> also;  // other requests in flight it never answered
  {
    std::lock_guard lock(taken_mutex_);
    // The request it took last and never answered, when it was in flight
    // with the last answered ones (a worker's); else the last answered.
    const std::uint64_t in_flight = std::max(1u, client_.workers());
    if (unanswered_ &&
        (!answered_last_ || unanswered_->order + in_flight >= answered_last_->order)) {
      for (const auto& [order, what] : unanswered_ops_) {
        if (order != unanswered_->order && order + in_flight >= unanswered_->order) {
          also.push_back(what);
        }
      }
      last = std::move(unanswered_);
    } else {
      last = std::move(answered_last_);
    }
  }
  const std::string refused = redact(res.error().message);
  std::string why =
      "the run stopped: the target stopped answering (a connection was refused: " + refused + ")";
  if (last && last->op) {
    failure f;
    f.check = "response_received";
    f.operation_id = last->op->operation_id;
    f.method_path = last->op->method_path();
    f.auth_model = last->label;
    f.mode = last->mode;
    f.expected = "the target keeps answering (RFC 9110 section 6: a request is answered)";
    f.seen = "the last request the target took; after it, every connection was refused (" +
             refused + ")";
    if (last->result.ok()) {
      const auto& answer = last->result.value();
      f.status = answer.status;
      const std::string* type = answer.find(http::field::content_type);
      f.response_excerpt =
          redact(core::body_excerpt(answer.body, type ? *type : std::string(), 300));
    } else {
      f.seen += "; it got no answer: " + redact(last->result.error().message);
    }
    // With several connections, any request in flight may have killed it.
    if (!also.empty()) {
      f.seen +=
          "; in flight with it and unanswered too (each its own response_received "
          "failure): " +
          core::join(also);
    }
    f.cause = "target stopped answering";
    f.seed = config_.seed;
    f.curl = http::to_curl(last->request, client_.base(), redactor_);
    const auto c = results_.cell(last->op, last->label, f.check, last->from);
    results_sink::count_failure(c);
    results_.report(c, std::move(f), 0);
    why += " after " + last->op->operation_id + " (see its response_received failure)";
  }
  results_.not_run({"*", "", "", why + "; what was left of the run was not sent"});
  return true;
}

}  // namespace conform::harness::detail
