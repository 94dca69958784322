#pragma once
// The builder behind valid_value: one generator per schema node and keyword.
// Composition and the choice by type are in value.cpp, the scalars in
// value_scalars.cpp, the arrays and objects in value_containers.cpp.

#include <boost/json/value.hpp>
#include <rapidcheck.h>

#include <memory>
#include <string>

#include "generators/options.hpp"
#include "schema/schema.hpp"

namespace conform::generators::detail {

/// A generator that fails: the schema admits no value.
rc::Gen<boost::json::value> failing(std::string why);

/// Builds generators for schema nodes; synthesized nodes (allOf folds,
/// branches) live in a scratch arena that every generator keeps alive.
class value_builder {
 public:
  /// A builder with these options and an empty scratch arena.
  explicit value_builder(const gen_options& options);

  /// Values valid for `s` at nesting `depth`.
  rc::Gen<boost::json::value> build(const schema::schema& s, int depth);

  /// The arena of synthesized nodes; hold it as long as the generators.
  std::shared_ptr<schema::schema_arena> scratch() const { return scratch_; }

 private:
  rc::Gen<boost::json::value> by_type(const schema::schema& r, int depth);
  rc::Gen<boost::json::value> integer_gen(const schema::schema& r);
  rc::Gen<boost::json::value> number_gen(const schema::schema& r);
  rc::Gen<boost::json::value> string_gen(const schema::schema& r);
  rc::Gen<boost::json::value> array_gen(const schema::schema& r, int depth);
  rc::Gen<boost::json::value> object_gen(const schema::schema& r, int depth);
  /// An array with prefixItems, `min`..`max` items long.
  rc::Gen<boost::json::value> tuple_gen(const schema::schema& r, int depth, std::size_t min,
                                        std::size_t max);
  rc::Gen<std::string> plain_string(std::size_t min, std::size_t max);

  gen_options options_;
  std::shared_ptr<schema::schema_arena> scratch_;
  /// build() calls under way on this builder: compositions (allOf folds,
  /// anyOf / oneOf branches) do not deepen `depth`, so a recursion through
  /// them is bounded by this count instead.
  int nested_builds_ = 0;
};

}  // namespace conform::generators::detail
