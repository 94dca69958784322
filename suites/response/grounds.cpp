#include "suites/response/grounds.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <optional>

#include "core/text.hpp"
#include "generators/style.hpp"
#include "generators/wire.hpp"
#include "schema/validator.hpp"

namespace conform::suites::response {

namespace {

using core::percent_decode;
using openapi::param_location;
using openapi::param_style;

/// A request read back as values; nullopt where a part cannot be.
struct read_back {
  /// Each parameter of the operation that was sent, with its value.
  std::vector<std::pair<const openapi::parameter*, boost::json::value>> params;
  /// Required parameters left out.
  std::vector<const openapi::parameter*> missing;
  std::optional<boost::json::value> body;  // a JSON body
  const schema::schema* body_schema = nullptr;
  bool body_missing = false;
};

std::vector<std::string> split(std::string_view text, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t at = text.find(sep, start);
    out.emplace_back(text.substr(start, at - start));
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

std::string trim(std::string_view t) {
  while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
  while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.remove_suffix(1);
  return std::string(t);
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

/// The path parameters' texts (still percent-encoded), by matching the
/// request path against the operation's template segment by segment.
std::optional<std::vector<std::pair<std::string, std::string>>> path_texts(const std::string& tmpl,
                                                                           std::string_view path) {
  const auto want = split(tmpl, '/');
  const auto have = split(path, '/');
  if (want.size() != have.size()) return std::nullopt;
  std::vector<std::pair<std::string, std::string>> out;
  for (std::size_t i = 0; i < want.size(); ++i) {
    const std::string& w = want[i];
    if (w.size() > 2 && w.front() == '{' && w.back() == '}' &&
        w.find('{', 1) == std::string::npos) {
      out.emplace_back(w.substr(1, w.size() - 2), have[i]);
    } else if (w.find('{') != std::string::npos) {
      return std::nullopt;  // a segment mixing text and a parameter: not read back
    }
  }
  return out;
}

/// What a server reads from the request; nullopt when some part cannot be
/// read back (then nothing is concluded).
std::optional<read_back> read(const harness::exchange& e) {
  read_back out;
  const std::string& target = e.request.target;
  const std::size_t q = target.find('?');
  const std::string_view path = std::string_view(target).substr(0, q);
  auto paths = path_texts(e.op.path, path);
  if (!paths) return std::nullopt;
  generators::wire_pairs query;
  if (q != std::string::npos) {
    for (const auto& pair : split(std::string_view(target).substr(q + 1), '&')) {
      if (pair.empty()) continue;
      const std::size_t eq = pair.find('=');
      query.emplace_back(
          percent_decode(pair.substr(0, eq)),
          eq == std::string::npos ? std::string() : percent_decode(pair.substr(eq + 1)));
    }
  }
  generators::wire_pairs cookies;
  if (const std::string* c = e.request.find_header("Cookie")) {
    for (const auto& kv : split(*c, ';')) {
      const std::size_t eq = kv.find('=');
      cookies.emplace_back(trim(kv.substr(0, eq)),
                           eq == std::string::npos ? std::string() : trim(kv.substr(eq + 1)));
    }
  }
  for (const auto& p : e.op.parameters) {
    const auto f = generators::format_of(p);
    generators::wire_pairs w;
    if (p.in == param_location::path) {
      for (const auto& [name, text] : *paths) {
        if (name == p.name) w.emplace_back(name, text);
      }
    } else if (p.in == param_location::header) {
      if (const std::string* v = e.request.find_header(p.name)) w.emplace_back(p.name, *v);
    } else {
      const auto& pairs = p.in == param_location::query ? query : cookies;
      const bool deep = f.style == param_style::deep_object;
      if (!deep && p.schema && f.explode &&
          generators::wire_types(*p.schema).only(schema::json_type::object)) {
        return std::nullopt;  // an exploded object: its pairs carry no name of it
      }
      for (const auto& [name, text] : pairs) {
        if (deep ? name.starts_with(p.name + "[") : name == p.name) w.emplace_back(name, text);
      }
    }
    if (w.empty()) {
      if (p.required) out.missing.push_back(&p);
      continue;
    }
    if (!p.schema) continue;
    out.params.emplace_back(&p, generators::read_param(f, *p.schema, w));
  }
  if (!e.op.body) return out;
  if (e.request.body.empty()) {
    out.body_missing = e.op.body->required;
    return out;
  }
  const std::string* ct = e.request.find_header("Content-Type");
  const std::string media = ct ? lower(trim(std::string_view(*ct).substr(0, ct->find(';')))) : "";
  const openapi::media_type* m = e.op.body->find(media);
  if (!m || !m->schema) return std::nullopt;  // a media type the operation does not take
  if (media != "application/json" && !media.ends_with("+json")) return std::nullopt;
  boost::system::error_code ec;
  boost::json::value v = boost::json::parse(e.request.body, ec);
  if (ec) return std::nullopt;
  out.body = std::move(v);
  out.body_schema = m->schema;
  return out;
}

void add_unique(std::vector<std::string>& to, const std::string& text) {
  if (std::find(to.begin(), to.end(), text) == to.end()) to.push_back(text);
}

/// Validates `v` against `s` in `mode`; false when it fails (or is undecided).
bool walk(const schema::schema& s, const boost::json::value& v, schema::assumption_mode mode,
          std::vector<std::string>& texts) {
  const auto r = schema::validate(s, v, {.max_errors = 1, .assumptions = mode});
  if (!r.ok()) return false;
  for (const auto& a : r.assumed) add_unique(texts, a.message);
  return true;
}

}  // namespace

std::vector<std::string> invalid_only_by_assumptions(const harness::exchange& e) {
  const auto sent = read(e);
  if (!sent) return {};
  std::vector<std::string> texts;
  for (const auto* p : sent->missing) {
    if (p->required_assumption.empty()) return {};
    add_unique(texts, p->required_assumption);
  }
  if (sent->body_missing) {
    if (e.op.body->required_assumption.empty()) return {};
    add_unique(texts, e.op.body->required_assumption);
  }
  for (const auto& [p, v] : sent->params) {
    if (!walk(*p->schema, v, schema::assumption_mode::relaxed, texts)) return {};
  }
  if (sent->body &&
      !walk(*sent->body_schema, *sent->body, schema::assumption_mode::relaxed, texts)) {
    return {};
  }
  return texts;
}

harness::check_verdict assumptions_not_observed(const harness::exchange& e,
                                                const std::string& answer,
                                                const std::string& cause) {
  auto texts = invalid_only_by_assumptions(e);
  if (texts.empty()) return harness::check_verdict::pass();
  std::string where;
  for (const auto& t : texts) where += (where.empty() ? "" : ", ") + t.substr(0, t.find(": "));
  auto v = harness::check_verdict::pass().with_note(
      "not observed: a request that breaks only an assumption of the description was refused "
      "with " +
          answer + ", which does not say its content was invalid",
      "assumption not observed: " + cause + " (assumption " + where + ")");
  v.assumptions = std::move(texts);
  return v;
}

std::vector<std::string> assumed_edges(const harness::exchange& e) {
  const auto sent = read(e);
  if (!sent) return {};
  std::vector<std::string> texts;
  for (const auto& [p, v] : sent->params)
    walk(*p->schema, v, schema::assumption_mode::edges, texts);
  if (sent->body) walk(*sent->body_schema, *sent->body, schema::assumption_mode::edges, texts);
  return texts;
}

std::vector<std::string> response_only_breaks_assumptions(const schema::schema& s,
                                                          const boost::json::value& body) {
  std::vector<std::string> texts;
  if (!walk(s, body, schema::assumption_mode::relaxed, texts)) return {};
  return texts;
}

std::string response_assumption(const openapi::response& r) {
  if (r.provenance.empty() ||
      !std::all_of(r.provenance.begin(), r.provenance.end(),
                   [](const schema::provenance& p) { return p.assumed(); })) {
    return {};
  }
  const std::size_t hash = r.location.find('#');
  std::string out = (hash == std::string::npos ? r.location : r.location.substr(hash)) + ":";
  for (std::size_t i = 0; i < r.provenance.size(); ++i) {
    out += (i == 0 ? " " : "; ") + r.provenance[i].text();
  }
  return out;
}

}  // namespace conform::suites::response
