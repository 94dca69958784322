#include "suites/idempotency/idempotency.hpp"

#include <algorithm>
#include <deque>
#include <latch>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "suites/idempotency/effect.hpp"
#include "suites/idempotency/requests.hpp"

namespace conform::suites {
namespace {

using harness::probe;
using harness::results_sink;
using harness::scenario_context;
using harness::scenario_failure;
using idempotency::effect_reader;
using idempotency::format_change;
using idempotency::reading;
using idempotency::same_request;
using idempotency::stored;
using idempotency::with_small_numbers;

constexpr std::string_view replay_check = "idempotency_replay";
constexpr std::string_view effect_check = "idempotency_effect";
constexpr std::string_view reuse_check = "idempotency_key_reuse";
constexpr std::string_view concurrency_check = "idempotency_concurrency";
constexpr std::string_view required_check = "idempotency_key_required";

/// Valid requests tried for a first answer that is 2xx (a business refusal
/// is replayed too, but a success says more), and for a second request that
/// differs from the first.
constexpr int max_tries = 6;

/// True when `p` carries the replayed header with the value x-idempotency gives it.
bool marked_replay(const probe& p, const openapi::idempotency& idem) {
  const auto* v = p.header(idem.replayed_header);
  if (!v) return false;
  std::string_view value = *v;
  while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
  while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  return http::iequals(value, "true");
}

std::string answer_text(int status, const std::string& code) {
  return std::to_string(status) + (code.empty() ? std::string() : " " + code);
}

bool is_answer(const probe& p, int status, const std::string& code) {
  return p.status() == static_cast<unsigned>(status) && (code.empty() || p.error_code() == code);
}

/// True when the operation declares an effect a second delivery would
/// repeat: its requests are kept small, since they move something real.
bool moves_something(const openapi::operation& op) {
  return !op.idempotent->effect.operation_id.empty();
}

/// One (operation, auth model) under test and the probes its checks sent.
struct subject {
  const openapi::operation* op = nullptr;
  harness::auth_choice auth;
  std::string label;
  std::deque<probe> probes;  // a deque: failures point into it

