// JSON Schema document -> schema model, with local `$ref`s resolved lazily and
// memoised by pointer so that recursive schemas become pointer cycles.

#include "schema/from_json.hpp"

#include <boost/json/serialize.hpp>

#include <cmath>
#include <map>
#include <utility>

#include "core/text.hpp"
#include "schema/validator.hpp"

namespace conform::schema {

namespace {

using boost::json::value;

/// OpenAPI 3.0's forms that change keywords read beside them: `nullable`,
/// and `exclusiveMinimum`/`exclusiveMaximum` as booleans.
struct legacy_forms {
  bool nullable = false, exclusive_min = false, exclusive_max = false;
};

class builder {
 public:
  builder(schema_arena& arena, const value& root, const std::string& file)
      : arena_(arena), root_(root), file_(file) {}

  const schema& build(const value& v, const std::string& where) {
    if (auto it = built_.find(where); it != built_.end()) return *it->second;
    schema& s = arena_.make();
    built_.emplace(where, &s);
    s.pos.file = file_;
    s.location = where;
    fill(s, v, where);
    return s;
  }

 private:
  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw schema_error(file_ + ": " + where + ": " + what);
  }

  const value& resolve_pointer(const std::string& ref, const std::string& where) const {
    if (ref.empty() || ref[0] != '#')
      fail(where, "only local $ref (\"#/...\") is supported: " + ref);
    const std::string pointer = ref.substr(1);
    boost::system::error_code ec;
    const value* target = root_.find_pointer(pointer, ec);
    if (target == nullptr || ec) fail(where, "$ref " + ref + " points at nothing");
    return *target;
  }

  std::uint64_t count(const value& v, const std::string& where, const char* keyword) const {
    if (v.is_int64() && v.get_int64() >= 0) return static_cast<std::uint64_t>(v.get_int64());
    if (v.is_uint64()) return v.get_uint64();
    if (v.is_double() && v.get_double() >= 0 && std::trunc(v.get_double()) == v.get_double()) {
      return static_cast<std::uint64_t>(v.get_double());
    }
    fail(where + "/" + keyword, "expected a non-negative integer");
  }

  double number(const value& v, const std::string& where, const char* keyword) const {
    if (v.is_int64()) return static_cast<double>(v.get_int64());
    if (v.is_uint64()) return static_cast<double>(v.get_uint64());
    if (v.is_double()) return v.get_double();
    fail(where + "/" + keyword, "expected a number");
  }

  json_type parse_type(const value& v, const std::string& where) const {
    if (!v.is_string()) fail(where + "/type", "expected a type name");
    const auto& name = v.get_string();
    for (auto t : {json_type::null, json_type::boolean, json_type::integer, json_type::number,
                   json_type::string, json_type::array, json_type::object}) {
      if (name == to_string(t)) return t;
    }
    fail(where + "/type", "unknown type \"" + std::string(name) + "\"");
  }

  std::vector<const schema*> list(const value& v, const std::string& where) {
    if (!v.is_array() || v.get_array().empty())
      fail(where, "expected a non-empty array of schemas");
    std::vector<const schema*> out;
    for (std::size_t i = 0; i < v.get_array().size(); ++i) {
      out.push_back(&build(v.get_array()[i], where + "/" + std::to_string(i)));
    }
    return out;
  }

