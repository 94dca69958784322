#include "cli/certify_transcript.hpp"

#include <boost/json.hpp>

#include "core/base64.hpp"
#include "core/text.hpp"

namespace conform::cli {

namespace {

namespace json = boost::json;

constexpr int transcript_version = 1;

/// `text` as a JSON member: "<name>" when UTF-8, "<name>_base64" otherwise.
void put_bytes(json::object& o, const char* name, const std::string& text) {
  if (core::is_utf8(text)) {
    o[name] = text;
  } else {
    o[std::string(name) + "_base64"] = core::base64_encode(text);
  }
}

json::array pairs(const std::vector<std::pair<std::string, std::string>>& v) {
  json::array a;
  for (const auto& [k, x] : v) a.push_back(json::array{json::string(k), json::string(x)});
  return a;
}

/// Replaces every profile secret by its key prefix and "<secret of NAME>".
struct redactor {
  std::vector<std::pair<std::string, std::string>> replace;  // secret -> stand-in

  redactor(const harness::traffic& t, const openapi::api_spec& spec) {
    for (const auto& c : t.credentials) {
      if (c.secret.size() < 4) continue;
      std::string prefix;
      for (const auto& scheme : spec.schemes) {
        for (const auto& [env, p] : scheme->key_prefixes) {
          if (c.secret.starts_with(p) && p.size() > prefix.size()) prefix = p;
        }
      }
      replace.emplace_back(c.secret, prefix + "<secret of " + c.name + ">");
    }
    // Longer secrets first, so that one holding another is replaced whole.
    std::sort(replace.begin(), replace.end(),
              [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  }

  std::string operator()(std::string text) const {
    for (const auto& [secret, stand_in] : replace) {
      for (std::size_t at = text.find(secret); at != std::string::npos;
           at = text.find(secret, at + stand_in.size())) {
        text.replace(at, secret.size(), stand_in);
      }
    }
    return text;
  }

  std::vector<std::pair<std::string, std::string>> operator()(
      std::vector<std::pair<std::string, std::string>> v) const {
    for (auto& [k, x] : v) x = (*this)(x);
    return v;
  }
};

const json::value* member(const json::object& o, std::string_view key) {
  return o.if_contains(key);
}

std::string text_of(const json::object& o, std::string_view key) {
  const json::value* v = member(o, key);
  return v && v->is_string() ? std::string(v->as_string()) : std::string();
}

std::optional<std::string> bytes_of(const json::object& o, const std::string& key) {
  if (const json::value* v = member(o, key); v && v->is_string())
    return std::string(v->as_string());
  if (const json::value* v = member(o, key + "_base64"); v && v->is_string()) {
    return core::base64_decode(v->as_string());
  }
  return std::string();
}

std::vector<std::pair<std::string, std::string>> pairs_of(const json::object& o,
                                                          std::string_view key) {
  std::vector<std::pair<std::string, std::string>> out;
  const json::value* v = member(o, key);
  if (!v || !v->is_array()) return out;
  for (const auto& p : v->as_array()) {
    if (!p.is_array() || p.as_array().size() != 2 || !p.as_array()[0].is_string() ||
        !p.as_array()[1].is_string()) {
      throw std::runtime_error(std::string(key) + " holds something other than [name, value]");
    }
    out.emplace_back(std::string(p.as_array()[0].as_string()),
                     std::string(p.as_array()[1].as_string()));
  }
  return out;
}

std::uint64_t count_of(const json::object& o, std::string_view key) {
  const json::value* v = member(o, key);
  if (!v) return 0;
  if (v->is_uint64()) return v->as_uint64();
  if (v->is_int64() && v->as_int64() >= 0) return static_cast<std::uint64_t>(v->as_int64());
  throw std::runtime_error(std::string(key) + " is not a non-negative integer");
}

}  // namespace

std::string write_transcript(const transcript_header& h, const harness::traffic& t,
                             const openapi::api_spec& spec) {
  const redactor redact(t, spec);
  json::object head;
  head["conform_transcript"] = transcript_version;
  head["tool_version"] = h.tool_version;
  head["seed"] = h.seed;
  head["environment"] = h.environment;
  head["level"] = h.level;
  head["spec"] = {{"title", h.spec_title}, {"version", h.spec_version}, {"sha256", h.spec_hash}};
  head["base_url"] = h.base_url;
  head["started_at"] = h.started_at;
  head["finished_at"] = h.finished_at;
  json::array artifacts;
  for (const auto& [file, digest] : h.client_artifacts) {
    artifacts.push_back({{"file", file}, {"sha256", digest}});
  }
  head["client"] = {{"command", redact(h.client_command)}, {"name", redact(h.client_name)},
                    {"artifacts", std::move(artifacts)},   {"known", h.client.known},
                    {"completed", h.client.completed},     {"exit", h.client.exit}};
  json::array planned;
  for (const auto& p : t.planned) {
    planned.push_back(
        {{"kind", p.kind}, {"where", p.where}, {"what", p.what}, {"met_at", p.met_at}});
  }
  json::array plan;
  for (const auto& line : h.adversity_plan) plan.emplace_back(line);
  head["adversity"] = {
      {"enabled", h.client.adversity}, {"planned", std::move(planned)}, {"plan", std::move(plan)}};
  json::array credentials;
  for (const auto& c : t.credentials) {
    credentials.push_back({{"name", c.name}, {"scheme", c.kind}, {"value", redact(c.secret)}});
  }
  head["credentials"] = std::move(credentials);
  if (!h.pass.name.empty()) {
    json::array kinds;
    for (const auto& k : h.pass.planned_kinds) kinds.emplace_back(k);
    head["pass"] = {{"name", h.pass.name},
                    {"adversity", h.pass.adversity},
                    {"run", h.pass.run},
                    {"not_run_why", h.pass.not_run_why},
                    {"completion_judged", h.pass.completion_judged},
                    {"planned_kinds", std::move(kinds)}};
    json::array ops, classes;
    for (const auto& o : h.scope.operations) ops.emplace_back(o);
    for (const auto& c : h.scope.classes) classes.emplace_back(c);
    head["scope"] = {{"operations", std::move(ops)},
                     {"source", h.scope.source},
                     {"classes", std::move(classes)}};
  }
  std::string out = json::serialize(head) + "\n";
  for (const auto& e : t.exchanges) {
    json::object o;
    o["seq"] = e.seq;
    o["sent_us"] = e.sent.count();
    o["answered_us"] = e.answered.count();
    o["method"] = std::string(http::method_name(e.request.method));
    o["target"] = redact(e.request.target);
    o["headers"] = pairs(redact(e.request.headers));
    put_bytes(o, "body", redact(e.request.body));
    o["status"] = e.status;
    o["response_headers"] = pairs(redact(e.response_headers));
    put_bytes(o, "response_body", redact(e.response_body));
    if (!e.adversity.empty()) {
      o["adversity"] = e.adversity;
      o["adversity_detail"] = e.adversity_detail;
    }
    if (e.processed_status) o["processed_status"] = e.processed_status;
    out += json::serialize(o) + "\n";
  }
  return out;
}

namespace {

// A section's header: what the pass and scope were.
void read_pass_and_scope(const json::object& o, transcript_header& h) {
  if (const auto* p = member(o, "pass"); p && p->is_object()) {
    const auto& po = p->as_object();
    h.pass.name = text_of(po, "name");
    h.pass.adversity = text_of(po, "adversity");
    h.pass.not_run_why = text_of(po, "not_run_why");
    if (const auto* b = member(po, "run"); b && b->is_bool()) h.pass.run = b->as_bool();
    if (const auto* b = member(po, "completion_judged"); b && b->is_bool()) {
      h.pass.completion_judged = b->as_bool();
    }
    if (const auto* k = member(po, "planned_kinds"); k && k->is_array()) {
      for (const auto& item : k->as_array()) {
        if (item.is_string()) h.pass.planned_kinds.emplace_back(item.as_string());
      }
    }
  }
  if (const auto* sc = member(o, "scope"); sc && sc->is_object()) {
    const auto& so = sc->as_object();
    h.scope.source = text_of(so, "source");
    for (const char* key : {"operations", "classes"}) {
      if (const auto* a = member(so, key); a && a->is_array()) {
        auto& into = std::string_view(key) == "operations" ? h.scope.operations : h.scope.classes;
        for (const auto& item : a->as_array()) {
          if (item.is_string()) into.emplace_back(item.as_string());
        }
      }
    }
  }
}

// The client the transcript is of: its command, its exit, its artifacts.
void read_client(const json::object& o, transcript_header& h) {
  if (const auto* c = member(o, "client"); c && c->is_object()) {
    const auto& co = c->as_object();
    h.client_command = text_of(co, "command");
    h.client_name = text_of(co, "name");
    h.client.exit = text_of(co, "exit");
    if (const auto* k = member(co, "known"); k && k->is_bool()) h.client.known = k->as_bool();
    if (const auto* k = member(co, "completed"); k && k->is_bool()) {
      h.client.completed = k->as_bool();
    }
    if (const auto* a = member(co, "artifacts"); a && a->is_array()) {
      for (const auto& item : a->as_array()) {
        if (!item.is_object()) throw std::runtime_error("a client artifact is no object");
        h.client_artifacts.emplace_back(text_of(item.as_object(), "file"),
                                        text_of(item.as_object(), "sha256"));
      }
    }
  }
}

// The adversity planned for the pass, and the credentials the client was given.
void read_adversity_and_credentials(const json::object& o, transcript& out) {
  auto& h = out.header;
  if (const auto* a = member(o, "adversity"); a && a->is_object()) {
    const auto& ao = a->as_object();
    if (const auto* e = member(ao, "enabled"); e && e->is_bool()) {
      h.client.adversity = e->as_bool();
    }
    if (const auto* p = member(ao, "planned"); p && p->is_array()) {
      for (const auto& item : p->as_array()) {
        if (!item.is_object()) throw std::runtime_error("a planned adversity is no object");
        const auto& po = item.as_object();
        out.traffic.planned.push_back({text_of(po, "kind"), text_of(po, "where"),
                                       text_of(po, "what"), count_of(po, "met_at")});
      }
    }
    if (const auto* p = member(ao, "plan"); p && p->is_array()) {
      for (const auto& item : p->as_array()) {
        if (item.is_string()) h.adversity_plan.emplace_back(item.as_string());
      }
    }
  }
  if (const auto* c = member(o, "credentials"); c && c->is_array()) {
    for (const auto& item : c->as_array()) {
      if (!item.is_object()) throw std::runtime_error("a credential is no object");
      const auto& co = item.as_object();
      std::string kind = text_of(co, "scheme");
      if (kind.empty()) throw std::runtime_error("a credential has no scheme");
      out.traffic.credentials.push_back(
          {text_of(co, "name"), std::move(kind), text_of(co, "value")});
    }
  }
}

// The header line that starts a section (a pass).
void read_section_header(const json::object& o, transcript& out) {
  auto& h = out.header;
  read_pass_and_scope(o, h);
  h.tool_version = text_of(o, "tool_version");
  h.seed = count_of(o, "seed");
  h.environment = text_of(o, "environment");
  h.level = text_of(o, "level");
  h.base_url = text_of(o, "base_url");
  h.started_at = text_of(o, "started_at");
  h.finished_at = text_of(o, "finished_at");
  if (const auto* s = member(o, "spec"); s && s->is_object()) {
    h.spec_title = text_of(s->as_object(), "title");
    h.spec_version = text_of(s->as_object(), "version");
    h.spec_hash = text_of(s->as_object(), "sha256");
  }
  read_client(o, h);
  read_adversity_and_credentials(o, out);
  out.traffic.seed = h.seed;
  out.traffic.environment = h.environment;
}

// One exchange line: the request as the client sent it, and the answer.
harness::traffic_exchange read_exchange(const json::object& o) {
  harness::traffic_exchange e;
  e.seq = count_of(o, "seq");
  e.sent = std::chrono::microseconds(count_of(o, "sent_us"));
  e.answered = std::chrono::microseconds(count_of(o, "answered_us"));
  e.request.method = http::parse_verb(text_of(o, "method")).value_or(http::verb::unknown);
  e.request.target = text_of(o, "target");
  e.request.headers = pairs_of(o, "headers");
  auto body = bytes_of(o, "body");
  auto response = bytes_of(o, "response_body");
  if (!body || !response) throw std::runtime_error("a body is not valid base64");
  e.request.body = std::move(*body);
  e.status = static_cast<unsigned>(count_of(o, "status"));
  e.response_headers = pairs_of(o, "response_headers");
  e.response_body = std::move(*response);
  e.adversity = text_of(o, "adversity");
  e.adversity_detail = text_of(o, "adversity_detail");
  e.processed_status = static_cast<int>(count_of(o, "processed_status"));
  return e;
}

}  // namespace

core::outcome<std::vector<transcript>> read_transcript(const std::string& text) {
  std::vector<transcript> sections;
  std::size_t line_no = 0;
  std::size_t at = 0;
  try {
    while (at < text.size()) {
      const std::size_t eol = text.find('\n', at);
      const std::string_view line =
          std::string_view(text).substr(at, eol == std::string::npos ? text.size() - at : eol - at);
      at = eol == std::string::npos ? text.size() : eol + 1;
      ++line_no;
      if (line.empty()) continue;
      boost::system::error_code ec;
      const json::value v = json::parse(line, ec);
      if (ec || !v.is_object()) throw std::runtime_error("not a JSON object");
      const json::object& o = v.as_object();
      if (sections.empty() || member(o, "conform_transcript")) {
        const json::value* version = member(o, "conform_transcript");
        if (!version || !version->is_int64() || version->as_int64() != transcript_version) {
          throw std::runtime_error("not a Conform transcript (conform_transcript: 1)");
        }
        read_section_header(o, sections.emplace_back());
        continue;
      }
      sections.back().traffic.exchanges.push_back(read_exchange(o));
    }
  } catch (const std::exception& ex) {
    return core::fail("line " + std::to_string(line_no) + ": " + ex.what());
  }
  if (sections.empty()) {
    return core::fail("the transcript is empty");
  }
  return sections;
}

}  // namespace conform::cli