  const openapi::idempotency& idem() const { return *op->idempotent; }
  const probe& send(scenario_context& ctx, const http::request& req) {
    return probes.emplace_back(ctx.send(req));
  }
  void fail(results_sink& results, scenario_context& ctx, std::string_view check,
            scenario_failure f) {
    results.fail(*op, label, check, f, ctx);
  }
};

/// The first request of the replay, effect and concurrency checks, and what
/// its effect read before and after.
struct first_exchange {
  generators::generated_request g;
  http::request req;
  std::string key;
  const probe* answer = nullptr;
  std::unique_ptr<effect_reader> reader;
  std::string reader_why;  // why there is no reader (empty: no effect declared)
  reading before, after;
};

/// Sends valid requests with fresh keys until one is answered 2xx (or the
/// tries run out; the last answer the store keeps is kept), or why not: the
/// store kept none (no answer, 5xx, or an answer given before the store:
/// 401, 403, rate limited, tenant context, 415) or none could be generated.
core::outcome<first_exchange> first_request(scenario_context& ctx, subject& s, bool with_effect) {
  std::optional<first_exchange> kept;
  std::string last_summary;
  for (int i = 0; i < max_tries; ++i) {
    auto g = ctx.valid_request(*s.op, s.auth, "idempotency-" + std::to_string(i));
    if (!g) {
      const std::string& gen_why = g.error();
      if (i == 0) return core::fail("no valid request could be generated: " + gen_why);
      break;
    }
    first_exchange fx;
    fx.g = moves_something(*s.op) ? with_small_numbers(*s.op, std::move(*g), i) : std::move(*g);
    fx.key = ctx.fresh_key();
    fx.req = ctx.build(*s.op, s.auth, fx.g, fx.key);
    if (with_effect) {
      auto made = effect_reader::make(ctx, *s.op, s.auth, fx.req.body);
      if (made) {
        fx.reader = std::move(made).value();
      } else {
        fx.reader_why = std::move(made).error();
      }
      if (fx.reader) fx.before = fx.reader->read(ctx);
    }
    fx.answer = &s.send(ctx, fx.req);
    last_summary = fx.answer->summary();
    if (!stored(*fx.answer, *s.op, ctx.spec())) continue;
    const bool success = fx.answer->succeeded();
    kept = std::move(fx);
    if (success) break;
  }
  if (!kept) {
    return core::fail(
        "the first request was answered " + last_summary +
        " on every try; the idempotency store keeps only answers below 500 given after the " +
        "credential, rate limit, tenant context and media type are accepted (x-idempotency)");
  }
  if (kept->reader) kept->after = kept->reader->read(ctx);
  return std::move(*kept);
}

void judge_replay(scenario_context& ctx, results_sink& results, subject& s,
                  const first_exchange& fx, const probe& replay) {
  const auto& idem = s.idem();
  const probe& first = *fx.answer;
  const std::string steps = "sent a valid request with a fresh " + idem.header +
                            ", then the identical request with the same key";
  bool failed = false;
  auto fail = [&](std::string cause, std::string expected, std::string seen) {
    failed = true;
    s.fail(results, ctx, replay_check,
           {std::move(expected), std::move(seen), std::move(cause), steps, {&first, &replay}});
  };
  if (auto why = replay.unjudgeable(ctx.spec())) {
    results.not_run(s.op, s.label, replay_check, "the replay cannot be judged: " + *why);
    return;
  }
  if (replay.status() != first.status()) {
    fail("the replay's status differs from the first answer's",
         "status " + std::to_string(first.status()) + " again (x-idempotency)", replay.summary());
  } else if (replay.body() != first.body()) {
    fail("the replay's body differs from the first answer's",
         "the first answer's body byte for byte (x-idempotency)",
         "a body of " + std::to_string(replay.body().size()) + " bytes that differs from the " +
             std::to_string(first.body().size()) + " bytes of the first");
  }
  if (!idem.replayed_header.empty() && !marked_replay(replay, idem)) {
    const auto* v = replay.header(idem.replayed_header);
    fail("the replay is not marked", idem.replayed_header + ": true (x-idempotency)",
         v ? idem.replayed_header + ": " + *v : "no " + idem.replayed_header + " header");
  }
  const auto& rid = ctx.spec().rules.request_id_header;
  if (!rid.empty() && first.header(rid) && replay.header(rid) &&
      *first.header(rid) != *replay.header(rid)) {
    fail("the replay's request id differs from the first answer's",
         "the first answer's " + rid + " header again (x-idempotency)", "another " + rid);
  }
  if (!failed) results.pass(*s.op, s.label, replay_check);
}

void judge_effect(scenario_context& ctx, results_sink& results, subject& s,
                  const first_exchange& fx, const reading& after_replay, const probe& replay) {
  if (!fx.reader) {
    results.not_run(s.op, s.label, effect_check, fx.reader_why);
    return;
  }
  // A replay that was not processed says nothing about a second effect.
  if (auto why = replay.unjudgeable(ctx.spec())) {
    results.not_run(s.op, s.label, effect_check, "the replay cannot be judged: " + *why);
    return;
  }
  for (const reading* r : {&fx.before, &fx.after, &after_replay}) {
    if (!r->value) {
      results.not_run(s.op, s.label, effect_check, "the effect could not be read: " + r->why);
      return;
    }
  }
  const auto first_change = *fx.after.value - *fx.before.value;
  const auto replay_change = *after_replay.value - *fx.after.value;
  if (replay_change == 0) {
    results.pass(*s.op, s.label, effect_check);
    return;
  }
  s.fail(results, ctx, effect_check,
         {fx.reader->what() +
              " unchanged by the replay: no second effect (x-idempotency); the first " +
              "request (" + fx.answer->summary() + ") changed it by " + format_change(first_change),
          "the replay changed it by " + format_change(replay_change),
          "the replay had a second effect",
          "read the effect, sent a valid request, read it, replayed the request with the same " +
              s.idem().header + ", read it again",
          {fx.after.where, &replay, after_replay.where}});
}

/// A request that differs from `first` and how it was made.
struct other_request {
  http::request req;
  std::string how;
};

/// A request with `key` that differs from `first` (a store compares method,
/// path, query, tenant and body): another generated one, else the same under
/// another tenant of the credential, else one of another idempotent
/// operation (keys are scoped to the credential, not to an operation).
std::optional<other_request> different_request(scenario_context& ctx, subject& s,
                                               const http::request& first, const std::string& key) {
  auto differs = [&](const http::request& r) { return !same_request(*s.op, r, first); };
  for (int i = 0; i < max_tries; ++i) {
    auto g = ctx.valid_request(*s.op, s.auth, "idempotency-other-" + std::to_string(i));
    if (!g) break;
    if (moves_something(*s.op)) g = with_small_numbers(*s.op, std::move(*g), i);
    auto req = ctx.build(*s.op, s.auth, *g, key);
    if (differs(req)) return other_request{std::move(req), "a different valid request"};
  }
  if (!s.auth.credential) return std::nullopt;
  for (const auto* tenant : s.auth.credential->tenants) {
    if (!tenant || (s.auth.tenant && tenant->id == s.auth.tenant->id)) continue;
    auto other = ctx.credentials().auth_for(*s.op, *s.auth.credential, tenant);
    auto g = ctx.valid_request(*s.op, other, "idempotency-other-tenant");
    if (!g) continue;
    if (moves_something(*s.op)) g = with_small_numbers(*s.op, std::move(*g), 0);
    auto req = ctx.build(*s.op, other, *g, key);
    if (differs(req)) {
      return other_request{std::move(req),
                           "the valid request for another tenant of the credential"};
    }
  }
  // Operations that move nothing first: a server that ignores the key processes it.
  for (const bool moving : {false, true}) {
    for (const auto* op : ctx.operations()) {
      if (op == s.op || !op->idempotent || moves_something(*op) != moving) continue;
      const auto schemes = op->accepted_schemes();
      const bool usable = std::any_of(schemes.begin(), schemes.end(), [&](const auto* scheme) {
        return s.auth.credential->fits(*scheme) &&
               harness::credential_selector::sufficient(*op, *scheme, *s.auth.credential);
      });
      if (!usable) continue;
      auto other = ctx.credentials().auth_for(*op, *s.auth.credential, s.auth.tenant);
      auto g = ctx.valid_request(*op, other, "idempotency-other-operation");
      if (!g) continue;
      if (moving) g = with_small_numbers(*op, std::move(*g), 0);
      auto req = ctx.build(*op, other, *g, key);
      if (differs(req)) {
        return other_request{std::move(req), "a valid request of " + op->operation_id};
      }
    }
  }
  return std::nullopt;
}

/// Another credential sufficient for `s.op` that acts for the same tenant;
/// one of another kind first, since two user sessions of one user may
/// fairly count as one credential.
std::optional<harness::auth_choice> other_credential(scenario_context& ctx, const subject& s) {
  const profile::credential* mine = s.auth.credential;
  const profile::credential* same_kind = nullptr;
  for (const auto& c : ctx.target().credentials) {
    if (mine && (c.name == mine->name || (!c.value.empty() && c.value == mine->value))) continue;
    const bool same_tenant =
        !s.auth.tenant || std::any_of(c.tenants.begin(), c.tenants.end(), [&](const auto* t) {
          return t && t->id == s.auth.tenant->id;
        });
    if (!same_tenant) continue;
    for (const auto* scheme : s.op->accepted_schemes()) {
      if (!c.fits(*scheme) || !harness::credential_selector::sufficient(*s.op, *scheme, c))
        continue;
      if (!mine || c.kind != mine->kind) return ctx.credentials().auth_for(*s.op, c, s.auth.tenant);
      if (!same_kind) same_kind = &c;
    }
  }
  if (same_kind) return ctx.credentials().auth_for(*s.op, *same_kind, s.auth.tenant);
  return std::nullopt;
}

void run_key_reuse(scenario_context& ctx, results_sink& results, subject& s,
                   const first_exchange& fx) {
  const auto& idem = s.idem();
  bool judged = false, failed = false;
  if (idem.reused_status == 0) {
    results.not_run(s.op, s.label, reuse_check,
                    "x-idempotency declares no `reused` answer to expect");
  } else if (auto other = different_request(ctx, s, fx.req, fx.key)) {
    const probe& p = s.send(ctx, other->req);
    if (auto why = p.unjudgeable(ctx.spec())) {
      results.not_run(s.op, s.label, reuse_check,
                      "the key reused with a different request cannot be judged: " + *why);
    } else {
      judged = true;
      if (!is_answer(p, idem.reused_status, idem.reused_code)) {
        failed = true;
        s.fail(results, ctx, reuse_check,
               {answer_text(idem.reused_status, idem.reused_code) + " (x-idempotency)",
                p.summary(),
                "a key reused with a different request is not refused",
                "sent a valid request with a fresh " + idem.header + ", then " + other->how +
                    " with the same key",
                {fx.answer, &p}});
      }
    }
  } else {
    results.not_run(
        s.op, s.label, reuse_check,
        "every valid request generated equals the first, and the credential has no other tenant "
        "nor another idempotent operation, so the key could not be reused with a "
        "different request");
  }
  // Keys are scoped to the credential that sent them.
  if (auto other = other_credential(ctx, s)) {
    const probe& p = s.send(ctx, ctx.build(*s.op, *other, fx.g, fx.key));
    if (auto why = p.unjudgeable(ctx.spec())) {
      results.not_run(s.op, s.label, reuse_check,
                      "the key sent with credential " + other->model.credential_name +
                          " cannot be judged: " + *why);
    } else {
      judged = true;
      const bool replayed = marked_replay(p, idem);
      const bool reused =
          idem.reused_status != 0 && is_answer(p, idem.reused_status, idem.reused_code);
      if (replayed || reused) {
        failed = true;
        s.fail(results, ctx, reuse_check,
               {"a fresh answer: keys are scoped to the credential that sent them (x-idempotency)",
                replayed ? p.summary() + " marked " + idem.replayed_header : p.summary(),
                replayed ? "another credential's key is answered as a replay"
                         : "another credential's key is refused as reused",
                "sent a valid request with a fresh " + idem.header + ", then the same request " +
                    "and key with credential " + other->model.credential_name,
                {fx.answer, &p}});
      }
    }
  } else {
    results.not_run(
        s.op, s.label, reuse_check,
        "no second credential of " + std::string(ctx.target().noun()) +
            " is sufficient for the operation and acts "
            "for the same tenant, so keys per credential (x-idempotency) were not checked");
  }
  if (judged && !failed) results.pass(*s.op, s.label, reuse_check);
}

void run_concurrency(scenario_context& ctx, results_sink& results, subject& s,
                     const first_exchange& fx) {
  const auto& idem = s.idem();
  const std::string key = ctx.fresh_key();
  const http::request req = ctx.build(*s.op, s.auth, fx.g, key);
  reading before;
  if (fx.reader) before = fx.reader->read(ctx);
  const unsigned lanes = std::max(2u, ctx.lanes());
  std::vector<std::optional<probe>> answers(lanes);
  {
    std::latch start(static_cast<std::ptrdiff_t>(lanes));
    std::vector<std::thread> threads;
    threads.reserve(lanes);
    for (unsigned lane = 0; lane < lanes; ++lane) {
      threads.emplace_back([&, lane] {
        start.arrive_and_wait();
        answers[lane] = ctx.send(req, lane);
      });
    }
    for (auto& t : threads) t.join();
  }
  reading after;
  if (fx.reader) after = fx.reader->read(ctx);
  const std::string steps = "sent one valid request with one " + idem.header + " on " +
                            std::to_string(lanes) + " connections at once";
  // A send refused as rate-limited past the retries, or not answered, was
  // not processed: it is left out of the comparison.
  std::vector<const probe*> evidence;
  std::string left_out;
  for (const auto& a : answers) {
    if (auto why = a->unjudgeable(ctx.spec())) {
      left_out = *why;
      continue;
    }
    if (!stored(*a, *s.op, ctx.spec())) {
      results.not_run(s.op, s.label, concurrency_check,
                      "a concurrent send was answered " + a->summary() +
                          "; the check judges answers the idempotency store keeps");
      return;
    }
    evidence.push_back(&s.probes.emplace_back(*a));
  }
  if (evidence.size() < 2) {
    results.not_run(s.op, s.label, concurrency_check,
                    "fewer than two of the " + std::to_string(lanes) +
                        " concurrent sends can be judged: " + left_out);
    return;
  }
  const probe* original = nullptr;
  bool failed = false;
  for (const probe* a : evidence) {
    if (idem.conflict_status != 0 && is_answer(*a, idem.conflict_status, idem.conflict_code)) {
      continue;
    }
    if (!original) {
      original = a;
    } else if (a->status() != original->status() || a->body() != original->body()) {
      failed = true;
      s.fail(results, ctx, concurrency_check,
             {"one answer, the others its byte-for-byte replay or " +
                  answer_text(idem.conflict_status, idem.conflict_code) + " (x-idempotency)",
              original->summary() + " and " + a->summary() + " with different bodies",
              "concurrent sends with one key got different answers",
              steps,
              {original, a}});
      break;
    }
  }
  if (!original) {
    failed = true;
    s.fail(results, ctx, concurrency_check,
           {"one send processed, the others its replay or a conflict (x-idempotency)",
            "every send answered " + answer_text(idem.conflict_status, idem.conflict_code),
            "every concurrent send was refused as a conflict", steps, evidence});
  }
  // One effect: the same change one request made, when this answer is the
  // same kind of answer as the first request's.
  if (original && fx.reader && before.value && after.value && fx.before.value && fx.after.value &&
      fx.answer->succeeded() && original->status() == fx.answer->status()) {
    const auto one = *fx.after.value - *fx.before.value;
    const auto seen = *after.value - *before.value;
    if (seen != one) {
      failed = true;
      std::vector<const probe*> shown = {before.where};
      shown.insert(shown.end(), evidence.begin(), evidence.end());
      shown.push_back(after.where);
      s.fail(results, ctx, concurrency_check,
             {fx.reader->what() + " changed once, by " + format_change(one) +
                  " as one request changes it (x-idempotency)",
              "changed by " + format_change(seen),
              "concurrent sends with one key had more "
              "than one effect",
              steps, shown});
    }
  }
  if (!failed) results.pass(*s.op, s.label, concurrency_check);
}

void run_key_required(scenario_context& ctx, results_sink& results, subject& s) {
  const auto& idem = s.idem();
  if (idem.missing_status == 0) {
    results.not_run(s.op, s.label, required_check,
                    "x-idempotency says the key is required but declares no `missing` answer");
    return;
  }
  auto g = ctx.valid_request(*s.op, s.auth, "idempotency-required");
  if (!g) {
    const std::string& why = g.error();
    results.not_run(s.op, s.label, required_check, "no valid request could be generated: " + why);
    return;
  }
  // Small, in case a server that should refuse it processes it instead.
  if (moves_something(*s.op)) g = with_small_numbers(*s.op, std::move(*g), 0);
  auto req = ctx.build(*s.op, s.auth, *g);
  req.remove_header(idem.header);
  const probe& p = s.send(ctx, req);
  if (auto unjudgeable = p.unjudgeable(ctx.spec())) {
    results.not_run(s.op, s.label, required_check,
                    "the request without " + idem.header + " cannot be judged: " + *unjudgeable);
    return;
  }
  if (is_answer(p, idem.missing_status, idem.missing_code)) {
    results.pass(*s.op, s.label, required_check);
    return;
  }
  s.fail(results, ctx, required_check,
         {answer_text(idem.missing_status, idem.missing_code) + " (x-idempotency.required)",
          p.summary(),
          "a request without the required key is not refused",
          "sent a valid request without " + idem.header,
          {&p}});
}

void run_subject(scenario_context& ctx, results_sink& results,
                 const harness::check_enabled& enabled, subject& s) {
  const auto& idem = s.idem();
  const bool declared_effect = !idem.effect.operation_id.empty();
  if (idem.required && enabled(required_check)) run_key_required(ctx, results, s);
  std::vector<std::string_view> needs_first;
  for (auto check : {replay_check, effect_check, reuse_check, concurrency_check}) {
    if (enabled(check) && (check != effect_check || declared_effect)) needs_first.push_back(check);
  }
  if (needs_first.empty()) return;
  const bool with_effect = declared_effect && (enabled(effect_check) || enabled(concurrency_check));
  auto fx = first_request(ctx, s, with_effect);
  if (!fx) {
    for (auto check : needs_first) results.not_run(s.op, s.label, check, fx.error());
    return;
  }
  const probe& replay = s.send(ctx, fx->req);
  reading after_replay;
  if (fx->reader) after_replay = fx->reader->read(ctx);
  if (enabled(replay_check)) judge_replay(ctx, results, s, *fx, replay);
  if (declared_effect && enabled(effect_check)) {
    judge_effect(ctx, results, s, *fx, after_replay, replay);
  }
  if (enabled(reuse_check)) run_key_reuse(ctx, results, s, *fx);
  if (enabled(concurrency_check)) run_concurrency(ctx, results, s, *fx);
}

void run_idempotency(scenario_context& ctx, results_sink& results,
                     const harness::check_enabled& enabled) {
  const std::vector<std::string_view> all = {replay_check, effect_check, reuse_check,
                                             concurrency_check, required_check};
  for (const auto* op : ctx.operations()) {
    if (!op->idempotent) continue;
    const auto& idem = *op->idempotent;
    std::vector<std::string_view> checks;
    for (auto check : all) {
      if (!enabled(check)) continue;
      if (check == effect_check && idem.effect.operation_id.empty()) continue;
      if (check == required_check && !idem.required) continue;
      checks.push_back(check);
    }
    if (checks.empty()) continue;
    for (auto& choice : ctx.credentials().auth_models(*op)) {
      const std::string label = choice.model.label();
      if (choice.not_run_why) {
        for (auto check : checks) results.not_run(op, label, check, *choice.not_run_why);
        continue;
      }
      subject s{op, std::move(choice), label, {}};
      run_subject(ctx, results, enabled, s);
    }
  }
}

}  // namespace

void register_idempotency_scenarios(harness::check_catalogue& catalogue) {
  harness::scenario s;
  s.name = "idempotency";
  s.checks = {
      {std::string(replay_check),
       "sends a valid request with a fresh key, then the identical request with the same key: "
       "the same status and body byte for byte (and request id), marked with the replayed "
       "header",
       "x-idempotency"},
      {std::string(effect_check),
       "reads the declared effect field before and after a request and after its replay: the "
       "replay does not change it",
       "x-idempotency"},
      {std::string(reuse_check),
       "sends the key of an answered request with a different valid request: the reused answer; "
       "the same request and key from another credential: not a replay, not reused",
       "x-idempotency"},
      {std::string(concurrency_check),
       "sends one request with one key on several connections at once: one answer, the others "
       "its replay or the conflict answer, and (where declared) exactly one effect",
       "x-idempotency"},
      {std::string(required_check),
       "sends a valid request without the key where the key is required: the missing-key answer",
       "x-idempotency.required"},
  };
  s.run = run_idempotency;
  catalogue.add(std::move(s));
}

}  // namespace conform::suites
