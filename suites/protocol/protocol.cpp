#include "suites/protocol/protocol.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "schema/validator.hpp"

namespace conform::suites {
namespace {

using harness::auth_choice;
using harness::probe;
using harness::results_sink;
using harness::scenario_context;
using harness::scenario_failure;

constexpr std::string_view method_not_allowed_check = "method_not_allowed";
constexpr std::string_view payload_too_large_check = "payload_too_large";
constexpr std::string_view rate_limit_check = "rate_limit_conformance";
constexpr std::string_view repeat_check = "repeat_delivery";

/// Requests spent looking for a 429 at most.
constexpr unsigned rate_limit_budget = 400;
/// Longest Retry-After the check waits for before asking again.
constexpr std::chrono::seconds max_retry_after{10};

const openapi::api_rules::generic_error* generic_error(const openapi::api_spec& spec, int status,
                                                       bool route_level) {
  for (const auto& g : spec.rules.generic_errors) {
    if (g.status == status && g.route_level == route_level) return &g;
  }
  return nullptr;
}

/// "405 METHOD_NOT_ALLOWED", or "405" when no code is declared.
std::string status_and_code(int status, std::string_view code) {
  std::string out = std::to_string(status);
  if (!code.empty()) out += " " + std::string(code);
  return out;
}

/// Why `p`'s body is not the error envelope, or nullopt when it is (or when
/// the description declares none); "not run: why" when it cannot be judged.
std::optional<std::string> envelope_problem(const openapi::api_spec& spec, const probe& p) {
  if (!spec.rules.error_envelope) return std::nullopt;
  if (!p.json) return std::string("a body that is not JSON");
  auto result = schema::validate(*spec.rules.error_envelope, *p.json, {.max_errors = 2});
  if (result.ok()) return std::nullopt;
  if (result.undecided) return "not run: " + result.undecided->message;
  const auto& e = result.errors.front();
  return "a body that is not the error envelope (" +
         (e.instance_pointer.empty() ? "/" : e.instance_pointer) + ": " + e.message + ")";
}

/// The first sufficient auth model of `op`, or nullopt.
std::optional<auth_choice> first_sufficient(const scenario_context& ctx,
                                            const openapi::operation& op) {
  auto all = ctx.credentials().sufficient_models(op);
  if (all.empty()) return std::nullopt;
  return std::move(all.front());
}

// Undocumented methods on known paths (x-errors scope route): 405 with the error
// envelope, before credentials are looked at, so none are sent.
void check_method_not_allowed(scenario_context& ctx, results_sink& results) {
  const auto& spec = ctx.spec();
  const auto* expected = generic_error(spec, 405, true);
  if (!expected) {
    results.not_run(nullptr, "", method_not_allowed_check,
                    "the description declares no route-level 405 in x-errors");
    return;
  }
  // One cell per path template, on its first covered operation.
  std::vector<std::string> paths_done;
  for (const auto* op : ctx.operations()) {
    if (std::find(paths_done.begin(), paths_done.end(), op->path) != paths_done.end()) continue;
    paths_done.push_back(op->path);
    std::vector<http::verb> documented;
    for (const auto& other : spec.operations) {
      if (other.path == op->path) documented.push_back(other.method);
    }
    // A concrete path: the one a valid request of this operation uses.
    auth_choice auth;
    auth.model.name = "none";
    if (auto sufficient = first_sufficient(ctx, *op)) auth = *sufficient;
    auto g = ctx.valid_request(*op, auth, "405");
    if (!g) {
      const std::string& why = g.error();
      results.not_run(op, "none", method_not_allowed_check, "no path could be built: " + why);
      continue;
    }
    static constexpr std::array<http::verb, 5> methods = {
        http::verb::get, http::verb::post, http::verb::put, http::verb::patch, http::verb::delete_};
    for (auto m : methods) {
      if (std::find(documented.begin(), documented.end(), m) != documented.end()) continue;
      http::request req;
      req.method = m;
      req.target = g->path;
      req.add_header("Accept", "application/json");
      if (m != http::verb::get && m != http::verb::delete_) {
        req.add_header("Content-Type", "application/json");
        req.body = "{}";
      }
      probe p = ctx.send(req);
      const std::string method(http::method_name(m));
      scenario_failure f;
      f.steps = "sent " + method + " to a path the description documents without " + method;
      f.evidence = {&p};
      f.expected = status_and_code(405, expected->code) + " with the error envelope";
      if (auto why_not = p.unjudgeable(spec)) {
        results.not_run(op, "none", method_not_allowed_check, method + ": " + *why_not);
        continue;
      }
      if (p.status() != 405 || (!expected->code.empty() && p.error_code() != expected->code)) {
        f.seen = p.summary();
        f.cause = "undocumented method: " + p.summary();
      } else if (auto problem = envelope_problem(spec, p)) {
        if (problem->starts_with("not run: ")) {
          results.not_run(op, "none", method_not_allowed_check, method + ": " + problem->substr(9));
          continue;
        }
        f.seen = *problem;
        f.cause = "undocumented method: not the error envelope";
      } else {
        results.pass(*op, "none", method_not_allowed_check);
        continue;
      }
      results.fail(*op, "none", method_not_allowed_check, f, ctx);
    }
  }
}

// Bodies over the declared limits (x-limits): 413 with its code. A server may
// answer 413 before it reads credentials, but a sufficient credential is sent all the same so
// that nothing else could be the reason for a refusal.
void check_payload_too_large(scenario_context& ctx, results_sink& results) {
  const auto& spec = ctx.spec();
  const auto* expected = generic_error(spec, 413, false);
  if (!expected) {
    results.not_run(nullptr, "", payload_too_large_check,
                    "the description declares no 413 in x-errors");
    return;
  }
  for (const auto* op : ctx.operations()) {
    if (!op->body || op->body->content.empty()) continue;
    const auto& media = op->body->content.front().name;
    const bool multipart = media.rfind("multipart/", 0) == 0;
    const std::uint64_t limit =
        multipart ? spec.rules.max_multipart_bytes : spec.rules.max_body_bytes;
    auto auth = first_sufficient(ctx, *op);
    const std::string label = auth ? auth->model.label() : "none";
    if (limit == 0) {
      results.not_run(op, label, payload_too_large_check,
                      "x-limits declares no size limit for " + media + " bodies");
      continue;
    }
    if (!auth && op->needs_credentials()) {
      results.not_run(
          op, label, payload_too_large_check,
          std::string(ctx.target().noun()) + " has no sufficient credential for this operation");
      continue;
    }
    auth_choice none;
    none.model.name = "none";
    const auth_choice& a = auth ? *auth : none;
    auto g = ctx.valid_request(*op, a, "413");
    if (!g) {
      const std::string& why = g.error();
      results.not_run(op, label, payload_too_large_check, "no request could be built: " + why);
      continue;
    }
    // A body just over the limit, of the operation's media type: a head, a
    // run of 'x' and a tail, so that the reproduction can build it with a
    // shell pipeline instead of quoting megabytes.
    const std::size_t size = static_cast<std::size_t>(limit) + 1;
    std::string head, tail;
    if (multipart) {
      const std::string boundary = "conform-oversized-boundary";
      head = "--" + boundary +
             "\r\nContent-Disposition: form-data; name=\"file\"; "
             "filename=\"oversized.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n";
      tail = "\r\n--" + boundary + "--\r\n";
      g->content_type = "multipart/form-data; boundary=" + boundary;
    } else {
      head = "{\"conform_padding\":\"";
      tail = "\"}";
      g->content_type = media;
    }
    const std::size_t run = size > head.size() + tail.size() ? size - head.size() - tail.size() : 1;
    g->body.clear();
    auto shown = ctx.build(*op, a, *g);  // the same request without its body
    g->body = head + std::string(run, 'x') + tail;
    auto req = ctx.build(*op, a, *g);
    probe p = ctx.send(req);
    if (auto why_not = p.unjudgeable(spec)) {
      // A server may answer 413 and close while the body is still going
      // out; the client then has no answer to read. Not a verdict either way.
      results.not_run(op, label, payload_too_large_check, *why_not);
      continue;
    }
    const auto status = static_cast<int>(p.status());
    if (status == 413 && (expected->code.empty() || p.error_code() == expected->code)) {
      results.pass(*op, label, payload_too_large_check);
      continue;
    }
    scenario_failure f;
    f.steps = "sent a " + media + " body of " + std::to_string(size) +
              " bytes, one over the declared limit";
    f.expected = status_and_code(413, expected->code);
    f.seen = p.summary();
    f.cause = "oversized body: " + p.summary();
    f.evidence = {&p};
    // printf turns the escaped CR LF of the head and tail back into bytes.
    auto escaped = [](const std::string& text) {
      std::string out;
      for (char c : text) {
        if (c == '\r')
          out += "\\r";
        else if (c == '\n')
          out += "\\n";
        else if (c == '\'')
          out += "'\\''";
        else if (c == '%')
          out += "%%";
        else
          out += c;
      }
      return out;
    };
    f.reproduce = "{ printf '" + escaped(head) + "'; head -c " + std::to_string(run) +
                  " /dev/zero | tr '\\0' x; printf '" + escaped(tail) + "'; } | " +
                  ctx.curl(shown) + " --data-binary @-";
    results.fail(*op, label, payload_too_large_check, f, ctx);
  }
}

/// Retry-After as delta-seconds; nullopt when absent or not a number of
/// seconds (an HTTP-date is accepted as present but not waited on).
std::optional<std::chrono::seconds> retry_after_seconds(const std::string& value) {
  if (value.empty() || value.size() > 9) return std::nullopt;
  if (!std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  return std::chrono::seconds(std::stoll(value));
}

bool looks_like_http_date(std::string_view v) {
  // "Sun, 06 Nov 1994 08:49:37 GMT": a day name, a comma, and GMT.
  return v.size() >= 29 && v[3] == ',' && v.substr(v.size() - 3) == "GMT";
}

/// A read operation the credential could call if it were not throttled, so
/// that hammering it changes nothing; never a write: hundreds of them would
/// create or move as many records.
const openapi::operation* rate_limited_read(scenario_context& ctx, const profile::credential& c) {
  profile::credential unthrottled = c;
  unthrottled.rate_limited = false;
  const openapi::operation* chosen = nullptr;
  for (const auto* op : ctx.operations()) {
    if (!op->needs_credentials() || op->access != openapi::access_kind::read) continue;
    for (const auto* scheme : op->accepted_schemes()) {
      if (harness::credential_selector::sufficient(*op, *scheme, unthrottled)) chosen = op;
    }
    if (chosen) break;
  }
  return chosen;
}

/// The request a rate-limited credential sends again and again.
struct throttled_request {
  const openapi::operation& op;
  std::string label;
  auth_choice auth;
  generators::generated_request request;
};

/// Judges the refusal `p` against x-rate-limit: the declared code, a
/// usable Retry-After, the error envelope. False, said as "not run", when
/// the envelope could not be judged.
bool judge_rate_limit_refusal(scenario_context& ctx, results_sink& results,
                              const throttled_request& t, const probe& p,
                              const std::string* retry_after,
                              std::optional<std::chrono::seconds> wait) {
  const auto& rules = ctx.spec().rules;
  scenario_failure f;
  f.steps = "sent requests with a rate-limited credential until it was refused";
  f.evidence = {&p};
  f.expected = status_and_code(rules.rate_limited_status, rules.rate_limited_code) +
               (rules.retry_after_header.empty() ? "" : " with " + rules.retry_after_header) +
               ", the error envelope";
  if (!rules.rate_limited_code.empty() && p.error_code() != rules.rate_limited_code) {
    f.seen = p.summary();
    f.cause = "429 code " + p.error_code();
  } else if (!rules.retry_after_header.empty() && !retry_after) {
    f.seen = "no " + rules.retry_after_header + " header";
    f.cause = "429 without " + rules.retry_after_header;
  } else if (retry_after && !wait && !looks_like_http_date(*retry_after)) {
    f.seen = rules.retry_after_header + ": " + *retry_after;
    f.cause = "429 with an unusable " + rules.retry_after_header;
  } else if (auto problem = envelope_problem(ctx.spec(), p)) {
    if (problem->starts_with("not run: ")) {
      results.not_run(&t.op, t.label, rate_limit_check, problem->substr(9));
      return false;
    }
    f.seen = *problem;
    f.cause = "429 not the error envelope";
  }
  if (!f.cause.empty()) {
    results.fail(t.op, t.label, rate_limit_check, f, ctx);
    return false;
  }
  // The 429 itself conforms.
  results.pass(t.op, t.label, rate_limit_check);
  return true;
}

/// Served again once the promised time has passed: with some slack (a
/// server may round its window), and a second try before concluding.
void check_served_again(scenario_context& ctx, results_sink& results, const throttled_request& t,
                        const probe& p, std::chrono::seconds wait) {
  const auto& rules = ctx.spec().rules;
  std::optional<probe> again;
  for (int attempt = 0; attempt < 2; ++attempt) {
    // A quarter second of slack first, a whole one on the second try.
    std::this_thread::sleep_for(
        wait + (attempt == 0 ? std::chrono::milliseconds(250) : std::chrono::milliseconds(1000)));
    again = ctx.send(ctx.build(t.op, t.auth, t.request), 0, /*once=*/true);
    if (!again->answered() || static_cast<int>(again->status()) != rules.rate_limited_status) {
      break;
    }
  }
  if (!again->answered()) {
    results.not_run(&t.op, t.label, rate_limit_check,
                    "not checked that the credential is served again: " + again->summary());
  } else if (static_cast<int>(again->status()) == rules.rate_limited_status) {
    scenario_failure g2;
    g2.steps = "waited as " + rules.retry_after_header + " said (and a little more), twice";
    g2.expected = "served again after " + std::to_string(wait.count()) + " s";
    g2.seen = again->summary();
    g2.cause = "still rate-limited after " + rules.retry_after_header;
    g2.evidence = {&p, &*again};
    results.fail(t.op, t.label, rate_limit_check, g2, ctx);
  }
}

/// One rate-limited credential: sent until refused, the refusal judged,
/// then served again after Retry-After.
void check_rate_limited_credential(scenario_context& ctx, results_sink& results,
                                   const profile::credential& c) {
  const auto& rules = ctx.spec().rules;
  const std::string label = c.kind + " (" + c.name + ")";
  const openapi::operation* chosen = rate_limited_read(ctx, c);
  if (!chosen) {
    results.not_run(nullptr, label, rate_limit_check,
                    "no covered read operation accepts the rate-limited credential " + c.name);
    return;
  }
  auto auth = ctx.credentials().auth_for(*chosen, c);
  auto g = ctx.valid_request(*chosen, auth, "429");
  if (!g) {
    const std::string& why = g.error();
    results.not_run(chosen, label, rate_limit_check, "no request could be built: " + why);
    return;
  }
  const throttled_request t{*chosen, label, auth, std::move(*g)};
  std::optional<probe> limited;
  probe last;
  for (unsigned i = 0; i < rate_limit_budget && !limited; ++i) {
    last = ctx.send(ctx.build(t.op, t.auth, t.request), 0, /*once=*/true);
    if (!last.answered()) break;
    if (static_cast<int>(last.status()) == rules.rate_limited_status) limited = last;
  }
  if (!limited) {
    results.not_run(chosen, label, rate_limit_check,
                    last.answered()
                        ? "no " + std::to_string(rules.rate_limited_status) + " within " +
                              std::to_string(rate_limit_budget) +
                              " requests, though the profile marks " + c.name + " rate_limited"
                        : "the target stopped answering: " + last.summary());
    return;
  }
  const probe& p = *limited;
  const std::string* retry_after =
      rules.retry_after_header.empty() ? nullptr : p.header(rules.retry_after_header);
  std::optional<std::chrono::seconds> wait;
  if (retry_after) wait = retry_after_seconds(*retry_after);
  if (!judge_rate_limit_refusal(ctx, results, t, p, retry_after, wait)) return;
  if (!wait || *wait > max_retry_after) {
    results.not_run(
        chosen, label, rate_limit_check,
        !retry_after ? std::string("not checked that the credential is served again: the "
                                   "description declares no Retry-After header")
                     : "not checked that the credential is served again: " +
                           rules.retry_after_header + " is " + *retry_after +
                           (wait ? ", longer than the check waits" : ", not a number of seconds"));
    return;
  }
  check_served_again(ctx, results, t, p, *wait);
}

// Rate limits (x-rate-limit): a credential the profile marks rate-limited gets
// 429 with the error envelope, the declared code and Retry-After, and is
// served again once Retry-After has passed.
void check_rate_limit(scenario_context& ctx, results_sink& results) {
  if (ctx.spec().rules.rate_limited_status == 0) {
    results.not_run(nullptr, "", rate_limit_check, "the description declares no x-rate-limit");
    return;
  }
  bool any = false;
  for (const auto& c : ctx.target().credentials) {
    if (!c.rate_limited || c.expired || c.other_environment) continue;
    any = true;
    check_rate_limited_credential(ctx, results, c);
  }
  if (!any) {
    results.not_run(
        nullptr, "", rate_limit_check,
        std::string(ctx.target().noun()) + " marks no usable credential rate_limited: true");
  }
}

/// The body without its request id (x-request-id body_field), when it is a
/// JSON object: every answer carries its own (x-request-id). Else as is.
std::string without_request_id(const openapi::api_spec& spec, const probe& p) {
  const std::string& field = spec.rules.request_id_body_field;
  if (field.empty() || !p.json || !p.json->is_object()) return p.body();
  boost::json::object copy = p.json->as_object();
  copy.erase(field);
  return boost::json::serialize(copy);
}

// A delivery the description marks repeatable (x-repeatable) gets the same
// answer when it comes again.
void check_repeat_delivery(scenario_context& ctx, results_sink& results) {
  for (const auto* op : ctx.operations()) {
    if (!op->repeatable) continue;
    auth_choice auth;
    auth.model.name = "none";
    if (op->needs_credentials()) {
      auto sufficient = first_sufficient(ctx, *op);
      if (!sufficient) {
        results.not_run(
            op, "none", repeat_check,
            std::string(ctx.target().noun()) + " has no sufficient credential for this operation");
        continue;
      }
      auth = *sufficient;
    }
    const std::string label = auth.model.label();
    auto g = ctx.valid_request(*op, auth, "repeat");
    if (!g) {
      const std::string& why = g.error();
      results.not_run(op, label, repeat_check, "no request could be built: " + why);
      continue;
    }
    const std::string key = ctx.fresh_key();
    probe first = ctx.send(ctx.build(*op, auth, *g, key));
    probe second = ctx.send(ctx.build(*op, auth, *g, key));
    scenario_failure f;
    f.steps = "sent the same request twice";
    f.evidence = {&first, &second};
    f.expected = "the same answer: " + first.summary();
    if (auto why_not = first.unjudgeable(ctx.spec()) ? first.unjudgeable(ctx.spec())
                                                     : second.unjudgeable(ctx.spec())) {
      results.not_run(op, label, repeat_check, *why_not);
      continue;
    }
    if (first.status() != second.status()) {
      f.seen = second.summary();
      f.cause = "status changed";
    } else if (without_request_id(ctx.spec(), first) != without_request_id(ctx.spec(), second)) {
      f.seen = "another body: " + second.body().substr(0, 200);
      f.cause = "body changed";
    } else {
      results.pass(*op, label, repeat_check);
      continue;
    }
    results.fail(*op, label, repeat_check, f, ctx);
  }
}

}  // namespace

void register_protocol_scenarios(harness::check_catalogue& catalogue) {
  harness::scenario s;
  s.name = "protocol";
  s.checks = {
      {std::string(method_not_allowed_check),
       "every method a path does not document, without credentials: 405 with the declared code "
       "and the error envelope",
       "x-errors (scope: route); RFC 9110 section 15.5.6 (405)"},
      {std::string(payload_too_large_check),
       "a body one byte over x-limits (JSON and multipart limits apart): 413 with the declared "
       "code",
       "x-limits; RFC 9110 section 15.5.14 (413)"},
      {std::string(rate_limit_check),
       "requests with a credential the profile marks rate_limited until refused: 429 with the "
       "declared code, Retry-After and the error envelope; served again after Retry-After",
       "x-rate-limit; RFC 6585 section 4 (429); RFC 9110 section 10.2.3 (Retry-After)"},
      {std::string(repeat_check),
       "an operation marked x-repeatable sent twice: the same status and body (request ids aside)",
       "x-repeatable"},
  };
  s.run = [](scenario_context& ctx, results_sink& results, const harness::check_enabled& enabled) {
    if (enabled(method_not_allowed_check)) check_method_not_allowed(ctx, results);
    if (enabled(payload_too_large_check)) check_payload_too_large(ctx, results);
    if (enabled(repeat_check)) check_repeat_delivery(ctx, results);
    // Last: it leaves its credential throttled for a while.
    if (enabled(rate_limit_check)) check_rate_limit(ctx, results);
  };
  catalogue.add(std::move(s));
}

}  // namespace conform::suites
