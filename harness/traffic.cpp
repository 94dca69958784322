#include "harness/traffic.hpp"

#include <cstdio>

#include "core/form.hpp"
#include "core/text.hpp"
#include "harness/results.hpp"

namespace conform::harness {

namespace {

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    std::size_t at = s.find(sep, start);
    out.emplace_back(s.substr(start, at == std::string_view::npos ? s.size() - start : at - start));
    if (at == std::string_view::npos) break;
    start = at + 1;
  }
  return out;
}

bool match_path(const openapi::operation& op, const std::vector<std::string>& segments,
                std::map<std::string, std::string>& params) {
  const std::vector<std::string> tpl = split(op.path, '/');
  if (tpl.size() != segments.size()) return false;
  std::map<std::string, std::string> found;
  for (std::size_t i = 0; i < tpl.size(); ++i) {
    const std::string& t = tpl[i];
    if (t.size() > 2 && t.front() == '{' && t.back() == '}') {
      if (segments[i].empty()) return false;
      found[t.substr(1, t.size() - 2)] = core::percent_decode(segments[i], false);
    } else if (t != segments[i]) {
      return false;
    }
  }
  params = std::move(found);
  return true;
}

}  // namespace

std::string redact(std::string text, const traffic& t) {
  for (const auto& c : t.credentials) {
    if (c.secret.size() < 4) continue;
    for (std::size_t at = text.find(c.secret); at != std::string::npos;
         at = text.find(c.secret, at)) {
      const std::string name = "<secret of " + c.name + ">";
      text.replace(at, c.secret.size(), name);
      at += name.size();
    }
  }
  return text;
}

const std::string* traffic_exchange::query_value(std::string_view name) const {
  for (const auto& [k, v] : query) {
    if (k == name) return &v;
  }
  return nullptr;
}

std::string traffic_exchange::auth_model() const {
  if (!credential_kind) return "none";
  std::string out = *credential_kind;
  out += credential.empty() ? " (not in the profile)" : " (" + credential + ")";
  return out;
}

const std::string* traffic_exchange::response_header(std::string_view name) const {
  for (const auto& [k, v] : response_headers) {
    if (http::iequals(k, name)) return &v;
  }
  return nullptr;
}

void annotate(traffic& t) {
  for (auto& e : t.exchanges) {
    const std::string& target = e.request.target;
    const std::size_t q = target.find('?');
    const std::string_view raw_path = std::string_view(target).substr(0, q);
    e.path = core::percent_decode(raw_path, false);
    e.query.clear();
    if (q != std::string::npos) {
      for (const auto& pair : split(std::string_view(target).substr(q + 1), '&')) {
        if (pair.empty()) continue;
        const std::size_t eq = pair.find('=');
        e.query.emplace_back(
            core::percent_decode(pair.substr(0, eq), true),
            eq == std::string::npos ? "" : core::percent_decode(pair.substr(eq + 1), true));
      }
    }
    e.op = nullptr;
    if (t.spec) {
      const auto segments = split(raw_path, '/');
      for (const auto& op : t.spec->operations) {
        if (op.method != e.request.method) continue;
        if (match_path(op, segments, e.path_params)) {
          e.op = &op;
          break;
        }
      }
    }
    e.credential_kind.reset();
    e.credential.clear();
    e.credential_prefix.clear();
    e.credential_headers.clear();
    if (!t.spec) continue;
    for (const auto& [name, value] : e.request.headers) {
      for (const auto& scheme : t.spec->schemes) {
        if (scheme->header.empty() || !http::iequals(name, scheme->header)) continue;
        e.credential_headers.push_back(scheme->header);
        break;
      }
    }
    for (const auto& scheme : t.spec->schemes) {
      const std::string* value = e.request.find_header(scheme->header);
      if (!value) continue;
      std::string secret = *value;
      if (scheme->kind == openapi::security_scheme::type::http_bearer) {
        if (secret.size() >= 7 && http::iequals(secret.substr(0, 7), "bearer ")) {
          secret = secret.substr(7);
        }
      }
      e.credential_kind = scheme->kind_name();
      for (const auto& [env, prefix] : scheme->key_prefixes) {
        if (secret.starts_with(prefix)) e.credential_prefix = prefix;
      }
      for (const auto& c : t.credentials) {
        if ((scheme->named_by(c.kind) || c.kind == scheme->name) && c.secret == secret)
          e.credential = c.name;
      }
      break;
    }
  }
}

