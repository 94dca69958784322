#pragma once
// A generic OpenAPI client for tests: it reads paths, parameters,
// `example`s, request bodies, security schemes, response headers, error_code
// enums and `links` from a description's YAML, and is handed only
// credentials, one per security scheme. It knows nothing of any one API.
// Used by generic_client_test.cpp.

#include <yaml-cpp/yaml.h>

#include <boost/json.hpp>
#include <httplib.h>

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/outcome.hpp"
#include "reference/server.hpp"

namespace conform::test_support::generic {

namespace json = boost::json;

// --- reading the description --------------------------------------------

/// Follows local `$ref`s ("#/a/b") from the document root.
/// (yaml-cpp nodes are references: `reset` rebinds one, `=` would write
/// into the document.)
inline YAML::Node resolve(const YAML::Node& root, const YAML::Node& start) {
  YAML::Node n(start);
  for (int hops = 0; hops < 16 && n.IsMap() && static_cast<const YAML::Node&>(n)["$ref"]; ++hops) {
    const std::string ref = static_cast<const YAML::Node&>(n)["$ref"].as<std::string>();
    if (ref.rfind("#/", 0) != 0) return YAML::Node();
    YAML::Node cur(root);
    std::stringstream ss(ref.substr(2));
    std::string seg;
    while (std::getline(ss, seg, '/')) {
      std::string key;
      for (std::size_t i = 0; i < seg.size(); ++i) {
        if (seg[i] == '~' && i + 1 < seg.size()) {
          key += seg[i + 1] == '1' ? '/' : '~';
          ++i;
        } else {
          key += seg[i];
        }
      }
      const YAML::Node next = static_cast<const YAML::Node&>(cur)[key];
      if (!next.IsDefined()) return YAML::Node();
      cur.reset(next);
    }
    n.reset(cur);
  }
  return n;
}

/// YAML as JSON (the core schema: plain scalars that look like numbers,
/// booleans or null are those; quoted ones are strings).
inline json::value to_json(const YAML::Node& n) {
  if (n.IsMap()) {
    json::object o;
    for (const auto& kv : n) o[kv.first.as<std::string>()] = to_json(kv.second);
    return o;
  }
  if (n.IsSequence()) {
    json::array a;
    for (const auto& v : n) a.push_back(to_json(v));
    return a;
  }
  if (!n.IsScalar()) return nullptr;
  const std::string s = n.Scalar();
  if (n.Tag() == "!") return json::string(s);
  if (s == "null" || s == "~" || s.empty()) return nullptr;
  if (s == "true" || s == "false") return s == "true";
  static const std::regex integer("^-?[0-9]+$"), number("^-?[0-9]+\\.[0-9]+([eE][-+]?[0-9]+)?$");
  if (std::regex_match(s, integer)) return std::stoll(s);
  if (std::regex_match(s, number)) return std::stod(s);
  return json::string(s);
}

inline std::string text_of(const json::value& v) {
  if (v.is_string()) return std::string(v.as_string());
  return json::serialize(v);
}

inline std::string url_encode(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) != 0 || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

struct param {
  std::string name, in;
  bool required = false;
  YAML::Node node;  // resolved Parameter Object
};

struct operation {
  std::string id, method, path;
  std::vector<param> params;
  YAML::Node body;       // resolved Request Body Object (null: none)
  YAML::Node responses;  // Responses Object
  YAML::Node security;   // the operation's, else the root's
};

/// A parameter's example: `example`, else the first of `examples`, else the
/// schema's `example`/`examples`/`default`/`enum` (never an invented value).
inline std::optional<json::value> example_of(const YAML::Node& root, const param& p) {
  if (p.node["example"]) return to_json(p.node["example"]);
  if (p.node["examples"] && p.node["examples"].IsMap()) {
    for (const auto& kv : p.node["examples"]) {
      YAML::Node ex = resolve(root, kv.second);
      if (ex["value"]) return to_json(ex["value"]);
    }
  }
  YAML::Node s = resolve(root, p.node["schema"]);
  if (s["example"]) return to_json(s["example"]);
  if (s["examples"] && s["examples"].IsSequence() && s["examples"].size() > 0)
    return to_json(s["examples"][0]);
  if (s["default"]) return to_json(s["default"]);
  if (s["enum"] && s["enum"].IsSequence() && s["enum"].size() > 0) return to_json(s["enum"][0]);
  return std::nullopt;
}

/// The first media type of a request body and its example value.
inline std::optional<std::pair<std::string, json::value>> body_example(const YAML::Node& root,
                                                                       const YAML::Node& body) {
  if (!body.IsMap() || !body["content"]) return std::nullopt;
  for (const auto& kv : body["content"]) {
    const std::string media = kv.first.as<std::string>();
    const YAML::Node m = kv.second;
    if (m["example"]) return std::make_pair(media, to_json(m["example"]));
    if (m["examples"] && m["examples"].IsMap()) {
      for (const auto& e : m["examples"]) {
        YAML::Node ex = resolve(root, e.second);
        if (ex["value"]) return std::make_pair(media, to_json(ex["value"]));
      }
    }
    YAML::Node s = resolve(root, m["schema"]);
    if (s["example"]) return std::make_pair(media, to_json(s["example"]));
    if (s["examples"] && s["examples"].IsSequence() && s["examples"].size() > 0)
      return std::make_pair(media, to_json(s["examples"][0]));
    return std::nullopt;  // only the first media type is tried
  }
  return std::nullopt;
}

/// The error_code enum of a response's JSON schema (through $ref and allOf).
inline std::optional<std::set<std::string>> error_code_enum(const YAML::Node& root,
                                                            const YAML::Node& schema,
                                                            int depth = 0) {
  const YAML::Node s = resolve(root, schema);
  if (!s.IsMap() || depth > 12) return std::nullopt;
  if (s["properties"] && s["properties"]["error_code"]) {
    YAML::Node p = resolve(root, s["properties"]["error_code"]);
    if (p["enum"]) {
      std::set<std::string> out;
      for (const auto& v : p["enum"]) out.insert(v.as<std::string>());
      return out;
    }
  }
  if (s["allOf"]) {
    for (const auto& sub : s["allOf"]) {
      if (auto e = error_code_enum(root, sub, depth + 1)) return e;
    }
  }
  return std::nullopt;
}

// --- the client -----------------------------------------------------------

struct exchange {
  const operation* op = nullptr;
  std::map<std::string, std::string> path, query, header;  // sent values (no secrets)
  int status = 0;
  httplib::Headers response_headers;
  json::value body;
  std::string origin;  // "examples" or "link <name> from <operation>"
};

struct attempt {
  std::size_t op = 0;
  std::map<std::string, json::value> values;  // parameter name -> value
  std::string origin;
};

class generic_client {
 public:
  generic_client(YAML::Node root, std::string base_url,
                 std::vector<std::pair<std::string, std::string>> credentials)
      : root_(std::move(root)), credentials_(std::move(credentials)) {
    // base_url: http://HOST:PORT/prefix
    const std::string rest = base_url.substr(base_url.find("//") + 2);
    const std::string hostport = rest.substr(0, rest.find('/'));
    prefix_ = rest.substr(hostport.size());
    host_ = hostport.substr(0, hostport.find(':'));
    port_ = std::stoi(hostport.substr(hostport.find(':') + 1));
    for (const auto& pk : root_["paths"]) {
      const std::string path = pk.first.as<std::string>();
      const YAML::Node item = pk.second;
      for (const char* m : {"get", "put", "post", "patch", "delete"}) {
        if (!item[m]) continue;
        const YAML::Node o = item[m];
        operation op;
        op.id = o["operationId"].as<std::string>();
        op.method = m;
        op.path = path;
        auto add = [&](const YAML::Node& list) {
          if (!list) return;
          for (const auto& pn : list) {
            YAML::Node p = resolve(root_, pn);
            param x{p["name"].as<std::string>(), p["in"].as<std::string>(),
                    p["required"] && p["required"].as<bool>(), p};
            bool replaced = false;
            for (auto& q : op.params) {
              if (q.name == x.name && q.in == x.in) {
                q = x;
                replaced = true;
              }
            }
            if (!replaced) op.params.push_back(x);
          }
        };
        add(item["parameters"]);
        add(o["parameters"]);
        if (o["requestBody"]) op.body.reset(resolve(root_, o["requestBody"]));
        op.responses.reset(o["responses"]);
        op.security.reset(o["security"] ? o["security"]
                                        : static_cast<const YAML::Node&>(root_)["security"]);
        ops_.push_back(std::move(op));
      }
    }
  }

