#include "openapi/detail/provenance.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace conform::openapi::detail {

namespace {

/// Keywords an entry may name: those that restrict a value.
constexpr std::array<std::string_view, 21> known_keywords = {"type",
                                                             "format",
                                                             "pattern",
                                                             "enum",
                                                             "const",
                                                             "minimum",
                                                             "maximum",
                                                             "exclusiveMinimum",
                                                             "exclusiveMaximum",
                                                             "multipleOf",
                                                             "minLength",
                                                             "maxLength",
                                                             "minItems",
                                                             "maxItems",
                                                             "uniqueItems",
                                                             "required",
                                                             "additionalProperties",
                                                             "minProperties",
                                                             "maxProperties",
                                                             "dependentRequired",
                                                             "not"};

std::optional<schema::provenance> read_entry(doc_reader& r, const source_doc& doc, const node& v,
                                             std::vector<std::string>* texts) {
  if (v.is_scalar()) {
    auto text = r.str(doc, v, "x-assumption");
    if (!text) return std::nullopt;
    if (texts) texts->push_back(*text);
    return schema::provenance_from_text(*text);
  }
  if (!v.is_map()) {
    r.error(
        doc_reader::pos(doc, v),
        "x-assumption must be a string, a mapping {source, reason, keywords} or a list of them");
    return std::nullopt;
  }
  schema::provenance p;
  bool ok = true;
  for (auto it = v.entries().begin(); it != v.entries().end(); ++it) {
    if (it->key != "source" && it->key != "reason" && it->key != "keywords") {
      r.error(doc_reader::pos(doc, *it),
              "x-assumption: unknown key '" + it->key + "' (source, reason and keywords are read)");
      ok = false;
    }
  }
  const node& source = r.required(doc, v, "source", "x-assumption");
  if (!source.defined()) return std::nullopt;
  auto s = r.str(doc, source, "x-assumption.source");
  if (!s) return std::nullopt;
  auto kind = schema::parse_provenance_source(*s);
  if (!kind) {
    r.error(doc_reader::pos(doc, source),
            "x-assumption.source must be a section of the description ('section 4.1'), a "
            "decision ('D<n>[.<m>]') or 'assumption', got '" +
                *s + "'");
    return std::nullopt;
  }
  p.kind = *kind;
  p.source = *kind == schema::provenance::source_kind::assumption ? "assumption" : *s;
  const node& reason = doc_reader::child(v, "reason");
  if (reason.defined()) p.reason = r.str(doc, reason, "x-assumption.reason").value_or("");
  if (p.kind == schema::provenance::source_kind::assumption && p.reason.empty()) {
    r.error(doc_reader::pos(doc, v), "x-assumption: an assumption needs a reason");
    ok = false;
  }
  const node& keywords = doc_reader::child(v, "keywords");
  if (keywords.defined()) {
    auto list = r.strings(doc, keywords, "x-assumption.keywords");
    if (!list) return std::nullopt;
    std::size_t i = 0;
    for (const auto& k : *list) {
      const node& item = keywords.items()[i++];
      if (std::find(known_keywords.begin(), known_keywords.end(), k) == known_keywords.end()) {
        r.error(doc_reader::pos(doc, item),
                "x-assumption.keywords: '" + k + "' is not a keyword that restricts a value");
        ok = false;
      }
    }
    p.keywords = std::move(*list);
  }
  if (!ok) return std::nullopt;
  if (texts) texts->push_back(p.text());
  return p;
}

}  // namespace

std::vector<schema::provenance> read_provenance(doc_reader& r, const source_doc& doc, const node& v,
                                                std::vector<std::string>* texts) {
  std::vector<schema::provenance> out;
  if (v.is_sequence()) {
    for (const auto& item : v.items()) {
      if (auto p = read_entry(r, doc, item, texts)) out.push_back(std::move(*p));
    }
  } else if (auto p = read_entry(r, doc, v, texts)) {
    out.push_back(std::move(*p));
  }
  return out;
}

}  // namespace conform::openapi::detail
