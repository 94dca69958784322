#include "suites/workflows/document.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <charconv>
#include <optional>
#include <set>

#include "core/parse.hpp"
#include "core/document.hpp"
#include "core/text.hpp"

namespace conform::suites::workflows {
namespace {

namespace json = boost::json;
using core::node;

class loader {
 public:
  loader(const std::string& file, const openapi::api_spec& spec) : file_(file), spec_(spec) {}

  document load(std::string_view text) {
    document doc;
    doc.file = file_;
    // The one reader of every input, with the bounds of core/limits.hpp.
    core::parsed_document parsed = core::parse_document(text, file_);
    if (parsed.error) {
      doc.errors.push_back(core::to_string(*parsed.error));
      return doc;
    }
    const node& root = parsed.root;
    if (!root.is_map()) {
      doc.errors.push_back(at(root) + ": an Arazzo document is a mapping");
      return doc;
    }
    const node& version = root.get("arazzo");
    if (!version.is_scalar() || !starts_with(version.text(), "1.0.")) {
      doc.errors.push_back(at(version.defined() ? version : root) +
                           ": 'arazzo' must name version 1.0.x");
    }
    if (const node& sources = root.get("sourceDescriptions"); sources.is_sequence()) {
      for (const auto& s : sources.items()) {
        if (s.get("name").is_scalar()) sources_.insert(s.get("name").text());
      }
    }
    const node& list = root.get("workflows");
    if (!list.is_sequence() || list.size() == 0) {
      doc.errors.push_back(at(list.defined() ? list : root) +
                           ": 'workflows' must be a non-empty list");
      return doc;
    }
    std::set<std::string> ids;
    for (const auto& item : list.items()) {
      workflow w = load_workflow(item);
      if (!w.id.empty() && !ids.insert(w.id).second) {
        w.errors.push_back(at(item) + ": workflowId '" + w.id + "' is used twice");
      }
      doc.workflows.push_back(std::move(w));
    }
    return doc;
  }

 private:
  std::string at(const node& n) const { return core::to_string(pos(n)); }
  core::source_pos pos(const node& n) const {
    return core::source_pos{file_, static_cast<int>(n.line()), static_cast<int>(n.column())};
  }
  core::source_pos pos(const core::node_entry& e) const {
    return core::source_pos{file_, static_cast<int>(e.line), static_cast<int>(e.column)};
  }
  static bool starts_with(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
  }

  /// The scalar at `key` of `n`, or "" (with an error when `required`).
  std::string text(const node& n, const char* key, workflow& w, bool required) {
    if (!n.is_map()) {
      w.errors.push_back(at(n) + ": expected a mapping with '" + key + "'");
      return {};
    }
    const node& v = n.get(key);
    if (v.is_scalar()) return v.text();
    if (required || v.defined()) {
      w.errors.push_back(at(v.defined() ? v : n) + ": '" + key + "' must be " +
                         (required ? "given as " : "") + "a string");
    }
    return {};
  }

  workflow load_workflow(const node& n) {
    workflow w;
    w.pos = pos(n);
    if (!n.is_map()) {
      w.errors.push_back(at(n) + ": a workflow is a mapping");
      return w;
    }
    w.id = text(n, "workflowId", w, true);
    for (const char* key : {"dependsOn", "successActions", "failureActions"}) {
      if (n.get(key).defined())
        w.errors.push_back(at(n.get(key)) + ": '" + key + "' is not supported");
    }
    w.summary = text(n, "summary", w, false);
    load_inputs(n.get("inputs"), w);
    const node& steps = n.get("steps");
    if (!steps.is_sequence() || steps.size() == 0) {
      w.errors.push_back(at(steps.defined() ? steps : n) + ": 'steps' must be a non-empty list");
      return w;
    }
    for (const auto& s : steps.items()) w.steps.push_back(load_step(s, w));
    return w;
  }