std::string describe(const traffic& t, const traffic_exchange& e) {
  char when[32];
  std::snprintf(when, sizeof when, "%.3f s", static_cast<double>(e.sent.count()) / 1e6);
  std::string out = "#" + std::to_string(e.seq) + " at " + when + ": " +
                    std::string(http::method_name(e.request.method)) + " " + e.request.target;
  std::string shown;
  // The headers the description gives a meaning: its idempotency key and
  // tenant header (x-idempotency, x-tenant-context), and the content type.
  std::vector<std::string> names;
  if (e.op && e.op->idempotent) names.push_back(e.op->idempotent->header);
  if (e.op && !e.op->tenant.header_name.empty()) names.push_back(e.op->tenant.header_name);
  names.emplace_back("Content-Type");
  for (const std::string& name : names) {
    if (const std::string* v = e.request.find_header(name)) {
      shown += (shown.empty() ? "" : "; ") + std::string(name) + ": " + core::excerpt(*v, 80);
    }
  }
  if (!shown.empty()) out += " [" + shown + "]";
  if (!e.request.body.empty()) out += " body " + core::excerpt(e.request.body, 160);
  out += " as " + e.auth_model();
  if (e.credential_headers.size() > 1) {
    std::string sent;
    for (const auto& h : e.credential_headers) sent += (sent.empty() ? "" : ", ") + h;
    out += " (credential headers sent: " + sent + ")";
  }
  if (!e.credential_prefix.empty() && e.credential.empty()) {
    out += " (a " + e.credential_prefix + " key)";
  }
  if (e.status == 0) {
    out += " -> no answer (connection closed)";
  } else {
    out += " -> " + std::to_string(e.status);
  }
  if (!e.adversity.empty()) out += " (scripted " + e.adversity + ")";
  return redact(std::move(out), t);
}

bool same_request(const traffic_exchange& a, const traffic_exchange& b) {
  // The tenant the request names in the header its description reads it
  // from (x-tenant-context), if any.
  auto tenant = [](const traffic_exchange& e) {
    if (!e.op || e.op->tenant.header_name.empty()) return std::string();
    const std::string* v = e.request.find_header(e.op->tenant.header_name);
    return v ? *v : std::string();
  };
  auto content_type = [](const traffic_exchange& e) {
    const std::string* v = e.request.find_header("Content-Type");
    return v ? std::string_view(*v) : std::string_view();
  };
  // Bodies as the server reads them: a multipart body rebuilt with a new
  // boundary on a retry is the same request (core::same_body).
  return a.request.method == b.request.method && a.request.target == b.request.target &&
         tenant(a) == tenant(b) &&
         core::same_body(content_type(a), a.request.body, content_type(b), b.request.body);
}

std::chrono::microseconds gap(const traffic_exchange& earlier, const traffic_exchange& later) {
  return later.sent - earlier.answered;
}

std::string_view to_string(rule_level l) {
  return l == rule_level::core ? "core" : "extended";
}

std::optional<rule_level> parse_rule_level(std::string_view s) {
  if (s == "core") return rule_level::core;
  if (s == "extended") return rule_level::extended;
  return std::nullopt;
}

traffic_judgement::traffic_judgement(const traffic& t, results_sink& sink, std::string check)
    : t_(t), sink_(sink), check_(std::move(check)) {}

void traffic_judgement::held(const traffic_exchange& e) {
  ++held_;
  traffic_pass(sink_, e, check_);
}

void traffic_judgement::broken(const traffic_violation& v) {
  ++broken_;
  traffic_fail(sink_, t_, check_, v);
}

void traffic_judgement::not_exercised(const traffic_exchange& e, std::string why) {
  ++not_exercised_;
  if (first_why_.empty()) first_why_ = why;
  sink_.not_run(e.op, e.auth_model(), check_, "not exercised: " + why);
}

void traffic_judgement::adversity(const traffic_exchange& e, bool survived, std::string outcome) {
  adversity_.push_back({&e, survived, std::move(outcome)});
}

void traffic_pass(results_sink& sink, const traffic_exchange& e, std::string_view check) {
  results_sink::pass(sink.cell(e.op, e.auth_model(), check, results_sink::origin::scenarios));
}

void traffic_fail(results_sink& sink, const traffic& t, std::string_view check,
                  const traffic_violation& v) {
  const traffic_exchange* last = v.evidence.empty() ? nullptr : v.evidence.back();
  const openapi::operation* op = last ? last->op : nullptr;
  const std::string auth = last ? last->auth_model() : std::string();
  const auto c = sink.cell(op, auth, check, results_sink::origin::scenarios);
  results_sink::count_failure(c);
  failure f;
  f.check = std::string(check);
  if (op) {
    f.operation_id = op->operation_id;
    f.method_path = op->method_path();
  }
  f.auth_model = auth;
  f.mode = {failure_mode::kind::traffic, std::string(check)};
  f.expected = v.expected;
  f.seen = redact(v.seen, t);
  f.cause = v.cause;
  f.seed = t.seed;
  if (last) {
    f.status = last->status;
    const std::string* type = last->response_header("Content-Type");
    f.response_excerpt =
        redact(core::body_excerpt(last->response_body, type ? *type : std::string(), 300), t);
  }
  for (const auto* e : v.evidence) f.evidence.push_back(describe(t, *e));
  sink.report(c, std::move(f), last ? last->seq : 0);
}

}  // namespace conform::harness
