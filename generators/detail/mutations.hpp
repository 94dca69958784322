#pragma once
// Private to generators/: the families of mutation the invalid-value walk
// (invalid.cpp) applies to one schema node, one file per family: types and
// values (mutations_value.cpp: type, enum, const, anyOf/oneOf, not),
// scalars (mutations_scalar.cpp: lengths, pattern, format, ranges,
// multipleOf), shapes (mutations_shape.cpp: items, properties), and the
// valid values on the edge of a constraint (boundaries.cpp). Each family
// gives values of the node alone; the walk embeds them in the whole value
// and checks the whole with the validator.

#include <boost/json/value.hpp>
#include <rapidcheck.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/text.hpp"
#include "generators/detail/value_builder.hpp"
#include "generators/invalid.hpp"
#include "schema/schema.hpp"

namespace conform::generators::detail {

/// One node of the walk, as the families see it.
struct mutation_scope {
  const schema::schema& r;  // the node, resolved
  int depth = 0;
  const rc::Gen<boost::json::value>& valid_here;  // valid values of the node
  value_builder& values;                          // for other nodes' values
  /// The value travels as text (a parameter): a string that reads back as a
  /// number is no string to the server, so type breaks use other strings.
  bool as_text = false;
};

/// Takes one site: what it breaks, the keyword it tests ("type", "maxLength",
/// ...), one line saying how, the values of the node, and, for a broken
/// type, the JSON type the values have.
using site_fn =
    std::function<void(mutation_kind, std::string keyword, std::string what,
                       rc::Gen<boost::json::value>, std::optional<schema::json_type> as_type)>;

/// Takes one boundary: which edge, the keyword, one line, valid values of the node.
using edge_fn = std::function<void(boundary_kind, std::string keyword, std::string what,
                                   rc::Gen<boost::json::value>)>;

/// `type`: one site per JSON type the node does not admit, each once (for
/// integers and numbers a numeric string first).
void type_sites(const mutation_scope& s, const site_fn& add);
/// `enum` and `const`: a near miss first (a string with its case changed, a
/// number one off, the other boolean), then values far off.
void value_sites(const mutation_scope& s, const site_fn& add);
/// anyOf / oneOf: a value no branch accepts; `not`: a value the subschema accepts.
void branch_sites(const mutation_scope& s, const site_fn& add);
/// minLength / maxLength (one past each end), pattern, format.
void string_sites(const mutation_scope& s, const site_fn& add);
/// minimum / maximum and the exclusive bounds (just past each end first), multipleOf.
void number_sites(const mutation_scope& s, const site_fn& add);
/// minItems / maxItems, uniqueItems.
void array_sites(const mutation_scope& s, const site_fn& add);
/// required, dependentRequired, additionalProperties false, min/maxProperties.
void object_sites(const mutation_scope& s, const site_fn& add);
/// The bounds themselves, exact lengths and item counts, an empty array.
void boundary_sites(const mutation_scope& s, const edge_fn& edge);

/// A number as JSON: an integer when it has no fraction.
inline boost::json::value number_value(double d) {
  if (std::trunc(d) == d && std::fabs(d) < 9e15) {
    return boost::json::value(static_cast<std::int64_t>(d));
  }
  return boost::json::value(d);
}

/// The first `n` code points of UTF-8 `s`.
inline std::string take_code_points(const std::string& s, std::size_t n) {
  std::size_t count = 0, i = 0;
  for (; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0u) != 0x80u) {
      if (count == n) break;
      ++count;
    }
  }
  return s.substr(0, i);
}

/// `values[0]` at size 0 (what the coverage phase sends: the nearest
/// miss), any of them at other sizes (the random phase). Not empty.
inline rc::Gen<boost::json::value> nearest_first(std::vector<boost::json::value> values) {
  return rc::Gen<boost::json::value>(
      [values = std::move(values)](const rc::Random& random,
                                   int size) -> rc::Shrinkable<boost::json::value> {
        if (size == 0 || values.size() == 1) return rc::shrinkable::just(values.front());
        return rc::gen::elementOf(values)(random, size);
      });
}

/// The JSON type of a value as the schema vocabulary names it (a double is
/// a number, whatever its fraction).
schema::json_type json_type_of(const boost::json::value& v);

/// "integer or null": the types a node admits, for messages.
std::string admitted_types(const schema::schema& r);

}  // namespace conform::generators::detail
