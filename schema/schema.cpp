// The out-of-line methods of the schema model.

#include "schema/schema.hpp"

#include <algorithm>
#include <array>

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
  constexpr std::size_t max_chain = 64;
  std::array<const schema*, max_chain> seen{};
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

}  // namespace conform::schema