  void load_inputs(const node& inputs, workflow& w) {
    if (!inputs.defined()) return;
    const node& props = inputs.get("properties");
    if (!props.is_map()) {
      w.errors.push_back(at(inputs) + ": 'inputs' must be a JSON schema object with 'properties'");
      return;
    }
    for (const auto& p : props.entries()) {
      input_def in;
      in.name = p.key;
      in.pos = pos(p);
      if (p.value.get("type").is_scalar()) in.type = p.value.get("type").text();
      if (in.type != "string" && in.type != "integer" && in.type != "number" &&
          in.type != "boolean") {
        w.errors.push_back(at(p.value) + ": input '" + in.name + "' has type '" + in.type +
                           "': a profile fixture is a string, integer, number or boolean");
      }
      w.inputs.push_back(std::move(in));
    }
  }

  const openapi::operation* find_operation(std::string id) const {
    // `$sourceDescriptions.<name>.<operationId>` names the one description Conform loaded.
    static constexpr std::string_view prefix = "$sourceDescriptions.";
    if (starts_with(id, prefix)) {
      const std::string rest = id.substr(prefix.size());
      const auto dot = rest.find('.');
      if (dot == std::string::npos || sources_.count(rest.substr(0, dot)) == 0) return nullptr;
      id = rest.substr(dot + 1);
    }
    return spec_.find_operation(id);
  }

  step load_step(const node& n, workflow& w) {
    step s;
    s.pos = pos(n);
    if (!n.is_map()) {
      w.errors.push_back(at(n) + ": a step is a mapping");
      return s;
    }
    s.id = text(n, "stepId", w, true);
    for (const auto& earlier : w.steps) {
      if (!s.id.empty() && earlier.id == s.id) {
        w.errors.push_back(at(n) + ": stepId '" + s.id + "' is used twice");
      }
    }
    if (n.get("operationPath").defined() || n.get("workflowId").defined()) {
      w.errors.push_back(at(n) +
                         ": only steps with an operationId are supported (not operationPath "
                         "or workflowId)");
      return s;
    }
    for (const char* key : {"onSuccess", "onFailure"}) {
      if (n.get(key).defined())
        w.errors.push_back(at(n.get(key)) + ": '" + key + "' is not supported");
    }
    const std::string operation_id = text(n, "operationId", w, true);
    if (operation_id.empty()) return s;
    s.op = find_operation(operation_id);
    if (!s.op) {
      w.errors.push_back(at(n.get("operationId")) + ": unknown operationId '" + operation_id +
                         "': the description has no such operation");
      return s;
    }
    if (const node& pre = n.get("x-conform-precondition"); pre.defined()) {
      if (!pre.is_scalar() || (pre.text() != "true" && pre.text() != "false")) {
        w.errors.push_back(at(pre) + ": 'x-conform-precondition' must be true or false");
      } else {
        s.precondition = pre.text() == "true";
      }
    }
    load_parameters(n.get("parameters"), s, w);
    load_body(n.get("requestBody"), s, w);
    load_criteria(n.get("successCriteria"), s, w);
    load_outputs(n.get("outputs"), s, w);
    return s;
  }

