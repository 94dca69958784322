#pragma once
// One JSON Schema model for OpenAPI 3.0.x and 3.1.x. The loader maps both
// dialects onto it (3.0 `nullable` becomes the null type, boolean
// `exclusiveMinimum` becomes a numeric bound, 3.1 type arrays become a type
// set); validators and generators only ever see this model.

#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/source.hpp"

namespace conform::schema {

/// The JSON types a schema admits, as a bit set.
enum class json_type : std::uint8_t {
  null = 1u << 0,
  boolean = 1u << 1,
  integer = 1u << 2,  // a number with no fractional part
  number = 1u << 3,   // admits integers too
  string = 1u << 4,
  array = 1u << 5,
  object = 1u << 6,
};

/// A set of json_type; empty means "any type".
class type_set {
 public:
  constexpr type_set() = default;
  constexpr explicit type_set(std::uint8_t bits) : bits_(bits) {}
  constexpr type_set(json_type t) : bits_(static_cast<std::uint8_t>(t)) {}  // NOLINT
  constexpr bool any() const { return bits_ == 0; }
  constexpr bool has(json_type t) const {
    return any() || (bits_ & static_cast<std::uint8_t>(t)) != 0 ||
           (t == json_type::integer && (bits_ & static_cast<std::uint8_t>(json_type::number)));
  }
  constexpr bool only(json_type t) const { return bits_ == static_cast<std::uint8_t>(t); }
  constexpr type_set with(json_type t) const {
    return type_set(static_cast<std::uint8_t>(bits_ | static_cast<std::uint8_t>(t)));
  }
  constexpr std::uint8_t bits() const { return bits_; }
  friend constexpr bool operator==(type_set, type_set) = default;

 private:
  std::uint8_t bits_ = 0;
};

/// Name of a type ("integer", ...).
const char* to_string(json_type t);

/// Where a constraint comes from: one entry of an `x-assumption`
/// (docs/spec-extensions.md), written as a string ("D<n>.<m>: ...",
/// "section 4.1: ...", "conform: ...") or as a mapping with `source`,
/// `reason` and optionally `keywords`.
struct provenance {
  enum class source_kind : std::uint8_t {
    prose,       // a section of the API's own description ("section 4.1")
    decision,    // a product decision ("D<n>.<m>")
    assumption,  // ours, where both are silent
  };
  source_kind kind = source_kind::assumption;
  std::string source;  // as written: "section 4.1", "D<n>.<m>", "assumption"
  std::string reason;  // one line
  /// The constraint keywords of the node it grounds ("maxLength"); empty:
  /// every one of them.
  std::vector<std::string> keywords;

  bool assumed() const { return kind == source_kind::assumption; }
  bool covers(std::string_view keyword) const;
  /// "D<n>.<m>: <reason>", "section 4.1: <reason>", "assumption: <reason>".
  std::string text() const;
};

/// "prose", "decision", "assumption".
const char* to_string(provenance::source_kind k);

/// Reads the source of an entry: "section 4.1" or "4.1" (prose), "D<n>[.<m>]"
/// (decision), "assumption" or "conform" (ours); nullopt for anything else.
std::optional<provenance::source_kind> parse_provenance_source(std::string_view source);

/// A plain-string `x-assumption` as an entry: "D<n>.<m>: reason" is a decision,
/// "section 4.1: reason" prose, anything else ("conform: reason") ours.
provenance provenance_from_text(std::string_view text);

/// A constraint of a node whose only ground is an assumption (resolved by
/// the description's loader from the `x-assumption`s around it).
struct assumed_constraint {
  std::string keyword;   // "maxLength", "required", ...
  std::string property;  // for `required`: the property it requires, else ""
  std::string text;      // "<location>/<keyword>: <the assumption's text>"
};

/// One schema node. Subschemas are non-owning pointers into the schema_arena
/// that owns every node, so `$ref` cycles are just pointer cycles.
struct schema {
  /// Where the node was written, and its JSON pointer in that file ("#/components/...").
  core::source_pos pos;
  std::string location;

  /// `true` / `false` boolean schemas; `{}` is accept_all too.
  enum class boolean_form : std::uint8_t {
    none,
    accept_all,
    reject_all
  } boolean = boolean_form::none;

  /// A `$ref` (with 3.1 siblings merged by the loader into all_of). When set,
  /// every other keyword of this node is empty and the node means its target.
  const schema* ref = nullptr;
  std::string ref_text;

  type_set types;
  std::optional<boost::json::value> const_value;
  std::vector<boost::json::value> enum_values;  // empty = no enum

  // strings
  std::optional<std::string> format;  // date-time, email, uri, uuid, e164, timezone, ...
  std::optional<std::uint64_t> min_length, max_length;
  std::optional<std::string> pattern;  // ECMA-262 regex, unanchored as JSON Schema says
  /// contentMediaType (an annotation): the media type of the string's content.
  std::optional<std::string> content_media_type;

