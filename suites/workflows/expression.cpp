#include "suites/workflows/expression.hpp"

#include <boost/json.hpp>

#include <cctype>

namespace conform::suites::workflows {
namespace {

namespace json = boost::json;

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
}

bool is_name(std::string_view s, bool dots = true) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!name_char(c) || (!dots && c == '.')) return false;
  }
  return true;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

/// Splits `s` at every `sep` that is outside single quotes.
std::vector<std::string_view> split_outside_quotes(std::string_view s, std::string_view sep) {
  std::vector<std::string_view> out;
  bool quoted = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\'') quoted = !quoted;
    if (!quoted && s.substr(i, sep.size()) == sep) {
      out.push_back(s.substr(start, i - start));
      i += sep.size() - 1;
      start = i + 1;
    }
  }
  out.push_back(s.substr(start));
  return out;
}

/// The position of `==` or `!=` outside quotes, or npos.
std::size_t find_operator(std::string_view s) {
  bool quoted = false;
  for (std::size_t i = 0; i + 1 < s.size(); ++i) {
    if (s[i] == '\'') quoted = !quoted;
    if (!quoted && (s[i] == '=' || s[i] == '!') && s[i + 1] == '=') return i;
  }
  return std::string_view::npos;
}

core::outcome<operand> parse_operand(std::string_view text) {
  text = trim(text);
  operand out;
  if (text.empty()) {
    return core::fail("a comparison lacks an operand");
  }
  if (text.front() == '$') {
    auto e = parse_expression(text);
    if (!e) return core::fail(std::move(e).error());
    out.expr = std::move(e).value();
    return out;
  }
  if (text.front() == '\'') {
    if (text.size() < 2 || text.back() != '\'') {
      return core::fail("unterminated string literal " + std::string(text));
    }
    std::string value;
    const std::string_view inner = text.substr(1, text.size() - 2);
    for (std::size_t i = 0; i < inner.size(); ++i) {
      if (inner[i] == '\'') {
        if (i + 1 >= inner.size() || inner[i + 1] != '\'') {
          return core::fail("a single quote inside " + std::string(text) + " must be doubled");
        }
        ++i;
      }
      value += inner[i];
    }
    if (auto embeds = embedded_expressions(value, out.embeds); !embeds) {
      return core::fail(std::move(embeds).error());
    }
    out.literal = json::string(value);
    return out;
  }
  if (text == "true" || text == "false" || text == "null") {
    out.literal = json::parse(text);
    return out;
  }
  json::error_code ec;
  auto number = json::parse(text, ec);
  if (ec || !number.is_number()) {
    return core::fail(
        "'" + std::string(text) +
        "' is neither a runtime expression nor a literal (strings take single quotes)");
  }
  out.literal = std::move(number);
  return out;
}

core::outcome<std::vector<comparison>> parse_comparisons(std::string_view text, bool member_left) {
  std::vector<comparison> out;
  if (text.find("||") != std::string_view::npos) {
    return core::fail("'||' is not supported: write one criterion per alternative that must hold");
  }
  for (auto clause : split_outside_quotes(text, "&&")) {
    clause = trim(clause);
    const std::size_t at = find_operator(clause);
    if (at == std::string_view::npos) {
      return core::fail("'" + std::string(clause) + "' is not a comparison (== or !=)");
    }
    comparison c;
    c.equal = clause[at] == '=';
    const std::string_view left = trim(clause.substr(0, at));
    if (member_left) {
      if (!starts_with(left, "@.") || !is_name(left.substr(2), false)) {
        return core::fail("a filter compares '@.<member>' with a value, not '" + std::string(left) +
                          "'");
      }
      c.left.literal = json::string(left.substr(2));
    } else {
      auto l = parse_operand(left);
      if (!l) return core::fail(std::move(l).error());
      c.left = std::move(*l);
    }
    auto r = parse_operand(clause.substr(at + 2));
    if (!r) return core::fail(std::move(r).error());
    c.right = std::move(*r);
    out.push_back(std::move(c));
  }
  return out;
}

bool same(const json::value& a, const json::value& b) {
  if (a.is_number() && b.is_number()) {
    if (a.is_double() || b.is_double()) return a.to_number<double>() == b.to_number<double>();
    if (a.is_int64() && b.is_int64()) return a.get_int64() == b.get_int64();
    if (a.is_uint64() && b.is_uint64()) return a.get_uint64() == b.get_uint64();
    const auto& signed_one = a.is_int64() ? a : b;
    const auto& unsigned_one = a.is_int64() ? b : a;
    return signed_one.get_int64() >= 0 &&
           static_cast<std::uint64_t>(signed_one.get_int64()) == unsigned_one.get_uint64();
  }
  return a == b;
}

core::outcome<json::value> operand_value(const operand& o, const scope& s) {
  if (o.expr) return evaluate(*o.expr, s);
  if (!o.embeds.empty()) {
    auto text = expand(o.literal.get_string(), s);
    if (!text) return core::fail(std::move(text).error());
    return json::value(json::string(*text));
  }
  return o.literal;
}