  const std::vector<operation>& operations() const { return ops_; }
  const std::vector<exchange>& log() const { return log_; }
  std::vector<std::string>& problems() { return problems_; }

  /// Credential headers for an operation: the first credential whose scheme
  /// is one alternative of its security; none when it takes none.
  std::optional<std::vector<std::pair<std::string, std::string>>> credential_for(
      const operation& op) const {
    std::vector<std::pair<std::string, std::string>> none;
    if (!op.security || op.security.size() == 0) return none;
    for (const auto& alt : op.security) {
      if (alt.size() == 0) return none;
    }
    for (const auto& [scheme_name, secret] : credentials_) {
      for (const auto& alt : op.security) {
        if (alt.size() == 1 && alt[scheme_name]) return scheme_headers(scheme_name, secret);
      }
    }
    return std::nullopt;
  }

  std::vector<std::pair<std::string, std::string>> scheme_headers(const std::string& scheme_name,
                                                                  const std::string& secret) const {
    YAML::Node s = resolve(root_, root_["components"]["securitySchemes"][scheme_name]);
    const std::string type = s["type"].as<std::string>();
    if (type == "http" && s["scheme"].as<std::string>() == "bearer")
      return {{"Authorization", "Bearer " + secret}};
    if (type == "apiKey" && s["in"].as<std::string>() == "header")
      return {{s["name"].as<std::string>(), secret}};
    ADD_FAILURE() << "scheme " << scheme_name << " is neither bearer nor a header key";
    return {};
  }