  void load_parameters(const node& list, step& s, workflow& w) {
    if (list.defined() && !list.is_sequence()) {
      w.errors.push_back(at(list) + ": 'parameters' must be a list");
      return;
    }
    for (const auto& n : list.items()) {
      if (!n.is_map()) {
        w.errors.push_back(at(n) + ": a parameter is a mapping with name, in and value");
        continue;
      }
      parameter_use p;
      p.pos = pos(n);
      p.name = text(n, "name", w, true);
      const std::string in = text(n, "in", w, true);
      if (in == "path") {
        p.in = openapi::param_location::path;
      } else if (in == "query") {
        p.in = openapi::param_location::query;
      } else if (in == "header") {
        p.in = openapi::param_location::header;
      } else {
        w.errors.push_back(at(n) + ": parameter '" + p.name + "' needs 'in' path, query or header");
        continue;
      }
      if (!s.op->find_parameter(p.name, p.in)) {
        w.errors.push_back(at(n) + ": operation " + s.op->operation_id + " has no " + in +
                           " parameter '" + p.name + "'");
        continue;
      }
      if (p.in == openapi::param_location::header && harness_header(*s.op, p.name)) {
        w.errors.push_back(at(n) + ": header '" + p.name +
                           "' is set by the harness from the profile, not by the workflow");
        continue;
      }
      const node& value = n.get("value");
      if (!value.defined()) {
        w.errors.push_back(at(n) + ": parameter '" + p.name + "' has no 'value'");
        continue;
      }
      p.value = to_template(value, w, false);
      s.parameters.push_back(std::move(p));
    }
    for (const auto& param : s.op->parameters) {
      if (param.in != openapi::param_location::path) continue;
      const bool given = std::any_of(s.parameters.begin(), s.parameters.end(), [&](const auto& p) {
        return p.in == openapi::param_location::path && p.name == param.name;
      });
      if (!given) {
        w.errors.push_back(core::to_string(s.pos) + ": step '" + s.id +
                           "' gives no value for "
                           "path parameter '" +
                           param.name + "'");
      }
    }
  }

  static bool harness_header(const openapi::operation& op, std::string_view name) {
    if (op.tenant.from == openapi::tenant_context::source::header &&
        core::iequals(op.tenant.name, name)) {
      return true;
    }
    if (!op.tenant.header_name.empty() && core::iequals(op.tenant.header_name, name)) return true;
    return op.idempotent && core::iequals(op.idempotent->header, name);
  }

  void load_body(const node& n, step& s, workflow& w) {
    if (!n.defined()) {
      if (s.op->body && s.op->body->required) {
        w.errors.push_back(core::to_string(s.pos) + ": operation " + s.op->operation_id +
                           " requires a body and step '" + s.id + "' has no requestBody");
      }
      return;
    }
    if (!s.op->body || s.op->body->content.empty()) {
      w.errors.push_back(at(n) + ": operation " + s.op->operation_id + " takes no request body");
      return;
    }
    body_use b;
    b.pos = pos(n);
    const std::string type = n.is_map() ? text(n, "contentType", w, false) : std::string();
    for (const auto& m : s.op->body->content) {
      if (type.empty() || starts_with(type, m.name)) {
        b.media = &m;
        break;
      }
    }
    if (!b.media) {
      w.errors.push_back(at(n) + ": operation " + s.op->operation_id + " takes no body of type '" +
                         type + "'");
      return;
    }
    const node& payload = n.get("payload");
    if (!payload.defined()) {
      w.errors.push_back(at(n) + ": requestBody has no 'payload'");
      return;
    }
    b.payload = to_template(payload, w, false);
    if (b.media->name == "multipart/form-data" && !b.payload.is_object()) {
      w.errors.push_back(at(payload) +
                         ": a multipart/form-data payload is a mapping from part name to value");
      return;
    }
    s.body = std::move(b);
  }

  void load_criteria(const node& list, step& s, workflow& w) {
    if (!list.defined()) {
      w.errors.push_back(core::to_string(s.pos) + ": step '" + s.id +
                         "' has no successCriteria: a workflow step must say what it expects");
      return;
    }
    if (!list.is_sequence()) {
      w.errors.push_back(at(list) + ": 'successCriteria' must be a list");
      return;
    }
    for (const auto& n : list.items()) {
      if (!n.is_map()) {
        w.errors.push_back(at(n) + ": a criterion is a mapping with a 'condition'");
        continue;
      }
      std::string condition = text(n, "condition", w, true);
      std::string context = n.get("context").defined() ? text(n, "context", w, true) : "";
      std::string type;
      if (n.get("type").defined()) {
        const node& t = n.get("type");
        type = t.is_scalar() ? t.text() : t.get("type").text();
      }
      auto c = parse_criterion(condition, type, context);
      if (!c) {
        w.errors.push_back(at(n) + ": " + c.error());
        continue;
      }
      std::vector<const expression*> used;
      if (c->context) used.push_back(&*c->context);
      for (const auto& cmp : c->all) {
        for (const auto* o : {&cmp.left, &cmp.right}) {
          if (o->expr) used.push_back(&*o->expr);
          for (const auto& e : o->embeds) used.push_back(&e);
        }
      }
      for (const auto* e : used) check_reference(*e, n, w, true);
      s.criteria.push_back({std::move(*c), pos(n)});
    }
  }

