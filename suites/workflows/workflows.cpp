#include "suites/workflows/workflows.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <deque>
#include <map>
#include <filesystem>

#include "core/text.hpp"
#include "generators/style.hpp"
#include "generators/wire.hpp"
#include "suites/workflows/document.hpp"

// The suite's body lives beside the document model (document.hpp) in
// suites::workflows, so that it names it without a using-directive, which a
// unity batch would spread to its neighbours.
namespace conform::suites::workflows {
namespace {

using core::fnv1a;
using core::join;

namespace json = boost::json;

constexpr std::string_view conformance_check = "workflow_conformance";

/// A sufficient auth model of `op` acting for `t`: the run's own choice when
/// it acts for `t`, else the first sufficient credential that may act for it.
std::optional<harness::auth_choice> auth_for_tenant(const harness::scenario_context& ctx,
                                                    const openapi::operation& op,
                                                    const profile::tenant& t) {
  if (!op.needs_credentials()) {
    harness::auth_choice none;
    none.model.name = "none";
    none.tenant = &t;
    return none;
  }
  for (auto& choice : ctx.credentials().sufficient_models(op)) {
    if (choice.tenant == &t) return choice;
  }
  for (const auto* scheme : op.accepted_schemes()) {
    for (const auto& c : ctx.target().credentials) {
      if (!harness::credential_selector::sufficient(op, *scheme, c)) continue;
      if (std::find(c.tenants.begin(), c.tenants.end(), &t) == c.tenants.end()) continue;
      return ctx.credentials().auth_for(op, c, &t);
    }
  }
  return std::nullopt;
}

/// The tenant a workflow runs as, with an auth model per step.
struct plan {
  const profile::tenant* tenant = nullptr;
  std::vector<harness::auth_choice> auths;
  std::map<std::string, json::value> inputs;
};

/// The fixture text of `in` typed as the inputs schema says, or nullopt.
std::optional<json::value> typed_input(const input_def& in, const std::string& text) {
  if (in.type == "integer") {
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return json::value(v);
  }
  if (in.type == "number") {
    json::error_code ec;
    auto v = json::parse(text, ec);
    if (ec || !v.is_number()) return std::nullopt;
    return v;
  }
  if (in.type == "boolean") {
    if (text != "true" && text != "false") return std::nullopt;
    return json::value(text == "true");
  }
  return json::value(json::string(text));
}

core::outcome<plan> plan_for(const harness::scenario_context& ctx, const workflow& w) {
  std::vector<std::string> reasons;
  for (const auto& t : ctx.target().tenants) {
    plan p;
    p.tenant = &t;
    std::string reason;
    for (const auto& in : w.inputs) {
      auto it = t.fixtures.find(in.name);
      if (it == t.fixtures.end()) {
        reason = "no fixture " + in.name;
        break;
      }
      auto v = typed_input(in, it->second);
      if (!v) {
        reason = "fixture " + in.name + " is not " + (in.type == "integer" ? "an " : "a ") +
                 in.type + " as the workflow's inputs declare";
        break;
      }
      p.inputs[in.name] = std::move(*v);
    }
    for (std::size_t i = 0; reason.empty() && i < w.steps.size(); ++i) {
      auto auth = auth_for_tenant(ctx, *w.steps[i].op, t);
      if (!auth) {
        reason = "no credential sufficient for step " + w.steps[i].id + " (" +
                 w.steps[i].op->operation_id + ")";
        break;
      }
      p.auths.push_back(std::move(*auth));
    }
    if (reason.empty()) return p;
    reasons.push_back("tenant " + t.name + ": " + reason);
  }
  return core::fail(reasons.empty()
                        ? std::string(ctx.target().noun()) + " has no tenant"
                        : "no tenant of " + std::string(ctx.target().noun()) +
                              " can run every step (" + core::join(reasons, "; ") +
                              "): add the fixtures and a credential with the scopes the steps "
                              "need to one tenant");
}

/// The request of step `s`, or why a part of it could not be made (a value
/// the workflow cannot give).
core::outcome<generators::generated_request> make_request(const harness::scenario_context& ctx,
                                                          const workflow& w, const step& s,
                                                          const scope& sc) {
  generators::generated_request g;
  g.op = s.op;
  g.method = s.op->method;
  g.path = s.op->path;
  for (const auto& p : s.parameters) {
    auto v = instantiate(p.value, sc);
    if (!v) return core::fail("parameter " + p.name + ": " + v.error());
    // Written as the description's parameter says (style, explode, content).
    generators::param_format f;
    f.in = p.in;
    f.name = p.name;
    f.style = openapi::default_style(p.in);
    f.explode = f.style == openapi::param_style::form;
    const openapi::parameter* declared = s.op->find_parameter(p.name, p.in);
    if (declared != nullptr) f = generators::format_of(*declared);
    auto written = generators::write_param(f, *v);
    if (!written || written->empty()) {
      return core::fail("parameter " + p.name + ": its style (" +
                        std::string(openapi::to_string(f.style)) + ") cannot carry the value");
    }
    switch (p.in) {
      case openapi::param_location::path: {
        const std::string hole = "{" + p.name + "}";
        const std::string& text = written->front().second;
        for (auto at = g.path.find(hole); at != std::string::npos;
             at = g.path.find(hole, at + text.size())) {
          g.path.replace(at, hole.size(), text);
        }
        break;
      }
      case openapi::param_location::query:
      case openapi::param_location::querystring:
        g.query.insert(g.query.end(), written->begin(), written->end());
        if (declared != nullptr && declared->allow_reserved) {
          for (const auto& kv : *written) g.reserved_query.push_back(kv.first);
        }
        break;
      case openapi::param_location::header:
        g.headers.emplace_back(p.name, written->front().second);
        break;
      case openapi::param_location::cookie:
        g.cookies.insert(g.cookies.end(), written->begin(), written->end());
        break;
    }
  }
  if (!s.body) return g;
  auto payload = instantiate(s.body->payload, sc);
  if (!payload) return core::fail("requestBody: " + payload.error());
  const openapi::media_type& media = *s.body->media;
  if (media.name == "multipart/form-data") {
    if (!payload->is_object()) return core::fail("requestBody: a multipart payload is a mapping");
    auto parts =
        media.schema != nullptr
            ? generators::form_parts(payload->get_object(), media.part_content_types, *media.schema)
            : generators::form_parts(payload->get_object(), media.part_content_types);
    // A boundary that occurs in no part, the same for the same run seed.
    std::uint64_t h = core::fnv1a(w.id + "/" + s.id, ctx.seed() ^ 14695981039346656037ull);
    for (int attempt = 0; attempt < 16; ++attempt, h = core::fnv1a("again", h)) {
      char boundary[40];
      std::snprintf(boundary, sizeof boundary, "conform-%016llx",
                    static_cast<unsigned long long>(h));
      const bool clash = std::any_of(parts.begin(), parts.end(), [&](const auto& part) {
        return part.content.find(boundary) != std::string::npos;
      });
      if (clash) continue;
      g.body = generators::multipart_body(parts, boundary);
      g.content_type = "multipart/form-data; boundary=" + std::string(boundary);
      return g;
    }
    return core::fail("requestBody: no multipart boundary avoids the parts' content");
  }
  const bool json_media = media.name.find("json") != std::string::npos;
  g.body = !json_media && payload->is_string() ? std::string(payload->get_string())
                                               : json::serialize(*payload);
  g.content_type = media.name;
  return g;
}

class workflow_run {
 public:
  workflow_run(harness::scenario_context& ctx, harness::results_sink& results, const workflow& w)
      : ctx_(ctx), results_(results), w_(w), label_("workflow " + w.id), first_(*w.steps[0].op) {}

