#include "suites/workflows/document.hpp"

#include <yaml-cpp/yaml.h>

#include <boost/json.hpp>

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace conform::suites::workflows {
namespace {

namespace json = boost::json;

class loader {
 public:
  loader(const std::string& file, const openapi::api_spec& spec) : file_(file), spec_(spec) {}

  document load(std::string_view text) {
    document doc;
    doc.file = file_;
    YAML::Node root;
    try {
      root = YAML::Load(std::string(text));
    } catch (const YAML::Exception& e) {
      doc.errors.push_back(at(e.mark) + ": malformed YAML: " + e.msg);
      return doc;
    }
    if (!root.IsMap()) {
      doc.errors.push_back(at(root.Mark()) + ": an Arazzo document is a mapping");
      return doc;
    }
    const YAML::Node version = root["arazzo"];
    if (!version || !version.IsScalar() || !starts_with(version.Scalar(), "1.0.")) {
      doc.errors.push_back(at(version ? version.Mark() : root.Mark()) +
                           ": 'arazzo' must name version 1.0.x");
    }
    if (const YAML::Node sources = root["sourceDescriptions"]; sources && sources.IsSequence()) {
      for (const auto& s : sources) {
        if (s.IsMap() && s["name"] && s["name"].IsScalar()) sources_.insert(s["name"].Scalar());
      }
    }
    const YAML::Node list = root["workflows"];
    if (!list || !list.IsSequence() || list.size() == 0) {
      doc.errors.push_back(at(list ? list.Mark() : root.Mark()) +
                           ": 'workflows' must be a non-empty list");
      return doc;
    }
    std::set<std::string> ids;
    for (const auto& node : list) {
      workflow w;
      try {
        w = load_workflow(node);
      } catch (const YAML::Exception& e) {
        // A node of an unexpected kind (a scalar where a mapping belongs)
        // makes the workflow unreadable, not the run.
        w.pos = pos(node);
        w.errors.push_back(at(e.mark.line >= 0 ? e.mark : node.Mark()) + ": " + e.msg);
      }
      if (!w.id.empty() && !ids.insert(w.id).second) {
        w.errors.push_back(at(node.Mark()) + ": workflowId '" + w.id + "' is used twice");
      }
      doc.workflows.push_back(std::move(w));
    }
    return doc;
  }

 private:
  std::string at(const YAML::Mark& m) const {
    core::source_pos p{file_, 0, 0};
    if (m.line >= 0) {
      p.line = m.line + 1;
      p.column = m.column + 1;
    }
    return core::to_string(p);
  }
  core::source_pos pos(const YAML::Node& n) const {
    core::source_pos p{file_, 0, 0};
    const YAML::Mark m = n.Mark();
    if (m.line >= 0) {
      p.line = m.line + 1;
      p.column = m.column + 1;
    }
    return p;
  }
  static bool starts_with(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
  }

  /// The scalar at `key` of `n`, or "" (with an error when `required`).
  std::string text(const YAML::Node& n, const char* key, workflow& w, bool required) {
    if (!n.IsMap()) {
      w.errors.push_back(at(n.Mark()) + ": expected a mapping with '" + key + "'");
      return {};
    }
    const YAML::Node v = n[key];
    if (v && v.IsScalar()) return v.Scalar();
    if (required || v) {
      w.errors.push_back(at(v ? v.Mark() : n.Mark()) + ": '" + key + "' must be " +
                         (required ? "given as " : "") + "a string");
    }
    return {};
  }

  workflow load_workflow(const YAML::Node& node) {
    workflow w;
    w.pos = pos(node);
    if (!node.IsMap()) {
      w.errors.push_back(at(node.Mark()) + ": a workflow is a mapping");
      return w;
    }
    w.id = text(node, "workflowId", w, true);
    for (const char* key : {"dependsOn", "successActions", "failureActions"}) {
      if (node[key]) w.errors.push_back(at(node[key].Mark()) + ": '" + key + "' is not supported");
    }
    w.summary = text(node, "summary", w, false);
    load_inputs(node["inputs"], w);
    const YAML::Node steps = node["steps"];
    if (!steps || !steps.IsSequence() || steps.size() == 0) {
      w.errors.push_back(at(steps ? steps.Mark() : node.Mark()) +
                         ": 'steps' must be a non-empty list");
      return w;
    }
    for (const auto& s : steps) w.steps.push_back(load_step(s, w));
    return w;
  }

  void load_inputs(const YAML::Node& inputs, workflow& w) {
    if (!inputs) return;
    const YAML::Node props = inputs.IsMap() ? inputs["properties"] : YAML::Node();
    if (!props || !props.IsMap()) {
      w.errors.push_back(at(inputs.Mark()) +
                         ": 'inputs' must be a JSON schema object with 'properties'");
      return;
    }
    for (const auto& p : props) {
      input_def in;
      in.name = p.first.Scalar();
      in.pos = pos(p.first);
      if (p.second.IsMap() && p.second["type"] && p.second["type"].IsScalar()) {
        in.type = p.second["type"].Scalar();
      }
      if (in.type != "string" && in.type != "integer" && in.type != "number" &&
          in.type != "boolean") {
        w.errors.push_back(at(p.second.Mark()) + ": input '" + in.name + "' has type '" + in.type +
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

  step load_step(const YAML::Node& node, workflow& w) {
    step s;
    s.pos = pos(node);
    if (!node.IsMap()) {
      w.errors.push_back(at(node.Mark()) + ": a step is a mapping");
      return s;
    }
    s.id = text(node, "stepId", w, true);
    for (const auto& earlier : w.steps) {
      if (!s.id.empty() && earlier.id == s.id) {
        w.errors.push_back(at(node.Mark()) + ": stepId '" + s.id + "' is used twice");
      }
    }
    if (node["operationPath"] || node["workflowId"]) {
      w.errors.push_back(at(node.Mark()) +
                         ": only steps with an operationId are supported (not operationPath "
                         "or workflowId)");
      return s;
    }
    for (const char* key : {"onSuccess", "onFailure"}) {
      if (node[key]) w.errors.push_back(at(node[key].Mark()) + ": '" + key + "' is not supported");
    }
    const std::string operation_id = text(node, "operationId", w, true);
    if (operation_id.empty()) return s;
    s.op = find_operation(operation_id);
    if (!s.op) {
      w.errors.push_back(at(node["operationId"].Mark()) + ": unknown operationId '" + operation_id +
                         "': the description has no such operation");
      return s;
    }
    if (const auto pre = node["x-conform-precondition"]) {
      if (!pre.IsScalar() || (pre.Scalar() != "true" && pre.Scalar() != "false")) {
        w.errors.push_back(at(pre.Mark()) + ": 'x-conform-precondition' must be true or false");
      } else {
        s.precondition = pre.Scalar() == "true";
      }
    }
    load_parameters(node["parameters"], s, w);
    load_body(node["requestBody"], s, w);
    load_criteria(node["successCriteria"], s, w);
    load_outputs(node["outputs"], s, w);
    return s;
  }

  void load_parameters(const YAML::Node& list, step& s, workflow& w) {
    if (list && !list.IsSequence()) {
      w.errors.push_back(at(list.Mark()) + ": 'parameters' must be a list");
      return;
    }
    for (const auto& node : list) {
      if (!node.IsMap()) {
        w.errors.push_back(at(node.Mark()) + ": a parameter is a mapping with name, in and value");
        continue;
      }
      parameter_use p;
      p.pos = pos(node);
      p.name = text(node, "name", w, true);
      const std::string in = text(node, "in", w, true);
      if (in == "path") {
        p.in = openapi::param_location::path;
      } else if (in == "query") {
        p.in = openapi::param_location::query;
      } else if (in == "header") {
        p.in = openapi::param_location::header;
      } else {
        w.errors.push_back(at(node.Mark()) + ": parameter '" + p.name +
                           "' needs 'in' path, query or header");
        continue;
      }
      if (!s.op->find_parameter(p.name, p.in)) {
        w.errors.push_back(at(node.Mark()) + ": operation " + s.op->operation_id + " has no " + in +
                           " parameter '" + p.name + "'");
        continue;
      }
      if (p.in == openapi::param_location::header && harness_header(*s.op, p.name)) {
        w.errors.push_back(at(node.Mark()) + ": header '" + p.name +
                           "' is set by the harness from the profile, not by the workflow");
        continue;
      }
      const YAML::Node value = node["value"];
      if (!value) {
        w.errors.push_back(at(node.Mark()) + ": parameter '" + p.name + "' has no 'value'");
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
    auto same = [](std::string_view a, std::string_view b) {
      return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
             });
    };
    if (op.tenant.from == openapi::tenant_context::source::header && same(op.tenant.name, name)) {
      return true;
    }
    if (!op.tenant.header_name.empty() && same(op.tenant.header_name, name)) return true;
    return op.idempotent && same(op.idempotent->header, name);
  }

  void load_body(const YAML::Node& node, step& s, workflow& w) {
    if (!node) {
      if (s.op->body && s.op->body->required) {
        w.errors.push_back(core::to_string(s.pos) + ": operation " + s.op->operation_id +
                           " requires a body and step '" + s.id + "' has no requestBody");
      }
      return;
    }
    if (!s.op->body || s.op->body->content.empty()) {
      w.errors.push_back(at(node.Mark()) + ": operation " + s.op->operation_id +
                         " takes no request body");
      return;
    }
    body_use b;
    b.pos = pos(node);
    const std::string type = node.IsMap() ? text(node, "contentType", w, false) : std::string();
    for (const auto& m : s.op->body->content) {
      if (type.empty() || starts_with(type, m.name)) {
        b.media = &m;
        break;
      }
    }
    if (!b.media) {
      w.errors.push_back(at(node.Mark()) + ": operation " + s.op->operation_id +
                         " takes no body of type '" + type + "'");
      return;
    }
    const YAML::Node payload = node.IsMap() ? node["payload"] : YAML::Node();
    if (!payload) {
      w.errors.push_back(at(node.Mark()) + ": requestBody has no 'payload'");
      return;
    }
    b.payload = to_template(payload, w, false);
    if (b.media->name == "multipart/form-data" && !b.payload.is_object()) {
      w.errors.push_back(at(payload.Mark()) +
                         ": a multipart/form-data payload is a mapping from part name to value");
      return;
    }
    s.body = std::move(b);
  }

  void load_criteria(const YAML::Node& list, step& s, workflow& w) {
    if (!list) {
      w.errors.push_back(core::to_string(s.pos) + ": step '" + s.id +
                         "' has no successCriteria: a workflow step must say what it expects");
      return;
    }
    if (!list.IsSequence()) {
      w.errors.push_back(at(list.Mark()) + ": 'successCriteria' must be a list");
      return;
    }
    for (const auto& node : list) {
      if (!node.IsMap()) {
        w.errors.push_back(at(node.Mark()) + ": a criterion is a mapping with a 'condition'");
        continue;
      }
      std::string condition = text(node, "condition", w, true);
      std::string context = node.IsMap() && node["context"] ? text(node, "context", w, true) : "";
      std::string type;
      if (node.IsMap() && node["type"]) {
        const YAML::Node t = node["type"];
        type = t.IsScalar() ? t.Scalar() : (t.IsMap() && t["type"] ? t["type"].Scalar() : "");
      }
      std::string why;
      auto c = parse_criterion(condition, type, context, &why);
      if (!c) {
        w.errors.push_back(at(node.Mark()) + ": " + why);
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
      for (const auto* e : used) check_reference(*e, node, w, true);
      s.criteria.push_back({std::move(*c), pos(node)});
    }
  }

  void load_outputs(const YAML::Node& map, step& s, workflow& w) {
    if (!map) return;
    if (!map.IsMap()) {
      w.errors.push_back(at(map.Mark()) + ": 'outputs' must be a mapping");
      return;
    }
    for (const auto& o : map) {
      std::string why;
      auto e = o.second.IsScalar() ? parse_expression(o.second.Scalar(), &why) : std::nullopt;
      if (!e) {
        w.errors.push_back(at(o.second.Mark()) + ": output '" + o.first.Scalar() +
                           "': " + (why.empty() ? "must be a runtime expression" : why));
        continue;
      }
      check_reference(*e, o.second, w, true);
      s.outputs.push_back({o.first.Scalar(), std::move(*e)});
    }
  }

  /// Errors for an expression that names an input not declared, a step not
  /// run before, an output the step does not declare, or a response where
  /// there is none yet (a request's own parameters and body).
  void check_reference(const expression& e, const YAML::Node& node, workflow& w,
                       bool response_allowed) {
    using kind = expression::kind;
    const std::string where = at(node.Mark()) + ": cannot evaluate '" + e.text + "': ";
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

  /// A YAML node as a template: plain scalars typed as YAML 1.2 core would
  /// type them, quoted ones strings; expressions checked where they occur.
  template_value to_template(const YAML::Node& n, workflow& w, bool response_allowed) {
    if (n.IsMap()) {
      json::object o;
      for (const auto& kv : n) o[kv.first.Scalar()] = to_template(kv.second, w, response_allowed);
      return o;
    }
    if (n.IsSequence()) {
      json::array a;
      for (const auto& item : n) a.push_back(to_template(item, w, response_allowed));
      return a;
    }
    if (!n.IsScalar()) return nullptr;
    const std::string& v = n.Scalar();
    if (n.Tag() == "?") {
      static const std::regex integer("[-+]?[0-9]+");
      static const std::regex number("[-+]?([0-9]+\\.[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?");
      if (v == "true" || v == "false") return v == "true";
      if (v == "null" || v == "~" || v.empty()) return nullptr;
      try {
        if (std::regex_match(v, integer)) return std::stoll(v);
        if (std::regex_match(v, number)) return std::stod(v);
      } catch (const std::exception&) {
        // Out of range: kept as the text it is.
      }
    }
    std::string why;
    std::vector<expression> used;
    if (!v.empty() && v.front() == '$') {
      auto e = parse_expression(v, &why);
      if (e) {
        used.push_back(std::move(*e));
      } else {
        w.errors.push_back(at(n.Mark()) + ": " + why);
      }
    } else if (!embedded_expressions(v, used, &why)) {
      w.errors.push_back(at(n.Mark()) + ": " + why);
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
  try {
    const YAML::Node root = YAML::LoadFile(path);
    const YAML::Node sources = root.IsMap() ? root["sourceDescriptions"] : YAML::Node();
    if (!sources || !sources.IsSequence()) return out;
    for (const auto& s : sources) {
      if (s.IsMap() && s["url"] && s["url"].IsScalar()) out.push_back(s["url"].Scalar());
    }
  } catch (const YAML::Exception&) {
    // Unreadable: it names nothing, and the run does not take it.
  }
  return out;
}

document load_file(const std::string& path, const openapi::api_spec& spec) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    document doc;
    doc.file = path;
    doc.errors.push_back(path + ": cannot read the workflow file");
    return doc;
  }
  std::stringstream text;
  text << in.rdbuf();
  return load_document(text.str(), path, spec);
}

std::optional<json::value> instantiate(const template_value& t, const scope& s, std::string* why) {
  if (const json::object* o = t.if_object()) {
    json::object out;
    for (const auto& kv : *o) {
      auto v = instantiate(kv.value(), s, why);
      if (!v) return std::nullopt;
      out[kv.key()] = std::move(*v);
    }
    return json::value(std::move(out));
  }
  if (const json::array* a = t.if_array()) {
    json::array out;
    for (const auto& item : *a) {
      auto v = instantiate(item, s, why);
      if (!v) return std::nullopt;
      out.push_back(std::move(*v));
    }
    return json::value(std::move(out));
  }
  if (const json::string* str = t.if_string(); str && !str->empty()) {
    if (str->front() == '$') {
      auto e = parse_expression(*str, why);
      if (!e) return std::nullopt;
      return evaluate(*e, s, why);
    }
    auto text = expand(*str, s, why);
    if (!text) return std::nullopt;
    return json::value(json::string(*text));
  }
  return t;
}

}  // namespace conform::suites::workflows
