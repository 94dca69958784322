#include "openapi/detail/schema_loader.hpp"

#include <algorithm>
#include <iterator>
#include <string_view>

#include "core/limits.hpp"
#include "core/text.hpp"
#include "openapi/detail/provenance.hpp"
#include "openapi/detail/recursion.hpp"
#include "schema/validator.hpp"

namespace conform::openapi::detail {

namespace {

using schema::json_type;

std::optional<json_type> parse_type(const std::string& s) {
  if (s == "null") return json_type::null;
  if (s == "boolean") return json_type::boolean;
  if (s == "integer") return json_type::integer;
  if (s == "number") return json_type::number;
  if (s == "string") return json_type::string;
  if (s == "array") return json_type::array;
  if (s == "object") return json_type::object;
  return std::nullopt;
}

/// JSON Schema keywords that constrain a value and that the model does not
/// keep: a schema using one is judged without it.
bool unjudged_keyword(std::string_view key) {
  static constexpr std::string_view keywords[] = {"patternProperties",
                                                  "propertyNames",
                                                  "dependentSchemas",
                                                  "dependencies",
                                                  "contains",
                                                  "if",
                                                  "then",
                                                  "else",
                                                  "unevaluatedItems",
                                                  "unevaluatedProperties"};
  return std::find(std::begin(keywords), std::end(keywords), key) != std::end(keywords);
}

/// Keys that may stand beside a $ref without making it a composition.
bool is_ref_annotation(const std::string& key) {
  return key == "$ref" || key == "description" || key == "summary" || key == "title" ||
         key.rfind("x-", 0) == 0;
}

}  // namespace

schema_loader::schema_loader(schema::schema_arena& arena, doc_cache& docs, doc_reader& r, dialect d)
    : arena_(&arena), docs_(&docs), r_(&r), dialect_(d) {}

const schema::schema* schema_loader::load(const source_doc& doc, const node& n,
                                          const std::string& pointer) {
  return sub(doc, n, pointer);
}

const schema::schema* schema_loader::sub(const source_doc& doc, const node& n,
                                         const std::string& pointer) {
  schema::schema& s = arena_->make();
  fill(s, doc, n, pointer);
  return &s;
}

const schema::schema* schema_loader::resolve(const source_doc& doc, const std::string& ref,
                                             const source_pos& at_pos) {
  const std::size_t hash = ref.find('#');
  const std::string file = ref.substr(0, hash);
  const std::string fragment = hash == std::string::npos ? "" : ref.substr(hash + 1);
  // An absolute URI ("https://..."): a file here only under the
  // description's `$self` (doc_cache::set_base_uri); a remote one is refused there.
  if (!fragment.empty() && fragment.front() != '/') {
    r_->error(at_pos, "$ref '" + ref + "': the fragment must be a JSON pointer ('#/...')");
    return nullptr;
  }
  const source_doc* target = &doc;
  if (!file.empty()) {
    target = docs_->load_beside(doc, file, *r_, at_pos);
    if (target == nullptr) return nullptr;
  }
  return at(*target, fragment, at_pos);
}

const schema::schema* schema_loader::at(const source_doc& doc, const std::string& pointer,
                                        const source_pos& at_pos) {
  const std::string key = doc.display + "#" + pointer;
  if (auto it = targets_.find(key); it != targets_.end()) return it->second;
  const node& n = at_pointer(doc.root, pointer);
  if (!n.defined()) {
    // A mapping on the way may be given by `$ref` (`components.schemas`
    // in another file): what it names is the schema's one place.
    if (auto found = through_refs(doc, pointer, 0)) return at(*found->doc, found->pointer, at_pos);
    r_->error(at_pos, "dangling $ref: '" + doc.display + "' has nothing at '#" + pointer + "'");
    return nullptr;
  }
  schema::schema& s = arena_->make();
  targets_.emplace(key, &s);
  // $refs nest one inside another only so deep: past that they are queued
  // and resolved by the outermost call, so a long chain of $refs cannot
  // exhaust the stack.
  ++nesting_;
  fill(s, doc, n, pointer);
  --nesting_;
  if (nesting_ == 0) {
    while (!pending_.empty()) {
      pending_ref p = pending_.back();
      pending_.pop_back();
      ++nesting_;
      p.node->ref = resolve(*p.doc, p.node->ref_text, p.at);
      --nesting_;
    }
  }
  return &s;
}

void schema_loader::fill(schema::schema& s, const source_doc& doc, const node& n,
                         const std::string& pointer) {
  s.pos = doc_reader::pos(doc, n);
  s.location = "#" + pointer;
  if (n.defined() && n.is_scalar() && classify(n) == scalar_kind::boolean) {
    const bool v = *r_->boolean(doc, n, "schema");
    s.boolean =
        v ? schema::schema::boolean_form::accept_all : schema::schema::boolean_form::reject_all;
    return;
  }
  if (!n.defined() || !n.is_map()) {
    r_->error(s.pos, "schema at '#" + pointer + "' must be a mapping or a boolean");
    return;
  }
  if (n.size() == 0) {
    s.boolean = schema::schema::boolean_form::accept_all;
    return;
  }
  const node& ref = doc_reader::child(n, "$ref");
  if (!ref.defined()) {
    fill_keywords(s, doc, n, pointer);
    return;
  }
  auto text = r_->str(doc, ref, "$ref");
  if (!text) return;
  bool siblings = false;
  for (auto it = n.entries().begin(); it != n.entries().end(); ++it) {
    siblings = siblings || !is_ref_annotation(it->key);
  }
  const source_pos ref_at = doc_reader::pos(doc, ref);
  schema::schema* ref_node = &s;
  if (siblings && dialect_ == dialect::openapi31) {
    // 3.1: the siblings apply too; the node becomes all_of(target, siblings).
    ref_node = &arena_->make();
    ref_node->pos = s.pos;
    ref_node->location = s.location;
    fill_keywords(s, doc, n, pointer);
    s.all_of.insert(s.all_of.begin(), ref_node);
  }
  // 3.0: siblings of $ref are ignored, as the specification says. x-fixture
  // is ours and kept in both dialects: it says which profile id fills the value.
  if (const node& fx = doc_reader::child(n, "x-fixture"); fx.defined() && !s.fixture) {
    if (auto f = r_->str(doc, fx, "x-fixture")) s.fixture = *f;
  }
  if (const node& w = doc_reader::child(n, "x-writes"); w.defined() && !s.writes) {
    s.writes = r_->boolean(doc, w, "x-writes").value_or(false);
  }
  if (const node& same = doc_reader::child(n, "x-same-as"); same.defined() && !s.same_as) {
    read_same_as(s, doc, same);
  }
  // So is x-assumption: beside a $ref it grounds this property's place in
  // its parent's `required` (openapi/provenance.hpp).
  if (const node& a = doc_reader::child(n, "x-assumption"); a.defined() && s.provenance.empty()) {
    s.assumptions.clear();
    s.provenance = read_provenance(*r_, doc, a, &s.assumptions);
  }
  ref_node->ref_text = *text;
  ref_pos_[ref_node] = ref_at;
  ref_nodes_.push_back(ref_node);
  if (nesting_ >= core::limits::max_ref_nesting) {
    pending_.push_back({ref_node, &doc, ref_at});
  } else {
    ref_node->ref = resolve(doc, *text, ref_at);
  }
}

void schema_loader::read_properties(schema::schema& s, const source_doc& doc, const node& v,
                                    const std::string& pointer) {
  auto add = [&](const source_doc& d, const node_entry& p, const std::string& at) {
    const bool known = std::any_of(s.properties.begin(), s.properties.end(),
                                   [&](const auto& q) { return q.first == p.key; });
    if (!known)
      s.properties.emplace_back(p.key,
                                sub(d, p.value, at + "/" + core::escape_pointer_token(p.key)));
  };
  // `properties: {$ref: 'fields.yml'}` (DigitalOcean writes it): the map a
  // bundler would paste there. Only a text `$ref` is one: a schema under
  // `$ref` is a property of that name.
  const node& ref = doc_reader::child(v, "$ref");
  if (!ref.is_scalar()) {
    for (const node_entry& p : v.entries()) add(doc, p, pointer);
    return;
  }
  note_nonstandard(doc_reader::pos(doc, ref),
                   "the properties of #" + pointer.substr(0, pointer.rfind('/')));
  // Properties written beside it win over those it names, as keys beside a
  // YAML merge key do.
  for (const node_entry& p : v.entries()) {
    if (p.key != "$ref") add(doc, p, pointer);
  }
  auto found = follow_refs(doc, v, pointer);
  if (!found || !r_->expect_map(*found->doc, *found->at, "properties")) return;
  for (const node_entry& p : found->at->entries()) add(*found->doc, p, found->pointer);
}

void schema_loader::note_nonstandard(const source_pos& at, std::string what) {
  if (nonstandard_.count++ == 0) {
    nonstandard_.first = at;
    nonstandard_.first_what = std::move(what);
  }
}

std::optional<schema_loader::site> schema_loader::follow_refs(const source_doc& doc, const node& n,
                                                              const std::string& pointer) {
  return follow_refs(doc, n, pointer, 0);
}

std::optional<schema_loader::site> schema_loader::follow_refs(const source_doc& doc, const node& n,
                                                              const std::string& pointer,
                                                              std::size_t hops) {
  site cur{&doc, &n, pointer};
  std::set<std::string> seen{doc.display + "#" + pointer};
  while (cur.at->is_map() && doc_reader::child(*cur.at, "$ref").is_scalar()) {
    const node& ref = doc_reader::child(*cur.at, "$ref");
    const std::string text = ref.text();
    const source_pos at_pos = doc_reader::pos(*cur.doc, ref);
    if (++hops > core::limits::max_ref_nesting) {
      r_->error(at_pos, "$ref '" + text + "': more than " +
                            std::to_string(core::limits::max_ref_nesting) +
                            " $refs one after another");
      return std::nullopt;
    }
    const std::size_t hash = text.find('#');
    const std::string file = text.substr(0, hash);
    const std::string fragment = hash == std::string::npos ? "" : text.substr(hash + 1);
    if (!fragment.empty() && fragment.front() != '/') {
      r_->error(at_pos, "$ref '" + text + "': the fragment must be a JSON pointer ('#/...')");
      return std::nullopt;
    }
    const source_doc* target = cur.doc;
    if (!file.empty()) {
      target = docs_->load_beside(*cur.doc, file, *r_, at_pos);
      if (target == nullptr) return std::nullopt;
    }
    if (!seen.insert(target->display + "#" + fragment).second) {
      r_->error(at_pos, "$ref cycle: '" + text + "' leads back to itself");
      return std::nullopt;
    }
    const node& next = at_pointer(target->root, fragment);
    if (next.defined()) {
      cur = site{target, &next, fragment};
      continue;
    }
    auto through = through_refs(*target, fragment, hops);
    if (!through) {
      r_->error(at_pos,
                "dangling $ref: '" + target->display + "' has nothing at '#" + fragment + "'");
      return std::nullopt;
    }
    cur = *through;
  }
  return cur;
}

std::optional<schema_loader::site> schema_loader::through_refs(const source_doc& doc,
                                                               const std::string& pointer,
                                                               std::size_t hops) {
  // The longest part of the pointer that names something: when that is a
  // `$ref`, the rest of the pointer goes on from what it names.
  for (std::size_t cut = pointer.rfind('/'); cut != std::string::npos && cut > 0;
       cut = pointer.rfind('/', cut - 1)) {
    const std::string head = pointer.substr(0, cut);
    const node& n = at_pointer(doc.root, head);
    if (!n.defined()) continue;
    if (!n.is_map() || !doc_reader::child(n, "$ref").is_scalar()) return std::nullopt;
    auto found = follow_refs(doc, n, head, hops);
    if (!found) return std::nullopt;
    const std::string rest = found->pointer + pointer.substr(cut);
    const node& target = at_pointer(found->doc->root, rest);
    if (target.defined()) return site{found->doc, &target, rest};
    if (hops + 1 > core::limits::max_ref_nesting) return std::nullopt;
    return through_refs(*found->doc, rest, hops + 1);
  }
  return std::nullopt;
}

void schema_loader::read_columns_of(schema::schema& s, const source_doc& doc, const node& v) {
  doc_reader& r = *r_;
  if (!r.expect_map(doc, v, "x-columns-of")) return;
  auto part = r.str(doc, r.required(doc, v, "part", "x-columns-of"), "x-columns-of.part");
  if (!part) return;
  std::string code;
  if (const node& c = doc_reader::child(v, "code"); c.defined()) {
    code = r.str(doc, c, "x-columns-of.code").value_or("");
  }
  s.columns_of = schema::schema::columns_of_ref{*part, code};
}

void schema_loader::read_same_as(schema::schema& s, const source_doc& doc, const node& v) {
  doc_reader& r = *r_;
  if (!r.expect_map(doc, v, "x-same-as")) return;
  auto in = r.str(doc, r.required(doc, v, "in", "x-same-as"), "x-same-as.in");
  auto name = r.str(doc, r.required(doc, v, "name", "x-same-as"), "x-same-as.name");
  if (!in || !name) return;
  if (*in != "path" && *in != "query" && *in != "header") {
    r.error(doc_reader::pos(doc, v),
            "x-same-as.in must be path, query or header, not \"" + *in + "\"");
    return;
  }
  s.same_as = schema::schema::same_as_ref{*in, *name};
}

struct schema_loader::deferred_keywords {
  bool nullable = false;
  bool excl_min = false, excl_max = false;  // 3.0's boolean exclusiveMinimum/Maximum
  const node* required_node = &node::undefined();
  bool pattern_properties = false;
  bool tuple_items = false;                      // `items` written as a list
  const node_entry* additional_items = nullptr;  // draft 4: past a list of `items`
};

void schema_loader::fill_keywords(schema::schema& s, const source_doc& doc, const node& n,
                                  const std::string& pointer) {
  deferred_keywords later;
  for (const node_entry& e : n.entries()) {
    const std::string key = e.key;
    const node& v = e.value;
    const std::string here = pointer + "/" + core::escape_pointer_token(key);
    if (key == "$ref") continue;
    if (read_type_keyword(s, doc, key, v, later) || read_value_keyword(s, doc, key, v) ||
        read_string_keyword(s, doc, key, v) || read_number_keyword(s, doc, key, v, later) ||
        read_array_keyword(s, doc, e, here, later) ||
        read_object_keyword(s, doc, key, v, here, later) ||
        read_composition_keyword(s, doc, key, v, here) || read_annotation_keyword(s, doc, key, v)) {
      continue;
    }
    note_unjudged_keyword(doc, e, later);
    // Anything else (unknown keywords, other x- keys) is ignored.
  }
  settle_keywords(s, doc, pointer, later);
}

bool schema_loader::read_type_keyword(schema::schema& s, const source_doc& doc,
                                      const std::string& key, const node& v,
                                      deferred_keywords& later) {
  doc_reader& r = *r_;
  if (key == "nullable") {
    later.nullable = r.boolean(doc, v, "nullable").value_or(false);
    return true;
  }
  if (key != "type") return false;
  std::vector<std::string> names;
  if (v.is_sequence()) {
    auto l = r.strings(doc, v, "type");
    if (!l) return true;
    names = *l;
  } else {
    auto one = r.str(doc, v, "type");
    if (!one) return true;
    names.push_back(*one);
  }
  if (names.empty()) r.error(doc_reader::pos(doc, v), "type must name at least one type");
  for (const auto& name : names) {
    auto t = parse_type(name);
    if (!t) {
      r.error(doc_reader::pos(doc, v), "unknown type '" + name + "' (expected null, boolean, " +
                                           "integer, number, string, array or object)");
      continue;
    }
    s.types = s.types.with(*t);
  }
  return true;
}

bool schema_loader::read_value_keyword(schema::schema& s, const source_doc& doc,
                                       const std::string& key, const node& v) {
  doc_reader& r = *r_;
  if (key == "const") {
    s.const_value = r.to_json(v);
  } else if (key == "enum") {
    if (!r.expect_seq(doc, v, "enum")) return true;
    for (const auto& item : v.items()) s.enum_values.push_back(r.to_json(item));
  } else if (key == "default") {
    s.default_value = r.to_json(v);
  } else if (key == "example") {
    s.examples.push_back(r.to_json(v));
  } else if (key == "examples") {
    if (v.is_sequence()) {
      for (const auto& item : v.items()) s.examples.push_back(r.to_json(item));
    } else if (dialect_ == dialect::openapi31) {
      r.expect_seq(doc, v, "examples");
    }
  } else {
    return false;
  }
  return true;
}

bool schema_loader::read_string_keyword(schema::schema& s, const source_doc& doc,
                                        const std::string& key, const node& v) {
  doc_reader& r = *r_;
  if (key == "contentMediaType") {
    if (auto m = r.str(doc, v, key)) s.content_media_type = *m;
  } else if (key == "format") {
    if (auto f = r.str(doc, v, "format")) s.format = *f;
  } else if (key == "minLength") {
    s.min_length = r.count(doc, v, "minLength");
  } else if (key == "maxLength") {
    s.max_length = r.count(doc, v, "maxLength");
  } else if (key == "pattern") {
    auto p = r.str(doc, v, "pattern");
    if (!p) return true;
    if (const std::string why = schema::pattern_error(*p); why.empty()) {
      s.pattern = *p;
    } else {
      r.error(doc_reader::pos(doc, v),
              "pattern '" + core::excerpt(*p, 80) + "' is not a valid ECMAScript regex: " + why);
    }
  } else {
    return false;
  }
  return true;
}

bool schema_loader::read_number_keyword(schema::schema& s, const source_doc& doc,
                                        const std::string& key, const node& v,
                                        deferred_keywords& later) {
  doc_reader& r = *r_;
  if (key == "minimum") {
    s.minimum = r.number(doc, v, "minimum");
  } else if (key == "maximum") {
    s.maximum = r.number(doc, v, "maximum");
  } else if (key == "exclusiveMinimum" || key == "exclusiveMaximum") {
    const bool is_min = key == "exclusiveMinimum";
    const scalar_kind k = classify(v);
    if (v.is_scalar() && k == scalar_kind::boolean) {
      (is_min ? later.excl_min : later.excl_max) = *r.boolean(doc, v, key);
    } else if (v.is_scalar() && (k == scalar_kind::integer || k == scalar_kind::number)) {
      (is_min ? s.exclusive_minimum : s.exclusive_maximum) = r.number(doc, v, key);
    } else {
      r.error(doc_reader::pos(doc, v),
              key + " must be a number (3.1) or a boolean (3.0), got '" +
                  (v.is_scalar() ? v.text() : std::string("a collection")) + "'");
    }
  } else if (key == "multipleOf") {
    auto m = r.number(doc, v, "multipleOf");
    if (m && *m <= 0) {
      r.error(doc_reader::pos(doc, v), "multipleOf must be greater than 0");
    } else {
      s.multiple_of = m;
    }
  } else {
    return false;
  }
  return true;
}

bool schema_loader::read_array_keyword(schema::schema& s, const source_doc& doc,
                                       const node_entry& e, const std::string& here,
                                       deferred_keywords& later) {
  doc_reader& r = *r_;
  const std::string& key = e.key;
  const node& v = e.value;
  if (key == "items") {
    if (v.is_sequence()) {
      // The tuple form of JSON Schema draft 4, which OpenAPI 3.0 and
      // Swagger 2.0 read: each position by its own schema, as 2020-12's
      // prefixItems; `additionalItems` (settle_keywords) governs the rest.
      later.tuple_items = true;
      if (v.size() > 0) s.prefix_items = sub_list(doc, v, here, key);
      // Seen on PowerDNS: a list of the kinds an item may be, where
      // anyOf was meant. Read as written, and said.
      if (v.size() > 1) {
        r.note(doc_reader::pos(doc, v),
               "items is a list: read as JSON Schema draft 4 reads it, item i against the "
               "i-th schema (a tuple); where an item may be any one of them, that is anyOf");
      }
      return true;
    }
    s.items = sub(doc, v, here);
  } else if (key == "additionalItems") {
    later.additional_items = &e;
  } else if (key == "prefixItems") {
    s.prefix_items = sub_list(doc, v, here, key);
  } else if (key == "minItems") {
    s.min_items = r.count(doc, v, "minItems");
  } else if (key == "maxItems") {
    s.max_items = r.count(doc, v, "maxItems");
  } else if (key == "uniqueItems") {
    s.unique_items = r.boolean(doc, v, "uniqueItems").value_or(false);
  } else {
    return false;
  }
  return true;
}

bool schema_loader::read_object_keyword(schema::schema& s, const source_doc& doc,
                                        const std::string& key, const node& v,
                                        const std::string& here, deferred_keywords& later) {
  doc_reader& r = *r_;
  if (key == "dependentRequired") {
    if (!r.expect_map(doc, v, key)) return true;
    for (auto d = v.entries().begin(); d != v.entries().end(); ++d) {
      auto names = r.strings(doc, d->value, "dependentRequired '" + d->key + "'");
      if (names) s.dependent_required.emplace_back(d->key, std::move(*names));
    }
  } else if (key == "properties") {
    if (!r.expect_map(doc, v, "properties")) return true;
    read_properties(s, doc, v, here);
  } else if (key == "required") {
    if (auto l = r.strings(doc, v, "required")) {
      s.required = *l;
      later.required_node = &v;
    }
  } else if (key == "additionalProperties") {
    if (v.is_scalar() && classify(v) == scalar_kind::boolean) {
      s.additional_allowed = *r.boolean(doc, v, key);
    } else if (v.is_map()) {
      s.additional_properties = sub(doc, v, here);
    } else {
      r.error(doc_reader::pos(doc, v), "additionalProperties must be a boolean or a schema");
    }
  } else if (key == "minProperties") {
    s.min_properties = r.count(doc, v, "minProperties");
  } else if (key == "maxProperties") {
    s.max_properties = r.count(doc, v, "maxProperties");
  } else {
    return false;
  }
  return true;
}

bool schema_loader::read_composition_keyword(schema::schema& s, const source_doc& doc,
                                             const std::string& key, const node& v,
                                             const std::string& here) {
  if (key == "allOf" || key == "anyOf" || key == "oneOf") {
    auto l = sub_list(doc, v, here, key);
    auto& target = key == "allOf" ? s.all_of : key == "anyOf" ? s.any_of : s.one_of;
    target.insert(target.end(), l.begin(), l.end());
    if (key == "allOf") {
      for (const auto* branch : l) all_of_parent_[branch] = &s;
    }
  } else if (key == "not") {
    s.not_schema = sub(doc, v, here);
  } else {
    return false;
  }
  return true;
}

bool schema_loader::read_annotation_keyword(schema::schema& s, const source_doc& doc,
                                            const std::string& key, const node& v) {
  doc_reader& r = *r_;
  if (key == "readOnly") {
    s.read_only = r.boolean(doc, v, key).value_or(false);
  } else if (key == "writeOnly") {
    s.write_only = r.boolean(doc, v, key).value_or(false);
  } else if (key == "deprecated") {
    s.deprecated = r.boolean(doc, v, key).value_or(false);
  } else if (key == "title") {
    if (auto t = r.str(doc, v, key)) s.title = *t;
  } else if (key == "description") {
    if (auto t = r.str(doc, v, key)) s.description = *t;
  } else if (key == "x-assumption") {
    s.assumptions.clear();
    s.provenance = read_provenance(r, doc, v, &s.assumptions);
  } else if (key == "x-fixture") {
    if (auto f = r.str(doc, v, key)) s.fixture = *f;
  } else if (key == "x-writes") {
    s.writes = r.boolean(doc, v, key).value_or(false);
  } else if (key == "x-same-as") {
    read_same_as(s, doc, v);
  } else if (key == "x-columns-of") {
    read_columns_of(s, doc, v);
  } else {
    return false;
  }
  return true;
}

bool schema_loader::note_unjudged_keyword(const source_doc& doc, const node_entry& e,
                                          deferred_keywords& later) {
  if (!unjudged_keyword(e.key)) return false;
  // A limitation, said once per keyword (finish()): nothing it says is
  // judged, and nothing else is blamed for it.
  unjudged& u = unjudged_[e.key];
  if (u.count++ == 0) u.first = doc_reader::pos(doc, e);
  later.pattern_properties = later.pattern_properties || e.key == "patternProperties";
  return true;
}

void schema_loader::settle_keywords(schema::schema& s, const source_doc& doc,
                                    const std::string& pointer, const deferred_keywords& later) {
  doc_reader& r = *r_;
  // Beside patternProperties, additionalProperties governs only the names no
  // pattern matches; unable to tell which, the validator would call what a
  // pattern admits "additional". Not judged, then, and said.
  if (later.pattern_properties && (!s.additional_allowed || s.additional_properties != nullptr)) {
    s.additional_allowed = true;
    s.additional_properties = nullptr;
    ++unjudged_["patternProperties"].beside_additional;
  }

  // additionalItems means something only beside a list of `items`, as
  // draft 4 says; elsewhere it is ignored like any unknown keyword.
  if (later.tuple_items && later.additional_items != nullptr) {
    const node& v = later.additional_items->value;
    const std::string here = pointer + "/additionalItems";
    if (v.is_scalar() && classify(v) == scalar_kind::boolean) {
      if (!*r.boolean(doc, v, "additionalItems")) s.items = sub(doc, v, here);
    } else if (v.is_map()) {
      s.items = sub(doc, v, here);
    } else {
      r.error(doc_reader::pos(doc, v), "additionalItems must be a boolean or a schema");
    }
  }

  if (later.nullable) {
    if (!s.types.any()) s.types = s.types.with(json_type::null);
    if (!s.enum_values.empty() &&
        std::none_of(s.enum_values.begin(), s.enum_values.end(),
                     [](const boost::json::value& e) { return e.is_null(); })) {
      s.enum_values.emplace_back(nullptr);
    }
  }
  if (later.excl_min) {
    if (s.minimum) {
      s.exclusive_minimum = s.minimum;
      s.minimum.reset();
    } else {
      r.warning(s.pos, "exclusiveMinimum: true without minimum has no effect");
    }
  }
  if (later.excl_max) {
    if (s.maximum) {
      s.exclusive_maximum = s.maximum;
      s.maximum.reset();
    } else {
      r.warning(s.pos, "exclusiveMaximum: true without maximum has no effect");
    }
  }
  if (later.required_node->defined() && !s.properties.empty() && s.all_of.empty() &&
      s.any_of.empty() && s.one_of.empty() && s.additional_properties == nullptr) {
    std::size_t i = 0;
    for (const auto& item : later.required_node->items()) {
      const std::string& name = s.required[i++];
      const bool defined = std::any_of(s.properties.begin(), s.properties.end(),
                                       [&](const auto& p) { return p.first == name; });
      // Judged in finish(), when the branches beside an allOf branch are known.
      if (!defined) undefined_required_.push_back({&s, name, doc_reader::pos(doc, item)});
    }
  }
}

std::vector<const schema::schema*> schema_loader::sub_list(const source_doc& doc, const node& n,
                                                           const std::string& pointer,
                                                           const std::string& kw) {
  std::vector<const schema::schema*> out;
  if (!r_->expect_seq(doc, n, kw)) return out;
  std::size_t i = 0;
  for (const auto& item : n.items()) {
    out.push_back(sub(doc, item, pointer + "/" + std::to_string(i++)));
  }
  if (out.empty()) r_->error(doc_reader::pos(doc, n), kw + " must not be empty");
  return out;
}

void schema_loader::finish() {
  std::set<const schema::schema*> reported;
  std::set<const schema::schema*> cleared;  // pure-$ref chains that end in a schema
  for (const schema::schema* start : ref_nodes_) {
    if (reported.count(start) != 0) continue;
    std::vector<const schema::schema*> chain{start};
    std::set<const schema::schema*> seen{start};
    const schema::schema* cur = start->ref;
    bool cycle = false;
    while (cur != nullptr && cur->ref != nullptr) {
      if (cur == start) {
        cycle = true;
        break;
      }
      if (cleared.count(cur) != 0 || !seen.insert(cur).second) break;
      chain.push_back(cur);
      cur = cur->ref;
    }
    if (!cycle) {
      // Not on a cycle of its own: a later walk reaching it stops there, so
      // a long chain of $refs costs one walk, not one per link.
      if (cur == nullptr || cur->ref == nullptr || cleared.count(cur) != 0) {
        cleared.insert(chain.begin(), chain.end());
      }
      continue;
    }
    std::string path;
    for (const schema::schema* n : chain) {
      reported.insert(n);
      path += n->location + " -> ";
    }
    path += start->location;
    r_->error(ref_pos_[start], "$ref cycle with no schema in between: " + path);
  }
  std::vector<const schema::schema*> roots;
  for (const auto& [key, s] : targets_) roots.push_back(s);
  check_base_cases(roots, reported, *r_);
  warn_undefined_required();
  for (const auto& [keyword, u] : unjudged_) {
    std::string what = "'" + keyword + "' is not judged (a limitation of Conform; " +
                       std::to_string(u.count) + " schema(s) use it, the first here): " +
                       "values are checked without it, and values drawn may break it";
    if (u.beside_additional > 0) {
      what += "; beside it, additionalProperties is not judged either (" +
              std::to_string(u.beside_additional) + " schema(s)), since it would call what a " +
              "pattern admits additional";
    }
    r_->note(u.first, what);
  }
}

namespace {

/// True when `s` (its $ref followed, its allOf branches included) defines `name`.
bool defines(const schema::schema& s, const std::string& name, int depth = 0) {
  if (depth > 32) return false;
  const schema::schema& r = s.resolved();
  if (r.property(name) != nullptr) return true;
  return std::any_of(r.all_of.begin(), r.all_of.end(),
                     [&](const schema::schema* b) { return defines(*b, name, depth + 1); });
}

}  // namespace

void schema_loader::warn_undefined_required() {
  // `allOf: [{$ref: Pet}, {required: [name], properties: {...}}]`: the branch
  // requires what a sibling defines, a common and correct pattern.
  for (const auto& u : undefined_required_) {
    bool sibling_defines = false;
    for (auto it = all_of_parent_.find(u.where); it != all_of_parent_.end() && !sibling_defines;
         it = all_of_parent_.find(it->second)) {
      for (const auto* sibling : it->second->all_of) {
        if (sibling != u.where && defines(*sibling, u.name)) sibling_defines = true;
      }
    }
    if (!sibling_defines) {
      r_->warning(u.pos, "required property '" + u.name + "' is not defined in properties");
    }
  }
}

}  // namespace conform::openapi::detail
