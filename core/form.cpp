#include "core/form.hpp"

#include "core/text.hpp"

namespace conform::core {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

/// A quoted string's content with its backslash escapes undone; `s` starts
/// at the opening quote. `used` is how many bytes of `s` it took.
std::string unquote(std::string_view s, std::size_t& used) {
  std::string out;
  std::size_t i = 1;
  for (; i < s.size() && s[i] != '"'; ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) ++i;
    out += s[i];
  }
  used = i < s.size() ? i + 1 : i;
  return out;
}

/// Appends `text` to `out` with its length first, so that no two lists of
/// texts write the same canonical string.
void put(std::string& out, std::string_view text) {
  out += std::to_string(text.size());
  out += ':';
  out += text;
}

std::string part_problem(std::size_t index, std::string_view what) {
  return "part " + std::to_string(index) + " " + std::string(what);
}

/// One part's head (the lines before its blank line) read into `p`; false
/// when no header names the part.
bool read_part_head(std::string_view head, form_part& p) {
  bool named = false;
  while (!head.empty()) {
    const std::size_t eol = head.find("\r\n");
    const std::string_view line = head.substr(0, eol);
    head = eol == std::string_view::npos ? std::string_view() : head.substr(eol + 2);
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view name = trim(line.substr(0, colon));
    const std::string_view value = trim(line.substr(colon + 1));
    if (iequals(name, "content-disposition")) {
      if (auto n = header_parameter(value, "name")) {
        p.name = std::move(*n);
        named = true;
      }
      p.filename = header_parameter(value, "filename").value_or("");
    } else if (iequals(name, "content-type")) {
      p.content_type = std::string(value);
    }
  }
  return named;
}

}  // namespace

std::optional<std::string> header_parameter(std::string_view header_value, std::string_view name) {
  std::size_t at = header_value.find(';');
  while (at != std::string_view::npos && at < header_value.size()) {
    ++at;
    while (at < header_value.size() && (header_value[at] == ' ' || header_value[at] == '\t')) {
      ++at;
    }
    const std::size_t eq = header_value.find('=', at);
    const std::size_t semi = header_value.find(';', at);
    if (eq == std::string_view::npos || (semi != std::string_view::npos && semi < eq)) {
      at = semi;  // a parameter without a value
      continue;
    }
    const std::string_view key = trim(header_value.substr(at, eq - at));
    std::size_t v = eq + 1;
    while (v < header_value.size() && (header_value[v] == ' ' || header_value[v] == '\t')) ++v;
    std::string value;
    std::size_t next = 0;
    if (v < header_value.size() && header_value[v] == '"') {
      std::size_t used = 0;
      value = unquote(header_value.substr(v), used);
      next = header_value.find(';', v + used);
    } else {
      next = header_value.find(';', v);
      value = std::string(trim(header_value.substr(
          v, next == std::string_view::npos ? std::string_view::npos : next - v)));
    }
    if (iequals(key, name)) return value;
    at = next;
  }
  return std::nullopt;
}

std::string multipart_boundary(std::string_view content_type) {
  return header_parameter(content_type, "boundary").value_or("");
}

outcome<std::vector<form_part>> parse_multipart(std::string_view body, std::string_view boundary) {
  if (boundary.empty()) return fail("the Content-Type names no boundary");
  const std::string dash_boundary = "--" + std::string(boundary);
  const std::string delimiter = "\r\n" + dash_boundary;
  // The first delimiter opens the body or follows the preamble's CRLF.
  std::size_t at = 0;
  if (!body.starts_with(dash_boundary)) {
    at = body.find(delimiter);
    if (at == std::string_view::npos) return fail("no boundary line");
    at += 2;
  }
  at += dash_boundary.size();
  std::vector<form_part> parts;
  for (;;) {
    if (body.substr(at, 2) == "--") return parts;  // the close delimiter; the epilogue is ignored
    while (at < body.size() && (body[at] == ' ' || body[at] == '\t')) ++at;
    if (body.substr(at, 2) != "\r\n") {
      return fail("a boundary line is not followed by CRLF");
    }
    at += 2;
    const std::size_t index = parts.size() + 1;
    if (index > max_form_parts) {
      return fail("more than " + std::to_string(max_form_parts) + " parts");
    }
    const std::size_t end = body.find(delimiter, at);
    if (end == std::string_view::npos) return fail(part_problem(index, "has no closing boundary"));
    const std::string_view part = body.substr(at, end - at);
    // A part with no header lines starts with its blank line.
    const std::size_t head_end = part.starts_with("\r\n") ? 0 : part.find("\r\n\r\n");
    if (head_end == std::string_view::npos) {
      return fail(part_problem(index, "has no blank line after its headers"));
    }
    form_part p;
    if (!read_part_head(part.substr(0, head_end), p)) {
      return fail(part_problem(index, "has no Content-Disposition with a name"));
    }
    p.content = std::string(part.substr(head_end + (head_end == 0 ? 2 : 4)));
    parts.push_back(std::move(p));
    at = end + delimiter.size();
  }
}

std::vector<std::pair<std::string, std::string>> parse_urlencoded(std::string_view body) {
  std::vector<std::pair<std::string, std::string>> fields;
  std::size_t at = 0;
  while (at < body.size()) {
    const std::size_t amp = body.find('&', at);
    const std::string_view pair =
        body.substr(at, amp == std::string_view::npos ? std::string_view::npos : amp - at);
    if (!pair.empty()) {
      const std::size_t eq = pair.find('=');
      fields.emplace_back(
          percent_decode(pair.substr(0, eq), true),
          eq == std::string_view::npos ? std::string() : percent_decode(pair.substr(eq + 1), true));
    }
    if (amp == std::string_view::npos) break;
    at = amp + 1;
  }
  return fields;
}

std::string canonical_body(std::string_view content_type, std::string_view body) {
  const std::string media = media_type_of(content_type);
  std::string out;
  if (media == "multipart/form-data") {
    if (auto parts = parse_multipart(body, multipart_boundary(content_type))) {
      out = "multipart\n";
      for (const auto& p : *parts) {
        put(out, p.name);
        put(out, p.filename);
        put(out, p.content_type);
        put(out, p.content);
      }
      return out;
    }
  } else if (media == "application/x-www-form-urlencoded") {
    out = "urlencoded\n";
    for (const auto& [name, value] : parse_urlencoded(body)) {
      put(out, name);
      put(out, value);
    }
    return out;
  }
  out = "bytes\n";
  out += body;
  return out;
}

bool same_body(std::string_view content_type_a, std::string_view body_a,
               std::string_view content_type_b, std::string_view body_b) {
  if (body_a == body_b) return true;
  return canonical_body(content_type_a, body_a) == canonical_body(content_type_b, body_b);
}

}  // namespace conform::core
