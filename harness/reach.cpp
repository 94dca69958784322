#include "harness/reach.hpp"

#include <boost/json.hpp>

#include <algorithm>

namespace conform::harness {
namespace {

bool refused_as_invalid(const openapi::api_spec& spec, unsigned status, const std::string& code) {
  if (status == 400 || status == 415) return true;
  if (status != 422) return false;
  const auto& codes = spec.rules.validation_codes;
  return code.empty() || std::find(codes.begin(), codes.end(), code) != codes.end();
}

std::string why_not(const operation_reach& r, bool made_up, const std::string& not_sent) {
  if (r.sent == 0 && r.unjudged_succeeded > 0) {
    return "answered 2xx only to requests no check judged (" +
           std::to_string(r.unjudged_succeeded) + ")";
  }
  if (r.sent == 0) return "not sent: " + (not_sent.empty() ? std::string("no request") : not_sent);
  const std::uint64_t refused = r.unauthorized + r.forbidden;
  if (refused == r.sent) {
    return r.forbidden >= r.unauthorized
               ? "refused: every answer was 403 (the credential may not call it)"
               : "refused: every answer was 401 (the credential is not accepted here)";
  }
  if (r.invalid == r.sent) return "every request refused as invalid (400/415/422)";
  if (r.not_found > 0 && r.not_found + r.invalid + refused == r.sent) {
    const std::string ids = made_up ? "the ids sent were made up, and " : "";
    if (r.not_found == r.sent) {
      return made_up ? "no id found: " + ids + "answered 404"
                     : "no id found: every id sent answered 404";
    }
    // The rest were refused for something else: say how many of each, not
    // that every one was a 404 (PowerDNS's 422s on the real server id).
    std::string out = "no id found: " + ids + std::to_string(r.not_found) + " of " +
                      std::to_string(r.sent) + " answered 404";
    if (r.invalid > 0)
      out += ", " + std::to_string(r.invalid) + " refused as invalid (400/415/422)";
    if (refused > 0) out += ", " + std::to_string(refused) + " refused as unauthorized (401/403)";
    return out;
  }
  std::string out = "no 2xx in " + std::to_string(r.sent) + " requests:";
  auto add = [&out](std::uint64_t n, const char* what) {
    if (n > 0) out += " " + std::to_string(n) + "x " + what + ",";
  };
  add(r.unauthorized, "401");
  add(r.forbidden, "403");
  add(r.not_found, "404");
  add(r.invalid, "invalid");
  add(r.other, "other");
  out.pop_back();
  return out;
}

}  // namespace

void reach_tracker::record(const openapi::operation& op, const auth_model& auth, unsigned status,
                           const std::string& code, bool judged) {
  std::lock_guard lock(mutex_);
  entry& e = entries_[{op.operation_id, auth.label()}];
  e.r.operation_id = op.operation_id;
  e.r.method_path = op.method_path();
  e.r.auth_model = auth.label();
  if (!judged) {
    if (status >= 200 && status < 300) ++e.r.unjudged_succeeded;
    return;
  }
  if (!auth.made_up.empty()) e.made_up = true;
  ++e.r.sent;
  if (status >= 200 && status < 300) {
    ++e.r.succeeded;
  } else if (status == 401) {
    ++e.r.unauthorized;
  } else if (status == 403) {
    ++e.r.forbidden;
  } else if (status == 404) {
    ++e.r.not_found;
  } else if (refused_as_invalid(spec_, status, code)) {
    ++e.r.invalid;
  } else {
    ++e.r.other;
  }
}

void reach_tracker::record(const openapi::operation& op, const auth_model& auth,
                           const http::result& result, const boost::json::value* body) {
  std::string code;
  if (body && !spec_.rules.error_code_pointer.empty()) {
    boost::system::error_code ec;
    if (const auto* v = body->find_pointer(spec_.rules.error_code_pointer, ec);
        v && v->is_string()) {
      code = std::string(v->get_string());
    }
  }
  record(op, auth, result.ok() ? result.value().status : 0, code);
}

void reach_tracker::not_sent(const openapi::operation& op, const std::string& label,
                             const std::string& why) {
  std::lock_guard lock(mutex_);
  entry& e = entries_[{op.operation_id, label}];
  e.r.operation_id = op.operation_id;
  e.r.method_path = op.method_path();
  e.r.auth_model = label;
  if (e.not_sent.empty()) e.not_sent = why;
}

bool reach_tracker::reached(const openapi::operation& op, const std::string& label) const {
  std::lock_guard lock(mutex_);
  auto it = entries_.find({op.operation_id, label});
  return it != entries_.end() && it->second.r.succeeded > 0;
}

std::vector<operation_reach> reach_tracker::fold(
    const std::vector<const openapi::operation*>& order) const {
  std::lock_guard lock(mutex_);
  std::vector<operation_reach> out;
  for (const auto* op : order) {
    for (auto it = entries_.lower_bound({op->operation_id, ""});
         it != entries_.end() && it->first.first == op->operation_id; ++it) {
      operation_reach r = it->second.r;
      if (!r.reached()) r.why = why_not(r, it->second.made_up, it->second.not_sent);
      out.push_back(std::move(r));
    }
  }
  return out;
}

}  // namespace conform::harness
