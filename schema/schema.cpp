// The out-of-line methods of the schema model.

#include "schema/schema.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <new>

namespace conform::schema {

const char* to_string(json_type t) {
  switch (t) {
    case json_type::null:
      return "null";
    case json_type::boolean:
      return "boolean";
    case json_type::integer:
      return "integer";
    case json_type::number:
      return "number";
    case json_type::string:
      return "string";
    case json_type::array:
      return "array";
    case json_type::object:
      return "object";
  }
  return "unknown";
}

const schema& schema::resolved() const {
  // Follow the chain of refs; a chain that comes back to a node already seen
  // is a cycle of pure refs, which means nothing: stop at the revisited node.
  if (ref == nullptr) return *this;  // most nodes: no chain to follow
  constexpr std::size_t max_chain = 64;
  std::array<const schema*, max_chain> seen;  // only [0, n) is read
  std::size_t n = 0;
  const schema* s = this;
  while (s->ref != nullptr && n < max_chain) {
    if (std::find(seen.begin(), seen.begin() + static_cast<std::ptrdiff_t>(n), s) !=
        seen.begin() + static_cast<std::ptrdiff_t>(n)) {
      return *s;
    }
    seen[n++] = s;
    s = s->ref;
  }
  return *s;
}

const schema* schema::property(std::string_view name) const {
  for (const auto& [key, sub] : properties) {
    if (key == name) return sub;
  }
  return nullptr;
}

bool schema::is_required(std::string_view name) const {
  return std::find(required.begin(), required.end(), name) != required.end();
}

namespace {

constexpr std::size_t huge_page = std::size_t{2} << 20;
constexpr std::size_t first_chunk = 16;  // nodes

/// Memory for `bytes` (a multiple of huge_page), 2 MiB aligned and marked
/// for transparent huge pages; nullptr when the system will not map it.
void* map_huge(std::size_t bytes, void*& mapping, std::size_t& mapped) {
  mapped = bytes + huge_page;  // room to align
  mapping = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) {
    mapping = nullptr;
    return nullptr;
  }
  const auto start = reinterpret_cast<std::uintptr_t>(mapping);
  const std::uintptr_t aligned = (start + huge_page - 1) & ~(huge_page - 1);
  void* out = reinterpret_cast<void*>(aligned);
#ifdef MADV_HUGEPAGE
  ::madvise(out, bytes, MADV_HUGEPAGE);  // advice only: without it, 4 KiB pages
#endif
  return out;
}

}  // namespace

schema& schema_arena::make() {
  if (chunks_.empty() || chunks_.back().used == chunks_.back().capacity) {
    chunk c;
    c.capacity = chunks_.empty() ? first_chunk : chunks_.back().capacity * 2;
    std::size_t bytes = c.capacity * sizeof(schema);
    void* memory = nullptr;
    if (bytes >= huge_page) {
      bytes = (bytes + huge_page - 1) / huge_page * huge_page;
      c.capacity = bytes / sizeof(schema);
      memory = map_huge(bytes, c.mapping, c.mapped_bytes);
    }
    if (memory == nullptr) memory = ::operator new (bytes, std::align_val_t{alignof(schema)});
    c.nodes = static_cast<schema*>(memory);
    chunks_.push_back(c);
  }
  chunk& c = chunks_.back();
  schema* s = new (c.nodes + c.used) schema();
  ++c.used;
  ++size_;
  return *s;
}

schema_arena::~schema_arena() {
  for (chunk& c : chunks_) {
    for (std::size_t i = 0; i < c.used; ++i) c.nodes[i].~schema();
    if (c.mapping != nullptr) {
      ::munmap(c.mapping, c.mapped_bytes);
    } else {
      ::operator delete (c.nodes, std::align_val_t{alignof(schema)});
    }
  }
}

}  // namespace conform::schema

namespace conform::schema {

bool provenance::covers(std::string_view keyword) const {
  return keywords.empty() || std::find(keywords.begin(), keywords.end(), keyword) != keywords.end();
}

std::string provenance::text() const {
  const std::string head = kind == source_kind::assumption ? std::string("assumption") : source;
  return reason.empty() ? head : head + ": " + reason;
}

const char* to_string(provenance::source_kind k) {
  switch (k) {
    case provenance::source_kind::prose:
      return "prose";
    case provenance::source_kind::decision:
      return "decision";
    case provenance::source_kind::assumption:
      return "assumption";
  }
  return "assumption";
}

namespace {

bool section_number(std::string_view s) {
  // "4", "4.1", "2.3.1": digits separated by single dots.
  if (s.empty() || s.front() == '.' || s.back() == '.') return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '.' && i > 0 && s[i - 1] == '.') return false;
    if (c != '.' && (c < '0' || c > '9')) return false;
  }
  return true;
}

}  // namespace

std::optional<provenance::source_kind> parse_provenance_source(std::string_view source) {
  using k = provenance::source_kind;
  if (source == "assumption" || source == "conform") return k::assumption;
  if (source.size() >= 2 && source.front() == 'D' && section_number(source.substr(1))) {
    return k::decision;
  }
  if (source.rfind("section ", 0) == 0 && section_number(source.substr(8))) return k::prose;
  if (section_number(source)) return k::prose;
  return std::nullopt;
}

provenance provenance_from_text(std::string_view text) {
  provenance p;
  const std::size_t colon = text.find(':');
  std::string_view head = colon == std::string_view::npos ? text : text.substr(0, colon);
  // "D<a>/D<b>: ..." names two decisions: the first says what it is.
  head = head.substr(0, head.find('/'));
  auto kind = parse_provenance_source(head);
  if (!kind || colon == std::string_view::npos) {
    p.kind = provenance::source_kind::assumption;
    p.source = "assumption";
    std::string_view reason = text;
    if (text.rfind("conform:", 0) == 0) reason = text.substr(8);
    while (!reason.empty() && reason.front() == ' ') reason.remove_prefix(1);
    p.reason = std::string(reason);
    return p;
  }
  p.kind = *kind;
  p.source = p.kind == provenance::source_kind::assumption ? "assumption" : std::string(head);
  std::string_view reason = text.substr(colon + 1);
  while (!reason.empty() && reason.front() == ' ') reason.remove_prefix(1);
  // Keep the whole line as the reason when it names more than its head.
  p.reason = colon == head.size() ? std::string(reason) : std::string(text.substr(head.size() + 1));
  return p;
}

const assumed_constraint* schema::assumption_for(std::string_view keyword,
                                                 std::string_view property) const {
  for (const auto& a : assumed) {
    if (a.keyword == keyword && a.property == property) return &a;
  }
  return nullptr;
}

}  // namespace conform::schema
