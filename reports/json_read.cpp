#include "reports/json_read.hpp"

#include <boost/json.hpp>

#include <chrono>

#include "core/file.hpp"
#include "reports/reach.hpp"

namespace conform::reports {
namespace {

namespace json = boost::json;

/// Walks a parsed report; the first problem is kept with its pointer.
class walker {
 public:
  explicit walker(std::string source) : source_(std::move(source)) {}

  bool fail(const std::string& pointer, const std::string& what) {
    if (error_.empty()) error_ = source_ + ": " + (pointer.empty() ? "/" : pointer) + ": " + what;
    return false;
  }
  const std::string& error() const { return error_; }

  const json::object* object(const json::value& v, const std::string& pointer) {
    if (!v.is_object()) {
      fail(pointer, "expected an object");
      return nullptr;
    }
    return &v.as_object();
  }
  const json::array* array(const json::object& o, const std::string& pointer,
                           std::string_view key) {
    const auto* v = o.if_contains(key);
    if (!v || !v->is_array()) {
      fail(pointer + "/" + std::string(key), v ? "expected an array" : "missing");
      return nullptr;
    }
    return &v->as_array();
  }
  /// A string member; `required` members must be present.
  bool text(const json::object& o, const std::string& pointer, std::string_view key,
            std::string& out, bool required = true) {
    const auto* v = o.if_contains(key);
    if (!v) return required ? fail(pointer + "/" + std::string(key), "missing") : true;
    if (!v->is_string()) return fail(pointer + "/" + std::string(key), "expected a string");
    out = std::string(v->as_string());
    return true;
  }
  /// A non-negative integer member, optional.
  template <typename T>
  bool number(const json::object& o, const std::string& pointer, std::string_view key, T& out) {
    const auto* v = o.if_contains(key);
    if (!v) return true;
    if (v->is_uint64()) {
      out = static_cast<T>(v->as_uint64());
    } else if (v->is_int64() && v->as_int64() >= 0) {
      out = static_cast<T>(v->as_int64());
    } else {
      return fail(pointer + "/" + std::string(key), "expected a non-negative integer");
    }
    return true;
  }

  /// A non-negative number of seconds, optional, as nanoseconds.
  bool seconds(const json::object& o, const std::string& pointer, std::string_view key,
               std::chrono::nanoseconds& out) {
    const auto* v = o.if_contains(key);
    if (!v) return true;
    if (!v->is_number() || v->to_number<double>() < 0) {
      return fail(pointer + "/" + std::string(key), "expected a non-negative number of seconds");
    }
    out = std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::duration<double>(v->to_number<double>()));
    return true;
  }