  void run() {
    for (const auto& s : w_.steps) {
      if (!ctx_.covers(*s.op)) {
        results_.not_run(&first_, label_, conformance_check,
                         "step " + s.id + " calls " + s.op->operation_id +
                             ", which this run does not cover (--include/--exclude)");
        return;
      }
    }
    auto p = plan_for(ctx_, w_);
    if (!p) {
      results_.not_run(&first_, label_, conformance_check, p.error());
      return;
    }
    plan_ = std::move(*p);
    for (std::size_t i = 0; i < w_.steps.size(); ++i) {
      if (!run_step(i)) return;
    }
  }

 private:
  /// Sends step `i` and judges its answer; false when the workflow stops there.
  bool run_step(std::size_t i) {
    const step& s = w_.steps[i];
    scope sc{nullptr, &plan_.inputs, &outputs_};
    auto made = make_request(ctx_, w_, s, sc);
    if (!made) {
      results_.not_run(&first_, label_, conformance_check,
                       "step " + s.id + " cannot build its request: " + made.error());
      return false;
    }
    const auto& g = made.value();
    probes_.push_back(ctx_.send(ctx_.build(*s.op, plan_.auths[i], g)));
    done_.push_back(s.id);
    const harness::probe& answer = probes_.back();
    if (auto why = answer.unjudgeable(ctx_.spec())) {
      // No answer, or rate limited past the client's retries: the step's
      // criteria would judge the transport, not the target's contract.
      results_.not_run(&first_, label_, conformance_check,
                       "step " + s.id + " (" + s.op->operation_id +
                           ") could not be judged: " + *why + "; the workflow stopped there");
      return false;
    }
    sc.response = &answer;
    if (s.precondition) {
      // The target is not in the state this workflow starts from: nothing
      // to judge, and saying so beats a failure the server did not cause.
      for (const auto& c : s.criteria) {
        std::string seen;
        if (holds(c.what, sc, &seen)) continue;
        results_.not_run(&first_, label_, conformance_check,
                         "precondition step " + s.id + " does not hold: " + c.what.text +
                             " (seen " + seen + ", answer " + answer.summary() +
                             "): a fixture the workflow needs is not in the state it needs; an "
                             "earlier run against this target may have used it");
        return false;
      }
      return true;
    }
    bool ok = true;
    for (const auto& c : s.criteria) {
      std::string seen;
      if (holds(c.what, sc, &seen)) {
        results_.pass(first_, label_, conformance_check);
        continue;
      }
      ok = false;
      const std::string expected = c.what.jsonpath
                                       ? c.what.text + " (JSONPath on " + c.what.context->text + ")"
                                       : c.what.text;
      fail(s, c.what.text, expected, seen + " (answer: " + answer.summary() + ")");
    }
    if (!ok) return false;
    for (const auto& o : s.outputs) {
      auto v = evaluate(o.value, sc);
      if (!v) {
        fail(s, "output " + o.name + " = " + o.value.text,
             o.value.text + " to have a value (the step's output " + o.name + ")",
             v.error() + " (answer: " + answer.summary() + ")");
        return false;
      }
      outputs_[s.id][o.name] = std::move(*v);
    }
    return true;
  }