std::string shown(const json::value& v) {
  std::string text = json::serialize(v);
  if (text.size() > 120) text = text.substr(0, 117) + "...";
  return text;
}

bool holds_simple(const criterion& c, const scope& s, std::string* seen) {
  std::string out;
  bool ok = true;
  for (const auto& cmp : c.all) {
    auto left = operand_value(cmp.left, s);
    if (!out.empty()) out += ", ";
    if (!left) {
      out += left.error();
      ok = false;
      continue;
    }
    auto right = operand_value(cmp.right, s);
    if (!right) {
      out += right.error();
      ok = false;
      continue;
    }
    const bool held = same(*left, *right) == cmp.equal;
    ok = ok && held;
    if (cmp.left.expr) {
      out += cmp.left.expr->text + " = " + shown(*left);
    } else {
      out += shown(*left);
    }
    if (cmp.right.expr) out += ", " + cmp.right.expr->text + " = " + shown(*right);
  }
  *seen = out;
  return ok;
}

bool holds_jsonpath(const criterion& c, const scope& s, std::string* seen) {
  auto root = evaluate(*c.context, s);
  if (!root) {
    *seen = root.error();
    return false;
  }
  const json::value* at = &*root;
  std::string where = "$";
  for (const auto& member : c.path) {
    const json::object* o = at->if_object();
    const json::value* next = o ? o->if_contains(member) : nullptr;
    if (!next) {
      *seen = c.context->text + " has no " + where + "." + member;
      return false;
    }
    at = next;
    where += "." + member;
  }
  if (!c.filter) {
    *seen = where + " = " + shown(*at);
    return !at->is_null();
  }
  const json::array* items = at->if_array();
  if (!items) {
    *seen = where + " is not an array: " + shown(*at);
    return false;
  }
  std::vector<json::value> wanted;
  for (const auto& cmp : c.all) {
    auto v = operand_value(cmp.right, s);
    if (!v) {
      *seen = v.error();
      return false;
    }
    wanted.push_back(std::move(*v));
  }
  const json::object* near = nullptr;  // an item that satisfies the first comparison
  for (const auto& item : *items) {
    const json::object* o = item.if_object();
    if (!o) continue;
    bool all = true;
    for (std::size_t i = 0; i < c.all.size() && all; ++i) {
      const json::value* member = o->if_contains(c.all[i].left.literal.get_string());
      all = member && same(*member, wanted[i]) == c.all[i].equal;
      if (i == 0 && all && !near) near = o;
    }
    if (all) {
      *seen = "an item of " + where + " matches";
      return true;
    }
  }
  *seen = "no item of " + where + " (" + std::to_string(items->size()) + " items) matches";
  if (near && c.all.size() > 1) {
    std::string shown_members;
    for (std::size_t i = 1; i < c.all.size(); ++i) {
      const auto& name = c.all[i].left.literal.get_string();
      const json::value* member = near->if_contains(name);
      if (!shown_members.empty()) shown_members += ", ";
      shown_members += std::string(name) + " = " + (member ? shown(*member) : "absent");
    }
    *seen += "; the item with " + std::string(c.all[0].left.literal.get_string()) + " = " +
             shown(wanted[0]) + " has " + shown_members;
  }
  return false;
}

}  // namespace

core::outcome<expression> parse_expression(std::string_view text) {
  expression e;
  e.text = std::string(text);
  auto fail = [&](std::string message) {
    return core::fail("cannot evaluate runtime expression '" + std::string(text) + "': " + message);
  };
  if (text == "$statusCode") {
    e.what = expression::kind::status_code;
    return e;
  }
  if (starts_with(text, "$response.body")) {
    std::string_view rest = text.substr(14);
    e.what = expression::kind::response_body;
    if (rest.empty()) return e;
    if (rest.front() != '#' || (rest.size() > 1 && rest[1] != '/')) {
      return fail("a body reference is $response.body or $response.body#/json/pointer");
    }
    for (char c : rest) {
      if (std::isspace(static_cast<unsigned char>(c))) return fail("a pointer has no spaces");
    }
    e.pointer = std::string(rest.substr(1));
    return e;
  }
  if (starts_with(text, "$response.header.")) {
    e.what = expression::kind::response_header;
    e.name = std::string(text.substr(17));
    if (!is_name(e.name, false)) return fail("not a header name");
    return e;
  }
  if (starts_with(text, "$inputs.")) {
    e.what = expression::kind::input;
    e.name = std::string(text.substr(8));
    if (!is_name(e.name, false)) return fail("not an input name");
    return e;
  }
  if (starts_with(text, "$steps.")) {
    const std::string_view rest = text.substr(7);
    const std::size_t at = rest.find(".outputs.");
    if (at == std::string_view::npos)
      return fail("a step reference is $steps.<step>.outputs.<name>");
    e.what = expression::kind::step_output;
    e.step = std::string(rest.substr(0, at));
    e.name = std::string(rest.substr(at + 9));
    if (!is_name(e.step, false) || !is_name(e.name, false)) {
      return fail("a step reference is $steps.<step>.outputs.<name>");
    }
    return e;
  }
  return fail(
      "supported are $statusCode, $response.body[#/pointer], $response.header.<name>, "
      "$inputs.<name> and $steps.<step>.outputs.<name>");
}