  void load_outputs(const node& map, step& s, workflow& w) {
    if (!map.defined()) return;
    if (!map.is_map()) {
      w.errors.push_back(at(map) + ": 'outputs' must be a mapping");
      return;
    }
    for (const auto& o : map.entries()) {
      if (!o.value.is_scalar()) {
        w.errors.push_back(at(o.value) + ": output '" + o.key + "': must be a runtime expression");
        continue;
      }
      auto e = parse_expression(o.value.text());
      if (!e) {
        w.errors.push_back(at(o.value) + ": output '" + o.key + "': " + e.error());
        continue;
      }
      check_reference(*e, o.value, w, true);
      s.outputs.push_back({o.key, std::move(*e)});
    }
  }

  /// Errors for an expression that names an input not declared, a step not
  /// run before, an output the step does not declare, or a response where
  /// there is none yet (a request's own parameters and body).
  void check_reference(const expression& e, const node& n, workflow& w, bool response_allowed) {
    using kind = expression::kind;
    const std::string where = at(n) + ": cannot evaluate '" + e.text + "': ";
    if (e.what == kind::input) {
      const bool declared = std::any_of(w.inputs.begin(), w.inputs.end(),
                                        [&](const input_def& in) { return in.name == e.name; });
      if (!declared) w.errors.push_back(where + "the workflow declares no input '" + e.name + "'");
    } else if (e.what == kind::step_output) {
      const auto it = std::find_if(w.steps.begin(), w.steps.end(),
                                   [&](const step& s) { return s.id == e.step; });
      if (it == w.steps.end()) {
        w.errors.push_back(where + "no earlier step '" + e.step + "'");
      } else if (std::none_of(it->outputs.begin(), it->outputs.end(),
                              [&](const output_use& o) { return o.name == e.name; })) {
        w.errors.push_back(where + "step '" + e.step + "' declares no output '" + e.name + "'");
      }
    } else if (!response_allowed) {
      w.errors.push_back(where + "a request cannot read its own response");
    }
  }

  /// A plain scalar's value in a template: `true`/`false`, null, an integer
  /// that fits 64 bits, a number written with a decimal point; nullopt for
  /// the rest, which stays the text it is (an id of 20 digits must not
  /// become a double, nor `1e5` a number).
  static std::optional<json::value> plain_value(const node& n) {
    if (n.is_null()) return json::value(nullptr);
    const std::string& v = n.text();
    if (v == "true" || v == "false") return json::value(v == "true");
    if (v == "null" || v == "~" || v.empty()) return json::value(nullptr);
    const std::size_t sign = v.front() == '-' || v.front() == '+' ? 1 : 0;
    const std::size_t digits = v.find_first_not_of("0123456789", sign);
    if (digits == std::string::npos && v.size() > sign) {
      std::int64_t i = 0;
      const char* first = v.data() + (v.front() == '+' ? 1 : 0);
      const auto [end, ec] = std::from_chars(first, v.data() + v.size(), i);
      if (ec == std::errc() && end == v.data() + v.size()) return json::value(i);
      return std::nullopt;
    }
    // [-+]?([0-9]+\.[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?
    std::size_t i = sign;
    const std::size_t whole = v.find_first_not_of("0123456789", i) - i;
    i += whole;
    if (i >= v.size() || v[i] != '.') return std::nullopt;
    ++i;
    const std::size_t frac_end = std::min(v.find_first_not_of("0123456789", i), v.size());
    if (whole == 0 && frac_end == i) return std::nullopt;
    i = frac_end;
    if (i < v.size() && (v[i] == 'e' || v[i] == 'E')) {
      ++i;
      if (i < v.size() && (v[i] == '-' || v[i] == '+')) ++i;
      const std::size_t exp_end = std::min(v.find_first_not_of("0123456789", i), v.size());
      if (exp_end == i) return std::nullopt;
      i = exp_end;
    }
    if (i != v.size()) return std::nullopt;
    double d = 0;
    const auto [end, ec] =
        std::from_chars(v.data() + (v.front() == '+' ? 1 : 0), v.data() + v.size(), d);
    if (ec != std::errc() || end != v.data() + v.size()) return std::nullopt;
    return json::value(d);
  }