  void fill(schema& s, const value& v, const std::string& where) {
    if (v.is_bool()) {
      s.boolean =
          v.get_bool() ? schema::boolean_form::accept_all : schema::boolean_form::reject_all;
      return;
    }
    if (!v.is_object()) fail(where, "a schema must be an object or a boolean");
    const auto& o = v.get_object();
    if (o.empty()) {
      s.boolean = schema::boolean_form::accept_all;
      return;
    }
    if (const value* ref = o.if_contains("$ref")) {
      if (!ref->is_string()) fail(where + "/$ref", "expected a string");
      const std::string text(ref->get_string());
      const schema& target = build(resolve_pointer(text, where), "#" + text.substr(1));
      if (o.size() == 1) {
        s.ref_text = text;
        s.ref = &target;
        return;
      }
      s.all_of.push_back(&target);  // 3.1 siblings of $ref: both apply, as the loader does
    }
    legacy_forms legacy;
    for (const auto& member : o) {
      const std::string key(member.key());
      const value& x = member.value();
      const std::string at = where + "/" + core::escape_pointer_token(key);
      // $defs, $schema, $id and unknown keywords are skipped.
      if (!fill_value_keyword(s, key, x, where, at, legacy) &&
          !fill_structure_keyword(s, key, x, where, at)) {
        fill_annotation(s, key, x, at);
      }
    }
    if (legacy.nullable && !s.types.any()) s.types = s.types.with(json_type::null);
    if (legacy.exclusive_min && s.minimum)
      s.exclusive_minimum = std::exchange(s.minimum, std::nullopt);
    if (legacy.exclusive_max && s.maximum)
      s.exclusive_maximum = std::exchange(s.maximum, std::nullopt);
  }

  // The keywords of one value: its type, enum, const, format, pattern and
  // bounds. OpenAPI 3.0's `nullable` and boolean exclusive bounds go into
  // `legacy`, applied once every keyword is read.
  bool fill_value_keyword(schema& s, const std::string& key, const value& x,
                          const std::string& where, const std::string& at, legacy_forms& legacy) {
    if (key == "type") {
      if (x.is_array()) {
        for (const value& t : x.get_array()) s.types = s.types.with(parse_type(t, where));
      } else {
        s.types = s.types.with(parse_type(x, where));
      }
    } else if (key == "nullable") {
      legacy.nullable = x.is_bool() && x.get_bool();
    } else if (key == "enum") {
      if (!x.is_array() || x.get_array().empty()) fail(at, "expected a non-empty array");
      s.enum_values.assign(x.get_array().begin(), x.get_array().end());
    } else if (key == "const") {
      s.const_value = x;
    } else if (key == "contentMediaType" && x.is_string()) {
      s.content_media_type = std::string(x.get_string());
    } else if (key == "format") {
      if (!x.is_string()) fail(at, "expected a string");
      s.format = std::string(x.get_string());
    } else if (key == "pattern") {
      if (!x.is_string()) fail(at, "expected a string");
      s.pattern = std::string(x.get_string());
      if (const std::string why = pattern_error(*s.pattern); !why.empty()) {
        fail(at, "not an ECMAScript regex: " + why);
      }
    } else if (key == "minLength") {
      s.min_length = count(x, where, "minLength");
    } else if (key == "maxLength") {
      s.max_length = count(x, where, "maxLength");
    } else if (key == "minimum") {
      s.minimum = number(x, where, "minimum");
    } else if (key == "maximum") {
      s.maximum = number(x, where, "maximum");
    } else if (key == "exclusiveMinimum") {
      if (x.is_bool()) {
        legacy.exclusive_min = x.get_bool();
      } else {
        s.exclusive_minimum = number(x, where, "exclusiveMinimum");
      }
    } else if (key == "exclusiveMaximum") {
      if (x.is_bool()) {
        legacy.exclusive_max = x.get_bool();
      } else {
        s.exclusive_maximum = number(x, where, "exclusiveMaximum");
      }
    } else if (key == "multipleOf") {
      s.multiple_of = number(x, where, "multipleOf");
      if (!(*s.multiple_of > 0)) fail(at, "multipleOf must be above 0");
    } else {
      return false;
    }
    return true;
  }