core::status embedded_expressions(std::string_view text, std::vector<expression>& out) {
  for (std::size_t open = text.find("{$"); open != std::string_view::npos;
       open = text.find("{$", open + 1)) {
    const std::size_t close = text.find('}', open);
    if (close == std::string_view::npos) {
      return core::fail("unterminated embedded expression in '" + std::string(text) + "'");
    }
    auto e = parse_expression(text.substr(open + 1, close - open - 1));
    if (!e) return core::fail(std::move(e).error());
    out.push_back(std::move(*e));
  }
  return {};
}

core::outcome<criterion> parse_criterion(std::string_view condition, std::string_view type,
                                         std::string_view context) {
  criterion c;
  c.text = std::string(trim(condition));
  if (type.empty() || type == "simple") {
    if (!context.empty()) {
      return core::fail("a simple condition names its values itself: drop 'context'");
    }
    auto all = parse_comparisons(c.text, false);
    if (!all) return core::fail(std::move(all).error());
    c.all = std::move(*all);
    return c;
  }
  if (type != "jsonpath") {
    return core::fail("criterion type '" + std::string(type) +
                      "' is not supported (simple, jsonpath)");
  }
  c.jsonpath = true;
  if (context.empty()) {
    return core::fail("a jsonpath criterion needs a 'context' (e.g. $response.body)");
  }
  auto parsed_context = parse_expression(context);
  if (!parsed_context) return core::fail(std::move(parsed_context).error());
  c.context = std::move(parsed_context).value();
  std::string_view rest = c.text;
  if (!starts_with(rest, "$")) {
    return core::fail("a JSONPath starts with '$'");
  }
  rest.remove_prefix(1);
  while (starts_with(rest, ".")) {
    std::size_t end = 1;
    while (end < rest.size() && name_char(rest[end]) && rest[end] != '.') ++end;
    if (end == 1) {
      return core::fail("expected a member name after '.' in '" + c.text + "'");
    }
    c.path.emplace_back(rest.substr(1, end - 1));
    rest.remove_prefix(end);
  }
  if (rest.empty()) return c;
  if (!starts_with(rest, "[?(") || rest.size() < 5 || rest.substr(rest.size() - 2) != ")]") {
    return core::fail(
        "supported JSONPath: $.member.member or $.member[?(@.m == value && ...)], not '" + c.text +
        "'");
  }
  c.filter = true;
  auto all = parse_comparisons(rest.substr(3, rest.size() - 5), true);
  if (!all) return core::fail(std::move(all).error());
  c.all = std::move(*all);
  return c;
}

core::outcome<json::value> evaluate(const expression& e, const scope& s) {
  using kind = expression::kind;
  const harness::probe* r = s.response;
  const bool needs_response = e.what == kind::status_code || e.what == kind::response_body ||
                              e.what == kind::response_header;
  if (needs_response && (!r || !r->answered())) {
    return core::fail("no response");
  }
  switch (e.what) {
    case kind::status_code:
      return json::value(static_cast<std::int64_t>(r->status()));
    case kind::response_body:
      if (!r->json) {
        if (e.pointer.empty()) return json::value(json::string(r->body()));
        return core::fail("the response body is not JSON");
      }
      if (const json::value* v = r->at(e.pointer)) return *v;
      return core::fail("the response has no " + e.pointer);
    case kind::response_header:
      if (const std::string* v = r->header(e.name)) return json::value(json::string(*v));
      return core::fail("the response has no header " + e.name);
    case kind::input:
      if (s.inputs) {
        if (auto it = s.inputs->find(e.name); it != s.inputs->end()) return it->second;
      }
      return core::fail("no input " + e.name);
    case kind::step_output:
      if (s.outputs) {
        if (auto step = s.outputs->find(e.step); step != s.outputs->end()) {
          if (auto it = step->second.find(e.name); it != step->second.end()) return it->second;
        }
      }
      return core::fail("step " + e.step + " has no output " + e.name);
  }
  return core::fail("unknown expression");
}

core::outcome<std::string> expand(std::string_view text, const scope& s) {
  std::string out;
  std::size_t from = 0;
  for (std::size_t open = text.find("{$"); open != std::string_view::npos;
       open = text.find("{$", from)) {
    const std::size_t close = text.find('}', open);
    if (close == std::string_view::npos) break;
    out += text.substr(from, open - from);
    auto e = parse_expression(text.substr(open + 1, close - open - 1));
    if (!e) return core::fail(std::move(e).error());
    auto v = evaluate(*e, s);
    if (!v) return core::fail(std::move(v).error());
    out += scalar_text(*v);
    from = close + 1;
  }
  out += text.substr(from);
  return out;
}

bool holds(const criterion& c, const scope& s, std::string* seen) {
  return c.jsonpath ? holds_jsonpath(c, s, seen) : holds_simple(c, s, seen);
}

std::string scalar_text(const json::value& v) {
  if (v.is_string()) return std::string(v.get_string());
  if (v.is_null()) return "";
  return json::serialize(v);
}

}  // namespace conform::suites::workflows