  /// Sends one attempt, or says why it cannot be built or sent.
  core::outcome<exchange> send(const attempt& a, bool use_examples,
                               std::optional<std::vector<std::pair<std::string, std::string>>>
                                   credential_override = std::nullopt) {
    const operation& op = ops_[a.op];
    auto cred = credential_override ? credential_override : credential_for(op);
    if (!cred) {
      return core::fail("no credential of a scheme it accepts");
    }
    exchange x;
    x.op = &op;
    x.origin = a.origin;
    std::string path = op.path;
    for (const auto& p : op.params) {
      std::optional<json::value> v;
      if (auto it = a.values.find(p.name); it != a.values.end()) v = it->second;
      if (!v && p.required && use_examples) v = example_of(root_, p);
      if (!v) {
        if (p.required) {
          return core::fail("no value for required " + p.in + " parameter " + p.name);
        }
        continue;
      }
      const std::string t = text_of(*v);
      if (p.in == "path") {
        path.replace(path.find("{" + p.name + "}"), p.name.size() + 2, url_encode(t));
        x.path[p.name] = t;
      } else if (p.in == "query") {
        x.query[p.name] = t;
      } else if (p.in == "header") {
        x.header[p.name] = t;
      }
    }
    std::string query;
    for (const auto& [k, v] : x.query)
      query += (query.empty() ? "?" : "&") + k + "=" + url_encode(v);
    httplib::Request req;
    req.method = op.method;
    for (auto& c : req.method) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    req.path = prefix_ + path + query;
    for (const auto& [k, v] : x.header) req.headers.emplace(k, v);
    for (const auto& [k, v] : *cred) req.headers.emplace(k, v);
    if (op.body.IsMap()) {
      auto ex = body_example(root_, op.body);
      if (!ex) {
        if (op.body["required"] && op.body["required"].as<bool>()) {
          return core::fail("no example of its request body");
        }
      } else if (ex->first == "multipart/form-data") {
        encode_multipart(op, ex->second, req);
      } else {
        req.body = text_of(ex->second);
        req.headers.emplace("Content-Type", ex->first);
      }
    }
    httplib::Client cli(host_, port_);
    cli.set_read_timeout(30);
    httplib::Response res;
    httplib::Error err = httplib::Error::Success;
    if (!cli.send(req, res, err)) {
      return core::fail("transport: " + httplib::to_string(err));
    }
    x.status = res.status;
    x.response_headers = res.headers;
    json::error_code ec;
    x.body = json::parse(res.body, ec);
    if (ec) x.body = nullptr;
    check(x);
    log_.push_back(x);
    return x;
  }