  // numbers (3.0 boolean exclusives already folded into the exclusive_* bounds)
  std::optional<double> minimum, maximum, exclusive_minimum, exclusive_maximum, multiple_of;

  // arrays
  /// prefixItems (2020-12): the schema of each leading item, in order;
  /// `items` then applies to the items past them.
  std::vector<const schema*> prefix_items;
  const schema* items = nullptr;  // nullptr = any item
  std::optional<std::uint64_t> min_items, max_items;
  bool unique_items = false;

  // objects: properties in the order written
  std::vector<std::pair<std::string, const schema*>> properties;
  std::vector<std::string> required;
  /// nullptr with additional_allowed = true: anything; additional_allowed =
  /// false: no other property; a schema: others must match it.
  const schema* additional_properties = nullptr;
  bool additional_allowed = true;
  std::optional<std::uint64_t> min_properties, max_properties;
  /// dependentRequired: when the first property is present, so must the others be.
  std::vector<std::pair<std::string, std::vector<std::string>>> dependent_required;

  // composition
  std::vector<const schema*> all_of, any_of, one_of;
  const schema* not_schema = nullptr;

  // annotations
  bool read_only = false, write_only = false, deprecated = false;
  std::optional<boost::json::value> default_value;
  std::vector<boost::json::value> examples;  // `example` and `examples`
  std::string title, description;
  std::vector<std::string> assumptions;  // x-assumption texts
  /// x-assumption entries as written on this node (strings read as entries).
  std::vector<conform::schema::provenance> provenance;
  /// The constraints of this node whose only ground is an assumption, set
  /// by the loader (openapi::resolve_provenance); the validator can drop
  /// them (validation_options::assumptions).
  std::vector<assumed_constraint> assumed;
  /// x-fixture: a request property whose valid value is the profile fixture
  /// of this name (an id the server must know), e.g. "agent_id". The name
  /// "tenant_id" means the tenant's own id.
  std::optional<std::string> fixture;
  /// x-writes: with x-fixture, the request changes the resource this
  /// property names (a contact import into the campaign it names), so in
  /// safe mode it may only name a resource the run created (harness/write_guard.hpp).
  bool writes = false;
  /// x-same-as: a request property whose value must equal a parameter of
  /// the same request (`in` is "path", "query" or "header"), e.g. a body id
  /// that must name the same resource as the path.
  struct same_as_ref {
    std::string in;
    std::string name;
    friend bool operator==(const same_as_ref&, const same_as_ref&) = default;
  };
  std::optional<same_as_ref> same_as;
  /// x-columns-of: a request object property of a multipart body whose
  /// keys each name a column of the header row of the CSV part `part` of
  /// the same request; `code`, when given, is the error code a violation
  /// is refused with.
  struct columns_of_ref {
    std::string part;
    std::string code;
    friend bool operator==(const columns_of_ref&, const columns_of_ref&) = default;
  };
  std::optional<columns_of_ref> columns_of;

  /// The schema this node stands for, following `ref` (cycle-safe: stops
  /// after the first revisit).
  const schema& resolved() const;

  /// The property's schema, or nullptr.
  const schema* property(std::string_view name) const;

  /// True when `name` is listed in `required`.
  bool is_required(std::string_view name) const;

  /// The assumed constraint `keyword` (for `required`, of `property`), or nullptr.
  const assumed_constraint* assumption_for(std::string_view keyword,
                                           std::string_view property = {}) const;
};

/// Owns every schema node of a loaded description. Nodes never move.
///
/// Nodes live in chunks that double in size. A big description makes tens
/// of thousands of nodes of about a kilobyte each; past 2 MiB a chunk is
/// mapped with transparent huge pages where Linux offers them, so that the
/// kernel maps it in a few faults rather than one per 4 KiB page (a third of
/// the time of loading a 9 MB description went to those faults).
class schema_arena {
 public:
  schema_arena() = default;
  schema_arena(const schema_arena&) = delete;
  schema_arena& operator=(const schema_arena&) = delete;
  ~schema_arena();

  /// A new, empty node.
  schema& make();
  /// How many nodes were made.
  std::size_t size() const { return size_; }
  /// Calls `f` on every node, in the order made.
  template <typename F>
  void each(F&& f) {
    for (chunk& c : chunks_) {
      for (std::size_t i = 0; i < c.used; ++i) f(c.nodes[i]);
    }
  }

 private:
  struct chunk {
    schema* nodes = nullptr;
    std::size_t used = 0;
    std::size_t capacity = 0;
    void* mapping = nullptr;  // when mapped: the mapping to unmap
    std::size_t mapped_bytes = 0;
  };
  std::vector<chunk> chunks_;
  std::size_t size_ = 0;
};

}  // namespace conform::schema