  void fail(const step& s, const std::string& what, const std::string& expected,
            const std::string& seen) {
    harness::scenario_failure f;
    f.expected = expected;
    f.seen = seen;
    f.cause = w_.id + " step " + s.id + ": " + what;
    f.steps = "ran workflow " + w_.id + " as tenant " + plan_.tenant->name + ": " +
              core::join(done_, " -> ") + " (stopped at " + s.id + ")";
    for (const auto& p : probes_) f.evidence.push_back(&p);
    results_.fail(first_, label_, conformance_check, f, ctx_);
  }

  harness::scenario_context& ctx_;
  harness::results_sink& results_;
  const workflow& w_;
  const std::string label_;
  const openapi::operation& first_;
  plan plan_;
  std::deque<harness::probe> probes_;  // stable addresses for the evidence
  std::vector<std::string> done_;
  std::map<std::string, std::map<std::string, json::value>> outputs_;
};

/// Runs every workflow of `doc`; `ids` maps the workflowIds run so far to
/// their files, since one id in two files would merge two workflows' cells.
void run_document(harness::scenario_context& ctx, harness::results_sink& results,
                  const document& doc, std::map<std::string, std::string>& ids) {
  if (!doc.errors.empty()) {
    results.not_run(nullptr, "workflow " + doc.file, conformance_check,
                    "the workflow document cannot be loaded: " + core::join(doc.errors, "; "));
    return;
  }
  for (const auto& w : doc.workflows) {
    const openapi::operation* first = w.steps.empty() ? nullptr : w.steps.front().op;
    const std::string label = "workflow " + (w.id.empty() ? core::to_string(w.pos) : w.id);
    if (!w.errors.empty() || !first) {
      results.not_run(first, label, conformance_check,
                      "the workflow cannot be loaded: " + core::join(w.errors, "; "));
      continue;
    }
    if (auto [it, fresh] = ids.emplace(w.id, doc.file); !fresh) {
      results.not_run(first, label + " (" + doc.file + ")", conformance_check,
                      core::to_string(w.pos) + ": workflowId '" + w.id + "' is already used in " +
                          it->second + ": give it another id");
      continue;
    }
    workflow_run(ctx, results, w).run();
  }
}

void run_workflows(harness::scenario_context& ctx, harness::results_sink& results,
                   const harness::check_enabled& enabled) {
  if (!enabled(conformance_check)) return;
  if (ctx.workflow_files().empty()) {
    results.not_run(nullptr, "", conformance_check,
                    "the run has no workflow document (none ships beside the description; "
                    "add one with --workflows FILE)");
    return;
  }
  std::map<std::string, std::string> ids;
  for (const auto& path : ctx.workflow_files()) {
    run_document(ctx, results, load_file(path, ctx.spec()), ids);
  }
}

}  // namespace
}  // namespace conform::suites::workflows

namespace conform::suites {

void register_workflows_scenarios(harness::check_catalogue& catalogue) {
  harness::scenario s;
  s.name = "workflows";
  s.checks.push_back(
      {std::string(workflows::conformance_check),
       "runs each Arazzo 1.0 workflow (those beside the description, specs/workflows/, and the "
       "user's) as one "
       "profile tenant, step by step with sufficient credentials; expects every successCriteria "
       "to hold",
       "Arazzo 1.0 successCriteria; x-conform-precondition"});
  s.run = workflows::run_workflows;
  catalogue.add(std::move(s));
}

std::vector<std::string> shipped_workflows(const std::filesystem::path& description) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  std::error_code ec;
  const fs::path folder = description.parent_path() / "workflows";
  if (!fs::is_directory(folder, ec)) return out;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    const fs::path& file = entry.path();
    const std::string name = file.filename().string();
    const std::string_view suffix = ".arazzo.yaml";
    if (name.size() <= suffix.size() || !name.ends_with(suffix)) continue;
    for (const auto& url : workflows::source_urls(file.string())) {
      // Relative URLs resolve against the document's folder.
      if (fs::equivalent(file.parent_path() / url, description, ec)) {
        out.push_back(file.string());
        break;
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace conform::suites