  /// What a generic tool checks of any answer: the status is documented,
  /// the headers that response declares required are there and match their
  /// schema's pattern, and an error_code is one of its enum.
  void check(const exchange& x) {
    const std::string what = x.op->id + " -> " + std::to_string(x.status) + " (" + x.origin + ")";
    YAML::Node r = resolve(root_, x.op->responses[std::to_string(x.status)]);
    if (!r.IsMap()) {
      problems_.push_back(what + ": status not documented");
      return;
    }
    if (r["headers"]) {
      for (const auto& h : r["headers"]) {
        YAML::Node hd = resolve(root_, h.second);
        const std::string name = h.first.as<std::string>();
        const bool present = x.response_headers.count(name) > 0;
        if (hd["required"] && hd["required"].as<bool>() && !present)
          problems_.push_back(what + ": no " + name + " header");
        YAML::Node hs = resolve(root_, hd["schema"]);
        if (present && hs["pattern"]) {
          const std::string v = x.response_headers.find(name)->second;
          if (!std::regex_search(v, std::regex(hs["pattern"].as<std::string>())))
            problems_.push_back(what + ": " + name + " '" + v + "' does not match its pattern");
        }
      }
      headers_checked_ += 1;
    }
    if (x.body.is_object() && x.body.as_object().contains("error_code")) {
      const YAML::Node media = r["content"]["application/json"];
      auto allowed = error_code_enum(root_, media["schema"]);
      const std::string code = text_of(x.body.at("error_code"));
      if (!allowed) {
        problems_.push_back(what + ": error_code " + code +
                            " but the response has no enum of codes");
      } else if (allowed->count(code) == 0) {
        problems_.push_back(what + ": error_code " + code + " not in its enum");
      } else {
        codes_checked_ += 1;
      }
    }
  }

  /// Values for other operations from a 2xx answer's `links`.
  std::vector<attempt> follow_links(const attempt& from, const exchange& x) {
    std::vector<attempt> out;
    YAML::Node r = resolve(root_, x.op->responses[std::to_string(x.status)]);
    if (!r["links"]) return out;
    for (const auto& lk : r["links"]) {
      const std::string name = lk.first.as<std::string>();
      YAML::Node link = resolve(root_, lk.second);
      const std::string target = link["operationId"].as<std::string>();
      std::size_t t = ops_.size();
      for (std::size_t i = 0; i < ops_.size(); ++i) {
        if (ops_[i].id == target) t = i;
      }
      if (t == ops_.size()) {
        problems_.push_back("link " + name + " of " + x.op->id + ": no operation " + target);
        continue;
      }
      attempt a{t, {}, "link " + name + " from " + x.op->id};
      bool complete = true;
      const YAML::Node params = link["parameters"];
      if (!params.IsMap()) continue;
      for (const auto& pv : params) {
        std::string pname = pv.first.as<std::string>();
        if (auto dot = pname.find('.'); dot != std::string::npos) pname = pname.substr(dot + 1);
        bool known = false;
        for (const auto& p : ops_[t].params) known = known || p.name == pname;
        if (!known)
          problems_.push_back("link " + name + ": " + target + " has no parameter " + pname);
        auto v = evaluate(pv.second, from, x);
        if (!v || v->is_null()) {
          complete = false;
          continue;
        }
        a.values[pname] = *v;
      }
      links_fired_[name] += complete ? 1 : 0;
      if (complete) out.push_back(std::move(a));
    }
    return out;
  }

  std::map<std::string, int>& links_fired() { return links_fired_; }
  int headers_checked() const { return headers_checked_; }
  int codes_checked() const { return codes_checked_; }

