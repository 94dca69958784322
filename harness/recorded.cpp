// Recording exchanges: the redaction --record applies, and matching a
// request back to the operation it calls.
#include "harness/recorded.hpp"

#include <algorithm>
#include <cctype>

#include "core/text.hpp"
#include "harness/auth.hpp"

namespace conform::harness {
namespace {

std::string rec_join_pieces(const std::vector<http::secret_redactor::piece>& pieces,
                            std::vector<std::string>* names) {
  std::string out;
  for (const auto& p : pieces) {
    if (p.variable) {
      out.append("${").append(p.text).append("}");
      if (names && std::find(names->begin(), names->end(), p.text) == names->end()) {
        names->emplace_back(p.text);
      }
    } else {
      out.append(p.text);
    }
  }
  return out;
}

std::vector<std::string_view> rec_segments(std::string_view path) {
  std::vector<std::string_view> out;
  std::size_t start = path.empty() || path[0] != '/' ? 0 : 1;
  while (start <= path.size()) {
    const std::size_t end = std::min(path.find('/', start), path.size());
    out.push_back(path.substr(start, end - start));
    if (end == path.size()) break;
    start = end + 1;
  }
  return out;
}

/// True when the path rec_segments match the operation's template: literal
/// rec_segments equal once decoded, a segment holding `{name}` anything non-empty.
bool rec_matches(const openapi::operation& op, const std::vector<std::string_view>& path) {
  const auto tmpl = rec_segments(op.path);
  if (tmpl.size() != path.size()) return false;
  for (std::size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i].find('{') != std::string_view::npos) {
      if (path[i].empty()) return false;
      continue;
    }
    if (core::percent_decode(path[i]) != tmpl[i]) return false;
  }
  return true;
}

}  // namespace

std::string_view to_string(check_verdict::kind k) {
  switch (k) {
    case check_verdict::kind::pass:
      return "pass";
    case check_verdict::kind::violation:
      return "violation";
    case check_verdict::kind::not_applicable:
      return "not_applicable";
    case check_verdict::kind::not_run:
      return "not_run";
  }
  return "?";
}

std::optional<check_verdict::kind> parse_verdict_kind(std::string_view s) {
  for (auto k : {check_verdict::kind::pass, check_verdict::kind::violation,
                 check_verdict::kind::not_applicable, check_verdict::kind::not_run}) {
    if (to_string(k) == s) return k;
  }
  return std::nullopt;
}

exchange_recorder::exchange_recorder(const profile::target& target)
    : target_(target), redactor_(make_redactor(target)) {}

http::request exchange_recorder::redact(const http::request& req,
                                        std::vector<std::string>* names) const {
  http::request out;
  out.method = req.method;
  out.method_text = req.method_text;
  out.client_identity = req.client_identity;  // a credential's name, never its key
  out.target = rec_join_pieces(redactor_.split(req.target), names);
  out.headers.reserve(req.headers.size());
  for (const auto& [name, value] : req.headers) {
    if (const std::string* env = redactor_.header_variable(name)) {
      out.headers.emplace_back(name, "${" + *env + "}");
      if (names && std::find(names->begin(), names->end(), *env) == names->end()) {
        names->push_back(*env);
      }
    } else {
      out.headers.emplace_back(name, rec_join_pieces(redactor_.split(value), names));
    }
  }
  out.body = rec_join_pieces(redactor_.split(req.body), names);
  return out;
}

http::response exchange_recorder::redact(const http::response& res) const {
  http::response out = res;
  for (auto& h : out.headers) h.value = redact_credentials(target_, std::move(h.value));
  out.body = redact_credentials(target_, std::move(out.body));
  return out;
}

recorded_exchange exchange_recorder::record(std::string_view phase, const openapi::operation* op,
                                            std::string auth_model, std::string mode,
                                            const http::url& base, const http::request& req,
                                            const http::result& result,
                                            std::chrono::system_clock::time_point started,
                                            std::vector<recorded_verdict> verdicts) const {
  recorded_exchange e;
  e.phase = std::string(phase);
  if (op) {
    e.operation_id = op->operation_id;
    e.method_path = op->method_path();
  }
  e.auth_model = std::move(auth_model);
  e.mode = std::move(mode);
  e.base_url = base.to_string();
  e.request = redact(req, &e.secrets);
  if (result.ok()) {
    e.response = redact(result.value());
  } else {
    e.error = redact_credentials(target_, result.error().message);
  }
  e.retries_429 = result.retries_429;
  e.started = started;
  e.verdicts = std::move(verdicts);
  for (auto& v : e.verdicts) {
    v.seen = redact_credentials(target_, std::move(v.seen));
    v.expected = redact_credentials(target_, std::move(v.expected));
  }
  return e;
}

const openapi::operation* operation_of(const openapi::api_spec& spec, const http::request& req) {
  const std::string_view target = req.target;
  const auto path = rec_segments(target.substr(0, target.find('?')));
  const std::string_view method = http::method_name(req);
  // The most literal template wins: /items/new before /items/{id}.
  const openapi::operation* best = nullptr;
  std::size_t best_literals = 0;
  for (const auto& op : spec.operations) {
    if (op.method_name() != method || !rec_matches(op, path)) continue;
    const auto tmpl = rec_segments(op.path);
    const auto literals = static_cast<std::size_t>(std::count_if(
        tmpl.begin(), tmpl.end(), [](std::string_view s) { return s.find('{') == s.npos; }));
    if (!best || literals > best_literals) {
      best = &op;
      best_literals = literals;
    }
  }
  return best;
}

}  // namespace conform::harness
