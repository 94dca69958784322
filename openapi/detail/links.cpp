#include "openapi/detail/links.hpp"

#include <boost/json/serialize.hpp>

#include <set>

#include "core/outcome.hpp"
#include "core/text.hpp"

namespace conform::openapi::detail {
namespace {

/// `n` after local `$ref`s ("#/..."), or why not when one dangles, loops or
/// leaves the document.
core::outcome<const node*> follow_local(const source_doc& doc, const node& n) {
  const node* at = &n;
  std::set<std::string> seen;
  while (at->is_map() && doc_reader::child(*at, "$ref").defined()) {
    const node& ref = doc_reader::child(*at, "$ref");
    const std::string text = ref.is_scalar() ? ref.text() : std::string();
    if (text.rfind("#", 0) != 0) {
      return core::fail("$ref '" + text + "' is not a reference inside this document");
    }
    if (!seen.insert(text).second) {
      return core::fail("$ref cycle at '" + text + "'");
    }
    const node& next = at_pointer(doc.root, text.substr(1));
    if (!next.defined()) {
      return core::fail("dangling $ref '" + text + "'");
    }
    at = &next;
  }
  return at;
}

/// A scalar's text, or a non-scalar written as JSON (a constant parameter value).
std::string text_or_json(const node& n) {
  if (n.is_scalar()) return n.text();
  if (n.is_null()) return "null";
  return boost::json::serialize(doc_reader::to_json(n));
}

/// A JSON pointer token unescaped ("~1" -> "/", "~0" -> "~").
std::string unescape_token(std::string_view token) {
  std::string out;
  for (std::size_t i = 0; i < token.size(); ++i) {
    if (token[i] == '~' && i + 1 < token.size() && (token[i + 1] == '0' || token[i + 1] == '1')) {
      out += token[i + 1] == '1' ? '/' : '~';
      ++i;
    } else {
      out += token[i];
    }
  }
  return out;
}

}  // namespace

std::vector<link> parse_links(doc_reader& r, const source_doc& doc, const node& n) {
  std::vector<link> out;
  if (!n.is_map()) {
    r.warning(doc_reader::pos(doc, n), "links must be a mapping; they are not followed");
    return out;
  }
  for (const auto& e : n.entries()) {
    const auto followed = follow_local(doc, e.value);
    const source_pos where = doc_reader::pos(doc, e);
    if (!followed.ok() || !(*followed)->is_map()) {
      r.warning(where, "link '" + e.key +
                           "': " + (followed.ok() ? "not a mapping" : followed.error()) +
                           "; it is not followed");
      continue;
    }
    const node* at = *followed;
    link l;
    l.name = e.key;
    l.pos = where;
    const node& id = doc_reader::child(*at, "operationId");
    const node& ref = doc_reader::child(*at, "operationRef");
    if (id.is_scalar()) l.operation_id = id.text();
    if (ref.is_scalar()) l.operation_ref = ref.text();
    if (l.operation_id.empty() && l.operation_ref.empty()) {
      r.warning(where, "link '" + e.key +
                           "' names neither operationId nor operationRef; it is not followed");
      continue;
    }
    const node& params = doc_reader::child(*at, "parameters");
    if (params.is_map()) {
      for (const auto& p : params.entries())
        l.parameters.emplace_back(p.key, text_or_json(p.value));
    }
    const node& body = doc_reader::child(*at, "requestBody");
    if (body.defined()) l.request_body = text_or_json(body);
    const node& desc = doc_reader::child(*at, "description");
    if (desc.is_scalar()) l.description = desc.text();
    out.push_back(std::move(l));
  }
  return out;
}

std::vector<boost::json::value> parse_examples(const source_doc& doc, const node& owner) {
  std::vector<boost::json::value> out;
  const node& one = doc_reader::child(owner, "example");
  if (one.defined()) out.push_back(doc_reader::to_json(one));
  const node& many = doc_reader::child(owner, "examples");
  if (many.is_map()) {
    for (const auto& e : many.entries()) {
      const auto at = follow_local(doc, e.value);
      if (!at.ok() || !(*at)->is_map()) continue;
      const node& value = doc_reader::child(**at, "value");
      if (value.defined()) out.push_back(doc_reader::to_json(value));
    }
  }
  return out;
}

void resolve_links(doc_reader& r, api_spec& spec) {
  for (auto& op : spec.operations) {
    for (auto& resp : op.responses) {
      for (auto& l : resp.links) {
        if (l.operation_id.empty() && !l.operation_ref.empty()) {
          // The local form: "#/paths/~1items~1{id}/get".
          const std::string& ref = l.operation_ref;
          if (ref.rfind("#/paths/", 0) == 0) {
            const std::string rest = ref.substr(8);
            const std::size_t slash = rest.rfind('/');
            if (slash != std::string::npos) {
              const std::string path = unescape_token(rest.substr(0, slash));
              const auto method = parse_method(rest.substr(slash + 1));
              for (const auto& other : spec.operations) {
                if (method && other.method == *method && other.path == path) {
                  l.operation_id = other.operation_id;
                }
              }
            }
          }
          if (l.operation_id.empty()) {
            r.warning(l.pos, "link '" + l.name + "': operationRef '" + ref +
                                 "' names no operation of this description; it is not followed");
          }
          continue;
        }
        if (!l.operation_id.empty() && spec.find_operation(l.operation_id) == nullptr) {
          r.warning(l.pos, "link '" + l.name + "' names operationId '" + l.operation_id +
                               "', which no operation has; it is not followed");
          l.operation_id.clear();
        }
      }
    }
  }
}

}  // namespace conform::openapi::detail