 private:
  std::string source_;
  std::string error_;
};

harness::failure_mode parse_mode(const std::string& text) {
  using k = harness::failure_mode::kind;
  auto after = [&](std::string_view prefix) { return text.substr(prefix.size()); };
  if (text.rfind("invalid: ", 0) == 0) return {k::invalid, after("invalid: ")};
  if (text.rfind("scenario: ", 0) == 0) return {k::scenario, after("scenario: ")};
  if (text.rfind("client traffic: ", 0) == 0) return {k::traffic, after("client traffic: ")};
  return {k::valid, {}};
}

/// The optional "assumptions" of a failure or a note: non-empty strings.
bool read_assumptions(walker& w, const json::object& o, const std::string& p,
                      std::vector<std::string>& out) {
  const auto* a = o.if_contains("assumptions");
  if (!a) return true;
  if (!a->is_array()) return w.fail(p + "/assumptions", "expected an array of strings");
  for (std::size_t i = 0; i < a->as_array().size(); ++i) {
    const auto& text = a->as_array()[i];
    if (!text.is_string() || text.as_string().empty()) {
      return w.fail(p + "/assumptions/" + std::to_string(i), "expected a non-empty string");
    }
    out.emplace_back(text.as_string());
  }
  return true;
}

bool read_failure(walker& w, const json::value& v, const std::string& p, harness::failure& f) {
  const auto* o = w.object(v, p);
  if (!o) return false;
  std::string mode;
  if (!w.text(*o, p, "check", f.check) || !w.text(*o, p, "operation_id", f.operation_id) ||
      !w.text(*o, p, "auth_model", f.auth_model) || !w.text(*o, p, "cause", f.cause) ||
      !w.text(*o, p, "method_path", f.method_path, false) || !w.text(*o, p, "mode", mode, false) ||
      !w.text(*o, p, "expected", f.expected, false) || !w.text(*o, p, "seen", f.seen, false) ||
      !w.text(*o, p, "response_excerpt", f.response_excerpt, false) ||
      !w.text(*o, p, "curl", f.curl, false) || !w.number(*o, p, "status", f.status) ||
      !w.number(*o, p, "seed", f.seed) || !w.number(*o, p, "example", f.example) ||
      !w.number(*o, p, "shrink_steps", f.shrink_steps) ||
      !w.number(*o, p, "occurrences", f.occurrences)) {
    return false;
  }
  f.mode = parse_mode(mode);
  // A failure that contradicts an assumption of the description: its texts.
  return read_assumptions(w, *o, p, f.assumptions);
}

bool read_note(walker& w, const json::value& v, const std::string& p, harness::note& n) {
  const auto* o = w.object(v, p);
  if (!o) return false;
  std::string mode;
  if (!w.text(*o, p, "check", n.check) || !w.text(*o, p, "operation_id", n.operation_id) ||
      !w.text(*o, p, "auth_model", n.auth_model) || !w.text(*o, p, "cause", n.cause) ||
      !w.text(*o, p, "method_path", n.method_path, false) || !w.text(*o, p, "mode", mode, false) ||
      !w.text(*o, p, "text", n.text, false) ||
      !w.text(*o, p, "response_excerpt", n.response_excerpt, false) ||
      !w.text(*o, p, "curl", n.curl, false) || !w.number(*o, p, "status", n.status) ||
      !w.number(*o, p, "occurrences", n.occurrences)) {
    return false;
  }
  n.mode = parse_mode(mode);
  // A note of assumptions the run could neither confirm nor contradict.
  return read_assumptions(w, *o, p, n.assumptions);
}

bool read_cell(walker& w, const json::value& v, const std::string& p, harness::check_tally& t) {
  const auto* o = w.object(v, p);
  if (!o) return false;
  std::string status, why;
  if (!w.text(*o, p, "operation_id", t.operation_id) || !w.text(*o, p, "check", t.check) ||
      !w.text(*o, p, "auth_model", t.auth_model) ||
      !w.text(*o, p, "method_path", t.method_path, false) ||
      !w.text(*o, p, "status", status, false) || !w.text(*o, p, "not_run_why", why, false) ||
      !w.number(*o, p, "passed", t.passed) || !w.number(*o, p, "failed", t.failed) ||
      !w.number(*o, p, "contradicted", t.contradicted) || !w.seconds(*o, p, "seconds", t.time)) {
    return false;
  }
  if (status == "not_run") t.not_run_why = why;
  t.nothing_judged = status == "nothing_judged";
  return true;
}

bool read_info(walker& w, const json::object& doc, harness::run_info& info) {
  const auto* run_v = doc.if_contains("run");
  if (!run_v) return w.fail("/run", "missing");
  const auto* run = w.object(*run_v, "/run");
  if (!run) return false;
  if (!w.text(*run, "/run", "tool_version", info.tool_version, false) ||
      !w.text(*run, "/run", "started_at", info.started_at, false) ||
      !w.number(*run, "/run", "seed", info.seed) ||
      !w.number(*run, "/run", "examples", info.examples) ||
      !w.number(*run, "/run", "workers", info.workers) ||
      !w.number(*run, "/run", "skipped_operations", info.skipped_operations) ||
      !w.number(*run, "/run", "operations_held_back", info.operations_held_back) ||
      !w.text(*run, "/run", "security", info.security, false)) {
    return false;
  }
  if (const auto* spec = run->if_contains("spec"); spec && spec->is_object()) {
    const auto& s = spec->as_object();
    if (!w.text(s, "/run/spec", "file", info.spec_file, false) ||
        !w.text(s, "/run/spec", "title", info.spec_title, false) ||
        !w.text(s, "/run/spec", "version", info.spec_version, false) ||
        !w.text(s, "/run/spec", "hash", info.spec_hash, false)) {
      return false;
    }
  }
  if (const auto* checks = run->if_contains("checks"); checks && checks->is_array()) {
    for (std::size_t i = 0; i < checks->as_array().size(); ++i) {
      const auto& c = checks->as_array()[i];
      if (!c.is_string()) return w.fail("/run/checks/" + std::to_string(i), "expected a string");
      info.checks.emplace_back(c.as_string());
    }
  }
  if (const auto* shard = run->if_contains("shard")) {
    const auto* s = w.object(*shard, "/run/shard");
    if (!s || !w.number(*s, "/run/shard", "index", info.shard_index) ||
        !w.number(*s, "/run/shard", "count", info.shard_count)) {
      return false;
    }
    if (const auto* merged = s->if_contains("merged"); merged && merged->is_array()) {
      for (std::size_t i = 0; i < merged->as_array().size(); ++i) {
        const auto& k = merged->as_array()[i];
        if (!k.is_int64() || k.as_int64() < 1) {
          return w.fail("/run/shard/merged/" + std::to_string(i), "expected a shard number");
        }
        info.merged_shards.push_back(static_cast<std::uint32_t>(k.as_int64()));
      }
    }
  }
  if (const auto* target = run->if_contains("target"); target && target->is_object()) {
    const auto& t = target->as_object();
    if (!w.text(t, "/run/target", "base_url", info.target, false) ||
        !w.text(t, "/run/target", "profile", info.profile_file, false)) {
      return false;
    }
    if (const auto* in = t.if_contains("in_process_reference"); in && in->is_bool()) {
      info.in_process_reference = in->as_bool();
    }
    if (const auto* writes = t.if_contains("writes"); writes && writes->is_object()) {
      const auto& wr = writes->as_object();
      if (const auto* mode = wr.if_contains("mode"); mode && mode->is_string()) {
        if (mode->as_string() != "safe" && mode->as_string() != "destructive") {
          return w.fail("/run/target/writes/mode", "expected safe or destructive");
        }
        info.writes = mode->as_string() == "safe" ? harness::write_mode::safe
                                                  : harness::write_mode::destructive;
      }
      if (const auto* text = wr.if_contains("text"); text && text->is_string()) {
        // "destructive: ... (why)": the why comes back from the text.
        const std::string_view said = text->as_string();
        if (const auto open = said.rfind(" ("); open != said.npos && said.back() == ')') {
          info.writes_because = std::string(said.substr(open + 2, said.size() - open - 3));
        }
      }
    }
  }
  if (const auto* strict = run->if_contains("strict_assumptions")) {
    if (!strict->is_bool()) return w.fail("/run/strict_assumptions", "expected true or false");
    info.strict_assumptions = strict->as_bool();
  }
  return true;
}

/// The cells that did not run, and why: /not_run.
void read_not_runs(walker& w, const json::value& nr, std::vector<harness::not_run>& out) {
  if (!nr.is_array()) w.fail("/not_run", "expected an array");
  for (std::size_t i = 0; nr.is_array() && i < nr.as_array().size(); ++i) {
    const std::string p = "/not_run/" + std::to_string(i);
    const auto* o = w.object(nr.as_array()[i], p);
    auto& n = out.emplace_back();
    if (!o || !w.text(*o, p, "check", n.check, false) ||
        !w.text(*o, p, "operation_id", n.operation_id, false) ||
        !w.text(*o, p, "auth_model", n.auth_model, false) || !w.text(*o, p, "why", n.why, false)) {
      break;
    }
  }
}

/// One operation's coverage per keyword; absent in reports written before it existed.
void read_by_keyword(const json::object& o, harness::operation_coverage& k) {
  const auto* b = o.if_contains("by_keyword");
  if (!b || !b->is_array()) return;
  for (const auto& x : b->as_array()) {
    const auto* e = x.if_object();
    if (e == nullptr) continue;
    const auto* kw = e->if_contains("keyword");
    const auto* n = e->if_contains("constraints");
    const auto* c = e->if_contains("covered");
    if (!kw || !kw->is_string() || !n || !n->is_number() || !c || !c->is_number()) continue;
    k.by_keyword.push_back({std::string(kw->as_string()),
                            static_cast<std::uint32_t>(n->to_number<std::uint64_t>()),
                            static_cast<std::uint32_t>(c->to_number<std::uint64_t>())});
  }
}

/// The coverage phase, per operation: /coverage.
void read_coverage(walker& w, const json::value& cov,
                   std::vector<harness::operation_coverage>& out) {
  if (!cov.is_array()) w.fail("/coverage", "expected an array");
  for (std::size_t i = 0; cov.is_array() && i < cov.as_array().size(); ++i) {
    const std::string p = "/coverage/" + std::to_string(i);
    const auto* o = w.object(cov.as_array()[i], p);
    auto& k = out.emplace_back();
    std::uint64_t constraints = 0, covered = 0;
    if (!o || !w.text(*o, p, "operation_id", k.operation_id, false) ||
        !w.text(*o, p, "method_path", k.method_path, false) ||
        !w.number(*o, p, "constraints", constraints) || !w.number(*o, p, "covered", covered)) {
      break;
    }
    k.constraints = static_cast<std::uint32_t>(constraints);
    k.covered = static_cast<std::uint32_t>(covered);
    if (const auto* u = o->if_contains("uncovered"); u && u->is_array()) {
      for (const auto& x : u->as_array()) {
        if (x.is_string()) k.uncovered.emplace_back(x.as_string());
      }
    }
    read_by_keyword(*o, k);
  }
}

/// The run's counts and timings: /counts, /timings.
void read_counts_and_timings(walker& w, const json::object& doc, harness::run_report& report) {
  if (const auto* counts = doc.if_contains("counts"); counts && w.error().empty()) {
    if (const auto* c = w.object(*counts, "/counts")) {
      auto& n = report.counts;
      (void)(w.number(*c, "/counts", "requests", n.requests) &&
             w.number(*c, "/counts", "transport_errors", n.transport_errors) &&
             w.number(*c, "/counts", "checks_passed", n.checks_passed) &&
             w.number(*c, "/counts", "checks_failed", n.checks_failed) &&
             w.number(*c, "/counts", "cells_not_run", n.cells_not_run) &&
             w.number(*c, "/counts", "retries_429", n.retries_429) &&
             w.number(*c, "/counts", "checks_contradicted", n.checks_contradicted) &&
             w.number(*c, "/counts", "relearned", n.relearned));
    }
  }
  if (const auto* timings = doc.if_contains("timings"); timings && w.error().empty()) {
    if (const auto* t = w.object(*timings, "/timings")) {
      auto& d = report.timings;
      (void)(w.seconds(*t, "/timings", "wall_seconds", d.wall) &&
             w.seconds(*t, "/timings", "generation_seconds", d.generation) &&
             w.seconds(*t, "/timings", "transport_seconds", d.transport) &&
             w.seconds(*t, "/timings", "checking_seconds", d.checking));
    }
  }
}

}  // namespace