  /// A node as a template: plain scalars typed by plain_value, quoted ones
  /// strings; expressions checked where they occur.
  template_value to_template(const node& n, workflow& w, bool response_allowed) {
    if (n.is_map()) {
      json::object o;
      for (const auto& kv : n.entries()) o[kv.key] = to_template(kv.value, w, response_allowed);
      return o;
    }
    if (n.is_sequence()) {
      json::array a;
      for (const auto& item : n.items()) a.push_back(to_template(item, w, response_allowed));
      return a;
    }
    if (!n.is_scalar()) return nullptr;
    if (!n.quoted()) {
      if (auto value = plain_value(n)) return *value;
    }
    const std::string& v = n.text();
    std::vector<expression> used;
    if (!v.empty() && v.front() == '$') {
      auto e = parse_expression(v);
      if (e) {
        used.push_back(std::move(*e));
      } else {
        w.errors.push_back(at(n) + ": " + e.error());
      }
    } else if (auto embeds = embedded_expressions(v, used); !embeds) {
      w.errors.push_back(at(n) + ": " + embeds.error());
    }
    for (const auto& e : used) check_reference(e, n, w, response_allowed);
    return json::string(v);
  }

  std::string file_;
  const openapi::api_spec& spec_;
  std::set<std::string> sources_;
};

}  // namespace

document load_document(std::string_view text, const std::string& file,
                       const openapi::api_spec& spec) {
  return loader(file, spec).load(text);
}

std::vector<std::string> source_urls(const std::string& path) {
  std::vector<std::string> out;
  std::vector<core::diagnostic> ignored;
  core::doc_reader r(ignored);
  const auto text = core::read_text_file(path, r, core::source_pos{path, 0, 0});
  if (!text) return out;  // unreadable: it names nothing, and the run does not take it
  const core::parsed_document doc = core::parse_document(*text, path);
  for (const auto& s : doc.root.get("sourceDescriptions").items()) {
    if (s.get("url").is_scalar()) out.push_back(s.get("url").text());
  }
  return out;
}

document load_file(const std::string& path, const openapi::api_spec& spec) {
  std::vector<core::diagnostic> problems;
  core::doc_reader r(problems);
  const auto text = core::read_text_file(path, r, core::source_pos{path, 0, 0});
  if (!text) {
    document doc;
    doc.file = path;
    for (const auto& d : problems) doc.errors.push_back(core::to_string(d));
    return doc;
  }
  return load_document(*text, path, spec);
}

core::outcome<json::value> instantiate(const template_value& t, const scope& s) {
  if (const json::object* o = t.if_object()) {
    json::object out;
    for (const auto& kv : *o) {
      auto v = instantiate(kv.value(), s);
      if (!v) return v;
      out[kv.key()] = std::move(*v);
    }
    return json::value(std::move(out));
  }
  if (const json::array* a = t.if_array()) {
    json::array out;
    for (const auto& item : *a) {
      auto v = instantiate(item, s);
      if (!v) return v;
      out.push_back(std::move(*v));
    }
    return json::value(std::move(out));
  }
  if (const json::string* str = t.if_string(); str && !str->empty()) {
    if (str->front() == '$') {
      auto e = parse_expression(*str);
      if (!e) return core::fail(std::move(e).error());
      return evaluate(*e, s);
    }
    auto text = expand(*str, s);
    if (!text) return core::fail(std::move(text).error());
    return json::value(json::string(*text));
  }
  return t;
}

}  // namespace conform::suites::workflows