 private:
  std::optional<json::value> evaluate(const YAML::Node& expr, const attempt&, const exchange& x) {
    if (!expr.IsScalar()) return to_json(expr);
    const std::string e = expr.Scalar();
    if (e.rfind("$response.body#", 0) == 0) {
      boost::system::error_code ec;
      const json::value* v =
          x.body.find_pointer(e.substr(std::string("$response.body#").size()), ec);
      if (!v) return std::nullopt;
      return *v;
    }
    auto from_map = [&](const std::string& prefix,
                        const std::map<std::string, std::string>& m) -> std::optional<json::value> {
      auto it = m.find(e.substr(prefix.size()));
      if (it == m.end()) return std::nullopt;
      return json::value(json::string(it->second));
    };
    if (e.rfind("$request.path.", 0) == 0) return from_map("$request.path.", x.path);
    if (e.rfind("$request.query.", 0) == 0) return from_map("$request.query.", x.query);
    if (e.rfind("$request.header.", 0) == 0) return from_map("$request.header.", x.header);
    if (e.rfind("$response.header.", 0) == 0) {
      auto it = x.response_headers.find(e.substr(std::string("$response.header.").size()));
      if (it == x.response_headers.end()) return std::nullopt;
      return json::value(json::string(it->second));
    }
    if (!e.empty() && e[0] == '$') {
      problems_.push_back("unsupported runtime expression " + e);
      return std::nullopt;
    }
    return to_json(expr);
  }

  void encode_multipart(const operation& op, const json::value& v, httplib::Request& req) const {
    const std::string boundary = "----generic-client-boundary-7d1f";
    YAML::Node encoding = op.body["content"]["multipart/form-data"]["encoding"];
    std::string body;
    for (const auto& [k, part] : v.as_object()) {
      std::string ct = part.is_string() ? "text/plain" : "application/json";
      if (encoding && encoding[std::string(k)] && encoding[std::string(k)]["contentType"])
        ct = encoding[std::string(k)]["contentType"].as<std::string>();
      body +=
          "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + std::string(k) + "\"";
      if (ct != "text/plain" && ct != "application/json")
        body += "; filename=\"" + std::string(k) + "\"";
      body += "\r\nContent-Type: " + ct + "\r\n\r\n" + text_of(part) + "\r\n";
    }
    body += "--" + boundary + "--\r\n";
    req.body = body;
    req.headers.emplace("Content-Type", "multipart/form-data; boundary=" + boundary);
  }

  YAML::Node root_;
  std::vector<std::pair<std::string, std::string>> credentials_;
  std::string host_, prefix_;
  int port_ = 0;
  std::vector<operation> ops_;
  std::vector<exchange> log_;
  std::vector<std::string> problems_;
  std::map<std::string, int> links_fired_;
  int headers_checked_ = 0, codes_checked_ = 0;
};

/// Runs the client: every operation from its examples (when `use_examples`),
/// then every link of each first 2xx answer, until nothing new can be sent.
/// Returns the operations that answered 2xx, and why the others could not.
inline std::set<std::string> explore(generic_client& c, bool use_examples,
                                     std::map<std::string, std::string>& not_reached) {
  std::set<std::string> reached;
  std::deque<attempt> queue;
  for (std::size_t i = 0; i < c.operations().size(); ++i) queue.push_back({i, {}, "examples"});
  std::set<std::string> fired;  // operations whose links were followed
  int sent = 0;
  while (!queue.empty() && sent < 400) {
    attempt a = queue.front();
    queue.pop_front();
    const operation& op = c.operations()[a.op];
    auto x = c.send(a, use_examples);
    if (!x) {
      if (!reached.count(op.id)) not_reached[op.id] = x.error();
      continue;
    }
    ++sent;
    if (x->status < 200 || x->status >= 300) {
      if (!reached.count(op.id)) not_reached[op.id] = "answered " + std::to_string(x->status);
      continue;
    }
    reached.insert(op.id);
    not_reached.erase(op.id);
    if (fired.insert(op.id).second) {
      for (auto& next : c.follow_links(a, *x)) queue.push_back(std::move(next));
    }
  }
  return reached;
}

}  // namespace conform::test_support::generic