core::outcome<harness::run_report> parse_json_report(std::string_view text,
                                                     const std::string& source) {
  boost::system::error_code ec;
  const json::value doc_v = json::parse(text, ec);
  if (ec) return core::fail(source + ": not JSON: " + ec.message());
  walker w(source);
  harness::run_report report;
  const auto* doc = w.object(doc_v, "");
  if (doc) {
    const auto* version = doc->if_contains("format_version");
    if (!version) {
      w.fail("/format_version", "missing: not a conform run report");
    } else if (!version->is_int64() || version->as_int64() != 1) {
      w.fail("/format_version", "unsupported version " + json::serialize(*version) +
                                    " (this conform reads version 1)");
    } else if (doc->contains("kind")) {
      w.fail("/kind", "a certification report, not a run report");
    }
  }
  if (doc && w.error().empty() && read_info(w, *doc, report.info)) {
    if (const auto* cells = w.array(*doc, "", "cells")) {
      for (std::size_t i = 0; i < cells->size(); ++i) {
        if (!read_cell(w, (*cells)[i], "/cells/" + std::to_string(i),
                       report.tallies.emplace_back())) {
          break;
        }
      }
    }
    if (const auto* failures = w.error().empty() ? w.array(*doc, "", "failures") : nullptr) {
      for (std::size_t i = 0; i < failures->size(); ++i) {
        if (!read_failure(w, (*failures)[i], "/failures/" + std::to_string(i),
                          report.failures.emplace_back())) {
          break;
        }
      }
    }
    if (const auto* nr = doc->if_contains("not_run"); nr && w.error().empty()) {
      read_not_runs(w, *nr, report.not_runs);
    }
    if (const auto* notes = doc->if_contains("notes"); notes && w.error().empty()) {
      if (!notes->is_array()) w.fail("/notes", "expected an array");
      for (std::size_t i = 0; notes->is_array() && i < notes->as_array().size(); ++i) {
        if (!read_note(w, notes->as_array()[i], "/notes/" + std::to_string(i),
                       report.notes.emplace_back())) {
          break;
        }
      }
    }
    if (w.error().empty()) read_assumptions(w, *doc, "", report.assumptions);
    if (const auto* cov = doc->if_contains("coverage"); cov && w.error().empty()) {
      read_coverage(w, *cov, report.coverage);
    }
    if (w.error().empty()) read_reach_json(*doc, report);
    read_counts_and_timings(w, *doc, report);
    if (const auto* aborted = doc->if_contains("aborted"); aborted && aborted->is_string()) {
      report.aborted = std::string(aborted->as_string());
    }
  }
  if (!w.error().empty()) return core::fail(w.error());
  return report;
}

core::outcome<harness::run_report> read_json_report(const std::string& path) {
  // A report keeps every failure and cell of a run: a larger bound than a description's.
  constexpr std::uintmax_t max_report_bytes = 256u << 20;
  auto text = core::read_file(path, max_report_bytes);
  if (!text) return core::fail(std::move(text).error());
  return parse_json_report(*text, path);
}

}  // namespace conform::reports
