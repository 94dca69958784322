#pragma once
// Private to the spec loader: maps OpenAPI 3.0.x and 3.1.x Schema Objects
// onto conform::schema::schema nodes, following $ref within the file and to
// files beside it, each target loaded once.

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "schema/schema.hpp"
#include "openapi/detail/reader.hpp"

namespace conform::openapi::detail {

/// Which OpenAPI dialect the schemas are written in.
enum class dialect { openapi30, openapi31 };

/// Loads schemas into one arena; one loader per description.
class schema_loader {
 public:
  /// Nodes go to `arena`; files beside the spec come from `docs`.
  schema_loader(schema::schema_arena& arena, doc_cache& docs, doc_reader& r, dialect d);

  /// The schema written as `node` at JSON pointer `pointer` of `doc`.
  const schema::schema* load(const source_doc& doc, const node& n, const std::string& pointer);
  /// The schema a `$ref` text (written at `at` in `doc`) names; nullptr and
  /// an error when it names nothing.
  const schema::schema* resolve(const source_doc& doc, const std::string& ref,
                                const source_pos& at);
  /// The schema at `pointer` of `doc` (loaded once).
  const schema::schema* at(const source_doc& doc, const std::string& pointer, const source_pos& at);
  /// Reports cycles of pure $refs; call once everything is loaded.
  void finish();

  /// A node reached through `$ref`s: where it lives.
  struct site {
    const source_doc* doc = nullptr;
    const node* at = nullptr;
    std::string pointer;
  };
  /// `n` (at `pointer` of `doc`) when it is no `{$ref: '...'}`, else what its
  /// `$ref`s lead to: a map of schemas given by `$ref` (`properties: {$ref:
  /// ...}`, `components.schemas`), which OpenAPI does not allow but
  /// bundlers resolve. Each problem is an error at the `$ref`, and nullopt.
  std::optional<site> follow_refs(const source_doc& doc, const node& n, const std::string& pointer);

  /// `$ref`s written where OpenAPI allows none (a map of schemas), said once
  /// per description by the loader.
  struct nonstandard_refs {
    std::size_t count = 0;
    source_pos first;
    std::string first_what;
  };
  const nonstandard_refs& nonstandard() const { return nonstandard_; }
  /// Counts one of them, `what` naming where it stands.
  void note_nonstandard(const source_pos& at, std::string what);

 private:
  void fill(schema::schema& s, const source_doc& doc, const node& n, const std::string& pointer);
  /// x-same-as on a schema node (kept beside a 3.0 $ref, like x-fixture).
  void read_same_as(schema::schema& s, const source_doc& doc, const node& v);
  /// x-columns-of on a schema node: {part, code}.
  void read_columns_of(schema::schema& s, const source_doc& doc, const node& v);
  /// The keywords of the mapping `n` (but `$ref`) into `s`, group by group.
  void fill_keywords(schema::schema& s, const source_doc& doc, const node& n,
                     const std::string& pointer);
  /// What fill_keywords settles only once every keyword of a node is read.
  struct deferred_keywords;
  // Each of these reads keyword `key` (its value `v`, at pointer `here`) into
  // `s` when the keyword is of its group, and says whether it was.
  /// type and nullable.
  bool read_type_keyword(schema::schema& s, const source_doc& doc, const std::string& key,
                         const node& v, deferred_keywords& later);
  /// const, enum, default, example and examples.
  bool read_value_keyword(schema::schema& s, const source_doc& doc, const std::string& key,
                          const node& v);
  /// The keywords of strings: contentMediaType, format, minLength, maxLength, pattern.
  bool read_string_keyword(schema::schema& s, const source_doc& doc, const std::string& key,
                           const node& v);
  /// The keywords of numbers: minimum, maximum, their exclusive forms, multipleOf.
  bool read_number_keyword(schema::schema& s, const source_doc& doc, const std::string& key,
                           const node& v, deferred_keywords& later);
  /// The keywords of arrays: items (either form), additionalItems, prefixItems,
  /// minItems, maxItems, uniqueItems.
  bool read_array_keyword(schema::schema& s, const source_doc& doc, const node_entry& e,
                          const std::string& here, deferred_keywords& later);
  /// The keywords of objects: properties, required, additionalProperties,
  /// dependentRequired, minProperties, maxProperties.
  bool read_object_keyword(schema::schema& s, const source_doc& doc, const std::string& key,
                           const node& v, const std::string& here, deferred_keywords& later);
  /// allOf, anyOf, oneOf and not.
  bool read_composition_keyword(schema::schema& s, const source_doc& doc, const std::string& key,
                                const node& v, const std::string& here);
  /// Annotations (readOnly, title...) and Conform's x- keywords.
  bool read_annotation_keyword(schema::schema& s, const source_doc& doc, const std::string& key,
                               const node& v);
  /// Counts a keyword the model does not keep (unjudged_); false for any other.
  bool note_unjudged_keyword(const source_doc& doc, const node_entry& e, deferred_keywords& later);
  /// What the keywords of `s` mean together: nullable, 3.0's boolean
  /// exclusiveMinimum/Maximum, additionalItems beside a list of items,
  /// additionalProperties beside patternProperties, required names not defined.
  void settle_keywords(schema::schema& s, const source_doc& doc, const std::string& pointer,
                       const deferred_keywords& later);
  const schema::schema* sub(const source_doc& doc, const node& n, const std::string& pointer);
  /// `properties` (the mapping `v`), given in place or by `$ref`.
  void read_properties(schema::schema& s, const source_doc& doc, const node& v,
                       const std::string& pointer);
  /// What `pointer` of `doc` names when a mapping on the way is a `$ref`
  /// (`#/components/schemas/X` where `schemas` is `{$ref: ...}`); nullopt
  /// when nothing is there, through references or not.
  std::optional<site> through_refs(const source_doc& doc, const std::string& pointer,
                                   std::size_t hops);
  /// follow_refs, counting the references followed so far.
  std::optional<site> follow_refs(const source_doc& doc, const node& n, const std::string& pointer,
                                  std::size_t hops);
  std::vector<const schema::schema*> sub_list(const source_doc& doc, const node& n,
                                              const std::string& pointer, const std::string& kw);

  schema::schema_arena* arena_;
  doc_cache* docs_;
  doc_reader* r_;
  dialect dialect_;
  std::map<std::string, schema::schema*> targets_;  // "<file>#<pointer>" -> node
  std::map<const schema::schema*, source_pos> ref_pos_;
  std::vector<schema::schema*> ref_nodes_;
  /// $refs left for the outermost at() to resolve (see core::limits::max_ref_nesting).
  struct pending_ref {
    schema::schema* node;
    const source_doc* doc;
    source_pos at;
  };
  std::vector<pending_ref> pending_;
  std::size_t nesting_ = 0;
  /// `required` names a schema's own properties do not define, warned of
  /// in finish() unless an allOf sibling defines them.
  struct undefined_required {
    const schema::schema* where;
    std::string name;
    source_pos pos;
  };
  std::vector<undefined_required> undefined_required_;
  std::map<const schema::schema*, const schema::schema*> all_of_parent_;  // branch -> allOf
  void warn_undefined_required();
  nonstandard_refs nonstandard_;
  /// Keywords the model does not keep, by name: how many schemas use each,
  /// the first, and (patternProperties) how many had additionalProperties
  /// left unjudged beside it; noted in finish().
  struct unjudged {
    std::size_t count = 0;
    source_pos first;
    std::size_t beside_additional = 0;
  };
  std::map<std::string, unjudged> unjudged_;
};

}  // namespace conform::openapi::detail