  // The keywords of arrays, objects and their composition.
  bool fill_structure_keyword(schema& s, const std::string& key, const value& x,
                              const std::string& where, const std::string& at) {
    if (key == "items") {
      s.items = &build(x, at);
    } else if (key == "prefixItems") {
      s.prefix_items = list(x, at);
    } else if (key == "dependentRequired") {
      if (!x.is_object()) fail(at, "expected an object of name lists");
      for (const auto& d : x.get_object()) {
        std::vector<std::string> names;
        if (!d.value().is_array()) fail(at, "expected an object of name lists");
        for (const value& n : d.value().get_array()) {
          if (!n.is_string()) fail(at, "expected an object of name lists");
          names.emplace_back(n.get_string());
        }
        s.dependent_required.emplace_back(std::string(d.key()), std::move(names));
      }
    } else if (key == "minItems") {
      s.min_items = count(x, where, "minItems");
    } else if (key == "maxItems") {
      s.max_items = count(x, where, "maxItems");
    } else if (key == "uniqueItems") {
      s.unique_items = x.is_bool() && x.get_bool();
    } else if (key == "properties") {
      if (!x.is_object()) fail(at, "expected an object");
      for (const auto& p : x.get_object()) {
        const std::string name(p.key());
        s.properties.emplace_back(name,
                                  &build(p.value(), at + "/" + core::escape_pointer_token(name)));
      }
    } else if (key == "required") {
      if (!x.is_array()) fail(at, "expected an array of names");
      for (const value& n : x.get_array()) {
        if (!n.is_string()) fail(at, "expected an array of names");
        s.required.emplace_back(n.get_string());
      }
    } else if (key == "additionalProperties") {
      if (x.is_bool()) {
        s.additional_allowed = x.get_bool();
      } else {
        s.additional_properties = &build(x, at);
      }
    } else if (key == "minProperties") {
      s.min_properties = count(x, where, "minProperties");
    } else if (key == "maxProperties") {
      s.max_properties = count(x, where, "maxProperties");
    } else if (key == "allOf") {
      const auto branches = list(x, at);
      s.all_of.insert(s.all_of.end(), branches.begin(), branches.end());
    } else if (key == "anyOf") {
      s.any_of = list(x, at);
    } else if (key == "oneOf") {
      s.one_of = list(x, at);
    } else if (key == "not") {
      s.not_schema = &build(x, at);
    } else {
      return false;
    }
    return true;
  }

  // Annotations and our extensions: what a value means, never whether it is valid.
  bool fill_annotation(schema& s, const std::string& key, const value& x, const std::string& at) {
    if (key == "readOnly") {
      s.read_only = x.is_bool() && x.get_bool();
    } else if (key == "writeOnly") {
      s.write_only = x.is_bool() && x.get_bool();
    } else if (key == "deprecated") {
      s.deprecated = x.is_bool() && x.get_bool();
    } else if (key == "default") {
      s.default_value = x;
    } else if (key == "example") {
      s.examples.push_back(x);
    } else if (key == "examples" && x.is_array()) {
      s.examples.insert(s.examples.end(), x.get_array().begin(), x.get_array().end());
    } else if (key == "title" && x.is_string()) {
      s.title = std::string(x.get_string());
    } else if (key == "description" && x.is_string()) {
      s.description = std::string(x.get_string());
    } else if (key == "x-fixture") {
      if (!x.is_string()) fail(at, "expected a fixture name");
      s.fixture = std::string(x.get_string());
    } else if (key == "x-writes") {
      if (!x.is_bool()) fail(at, "expected x-writes: true or false");
      s.writes = x.get_bool();
    } else if (key == "x-same-as") {
      const auto* o = x.if_object();
      const auto* in = o ? o->if_contains("in") : nullptr;
      const auto* name = o ? o->if_contains("name") : nullptr;
      if (!in || !in->is_string() || !name || !name->is_string()) {
        fail(at, "expected x-same-as: {in: path|query|header, name: NAME}");
      }
      s.same_as =
          schema::same_as_ref{std::string(in->get_string()), std::string(name->get_string())};
    } else if (key == "x-assumption" && x.is_string()) {
      s.assumptions.emplace_back(x.get_string());

    } else {
      return false;
    }
    return true;
  }

  schema_arena& arena_;
  const value& root_;
  const std::string& file_;
  std::map<std::string, schema*> built_;
};

}  // namespace

const schema& schema_from_json(schema_arena& arena, const value& document,
                               const std::string& file) {
  builder b(arena, document, file);
  return b.build(document, "#");
}

}  // namespace conform::schema
